#!/usr/bin/env python3
"""Merges the rows of a partial measurement (collect.py's output for `run_on_device.sh OUT BUDGET FIRST COUNT`) into
tests/calibration/measured_h100.csv: rows are matched by pattern name, ordered as patterns.csv holds them, and the
columns are the union of both tables' (a counter the older run did not collect is left empty on its rows). Each
merged row must be the instruction patterns.csv holds now. The first line, the '#' comment naming the device,
versions and dates, is replaced by --comment, which must stay true for every row.

Usage (from the repository root):
  python3 tests/calibration/merge_measured.py --slice OUT/stsm_measured.csv --comment "device=...; ...; patterns
      measured=521 of 521"
"""
import argparse
import csv
import os
import sys

from calibration_common import read_table

HERE = os.path.dirname(os.path.abspath(__file__))
FIXED = ["name", "op", "mask", "lanes", "shared_lanes", "variant", "wavefronts", "bank_conflicts", "requests",
         "sectors"]


def read(path):
    _, columns, rows = read_table(path)
    return columns, rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--slice", required=True)
    ap.add_argument("--comment", required=True, help="the new first line, without '# '")
    ap.add_argument("--table", default=os.path.join(HERE, "measured_h100.csv"))
    ap.add_argument("--patterns", default=os.path.join(HERE, "patterns.csv"))
    a = ap.parse_args()
    old_cols, old = read(a.table)
    new_cols, new = read(a.slice)
    _, patterns = read(a.patterns)
    metrics = sorted(set(c for c in old_cols + new_cols if c not in FIXED))
    by_name = {r["name"]: r for r in old}
    for r in new:
        by_name[r["name"]] = r
    out = []
    for p in patterns:
        r = by_name.get(p["name"])
        if r is None:
            continue
        if any(r[k] != p[k] for k in ("op", "mask", "lanes", "shared_lanes", "variant")):
            sys.exit(f"{p['name']}: the measured row is not the instruction patterns.csv holds now")
        out.append(r)
    unknown = set(by_name) - {p["name"] for p in patterns}
    if unknown:
        sys.exit(f"rows not in patterns.csv: {sorted(unknown)[:5]}")
    with open(a.table, "w", newline="") as f:
        f.write("# " + a.comment + "\n")
        w = csv.writer(f, lineterminator="\n")
        w.writerow(FIXED + metrics)
        for r in out:
            w.writerow([r.get(c, "") or "" for c in FIXED + metrics])
    print(f"merge_measured: {len(out)} of {len(patterns)} patterns in {a.table} ({len(new)} from {a.slice})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
