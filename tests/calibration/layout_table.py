#!/usr/bin/env python3
"""Writes the table of docs/layout-lab.md between <!-- layout-ncu-table --> and <!-- /layout-ncu-table -->: every
query of tests/calibration/layout_ncu_h100.csv, the model beside ncu, with the device, driver, CUDA and ncu versions,
the date and the commands that reproduce it. Nothing outside the markers is touched.

Usage (from the repository root):
  python3 tests/calibration/layout_table.py           # rewrite the table
  python3 tests/calibration/layout_table.py --check   # exit 1 if the page's table is not what the CSV gives
"""
import argparse
import os
import re
import sys

from calibration_common import read_table

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PAGE = os.path.join(ROOT, "docs", "layout-lab.md")
CSV = os.path.join(HERE, "layout_ncu_h100.csv")
BEGIN, END = "<!-- layout-ncu-table -->", "<!-- /layout-ncu-table -->"

REPRODUCE = """```
python3 tests/calibration/layout_patterns.py --cli build/bin/gemmlab-cli   # the queries' instructions, the model
# on the GPU machine: the probe, one warp instruction per launch, under ncu
PATTERNS=layout_patterns.csv tests/calibration/run_on_device.sh OUTDIR 400
cp OUTDIR/measured_h100.csv docs/layout-lab-data/layout_measured_h100.csv
python3 tests/calibration/layout_collect.py && python3 tests/calibration/layout_table.py
```"""


def env_of(comment):
    """{device, driver, cuda, ncu, date, command} from the CSV's first comment."""
    env = {}
    for part in comment.split(";"):
        if "=" in part:
            k, v = part.split("=", 1)
            env[k.strip()] = v.strip()
    return env


def pair(a, b):
    if a == "" and b == "":
        return ""
    return f"{a} / {b}" if str(a) == str(b) else f"**{a} / {b}**"


def render(csv_path):
    comment, _, rows = read_table(csv_path)
    env = env_of(comment)
    probed = [r for r in rows if r["equal"] != "n/a"]
    equal = [r for r in probed if r["equal"] == "yes"]
    out = [
        f"Measured on {env.get('device', '?')}, driver {env.get('driver', '?')}, CUDA {env.get('cuda', '?')}, "
        f"Nsight Compute {env.get('ncu', '?')}, {env.get('date', '?')}: the probe "
        "([`tests/calibration/probe.cu`](../tests/calibration/probe.cu)) issues each warp instruction the lab builds "
        "for a query alone in one kernel launch, under `ncu --clock-control none`, and the counters are summed over "
        "the query. The queries are [`tests/calibration/layout_queries.txt`](../tests/calibration/layout_queries.txt); "
        "the raw counters are in [`docs/layout-lab-data/`](layout-lab-data/). "
        f"**The model equals ncu on {len(equal)} of the {len(probed)} queries measured**; "
        f"{len(rows) - len(probed)} are model-only (wgmma's core-matrix reads, a TMA box: no counter exists)."
        + "".join(f" It differs on `{r['query']}` ({r['op']}: wavefronts {r['model_wavefronts']} / "
                  f"{r['ncu_wavefronts']}, conflicts {r['model_conflicts']} / {r['ncu_conflicts']}, requests "
                  f"{r['model_requests'] or '–'} / {r['ncu_requests'] or '–'}, sectors {r['model_sectors'] or '–'} / "
                  f"{r['ncu_sectors'] or '–'}, model / ncu)." for r in probed if r["equal"] != "yes"),
        "",
        "Each cell is model / ncu, in bold where they differ. Wavefronts and conflicts are the counters the lab names "
        "(`gemmlab-cli layout --json`, \"ncu\"): ncu's SASS-level `smsp__sass_..._op_ldsm` for ldmatrix and "
        "`..._op_ldgsts` for cp.async, the hardware's `l1tex__data_..._op_ld` / `op_st` otherwise. *hardware* is the "
        "hardware's own `l1tex__` counter where the lab names another: `op_ld` for ldmatrix; for cp.async.ca the shared "
        "total less the probe kernel's own and the `op_ldgsts` conflict counter, which subtracts its own ideal "
        "([memory-model.md](memory-model.md#what-the-counters-do-with-cpasync)). Requests and sectors are the global "
        "side: a copy's own for cp.async, the stg / ldg of the same threads for an lds / sts copy.",
        "",
        "Reproduce:",
        "",
        REPRODUCE,
        "",
        "| query | instruction | warp instr. | wavefronts | conflicts | hardware wavefronts, conflicts | global | "
        "requests | sectors | equal |",
        "| --- | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | --- |",
    ]
    for r in rows:
        if r["equal"] == "n/a":
            out.append(f"| `{r['query']}` | {r['op']} | {r['instructions']} | {r['model_wavefronts']} / – | "
                       f"{r['model_conflicts']} / – | | | | | model only |")
            continue
        hw = f"{r['hardware_wavefronts']}, {r['hardware_conflicts']}" if r["hardware_wavefronts"] != "" else ""
        out.append(
            f"| `{r['query']}` | {r['op']} | {r['instructions']} | {pair(r['model_wavefronts'], r['ncu_wavefronts'])} | "
            f"{pair(r['model_conflicts'], r['ncu_conflicts'])} | {hw} | {r['global_op']} | "
            f"{pair(r['model_requests'], r['ncu_requests'])} | {pair(r['model_sectors'], r['ncu_sectors'])} | "
            f"{'yes' if r['equal'] == 'yes' else '**no**'} |")
    return "\n".join(out) + "\n"


def splice(page_text, table):
    pattern = re.compile(re.escape(BEGIN) + r"\n.*?" + re.escape(END), re.S)
    if len(pattern.findall(page_text)) != 1:
        raise ValueError(f"docs/layout-lab.md must hold exactly one {BEGIN} ... {END} block")
    return pattern.sub(lambda _: BEGIN + "\n" + table + END, page_text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--csv", default=CSV)
    ap.add_argument("--page", default=PAGE)
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    page = open(a.page).read()
    try:
        new = splice(page, render(a.csv))
    except ValueError as e:
        sys.exit(str(e))
    if a.check:
        if new != page:
            print("docs/layout-lab.md's ncu table is stale: run tests/calibration/layout_table.py")
            return 1
        return 0
    if new != page:
        with open(a.page, "w") as f:
            f.write(new)
    print(f"layout_table: {a.page} {'updated' if new != page else 'already current'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
