#!/usr/bin/env python3
"""Turns the layout lab's queries (tests/calibration/layout_queries.txt) into probe patterns and the model's totals.

For each query it runs `gemmlab-cli layout <arguments> --json -` and writes
  tests/calibration/layout_patterns.csv  one row per warp instruction the lab builds, in patterns.csv's format
                                         (name,op,mask,lanes,shared_lanes,variant), for probe.cu and run_on_device.sh
                                         (PATTERNS=layout_patterns.csv). Row names are QUERY#i for the i-th
                                         instruction; the global side of an lds/sts copy (the stg/ldg of the same
                                         threads) is its own row, QUERY#i.global, so that coalescing is probed too.
                                         cp.async rows carry the global source in `lanes` and the shared destination
                                         in `shared_lanes`. Model-only instructions (wgmma's core matrices) and TMA
                                         boxes issue nothing the probe can run: they get no row.
  tests/calibration/layout_model.csv     the model's totals per query: instructions, shared wavefronts, ideal,
                                         conflicts, global requests and sectors, and the ncu counters the lab says
                                         measure them.

Usage (from the repository root):
  python3 tests/calibration/layout_patterns.py --cli build/bin/gemmlab-cli [--queries FILE] [--out-dir DIR]
  python3 tests/calibration/layout_patterns.py --cli build/bin/gemmlab-cli --check   # exit 1 if the files differ
"""
import argparse
import csv
import io
import json
import os
import shlex
import subprocess
import sys

from calibration_common import lane_bytes

HERE = os.path.dirname(os.path.abspath(__file__))
FULL = 0xFFFFFFFF
SMEM_LIMIT = 32 * 1024        # probe.cu's static shared array
GMEM_LIMIT = 4 * 1024 * 1024  # probe.cu's global buffer

MODEL_COLUMNS = ["query", "kind", "op", "instructions", "probed", "wavefronts", "ideal", "conflicts", "global_op",
                 "requests", "sectors", "wavefront_counter", "conflict_counter", "request_counter", "sector_counter",
                 "arguments"]


def read_queries(path):
    """[(name, argument list, argument text)] in file order."""
    queries = []
    names = set()
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            if "\t" not in line:
                sys.exit(f"{path}:{number}: want NAME<TAB>arguments")
            name, text = line.split("\t", 1)
            name = name.strip()
            if not name or any(c in name for c in ",# \t"):
                sys.exit(f"{path}:{number}: a query name has no commas, '#' or spaces: {name!r}")
            if name in names:
                sys.exit(f"{path}:{number}: query {name} given twice")
            names.add(name)
            queries.append((name, shlex.split(text), text.strip()))
    return queries


def run_query(cli, args):
    """The lab's JSON report for one query."""
    p = subprocess.run([cli, "layout", *args, "--json", "-"], capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"gemmlab-cli layout {shlex.join(args)}: exit {p.returncode}: {p.stderr.strip()}")
    return json.loads(p.stdout)


def probe_op(op):
    """(patterns.csv op, variant) for the model's instruction name."""
    if op == "cp.async.cg.16":
        return "cp.async.16", "cg"
    if op.startswith("cp.async."):
        return op, "ca"
    return op, ""


def check_lanes(where, op, mask, lanes, limit):
    w = lane_bytes(op)
    for lane, a in enumerate(lanes):
        active = op.startswith(("ldsm", "stsm")) or (mask >> lane) & 1
        if active and not (a % w == 0 and 0 <= a and a + w <= limit):
            raise RuntimeError(f"{where}: lane {lane} address {a} does not fit the probe ({op}, {limit} bytes)")


