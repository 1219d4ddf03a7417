#!/usr/bin/env bash
# tests/calibration/l1_sectors_ncu.sh OUTDIR [CLI]: ON THE GPU MACHINE, l1_sectors.cu's loads under ncu, one pattern
# at a time (as many blocks of 1024 threads per SM as fit, up to 2): the L1's requests, sectors, data-pipe wavefronts, writeback cycles,
# instructions, and the breakdown of l1tex__throughput (which of the L1's units is busiest). With CLI (a built
# gemmlab-cli), the same of six FP32 rungs (naive-coalesced, blocktile-2d, vectorized, double-buffer, cp-async,
# warptile) at 4096^3, the verification launch of `bench --runs 1`. Writes
# OUTDIR/l1-sectors-ncu.csv (kept beside this script: l1_sectors_ncu_h100.csv, with l1_sectors_h100.env.txt).
set -u
out=${1:?usage: l1_sectors_ncu.sh OUTDIR [CLI]}
source "$(dirname "$0")/ncu_common.sh"
cli=${2:-}
nvcc -arch=sm_90 -O3 -std=c++17 -o /tmp/l1_sectors tests/calibration/l1_sectors.cu || exit 1
m=gpu__time_duration.sum,sm__cycles_elapsed.avg,smsp__inst_executed.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sector_hit_rate.pct,l1tex__data_pipe_lsu_wavefronts.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__lsu_writeback_active.sum,l1tex__data_bank_reads.sum,l1tex__m_xbar2l1tex_read_sectors.sum,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,breakdown:l1tex__throughput.avg.pct_of_peak_sustained_elapsed
patterns="w4_broadcast w4_32B w4_64B w4_128B w8_128B w16_128B w8_256B w16_512B"
for p in $patterns; do
  profile_run $p 120 $m --kernel-name regex:hit_loads --launch-count 1 /tmp/l1_sectors $p
done
rungs=""
if [ -n "$cli" ]; then
  rungs="naive-coalesced blocktile-2d vectorized double-buffer cp-async warptile"
  for rung in $rungs; do
    profile_run $rung 150 $m --kernel-name regex:rung_kernel --launch-count 1 $cli bench --rungs $rung --sizes 4096 --runs 1
  done
fi
merge_runs l1-sectors-ncu.csv $patterns $rungs
