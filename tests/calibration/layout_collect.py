#!/usr/bin/env python3
"""Sums the H100's ncu counters per layout-lab query and sets them beside the model's: layout_ncu_h100.csv.

Inputs (defaults in brackets):
  --measured  the probe's per-row table for layout_patterns.csv, as collect.py writes it on the GPU machine
              [docs/layout-lab-data/layout_measured_h100.csv]
  --model     the model's totals per query, from layout_patterns.py [tests/calibration/layout_model.csv]
  --patterns  the rows the probe ran [tests/calibration/layout_patterns.csv]
Output: --out [tests/calibration/layout_ncu_h100.csv], one row per query:
  query, op, instructions (warp instructions the lab builds), probed (of them, run on the GPU),
  model_wavefronts, ncu_wavefronts, model_conflicts, ncu_conflicts   the shared side, ncu's figure being the sum of
      the counter the lab names for the query (`gemmlab-cli layout --json`'s "ncu"), over the query's shared rows;
  hardware_wavefronts, hardware_conflicts   the hardware's own l1tex counters where the lab names another one:
      ldmatrix (the lab names ncu's SASS-level op_ldsm counters; the hardware counts LDSM under op_ld) and
      cp.async.ca (the lab names ncu's SASS-level estimate; the hardware's shared total less what the probe kernel
      adds by itself, and its op_ldgsts conflict counter, which subtracts its own ideal: docs/memory-model.md);
  global_op, model_requests, ncu_requests, model_sectors, ncu_sectors   the global side (an lds/sts copy's stg/ldg
      rows, a cp.async's own), ncu's being l1tex__t_requests/sectors of that side's class;
  wavefront_counter, conflict_counter   the counters compared;
  equal   yes when every compared model figure equals ncu's, no otherwise, n/a for a query with nothing probed.
The first line is a '#' comment with the device, driver, CUDA and ncu versions and the date of the measured table.

Usage (from the repository root): python3 tests/calibration/layout_collect.py [--check]
"""
import argparse
import csv
import io
import os
import re
import sys

from calibration_common import read_table

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DEFAULT_MEASURED = os.path.join(ROOT, "docs", "layout-lab-data", "layout_measured_h100.csv")

COLUMNS = ["query", "op", "instructions", "probed", "model_wavefronts", "ncu_wavefronts", "model_conflicts",
           "ncu_conflicts", "hardware_wavefronts", "hardware_conflicts", "global_op", "model_requests",
           "ncu_requests", "model_sectors", "ncu_sectors", "wavefront_counter", "conflict_counter", "equal"]

TOTAL_SHARED = "l1tex__data_pipe_lsu_wavefronts_mem_shared"
HW_LD_WF = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld"
HW_LD_BC = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld"
HW_COPY_BC = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts"


def number(row, column, where):
    text = row.get(column, "")
    if text in ("", None):
        raise KeyError(f"{where}: no value in column {column}")
    v = float(text)
    return int(v) if v == int(v) else v


def query_of(name):
    """QUERY#i or QUERY#i.global -> (QUERY, is the global side)."""
    m = re.fullmatch(r"(.+)#(\d+)(\.global)?", name)
    if not m:
        raise ValueError(f"row name {name} is not QUERY#i[.global]")
    return m.group(1), bool(m.group(3))


def strip_sum(name):
    return name[:-4] if name.endswith(".sum") else name


