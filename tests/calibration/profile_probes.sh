#!/usr/bin/env bash
# Runs the probes a device profile's measured `timing` comes from, on the GPU machine, from the repository root:
#   tests/calibration/profile_probes.sh OUTDIR NAME
# writes OUTDIR/timing_NAME.json, gemm_clock_NAME.json, launch_overhead_NAME.json, dram_write_NAME.json, tma_rate_NAME.json,
# tma_dram_NAME.json and cluster_waves_NAME.json (the last three for sm_90 cards only) and profile_probes_NAME.env.txt (the card, driver, CUDA, date and these commands). The probes
# run one after another on an otherwise idle GPU (their compiles first, side by side).
# scripts/device-profile.py then writes assets/devices/<id>.json's timing from them.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: profile_probes.sh OUTDIR NAME}
name=${2:?usage: profile_probes.sh OUTDIR NAME}
mkdir -p "$out"
export PATH="/usr/local/cuda/bin:$PATH"
work=$(mktemp -d)
cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d '.')
nvcc -arch="sm_$cc" -O3 -std=c++17 -o "$work/timing" "$here/timing.cu" &
nvcc -O3 -std=c++17 -o "$work/gemm_clock" "$here/gemm_clock.cu" -lcublas -ldl &
nvcc -O3 -std=c++17 -o "$work/launch_overhead" "$here/launch_overhead.cu" &
nvcc -O3 -std=c++17 -o "$work/dram_write" "$here/dram_write.cu" &
[ "$cc" = 90 ] && nvcc -arch=sm_90a -O3 -std=c++17 -o "$work/tma_rate" "$here/tma_rate.cu" &
[ "$cc" = 90 ] && nvcc -arch=sm_90a -O3 -std=c++17 -o "$work/tma_dram" "$here/tma_dram.cu" &
[ "$cc" = 90 ] && nvcc -arch=sm_90 -O3 -std=c++17 -o "$work/cluster_waves" "$here/cluster_waves.cu" &
wait
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
  echo "CUDA $(nvcc --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')"
  date -u +%Y-%m-%dT%H:%M:%SZ
  echo "tests/calibration/profile_probes.sh OUTDIR $name: each probe built as its header says (timing.cu for sm_$cc)," \
       "then run alone: timing, gemm_clock, launch_overhead, dram_write, tma_rate, tma_dram, cluster_waves"
} >"$out/profile_probes_$name.env.txt"
status=0
for probe in timing gemm_clock launch_overhead dram_write tma_rate tma_dram cluster_waves; do
  [ -x "$work/$probe" ] || continue
  "$work/$probe" >"$out/${probe}_$name.json" 2>"$out/${probe}_$name.log" || { echo "$probe failed" >&2; status=1; }
done
rm -rf "$work"
exit $status
