#!/usr/bin/env python3
"""scripts/device-profile.py PROFILE.json NAME [--probes DIR]: writes the measured `timing` section of a device profile
(assets/devices/*.json) from the outputs of tests/calibration/profile_probes.sh OUTDIR NAME, kept in DIR (default
tests/calibration/): timing_NAME.json, gemm_clock_NAME.json, launch_overhead_NAME.json and, for sm_90 cards,
tma_rate_NAME.json, tma_dram_NAME.json and cluster_waves_NAME.json, and dram_write_NAME.json, with profile_probes_NAME.env.txt saying where and when they ran. The datasheet fields of the
profile are the file's own; wgmma's rate, which no probe measures, is kept as the file has it.

What each timing figure is:
  shared_wavefronts, global lines, L2 and DRAM bytes a second, mma.sync's rate, the latencies and the barrier: timing.cu
  sustained_clock_mhz_fma and _tensor: the SM clock after ten seconds of cuBLAS FP32 and BF16 GEMMs (gemm_clock.cu)
  launch_overhead_seconds: an empty kernel queued behind a busy one, as the benchmark queues its runs
  tma_cycles_per_copy, tma_bytes_per_clock_per_sm: the least-squares line through tma_rate.cu's one-SM rows (2D boxes
    of fewer than 256 rows, one panel, no prefetch), cycles per box against the box's bytes
  l2_tma_bytes_per_second: the median of tma_rate.cu's rows with every SM copying boxes of 128-byte rows, 8 KiB or more
  tma_ring_alone_seconds, l2_tma_queue_bytes_per_second: tma_rate.cu's ring (4 stages of 32 KiB) on one SM alone,
    boxes of a whole stage, and the queue's rate from the same ring with every SM copying: T = alone + N W / R
  dram_stream_latency_seconds, dram_stream_bytes_per_second_per_sm: tma_dram.cu's rows of at most 16 SMs streaming,
    where DRAM's bandwidth does not bind: each SM's rate (the bytes between two strip lengths over the time between)
    gives the time its bytes in flight W take, and the least-squares line through them, W / rate = latency + W / R
  dram_one_panel_efficiency: tma_dram.cu's one-panel rows against two panels, at 48 SMs or more
  dram_write_bytes_per_second: dram_write.cu's fragment kernel, every SM storing 8 bytes a lane as the epilogues store C
  cluster_barriers_seconds: cluster_waves.cu, blocks in clusters of two passing the cluster's barrier on entry and
    before exit: the slope of their time against waves less the slope of the same blocks without a cluster (the median
    over its block lengths and ways of counting a wave)
  l2_held_share, epilogue_store_share, tile_switch_seconds, wgmma_clock_mhz_pipe_idle and _busy: fitted to recorded
    ncu reads, sweeps and clocks, not probed (the last two: scripts/wgmma-clock-fit.py); kept as the profile has them
"""
import argparse
import json
import pathlib
import statistics

ROOT = pathlib.Path(__file__).resolve().parent.parent


def least_squares_line(xs, ys):
    """(intercept, slope) of the least-squares line through the points."""
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    return my - slope * mx, slope


def tma_line(rows):
    """(cycles per copy, bytes a clock) of the line through the probe's one-SM rows."""
    one = [r for r in rows if r["sms"] == 1 and r["panels"] == 1 and not r["prefetch"] and r["box_rows"] < 256]
    intercept, slope = least_squares_line([r["box_bytes"] for r in one], [r["cycles_per_box"] for r in one])
    return round(intercept, 1), round(1 / slope, 1)


def l2_tma_rate(rows):
    """The L2's delivery into TMA copies with every SM copying boxes of 128-byte rows, 8 KiB or more (the GEMMs'
    boxes): the median of those rows, in bytes a second (each row's bytes a clock per SM at its clock, times the
    SMs)."""
    rates = sorted(r["bytes_per_clock_per_sm"] * r["clock_mhz"] * 1e6 * r["sms"] for r in rows
                   if r["sms"] > 1 and r["row_bytes"] == 128 and r["box_bytes"] >= 8192 and not r["prefetch"])
    return float(f"{statistics.median(rates):.4g}")