def collect(measured_path, model_path, patterns_path):
    """(comment, output rows as dicts)."""
    comment, _, measured = read_table(measured_path)
    _, _, model = read_table(model_path)
    _, _, patterns = read_table(patterns_path)
    by_name = {r["name"]: r for r in measured}
    missing = [p["name"] for p in patterns if p["name"] not in by_name]
    if missing:
        raise KeyError(f"{measured_path} lacks {len(missing)} of the {len(patterns)} rows of {patterns_path}, "
                       f"first {missing[0]}: re-run the probe for them")
    for p in patterns:
        m = by_name[p["name"]]
        if (m["op"], m["mask"], m["lanes"], m["shared_lanes"], m["variant"]) != (
                p["op"], p["mask"], p["lanes"], p["shared_lanes"], p["variant"]):
            raise ValueError(f"row {p['name']}: the measured instruction is not the one layout_patterns.csv holds "
                             f"now: the lab builds other addresses, so re-run the probe")
    # What the probe's cp.async kernel adds to the hardware's shared total by itself: the value of its .cg rows,
    # whose own writes the hardware does not count (the same on every such row)
    cg = {number(r, TOTAL_SHARED, r["name"]) for r in measured if r["variant"] == "cg"}
    if len(cg) > 1:
        raise ValueError(f"{TOTAL_SHARED} differs across the .cg rows: {sorted(cg)}")
    probe_own = cg.pop() if cg else None

    rows_of = {}
    for p in patterns:
        q, is_global = query_of(p["name"])
        rows_of.setdefault(q, []).append((by_name[p["name"]], is_global))
    out = []
    for m in model:
        q = m["query"]
        rows = rows_of.get(q, [])
        r = {c: "" for c in COLUMNS}
        r.update(query=q, op=m["op"], instructions=m["instructions"], probed=m["probed"],
                 wavefront_counter=m["wavefront_counter"], conflict_counter=m["conflict_counter"],
                 global_op=m["global_op"])
        if not rows:
            r["equal"] = "n/a"
            r["model_wavefronts"], r["model_conflicts"] = m["wavefronts"], m["conflicts"]
            out.append(r)
            continue
        shared = [row for row, g in rows if not g]
        cp_async = m["op"].startswith("cp.async")
        global_rows = [row for row, g in rows if g] or (shared if cp_async else [])
        wf, bc = strip_sum(m["wavefront_counter"]), strip_sum(m["conflict_counter"])
        r["model_wavefronts"], r["model_conflicts"] = m["wavefronts"], m["conflicts"]
        r["ncu_wavefronts"] = sum(number(row, wf, row["name"]) for row in shared)
        r["ncu_conflicts"] = sum(number(row, bc, row["name"]) for row in shared)
        compared = [(int(m["wavefronts"]), r["ncu_wavefronts"]), (int(m["conflicts"]), r["ncu_conflicts"])]
        if m["op"].startswith("ldsm"):
            r["hardware_wavefronts"] = sum(number(row, HW_LD_WF, row["name"]) for row in shared)
            r["hardware_conflicts"] = sum(number(row, HW_LD_BC, row["name"]) for row in shared)
        elif cp_async and all(row["variant"] == "ca" for row in shared) and probe_own is not None:
            r["hardware_wavefronts"] = sum(number(row, TOTAL_SHARED, row["name"]) - probe_own for row in shared)
            r["hardware_conflicts"] = sum(number(row, HW_COPY_BC, row["name"]) for row in shared)
        if global_rows:
            gop = m["global_op"]
            cls = "ld" if gop.startswith(("ldg", "cp.async")) else "st"
            r["model_requests"], r["model_sectors"] = m["requests"], m["sectors"]
            r["ncu_requests"] = sum(number(row, "l1tex__t_requests_pipe_lsu_mem_global_op_" + cls, row["name"])
                                    for row in global_rows)
            r["ncu_sectors"] = sum(number(row, "l1tex__t_sectors_pipe_lsu_mem_global_op_" + cls, row["name"])
                                   for row in global_rows)
            compared += [(int(m["requests"]), r["ncu_requests"]), (int(m["sectors"]), r["ncu_sectors"])]
        r["equal"] = "yes" if all(a == b for a, b in compared) else "no"
        out.append(r)
    return comment, out


def render(comment, rows):
    f = io.StringIO()
    f.write(f"# {comment}\n")
    w = csv.DictWriter(f, fieldnames=COLUMNS, lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow(r)
    return f.getvalue()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--measured", default=DEFAULT_MEASURED)
    ap.add_argument("--model", default=os.path.join(HERE, "layout_model.csv"))
    ap.add_argument("--patterns", default=os.path.join(HERE, "layout_patterns.csv"))
    ap.add_argument("--out", default=os.path.join(HERE, "layout_ncu_h100.csv"))
    ap.add_argument("--check", action="store_true", help="exit 1 if --out is not what the inputs give")
    a = ap.parse_args()
    try:
        comment, rows = collect(a.measured, a.model, a.patterns)
    except (KeyError, ValueError) as e:
        sys.exit(f"layout_collect: {e}")
    text = render(comment, rows)
    differ = [r for r in rows if r["equal"] == "no"]
    if a.check:
        old = open(a.out).read() if os.path.exists(a.out) else None
        if old != text:
            print(f"{a.out} is stale: rerun tests/calibration/layout_collect.py")
            return 1
        return 0
    with open(a.out, "w") as f:
        f.write(text)
    print(f"layout_collect: {len(rows)} queries, {len(differ)} where the model differs from ncu, written to {a.out}")
    for r in differ:
        print(f"  {r['query']}: wavefronts {r['model_wavefronts']} / {r['ncu_wavefronts']}, conflicts "
              f"{r['model_conflicts']} / {r['ncu_conflicts']}, requests {r['model_requests']} / {r['ncu_requests']}, "
              f"sectors {r['model_sectors']} / {r['ncu_sectors']} (model / ncu)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
