#!/usr/bin/env python3
"""scripts/wgmma-clock-fit.py FOLDER [--check PROFILE.json]: the line of a card's SM clock against how busy its wgmma
GEMMs keep the tensor cores, from ncu's counters of each kernel's launches.

FOLDER holds probes.txt (one line a probe: its number, the shape, the rung and its configurations, then rc=N) and
ncu-N.csv or ncu-N.csv.gz for each probe (ncu --csv --page raw with gpc__cycles_elapsed.avg.per_second and
sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_elapsed among the metrics). Each probe's gemmlab kernel is one
point: the median busy share and the median clock of its launches. Only the Hopper rungs (tma-wgmma*) count: the line
is the clock of wgmma kernels (MachineTiming::wgmma_clock_mhz_pipe_idle and _busy); cuBLAS's launches, profiled beside
them, are listed for comparison. Prints every point and the least-squares line; with --check, exits 1 unless the
profile's two ends are the line's, rounded to the MHz; with --held-out OTHER (a folder of the same kind, probes the
line was not fitted to), prints how far each of its kernels' clocks lies from the line, and their rms.
"""
import argparse
import csv
import gzip
import io
import json
import pathlib
import statistics
import sys

CLOCK = "gpc__cycles_elapsed.avg.per_second"
BUSY = "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_elapsed"


def launches(path):
    """(kernel is cuBLAS's, busy share, clock in MHz) of each launch in an ncu CSV, or none if the probe failed."""
    text = (gzip.open(path, "rt") if path.suffix == ".gz" else open(path)).read()
    if '"ID"' not in text:
        return []
    rows = list(csv.reader(io.StringIO(text[text.index('"ID"'):])))
    header, out = rows[0], []
    for row in rows[1:]:
        if len(row) != len(header) or not row[0].isdigit():
            continue  # the units row
        d = dict(zip(header, row))
        number = lambda key: float(d[key].replace(",", ""))
        out.append(("nvjet" in d["Kernel Name"], number(BUSY) / 100, number(CLOCK) / 1e6))
    return out


def probes(folder):
    for line in (folder / "probes.txt").read_text().splitlines():
        number, shape, rung, *rest = line.split()
        found = sorted(folder.glob(f"ncu-{number}.csv*"))
        if rest[-1] != "rc=0" or not found:
            continue
        yield shape, rung, " ".join(rest[:-1]) or "default", launches(found[0])


def fit(points):
    n = len(points)
    mean_u, mean_f = sum(u for u, _ in points) / n, sum(f for _, f in points) / n
    slope = sum((u - mean_u) * (f - mean_f) for u, f in points) / sum((u - mean_u) ** 2 for u, _ in points)
    idle = mean_f - slope * mean_u
    rms = (sum((idle + slope * u - f) ** 2 for u, f in points) / n) ** 0.5
    return idle, idle + slope, rms


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=pathlib.Path)
    parser.add_argument("--check", type=pathlib.Path, help="a device profile whose clock line must be this one")
    parser.add_argument("--held-out", type=pathlib.Path, help="probes of other kernels, to check the line against")
    args = parser.parse_args()
    points = []
    print(f"{'shape':<16} {'rung':<22} {'configuration':<36} {'busy':>5} {'MHz':>5}   cuBLAS: busy, MHz")
    for shape, rung, config, rows in probes(args.folder):
        ours = [(u, f) for is_cublas, u, f in rows if not is_cublas]
        theirs = [(u, f) for is_cublas, u, f in rows if is_cublas]
        med = lambda pairs, i: statistics.median(p[i] for p in pairs)
        point = (med(ours, 0), med(ours, 1))
        note = f"{med(theirs, 0):.3f}, {med(theirs, 1):.0f}" if theirs else ""
        wgmma = rung.startswith("tma-wgmma")
        if wgmma:
            points.append(point)
        print(f"{shape:<16} {rung:<22} {config:<36} {point[0]:5.3f} {point[1]:5.0f}   {note}"
              + ("" if wgmma else "   (not wgmma: left out of the line)"))
    idle, busy, rms = fit(points)
    print(f"line over {len(points)} wgmma kernels: {idle:.0f} MHz with the tensor cores idle, {busy:.0f} MHz with them "
          f"busy all the time (rms {rms:.1f} MHz)")
    if args.held_out:
        misses = []
        for shape, rung, config, rows in probes(args.held_out):
            ours = [(u, f) for is_cublas, u, f in rows if not is_cublas]
            if not rung.startswith("tma-wgmma") or not ours:
                continue
            u, f = statistics.median(p[0] for p in ours), statistics.median(p[1] for p in ours)
            line = idle + (busy - idle) * u
            misses.append(f - line)
            print(f"held out: {shape:<16} {rung:<22} {config:<36} {u:5.3f} {f:5.0f}   the line: {line:5.0f} ({f - line:+.0f})")
        if misses:
            print(f"held out: {len(misses)} wgmma kernels, {(sum(m * m for m in misses) / len(misses)) ** 0.5:.1f} MHz "
                  f"rms from the line")
    if args.check:
        timing = json.loads(args.check.read_text())["timing"]
        held = (timing.get("wgmma_clock_mhz_pipe_idle"), timing.get("wgmma_clock_mhz_pipe_busy"))
        if held != (round(idle), round(busy)):
            print(f"{args.check}: its line is {held}, not ({round(idle)}, {round(busy)})", file=sys.stderr)
            return 1
        print(f"{args.check}: its line is this one")
    return 0


if __name__ == "__main__":
    sys.exit(main())