def tma_ring(probe):
    """(seconds, bytes a second) of an SM's ring of TMA copies from L2 (tma_rate.cu: `stages` stages of `stage_bytes`,
    always in flight): the time the ring took one SM alone, copying boxes of a whole stage (its one-SM row of 128-byte
    rows, the box the stage), and the rate of the L2's queue that every SM's ring waits in, from the time the same
    ring took with every SM copying (the rate l2_tma_rate gives): T = alone + N W / R."""
    shapes, ring = probe["shapes"], probe["stages"] * probe["stage_bytes"]
    one = next(r for r in shapes if r["sms"] == 1 and r["row_bytes"] == 128 and r["box_bytes"] == probe["stage_bytes"]
               and r["panels"] == 1 and not r["prefetch"])
    alone = ring / (one["bytes_per_clock_per_sm"] * one["clock_mhz"] * 1e6)
    every = probe["sms"] * ring / l2_tma_rate(shapes)
    return float(f"{alone:.4g}"), float(f"{probe['sms'] * ring / (every - alone):.4g}")


def cluster_wave_cost(probe, kernel):
    """Seconds a wave that cluster_waves.cu's `kernel` ("cluster_s": clusters of two; "synced_s": clusters that pass
    their barrier on entry and before exit) takes beyond the same blocks without a cluster: for each block length and
    way of counting a wave, the least-squares slope of its time against waves less the plain kernel's; the median."""
    cases = {}
    for r in probe["rows"]:
        cases.setdefault((r["spin_ns"], r["wave_of"]), []).append(r)
    slope = lambda rows, field: least_squares_line([r["waves"] for r in rows], [r[field] for r in rows])[1]
    return statistics.median(slope(rows, kernel) - slope(rows, "plain_s") for rows in cases.values())


def cluster_barriers(probe):
    """cluster_barriers_seconds: what a cluster of two's barriers add a wave (cluster_wave_cost of the synced kernel)."""
    return float(f"{cluster_wave_cost(probe, 'synced_s'):.4g}")


def dram_stream_cases(rows):
    """tma_dram.cu's cases (SMs, panels, stages), each run at two strip lengths: the SMs, the bytes each keeps in
    flight, the seconds a further byte takes (between the two lengths) and the fixed part (the time at no bytes)."""
    runs = {}
    for r in rows:
        runs.setdefault((r["sms"], r["panels"], r["stages"]), []).append(r)
    cases = []
    for (sms, _, _), pair in runs.items():
        short, long = sorted(pair, key=lambda r: r["rows"])
        seconds_per_byte = (long["us"] - short["us"]) * 1e-6 / (long["bytes"] - short["bytes"])
        cases.append({"sms": sms, "panels": short["panels"], "stages": short["stages"],
                      "in_flight_bytes": short["in_flight_bytes"], "seconds_per_byte": seconds_per_byte,
                      "fixed_seconds": short["us"] * 1e-6 - seconds_per_byte * short["bytes"]})
    return cases


def dram_stream_line(rows):
    """(latency in seconds, bytes a second per SM) of an SM streaming from DRAM, from tma_dram.cu's few-SM rows: the
    line through the time each SM's bytes in flight take, against those bytes."""
    few = [c for c in dram_stream_cases(rows) if c["sms"] <= 16]
    intercept, slope = least_squares_line([c["in_flight_bytes"] for c in few],
                                          [c["in_flight_bytes"] * c["seconds_per_byte"] * c["sms"] for c in few])
    return float(f"{intercept:.4g}"), float(f"{1 / slope:.4g}")


def dram_one_panel_efficiency(rows):
    """The rate of tma_dram.cu's boxes one 128-byte panel wide (4 stages) over two panels' (2 stages), the same bytes in
    flight, at each count of 48 SMs or more (where the SMs together near DRAM's bandwidth; with fewer, each SM's
    stream binds and the two are level): the median of those ratios."""
    return float(f"{statistics.median(one_panel_ratios(rows)):.3g}")


