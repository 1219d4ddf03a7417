#!/usr/bin/env python3
"""scripts/layout-lab-examples.py [--check] [--cli GEMMLAB_CLI]: fills the worked examples of docs/layout-lab.md with
what gemmlab-cli prints, so the page cannot go stale.

Each example is a block
    <!-- layout-lab: ARGUMENTS -->
    ...anything...
    <!-- /layout-lab -->
whose inside is replaced by a fenced block holding `$ gemmlab-cli layout ARGUMENTS` and its output (the line giving
the time the model took is left out: it changes from run to run). With --check nothing is written, and the exit code
is 1 when a block is out of date (the test docs.layout_lab_examples_are_current runs it that way).
"""
import argparse
import pathlib
import re
import shlex
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs/layout-lab.md"
BLOCK = re.compile(r"(<!-- layout-lab: (.*?) -->\n)(.*?)(<!-- /layout-lab -->)", re.S)


def render(cli, args):
    run = subprocess.run([cli, "layout", *shlex.split(args)], capture_output=True, text=True)
    if run.returncode not in (0, 1):
        sys.exit(f"gemmlab-cli layout {args}: exit {run.returncode}\n{run.stderr}")
    lines = [ln for ln in (run.stdout + run.stderr).splitlines() if not ln.startswith("(modelled in")]
    while lines and not lines[-1].strip():
        lines.pop()
    return "```\n$ gemmlab-cli layout " + args + "\n" + "\n".join(lines) + "\n```\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--cli", default=str(ROOT / "build/bin/gemmlab-cli"))
    args = parser.parse_args()
    text = PAGE.read_text()
    new = BLOCK.sub(lambda m: m.group(1) + render(args.cli, m.group(2)) + m.group(4), text)
    if args.check:
        if new != text:
            print("docs/layout-lab.md's examples are out of date: run scripts/layout-lab-examples.py", file=sys.stderr)
            return 1
        return 0
    PAGE.write_text(new)
    return 0


if __name__ == "__main__":
    sys.exit(main())
