#!/usr/bin/env bash
# Device call 7: ncu of rung 21's default at 4096^3 BF16 in row and Hilbert order (first launch), same sections as
# scripts/ncu-sections-run.
set -u
cd "$(dirname "$0")/../.."
O=${OUT:-/tmp/out}; mkdir -p $O
( time scripts/device-build ) > $O/build.log 2>&1 || { tail -50 $O/build.log; exit 1; }
B=$PWD/build-device/bin/gemmlab-cli
ncu=$(scripts/find-ncu)
echo "$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1); $("$ncu" --version | tail -1); $(date -u +%Y-%m-%dT%H:%MZ)" > $O/env.txt
for o in row hilbert; do
  "$ncu" --clock-control none --csv --page raw --print-units base --section SpeedOfLight --section MemoryWorkloadAnalysis \
     --section WarpStateStats --section ComputeWorkloadAnalysis --kernel-name regex:rung_kernel --launch-count 1 \
     $B bench --rungs 21 --sizes 4096 --runs 1 --inputs bf16 --order $o > $O/ncu-21-$o.csv 2> $O/ncu-21-$o.log; echo "$o rc=$?" >> $O/summary.txt
done
cd $O && tar czf all.tgz *.csv *.txt *.log; cat summary.txt