def one_panel_ratios(rows):
    """tma_dram.cu's one-panel rate over its two-panel rate at the same bytes in flight, at each count of 48 SMs or
    more (dram_one_panel_efficiency's median; docs/time-model.md quotes their range)."""
    cases = {(c["sms"], c["panels"], c["stages"]): c for c in dram_stream_cases(rows)}
    return sorted(cases[(sms, 2, 2)]["seconds_per_byte"] / c["seconds_per_byte"]
                  for (sms, panels, stages), c in cases.items()
                  if panels == 1 and stages == 4 and sms >= 48 and (sms, 2, 2) in cases)


# The timing figures fitted to recorded data rather than measured by the probes (docs/time-model.md says by what).
FITTED = ("l2_held_share", "epilogue_store_share", "tile_switch_seconds", "wgmma_clock_mhz_pipe_idle",
          "wgmma_clock_mhz_pipe_busy")


def timing_from_probes(folder, name, old):
    read = lambda probe: json.loads((folder / f"{probe}_{name}.json").read_text())
    t, clocks, launch = read("timing"), read("gemm_clock"), read("launch_overhead")
    out = {
        "shared_wavefronts_per_clock_per_sm": t["shared_wavefronts"]["per_clock_per_sm"],
        "global_lines_per_clock_per_sm": t["global_lines_32_a_request_adjacent"]["per_clock_per_sm"],
        "l2_bytes_per_second": t["l2_bytes_per_second"],
        "dram_bytes_per_second": t["dram_bytes_per_second"],
        "mma_sync_multiply_adds_per_clock_per_sm": round(t["mma_sync_multiply_adds"]["per_clock_per_sm"]),
        "wgmma_multiply_adds_per_clock_per_sm": old["wgmma_multiply_adds_per_clock_per_sm"],
        "latency_l1_cycles": t["latency_l1_cycles"],
        "latency_l2_cycles": t["latency_l2_cycles"],
        "latency_dram_cycles": t["latency_dram_cycles"],
        "latency_shared_cycles": t["latency_shared_cycles"],
        "barrier_cycles": t["barrier_cycles"],
        "sustained_clock_mhz_fma": clocks["cublas_fp32_8192"]["sm_clock_mhz_last"],
        "sustained_clock_mhz_tensor": clocks["cublas_bf16_8192"]["sm_clock_mhz_last"],
        "launch_overhead_seconds": launch["queued_seconds"],
    }
    tma = folder / f"tma_rate_{name}.json"
    if tma.exists():
        shapes = json.loads(tma.read_text())["shapes"]
        out["tma_cycles_per_copy"], out["tma_bytes_per_clock_per_sm"] = tma_line(shapes)
        out["l2_tma_bytes_per_second"] = l2_tma_rate(shapes)
        out["tma_ring_alone_seconds"], out["l2_tma_queue_bytes_per_second"] = tma_ring(json.loads(tma.read_text()))
    dram = folder / f"tma_dram_{name}.json"
    if dram.exists():
        rows = json.loads(dram.read_text())["rows"]
        out["dram_stream_latency_seconds"], out["dram_stream_bytes_per_second_per_sm"] = dram_stream_line(rows)
        out["dram_one_panel_efficiency"] = dram_one_panel_efficiency(rows)
    clusters = folder / f"cluster_waves_{name}.json"
    if clusters.exists():
        out["cluster_barriers_seconds"] = cluster_barriers(json.loads(clusters.read_text()))
    write = folder / f"dram_write_{name}.json"
    if write.exists():
        out["dram_write_bytes_per_second"] = json.loads(write.read_text())["dram_fragment_write_bytes_per_second"]
    # Figures fitted to recorded data, not measured by the probes: kept as the profile has them.
    for fitted in FITTED:
        if fitted in old:
            out[fitted] = old[fitted]
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("profile", type=pathlib.Path)
    parser.add_argument("name")
    parser.add_argument("--probes", type=pathlib.Path, default=ROOT / "tests" / "calibration")
    args = parser.parse_args()
    profile = json.loads(args.profile.read_text())
    profile["timing"] = timing_from_probes(args.probes, args.name, profile.get("timing", {}))
    args.profile.write_text(json.dumps(profile, indent=2, ensure_ascii=False) + "\n")
    print(f"device-profile: wrote the timing of {args.profile} from {args.probes}/*_{args.name}.json")


if __name__ == "__main__":
    main()
