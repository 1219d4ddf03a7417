#!/usr/bin/env python3
"""Turns ncu's CSV output for the calibration probe into tests/calibration/measured_h100.csv.

Usage: collect.py --patterns patterns.csv --env env.txt --out measured_h100.csv ncu_<first>.csv ...

Each ncu_<first>.csv is the --csv log of one ncu run over `probe patterns.csv <first> <count>`; launch k of that run
(ncu's ID column, in ascending order) is pattern first+k. The kernel name (mangled) is checked against the pattern's
op, so a shifted mapping fails loudly.

Output: the first line is a '#' comment with the device, driver, CUDA, ncu versions and the date; then the header
  name,op,mask,lanes,shared_lanes,variant,wavefronts,bank_conflicts,requests,sectors,<raw metrics...>
where the four derived columns pick the counter of the probed class:
  lds.*     wavefronts/bank_conflicts = l1tex__data_{pipe_lsu_wavefronts,bank_conflicts_pipe_lsu}_mem_shared_op_ld
  sts.*     the same, op_st
  ldsm.*    the same, op_ld (the hardware counts LDSM there; ncu 2025.3 has no l1tex__ op_ldsm counter)
  stsm.*    the same, op_st: the hardware counts STSM with the shared stores (this ncu has no l1tex__ op_stsm
            counter); ncu's SASS-level op_stsm counters agree on every stmatrix row measured (2026-11-28), its
            SASS-level op_st ones count 0 for STSM
  cp.async  wavefronts/bank_conflicts = smsp__sass_l1tex_data_{pipe_lsu_wavefronts,bank_conflicts_pipe_lsu}_mem_
            shared_op_ldgsts; requests/sectors = l1tex__t_{requests,sectors}_pipe_lsu_mem_global_op_ld (the
            hardware counts the LDGSTS global read as a global load; see docs/memory-model.md)
  ldg.*     requests/sectors = l1tex__t_{requests,sectors}_pipe_lsu_mem_global_op_ld
  stg.*     the same, op_st
Raw metric columns carry ncu's name without '.sum'. Empty cell: not collected (metric absent on this ncu).
"""
import argparse
import csv
import io
import os
import re
import sys


def expected_kernel(op, variant):
    """Substring of the mangled kernel name that runs `op`."""
    m = re.fullmatch(r"(lds|sts|ldg|stg)\.(32|64|128)", op)
    if m:
        return f"probe_{m.group(1)}ILi{int(m.group(2)) // 8}E"
    m = re.fullmatch(r"ldsm\.x([124])(\.trans)?", op)
    if m:
        return f"probe_ldsmILi{m.group(1)}ELb{1 if m.group(2) else 0}E"
    m = re.fullmatch(r"stsm\.x([124])(\.trans)?", op)
    if m:
        return f"probe_stsmILi{m.group(1)}ELb{1 if m.group(2) else 0}E"
    m = re.fullmatch(r"cp\.async\.(4|8|16)", op)
    if m:
        return f"probe_cpasyncILi{m.group(1)}ELb{1 if variant == 'cg' else 0}E"
    raise ValueError(f"unknown op {op}")


SH = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_"
BC = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_"
SSH = "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_"
SBC = "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_"
REQ = "l1tex__t_requests_pipe_lsu_mem_global_op_"
SEC = "l1tex__t_sectors_pipe_lsu_mem_global_op_"


def derived(op, vals):
    """(wavefronts, bank_conflicts, requests, sectors) for the probed class; None where it does not apply."""
    def first(*names):
        for n in names:
            if n in vals and vals[n] is not None:
                return vals[n]
        return None

    if op.startswith("lds."):
        return first(SH + "ld"), first(BC + "ld"), None, None
    if op.startswith("sts."):
        return first(SH + "st"), first(BC + "st"), None, None
    if op.startswith("ldsm"):
        # the hardware counts LDSM under op_ld (the probe has no other shared load); the smsp__sass_ ldsm
        # variant (SASS instrumentation) agrees on every row measured
        return first(SH + "ld", SSH + "ldsm"), first(BC + "ld", SBC + "ldsm"), None, None
    if op.startswith("stsm"):
        # the hardware counts STSM under op_st (the probe has no other shared store); the smsp__sass_ stsm
        # variant agrees on every row measured
        return first(SH + "st", SSH + "stsm"), first(BC + "st", SBC + "stsm"), None, None
    if op.startswith("ldg."):
        return None, None, first(REQ + "ld"), first(SEC + "ld")
    if op.startswith("stg."):
        return None, None, first(REQ + "st"), first(SEC + "st")
    if op.startswith("cp.async"):
        # shared side: the instrumented (smsp__sass_) LDGSTS counters; the hardware l1tex__ ones do not count .cg
        # (bypass) writes at all and give odd conflicts (docs/memory-model.md). Global side: the hardware counts the
        # LDGSTS global read under op_ld (the probe has no other global load)
        return (first(SSH + "ldgsts", SH + "ldgsts"), first(SBC + "ldgsts", BC + "ldgsts"),
                first(REQ + "ld", "smsp__sass_l1tex_t_requests_pipe_lsu_mem_global_op_ldgsts"),
                first(SEC + "ld", "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ldgsts"))
    raise ValueError(op)


