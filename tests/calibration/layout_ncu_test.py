#!/usr/bin/env python3
"""The layout lab against the H100, without a GPU (a CTest: tests/CMakeLists.txt registers it as
calibration.layout_lab_matches_ncu). It re-runs the model for every recorded query with the build's gemmlab-cli and
checks that
  1. the model equals ncu's recorded counters (tests/calibration/layout_ncu_h100.csv) on every measured query, shared
     wavefronts and conflicts and the global side's requests and sectors, except the queries listed in
     tests/calibration/layout_known_differences.txt, where the model is known to differ (and must still differ: a
     query that agrees again has to leave the list);
  2. the recorded instructions are the ones the lab builds today (layout_patterns.csv), so the counters still measure
     what the lab reports; and the model's totals, the comparison and docs/layout-lab.md's table are current
     (layout_model.csv, layout_ncu_h100.csv and the table are what the scripts give from the recorded data).

Usage: python3 tests/calibration/layout_ncu_test.py --cli build/bin/gemmlab-cli
"""
import argparse
import csv
import io
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import layout_collect  # noqa: E402
import layout_patterns  # noqa: E402
import layout_table  # noqa: E402

REGENERATE = ("python3 tests/calibration/layout_patterns.py --cli CLI && python3 tests/calibration/layout_collect.py "
              "&& python3 tests/calibration/layout_table.py")


def read_known(path):
    known = {}
    if not os.path.exists(path):
        return known
    with open(path) as f:
        for line in f:
            if line.strip() and not line.lstrip().startswith("#"):
                name, _, why = line.rstrip("\n").partition("\t")
                known[name.strip()] = why.strip()
    return known


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cli", required=True)
    a = ap.parse_args()
    problems = []

    # the model today, for every query
    queries = layout_patterns.read_queries(os.path.join(HERE, "layout_queries.txt"))
    try:
        patterns, model, _ = layout_patterns.render(queries, a.cli)
    except RuntimeError as e:
        print(f"FAIL: {e}")
        return 1
    fresh = {r["query"]: r for r in csv.DictReader(io.StringIO(model))}

    # 1. the model against the recorded counters
    with open(os.path.join(HERE, "layout_ncu_h100.csv"), newline="") as f:
        recorded = list(csv.DictReader(ln for ln in f if not ln.startswith("#")))
    known = read_known(os.path.join(HERE, "layout_known_differences.txt"))
    names = {r["query"] for r in recorded}
    for q in fresh:
        if q not in names:
            problems.append(f"{q}: a query of layout_queries.txt that has not been measured: run the probe for it")
    measured, agree = 0, 0
    for r in recorded:
        q = r["query"]
        if q not in fresh:
            problems.append(f"{q}: recorded but no longer in layout_queries.txt")
            continue
        if r["equal"] == "n/a":
            continue
        measured += 1
        m = fresh[q]
        pairs = [("wavefronts", m["wavefronts"], r["ncu_wavefronts"]), ("conflicts", m["conflicts"], r["ncu_conflicts"])]
        if r["ncu_requests"] != "":
            pairs += [("requests", m["requests"], r["ncu_requests"]), ("sectors", m["sectors"], r["ncu_sectors"])]
        differ = [f"{what} model {x}, H100 {y}" for what, x, y in pairs if str(x) != str(y)]
        if not differ:
            agree += 1
            if q in known:
                problems.append(f"{q}: the model now equals ncu: remove it from layout_known_differences.txt")
        elif q not in known:
            problems.append(f"{q} ({m['op']}): " + "; ".join(differ) + f" ({r['wavefront_counter']}, ...): the model "
                            "no longer agrees with the H100 here (or add it to layout_known_differences.txt, with why)")
        else:
            print(f"known difference {q}: " + "; ".join(differ))
    for q in known:
        if q not in names:
            problems.append(f"{q}: listed in layout_known_differences.txt but not a recorded query")

    # 2. the recorded files are what the scripts give
    def stale(path, text, how):
        old = open(path).read() if os.path.exists(path) else None
        if old != text:
            problems.append(f"{os.path.relpath(path, os.path.dirname(os.path.dirname(HERE)))} is stale: {how}")

    stale(os.path.join(HERE, "layout_patterns.csv"), patterns,
          "the lab builds other instructions than the ones measured; re-run the probe (docs/layout-lab.md)")
    stale(os.path.join(HERE, "layout_model.csv"), model, "regenerate: " + REGENERATE)
    try:
        comment, rows = layout_collect.collect(layout_collect.DEFAULT_MEASURED, os.path.join(HERE, "layout_model.csv"),
                                               os.path.join(HERE, "layout_patterns.csv"))
        stale(os.path.join(HERE, "layout_ncu_h100.csv"), layout_collect.render(comment, rows),
              "regenerate: " + REGENERATE)
    except (KeyError, ValueError, OSError) as e:
        problems.append(f"layout_collect: {e}")
    page = open(layout_table.PAGE).read()
    try:
        if layout_table.splice(page, layout_table.render(layout_table.CSV)) != page:
            problems.append("docs/layout-lab.md's ncu table is stale: regenerate: " + REGENERATE)
    except ValueError as e:
        problems.append(str(e))

    for p in problems:
        print("FAIL: " + p)
    print(f"layout_ncu_test: {measured} queries measured, the model equals ncu on {agree}, {len(known)} known "
          f"differences, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