def rows_of(name, report):
    """The probe rows of one query's report."""
    rows = []
    for i, ins in enumerate(report["instructions"]):
        if ins["model_only"]:
            continue
        op, variant = probe_op(ins["op"])
        mask = int(ins["active_mask"])
        shared = [int(a) for a in ins["shared_addresses"]]
        where = f"{name}#{i}"
        if op.startswith("cp.async"):
            glob = [int(a) for a in ins["global_addresses"]]
            check_lanes(where + " (global)", op, mask, glob, GMEM_LIMIT)
            check_lanes(where, op, mask, shared, SMEM_LIMIT)
            rows.append((where, op, mask, glob, shared, variant))
            continue
        check_lanes(where, op, mask, shared, SMEM_LIMIT)
        if op.startswith(("ldsm", "stsm")) and mask != FULL:
            raise RuntimeError(f"{where}: {op} is .sync.aligned; the lab gave mask {mask:#x}")
        rows.append((where, op, mask, shared, None, ""))
        if "global" in ins:  # lds/sts copies: the stg/ldg of the same threads
            gop = ins["global"]["op"]
            glob = [int(a) for a in ins["global_addresses"]]
            check_lanes(where + ".global", gop, mask, glob, GMEM_LIMIT)
            rows.append((where + ".global", gop, mask, glob, None, ""))
    return rows


def model_row(name, text, report):
    t = report["totals"]
    ins = report["instructions"]
    probed = sum(1 for i in ins if not i["model_only"])
    ncu = report.get("ncu", {})
    names = list(ncu)
    wf = next((n for n in names if "wavefronts" in n), "")
    bc = next((n for n in names if "bank_conflicts" in n), "")
    rq = next((n for n in names if "requests" in n), "")
    sc = next((n for n in names if "sectors" in n), "")
    g = t.get("global", {})
    gop = next((i["global"]["op"] for i in ins if "global" in i), "")
    kind = "tma" if not ins else ("model-only" if probed == 0 else "probed")
    op = "tma" if not ins else "wgmma" if probed == 0 else ins[0]["op"]
    return {"query": name, "kind": kind, "op": op, "instructions": t.get("instructions", len(ins)), "probed": probed,
            "wavefronts": t.get("wavefronts", 0), "ideal": t.get("ideal_wavefronts", 0),
            "conflicts": t.get("bank_conflicts", 0), "global_op": gop, "requests": g.get("requests", ""),
            "sectors": g.get("sectors", ""), "wavefront_counter": wf, "conflict_counter": bc,
            "request_counter": rq, "sector_counter": sc, "arguments": text}


def render(queries, cli):
    """(patterns.csv text, layout_model.csv text)."""
    rows, models = [], []
    for name, args, text in queries:
        report = run_query(cli, args)
        rows += rows_of(name, report)
        models.append(model_row(name, text, report))
    pat = io.StringIO()
    pat.write("name,op,mask,lanes,shared_lanes,variant\n")
    for name, op, mask, lanes, sl, variant in rows:
        pat.write(f"{name},{op},0x{mask:08x},{' '.join(map(str, lanes))},"
                  f"{' '.join(map(str, sl)) if sl is not None else ''},{variant}\n")
    mod = io.StringIO()
    w = csv.DictWriter(mod, fieldnames=MODEL_COLUMNS, lineterminator="\n")
    w.writeheader()
    for m in models:
        w.writerow(m)
    return pat.getvalue(), mod.getvalue(), len(rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cli", required=True, help="the gemmlab-cli to ask")
    ap.add_argument("--queries", default=os.path.join(HERE, "layout_queries.txt"))
    ap.add_argument("--out-dir", default=HERE)
    ap.add_argument("--check", action="store_true", help="compare with the files instead of writing them")
    a = ap.parse_args()
    queries = read_queries(a.queries)
    try:
        patterns, model, n = render(queries, a.cli)
    except RuntimeError as e:
        sys.exit(str(e))
    outputs = {"layout_patterns.csv": patterns, "layout_model.csv": model}
    if a.check:
        stale = []
        for fname, text in outputs.items():
            path = os.path.join(a.out_dir, fname)
            old = open(path).read() if os.path.exists(path) else None
            if old != text:
                stale.append(fname)
        if stale:
            print("stale: " + ", ".join(stale) + " (rerun tests/calibration/layout_patterns.py)")
            return 1
        print(f"layout_patterns: {len(queries)} queries, {n} probe rows, files current")
        return 0
    for fname, text in outputs.items():
        with open(os.path.join(a.out_dir, fname), "w") as f:
            f.write(text)
    print(f"layout_patterns: {len(queries)} queries, {n} probe rows written to {a.out_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
