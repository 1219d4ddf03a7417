#!/usr/bin/env bash
# tests/calibration/tma_gemm_ncu.sh OUTDIR CLI: ON THE GPU MACHINE, with a built gemmlab-cli, the GEMMs' side of
# tma_rate.cu: rung 17's three swizzle modes and its bk=128 stages=2, and rung 18's bm=64 and bm=128, at 1024^3 and
# 4096^3 (FP16, the verification launch of `bench --runs 1`) under ncu: duration, SM clock, active warps, the tensor
# pipe's activity, warp instructions, the bytes the SMs take in from L2, the L2's lookups, DRAM's reads and stall
# reasons. Each run is named by the --config it profiled (tma-wgmma-swizzle32-4096). Then the benchmark's medians of
# the same kernels (events, runs queued as always), to set beside ncu's durations: what the events add
# (launch_overhead.cu).
# Writes OUTDIR/tma-gemm-ncu.csv and OUTDIR/tma-gemm-bench.json (kept beside this script as tma_gemm_ncu_h100.csv and
# tma_gemm_bench_h100.json, with tma_rate_h100.env.txt).
set -u
out=${1:?usage: tma_gemm_ncu.sh OUTDIR CLI}
cli=${2:?usage: tma_gemm_ncu.sh OUTDIR CLI}
cli=$(cd "$(dirname "$cli")" && pwd)/$(basename "$cli")
source "$(dirname "$0")/ncu_common.sh"
m=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,smsp__warps_active.avg.per_cycle_active,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,l1tex__m_xbar2l1tex_read_bytes.sum,lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum,smsp__average_warp_latency_issue_stalled_barrier.ratio,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio,smsp__average_warp_latency_issue_stalled_wait.ratio
runs=()
for spec in tma-wgmma:swizzle=0 tma-wgmma:swizzle=64 tma-wgmma:swizzle=32 tma-wgmma:bk=128,stages=2 \
            tma-wgmma-specialized:bm=128 tma-wgmma-specialized:bm=64; do
  rung=${spec%%:*} config=${spec#*:}
  for size in 1024 4096; do
    run=$rung-${config//[=,]/}-$size
    profile_run $run 120 $m --kernel-name regex:rung_kernel --launch-count 1 \
      $cli bench --rungs $rung --config $config --sizes $size --inputs fp16 --runs 1
    runs+=($run)
  done
done
merge_runs tma-gemm-ncu.csv "${runs[@]}"
$cli bench --rungs tma-wgmma --config swizzle=0 --config swizzle=64 --config swizzle=32 --config bk=128,stages=2 \
  --sizes 1024,4096 --inputs fp16 --json "$out/tma-gemm-bench-17.json" > /dev/null
$cli bench --rungs tma-wgmma-specialized --config bm=128 --config bm=64 --sizes 1024,4096 --inputs fp16 \
  --json "$out/tma-gemm-bench-18.json" > /dev/null
python3 - "$out" <<'PY'
import json, sys, pathlib
out = pathlib.Path(sys.argv[1])
reports = [json.loads((out / f"tma-gemm-bench-{n}.json").read_text()) for n in (17, 18)]
merged = dict(reports[0], rows=[r for report in reports for r in report["rows"]])
(out / "tma-gemm-bench.json").write_text(json.dumps(merged, indent=1) + "\n")
PY