def parse_value(s):
    s = s.strip().replace(",", "")
    if s in ("", "n/a", "N/A"):
        return None
    try:
        v = float(s)
    except ValueError:
        return None
    return int(v) if v == int(v) else v


def read_ncu(path):
    """{launch id: {'kernel': name, metric(no .sum): value}} from one ncu --csv log."""
    with open(path, newline="") as f:
        lines = [ln for ln in f if not ln.startswith("==")]
    start = next((i for i, ln in enumerate(lines) if ln.startswith('"ID"')), None)
    if start is None:
        return {}
    launches = {}
    for row in csv.DictReader(io.StringIO("".join(lines[start:]))):
        try:
            lid = int(row["ID"])
        except (KeyError, ValueError):
            continue
        d = launches.setdefault(lid, {"kernel": row["Kernel Name"]})
        name = row["Metric Name"]
        if name.endswith(".sum"):
            name = name[:-4]
        d[name] = parse_value(row["Metric Value"])
    return launches


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--patterns", required=True)
    ap.add_argument("--env", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("ncu_csv", nargs="+")
    a = ap.parse_args()

    with open(a.patterns, newline="") as f:
        pats = list(csv.DictReader(f))
    env = {}
    with open(a.env) as f:
        for ln in f:
            if "=" in ln:
                k, v = ln.rstrip("\n").split("=", 1)
                env[k.strip()] = v.strip()

    results = {}  # pattern index -> metrics
    metric_names = []
    errors = 0
    for path in a.ncu_csv:
        m = re.search(r"ncu_(\d+)\.csv$", os.path.basename(path))
        if not m:
            sys.exit(f"cannot tell the first pattern of {path} (want ncu_<first>.csv)")
        first = int(m.group(1))
        launches = read_ncu(path)
        for k, lid in enumerate(sorted(launches)):
            i = first + k
            if i >= len(pats):
                print(f"{path}: more launches than patterns", file=sys.stderr)
                errors += 1
                break
            d = launches[lid]
            want = expected_kernel(pats[i]["op"], pats[i]["variant"])
            if want not in d["kernel"]:
                print(f"{path}: launch {lid} is {d['kernel']}, pattern {i} {pats[i]['name']} wants {want}",
                      file=sys.stderr)
                errors += 1
                continue
            for n in d:
                if n != "kernel" and n not in metric_names:
                    metric_names.append(n)
            results[i] = d

    metric_names.sort()
    hdr = ("# device=%s; driver=%s; cuda=%s; ncu=%s; date=%s; command=%s; patterns measured=%d of %d\n" % (
        env.get("device", "?"), env.get("driver", "?"), env.get("cuda", "?"), env.get("ncu", "?"),
        env.get("date", "?"), env.get("command", "?"), len(results), len(pats)))
    cols = ["name", "op", "mask", "lanes", "shared_lanes", "variant",
            "wavefronts", "bank_conflicts", "requests", "sectors"] + metric_names

    def fmt(v):
        return "" if v is None else str(v)

    with open(a.out, "w", newline="") as f:
        f.write(hdr)
        w = csv.writer(f, lineterminator="\n")
        w.writerow(cols)
        for i, p in enumerate(pats):
            if i not in results:
                continue
            d = results[i]
            wf, bc, rq, sc = derived(p["op"], d)
            w.writerow([p["name"], p["op"], p["mask"], p["lanes"], p["shared_lanes"], p["variant"],
                        fmt(wf), fmt(bc), fmt(rq), fmt(sc)] + [fmt(d.get(n)) for n in metric_names])
    print(f"collect: {len(results)} of {len(pats)} patterns written to {a.out}, {errors} errors")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
