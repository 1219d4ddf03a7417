#!/usr/bin/env bash
# tests/calibration/cp_async_rows_ncu.sh OUTDIR [CLI]: ON THE GPU MACHINE, the L2's side of cp_async_rows.cu's copies
# under ncu, one layout at a time: the requests and sectors the L2 receives from the SMs, its tag lookups, the
# sectors it sends back, the LSU data pipe's wavefronts, its hit rate and DRAM's reads (the source stays in L2). With CLI (a built gemmlab-cli), the same metrics of rungs
# 13 and 14 at 4096^3 (FP16, the verification launch of `bench --runs 1`). Writes OUTDIR/cp-async-rows-ncu.csv (kept
# beside this script: cp_async_rows_ncu_h100.csv, with cp_async_rows_h100.env.txt).
set -u
out=${1:?usage: cp_async_rows_ncu.sh OUTDIR [CLI]}
source "$(dirname "$0")/ncu_common.sh"
cli=${2:-}
nvcc -arch=sm_90 -O3 -std=c++17 -o /tmp/cp_async_rows tests/calibration/cp_async_rows.cu || exit 1
m=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,lts__t_requests_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_tag_requests.sum,lts__t_sectors.sum,l1tex__m_xbar2l1tex_read_sectors.sum,lts__t_tag_requests.avg.pct_of_peak_sustained_elapsed,lts__t_sectors.avg.pct_of_peak_sustained_elapsed,lts__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__m_l1tex2xbar_req_cycles_active.avg.pct_of_peak_sustained_elapsed,l1tex__data_pipe_lsu_wavefronts.sum,smsp__inst_executed_op_ldgsts.sum,lts__t_sector_hit_rate.pct,dram__bytes_read.sum
for layout in aligned padded swizzled; do
  # the second launch: the first brings the source into L2
  profile_run $layout 120 $m --kernel-name copy_stages --launch-skip 1 --launch-count 1 /tmp/cp_async_rows $layout
done
if [ -n "$cli" ]; then
  for rung in mma-padded mma-swizzled; do
    profile_run $rung 120 $m --kernel-name regex:rung_kernel --launch-count 1 \
      $cli bench --rungs $rung --sizes 4096 --inputs fp16 --runs 1
  done
fi
merge_runs cp-async-rows-ncu.csv aligned padded swizzled mma-padded mma-swizzled
