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
import json
import pathlib
import statistics
import sys

from ncu_report import ncu_kernels, ncu_number

CLOCK = "gpc__cycles_elapsed.avg.per_second"
BUSY = "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_elapsed"


def launches(path):
    """(kernel is cuBLAS's, busy share, clock in MHz) of each launch in an ncu report."""
    return [("nvjet" in row["Kernel Name"], ncu_number(row, BUSY) / 100, ncu_number(row, CLOCK) / 1e6)
            for row in ncu_kernels(path)]


def probes(folder):
    """Each probe that ran: its shape, rung, configuration, and its gemmlab kernel's point and cuBLAS's beside it (the
    medians of their launches' busy shares and clocks; cuBLAS's None where ncu profiled none of its launches)."""
    median = lambda pairs, i: statistics.median(p[i] for p in pairs)
    for line in (folder / "probes.txt").read_text().splitlines():
        number, shape, rung, *rest = line.split()
        found = sorted(folder.glob(f"ncu-{number}.csv*"))
        if rest[-1] != "rc=0" or not found:
            continue  # the probe failed: its report holds the error, no launch
        rows = launches(found[0])
        ours = [(u, f) for is_cublas, u, f in rows if not is_cublas]
        theirs = [(u, f) for is_cublas, u, f in rows if is_cublas]
        yield (shape, rung, " ".join(rest[:-1]) or "default", (median(ours, 0), median(ours, 1)),
               (median(theirs, 0), median(theirs, 1)) if theirs else None)


def is_wgmma(rung):
    return rung.startswith("tma-wgmma")


def fit(points):
    """The least-squares line of the clock against the busy share: its clock at 0 and at 1, and its rms miss."""
    n = len(points)
    mean_u, mean_f = sum(u for u, _ in points) / n, sum(f for _, f in points) / n
    slope = sum((u - mean_u) * (f - mean_f) for u, f in points) / sum((u - mean_u) ** 2 for u, _ in points)
    idle = mean_f - slope * mean_u
    rms = (sum((idle + slope * u - f) ** 2 for u, f in points) / n) ** 0.5
    return idle, idle + slope, rms


def line_of(folder):
    """The line through a folder's wgmma kernels: (idle, busy, rms, how many kernels)."""
    points = [ours for _, rung, _, ours, _ in probes(folder) if is_wgmma(rung)]
    return (*fit(points), len(points))


def held_out_misses(folder, idle, busy):
    """Each wgmma kernel of a held-out folder: (shape, rung, configuration, point, its clock less the line's)."""
    return [(shape, rung, config, (u, f), f - (idle + (busy - idle) * u))
            for shape, rung, config, (u, f), _ in probes(folder) if is_wgmma(rung)]


def rms(values):
    return (sum(v * v for v in values) / len(values)) ** 0.5


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=pathlib.Path)
    parser.add_argument("--check", type=pathlib.Path, help="a device profile whose clock line must be this one")
    parser.add_argument("--held-out", type=pathlib.Path, help="probes of other kernels, to check the line against")
    args = parser.parse_args()
    print(f"{'shape':<16} {'rung':<22} {'configuration':<36} {'busy':>5} {'MHz':>5}   cuBLAS: busy, MHz")
    for shape, rung, config, (u, f), cublas in probes(args.folder):
        note = f"{cublas[0]:.3f}, {cublas[1]:.0f}" if cublas else ""
        print(f"{shape:<16} {rung:<22} {config:<36} {u:5.3f} {f:5.0f}   {note}"
              + ("" if is_wgmma(rung) else "   (not wgmma: left out of the line)"))
    idle, busy, miss, count = line_of(args.folder)
    print(f"line over {count} wgmma kernels: {idle:.0f} MHz with the tensor cores idle, {busy:.0f} MHz with them "
          f"busy all the time (rms {miss:.1f} MHz)")
    if args.held_out:
        misses = held_out_misses(args.held_out, idle, busy)
        for shape, rung, config, (u, f), off in misses:
            print(f"held out: {shape:<16} {rung:<22} {config:<36} {u:5.3f} {f:5.0f}   the line: {f - off:5.0f} ({off:+.0f})")
        print(f"held out: {len(misses)} wgmma kernels, {rms([m[-1] for m in misses]):.1f} MHz rms from the line")
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
