#!/usr/bin/env python3
"""scripts/doc-numbers.py [--check] [--cli GEMMLAB_CLI]: the numbers the docs quote in their prose, written from
recorded data or from a gemmlab-cli command, never typed by hand.

Each entry below names a page, a pattern that finds the quote (its numbers are the named groups) and where the
numbers come from: the recorded ncu and simulator reports in docs/fidelity-data/, or a gemmlab-cli command run now.
Without --check the script rewrites the numbers in place; with --check it changes nothing and fails when a page
quotes another number than its source gives (the test docs.quoted_numbers_are_current). Register counts measured
by ptxas exist only in a CUDA build; without one, those quotes are skipped and said so.
The results tables are scripts/results-tables.py's.
"""
import argparse
import csv
import json
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
FIDELITY = ROOT / "docs" / "fidelity-data"


class Skip(Exception):
    """A source this build cannot give (measured registers without CUDA)."""


def commas(n):
    return f"{int(n):,}"


def ncu(name, metric):
    rows = list(csv.DictReader((FIDELITY / f"{name}.ncu.csv").open()))
    return int(rows[-1][metric].replace(",", ""))


def recorded_sim(name):
    return json.loads((FIDELITY / f"{name}.sim.json").read_text())


_runs = {}


def cli(*args):
    key = tuple(args)
    if key not in _runs:
        out = subprocess.run([CLI, *args, "--json"], capture_output=True, text=True, check=True).stdout
        _runs[key] = json.loads(out)
    return _runs[key]


def blocktile_2d(*knobs):
    return cli("sim", "--rung", "blocktile-2d", "--m", "4096", "--n", "4096", "--k", "4096", *knobs)["kernel"]["ops"]


def measured_registers(rung):
    occupancy = cli("schedule", "--rung", rung)["occupancy"]
    if occupancy["registers_source"] != "measured":
        raise Skip(f"{rung}'s registers are measured only in a CUDA build")
    return occupancy


QUOTES = [
    # Rung 5's table of shared loads, and its global sectors (a command).
    ("docs/rungs/05-blocktile-2d.md",
     r"\| `lds.32` \| (?P<instructions>[\d,]+) \| (?P<wavefronts>[\d,]+) \| (?P<ideal>[\d,]+) \| (?P<conflicts>[\d,]+) \|",
     lambda: {"instructions": commas(blocktile_2d()["lds.32"]["instructions"]),
              "wavefronts": commas(blocktile_2d()["lds.32"]["wavefronts"]),
              "ideal": commas(blocktile_2d()["lds.32"]["ideal_wavefronts"]),
              "conflicts": commas(blocktile_2d()["lds.32"]["bank_conflicts"])}),
    ("docs/rungs/05-blocktile-2d.md",
     r"Global loads stay fully coalesced\s+\((?P<sectors>[\d,]+) sectors, 100%\)",
     lambda: {"sectors": commas(blocktile_2d()["ldg.32"]["sectors"])}),
    # Rung 5: the A-column conflicts, as ncu counted them and as predicted (docs/fidelity-data, 4096^3), and what
    # `--a-pad 1` does to the simulated counts (a command).
    ("docs/rungs/05-blocktile-2d.md",
     r"ncu counts (?P<ncu>[\d,]+) bank conflicts on\s+the shared loads for (?P<sim>[\d,]+) predicted",
     lambda: {"ncu": commas(ncu("05-blocktile-2d", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum")),
              "sim": commas(recorded_sim("05-blocktile-2d")["kernel"]["ops"]["lds.32"]["bank_conflicts"])}),
    ("docs/rungs/05-blocktile-2d.md",
     r"the loads' conflicts fall from\s+(?P<before>[\d,]+) to (?P<after>[\d,]+), not to zero, and the stores,"
     r"\s+which had (?P<stores_before>[\d,]+), gain (?P<stores_after>[\d,]+)",
     lambda: {"before": commas(blocktile_2d()["lds.32"]["bank_conflicts"]),
              "after": commas(blocktile_2d("--a-pad", "1")["lds.32"]["bank_conflicts"]),
              "stores_before": commas(blocktile_2d()["sts.32"]["bank_conflicts"]),
              "stores_after": commas(blocktile_2d("--a-pad", "1")["sts.32"]["bank_conflicts"])}),
    # docs/scheduling.md: the registers ptxas gave the defaults, against the estimate.
    ("docs/scheduling.md",
     r"blocktile-2d (?P<b_measured>\d+) measured \(estimate (?P<b_estimate>\d+); (?P<b_blocks>\d+) blocks? per SM either"
     r"\s+way\), warptile (?P<w_measured>\d+) measured \(estimate (?P<w_estimate>\d+); (?P<w_blocks>\d+) blocks?"
     r"\s+per SM\)",
     lambda: {"b_measured": measured_registers("blocktile-2d")["registers_per_thread"],
              "b_estimate": measured_registers("blocktile-2d")["registers_estimate"],
              "b_blocks": measured_registers("blocktile-2d")["blocks_per_sm"],
              "w_measured": measured_registers("warptile")["registers_per_thread"],
              "w_estimate": measured_registers("warptile")["registers_estimate"],
              "w_blocks": measured_registers("warptile")["blocks_per_sm"]}),
    ("docs/scheduling.md",
     r"registers \*\*estimated\*\* \((?P<b_estimate>\d+) and (?P<w_estimate>\d+)\); the\s+build's measured counts "
     r"\((?P<b_measured>\d+) and (?P<w_measured>\d+)\)",
     lambda: {"b_estimate": measured_registers("blocktile-2d")["registers_estimate"],
              "w_estimate": measured_registers("warptile")["registers_estimate"],
              "b_measured": measured_registers("blocktile-2d")["registers_per_thread"],
              "w_measured": measured_registers("warptile")["registers_per_thread"]}),
]


def main():
    global CLI
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--cli", default=str(ROOT / "build/bin/gemmlab-cli"))
    args = parser.parse_args()
    CLI = args.cli

    failed = 0
    pages = {}
    for page, pattern, source in QUOTES:
        text = pages.setdefault(page, (ROOT / page).read_text())
        matches = list(re.finditer(pattern, text))
        if len(matches) != 1:
            print(f"{page}: the quote /{pattern}/ is found {len(matches)} times, not once", file=sys.stderr)
            failed = 1
            continue
        try:
            values = {name: str(value) for name, value in source().items()}
        except Skip as skip:
            print(f"{page}: skipped a quote: {skip}")
            continue
        m = matches[0]
        for name in sorted(values, key=lambda n: m.start(n), reverse=True):  # back to front: offsets stay valid
            if m.group(name) != values[name]:
                print(f"{page}: quotes {m.group(name)} where its source gives {values[name]} ({name})",
                      file=sys.stderr if args.check else sys.stdout)
                failed = failed or args.check
                text = text[:m.start(name)] + values[name] + text[m.end(name):]
        pages[page] = text
    if not args.check:
        for page, text in pages.items():
            if (ROOT / page).read_text() != text:
                (ROOT / page).write_text(text)
                print(f"rewrote {page}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
