#!/usr/bin/env bash
# tests/calibration/l2_sharing_ncu.sh OUTDIR: ON THE GPU MACHINE, l2_sharing.cu's reads under ncu, one group size at a
# time (the third launch, the buffer in L2): the bytes into the SMs, the L2's sectors, hit rate and busy share, and the
# sectors its two partitions pass each other (ltcfabric, where ncu has the metric). Writes OUTDIR/l2-sharing-ncu.csv
# (kept beside this script: l2_sharing_ncu_h100.csv, with l2_sharing_h100.env.txt).
set -u
out=${1:?usage: l2_sharing_ncu.sh OUTDIR}
source "$(dirname "$0")/ncu_common.sh"
nvcc -arch=sm_90 -O3 -std=c++17 -o /tmp/l2_sharing tests/calibration/l2_sharing.cu || exit 1
m=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,l1tex__m_xbar2l1tex_read_bytes.sum,lts__t_sectors.sum,lts__t_sectors_srcunit_tex.sum,lts__t_sector_hit_rate.pct,lts__t_sectors.avg.pct_of_peak_sustained_elapsed,lts__t_tag_requests.avg.pct_of_peak_sustained_elapsed,l1tex__m_xbar2l1tex_read_sectors.avg.pct_of_peak_sustained_elapsed,lts__throughput.avg.pct_of_peak_sustained_elapsed
# The partitions' fabric: whichever of these metrics this ncu knows.
fabric=$($ncu --query-metrics --chip gh100 2>/dev/null | awk '{print $1}' | grep -E '^lts__.*ltcfabric' | head -6)
with_fabric=$m
for base in $fabric; do with_fabric="$with_fabric,$base.sum"; done
groups="1 16 396"
for g in $groups; do
  for metrics in "$with_fabric" "$m"; do  # without the fabric's metrics if ncu refuses them
    profile_run g$g 120 $metrics --kernel-name read_tiles --launch-skip 2 --launch-count 1 /tmp/l2_sharing $g && break
  done
done
merge_runs l2-sharing-ncu.csv g1 g16 g396
