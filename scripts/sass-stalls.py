#!/usr/bin/env python3
"""scripts/sass-stalls.py: where a rung kernel's warps wait, instruction by instruction (ncu's stall samples per SASS
instruction), beside the waits for global loads the time model counts in the same SASS (kernel_resources.py,
load_wait_points).

  sass-stalls.py profile CLI RUNG SIZE OUT.csv   ON THE GPU MACHINE: ncu's SourceCounters of the rung's kernel (the
                                                 verification launch of `bench --runs 1`, FP32), reduced to OUT.csv
  sass-stalls.py reduce RAW.csv OUT.csv          the reduction alone, from `ncu --import REP --page source --csv
                                                 --print-source sass` output
  sass-stalls.py summary OUT.csv                 the main loop's long-scoreboard samples and the share at the model's
                                                 wait points

OUT.csv has one row per instruction: its offset in the function, the SASS, ncu's warp samples at it, and of them the
samples stalled on a long scoreboard (a load from global memory). As a module: summary(path).
"""
import csv
import os
import pathlib
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import kernel_resources  # noqa: E402

COLUMNS = ["offset", "sass", "samples", "long_scoreboard"]


def reduce(raw, out):
    rows = list(csv.reader(pathlib.Path(raw).read_text().splitlines()))
    header = next(i for i, r in enumerate(rows) if r and r[0] == "Address")
    index = {h: i for i, h in enumerate(rows[header])}
    body = [r for r in rows[header + 1:] if r and r[0].startswith("0x")]
    base = int(body[0][0], 16)
    with open(out, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(COLUMNS)
        for r in body:
            text = " ".join(r[index["Source"]].split())
            # Branch targets are absolute addresses in ncu's listing: made offsets, as cuobjdump writes them.
            if " BRA 0x" in " " + text:
                head, target = text.rsplit("0x", 1)
                text = head + "0x%x" % (int(target, 16) - base)
            w.writerow(["0x%04x" % (int(r[0], 16) - base), text, r[index["Warp Stall Sampling (All Samples)"]] or "0",
                        r[index["stall_long_sb"]] or "0"])


def instructions(rows):
    """The reduced CSV's instructions, read as kernel_resources reads cuobjdump's."""
    text = "\n".join("        /*%s*/ %s ;" % (r["offset"][2:], r["sass"]) for r in rows)
    return next(iter(kernel_resources.sass_functions("        Function : kernel\n" + text).values()))


def summary(path):
    """{loop: (first, last address), waits, loop_samples, at_waits (share of the main loop's long-scoreboard samples
    at the model's wait points), top: [(offset, share)] of the five instructions with the most} for the main loop (the
    loop with the most math, kernel_resources.main_loop_body)."""
    rows = list(csv.DictReader(open(path)))
    stalls = {int(r["offset"], 16): float(r["long_scoreboard"]) for r in rows}
    body = kernel_resources.main_loop_body(instructions(rows))
    if not body:
        raise ValueError("%s has no loop with math in it" % path)
    total = sum(stalls[i.address] for i in body)
    if total <= 0:
        raise ValueError("%s has no long-scoreboard samples in its main loop" % path)
    waits = kernel_resources.load_wait_points(body)
    top = sorted(((stalls[i.address] / total, i.address) for i in body), reverse=True)[:5]
    return {"loop": (body[0].address, body[-1].address), "waits": waits, "loop_samples": total,
            "at_waits": sum(stalls[a] for a in waits) / total, "top": [(a, s) for s, a in top]}


def profile(cli, rung, size, out):
    found = subprocess.run([str(pathlib.Path(__file__).resolve().parent / "find-ncu")], capture_output=True, text=True)
    if not found.stdout.split():
        raise SystemExit("sass-stalls: no ncu (Nsight Compute) on this machine: profile runs on the GPU machine")
    ncu = found.stdout.split()[0]
    with tempfile.TemporaryDirectory() as tmp:
        rep = os.path.join(tmp, "source")
        subprocess.run([ncu, "--clock-control", "none", "--section", "SourceCounters", "--section", "WarpStateStats",
                        "--kernel-name", "regex:rung_kernel", "--launch-count", "1", "-o", rep, "-f", cli, "bench",
                        "--rungs", rung, "--sizes", str(size), "--runs", "1"], check=True, capture_output=True)
        raw = subprocess.run([ncu, "--import", rep + ".ncu-rep", "--page", "source", "--csv", "--print-source", "sass"],
                             check=True, capture_output=True, text=True).stdout
        raw_path = os.path.join(tmp, "raw.csv")
        pathlib.Path(raw_path).write_text(raw)
        reduce(raw_path, out)


def main(argv):
    if len(argv) == 5 and argv[0] == "profile":
        profile(*argv[1:])
    elif len(argv) == 3 and argv[0] == "reduce":
        reduce(*argv[1:])
    elif len(argv) == 2 and argv[0] == "summary":
        try:
            s = summary(argv[1])
        except ValueError as e:
            print("sass-stalls: %s" % e, file=sys.stderr)
            return 1
        print("main loop %#x-%#x: %d long-scoreboard samples; the model's %d waits a pass at %s hold %.1f%% of them; "
              "the most: %s" % (*s["loop"], s["loop_samples"], len(s["waits"]), ", ".join("%#x" % a for a in s["waits"]),
                                100 * s["at_waits"], ", ".join("%#x %.1f%%" % (a, 100 * x) for a, x in s["top"])))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
