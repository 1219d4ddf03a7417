#!/usr/bin/env bash
# Device call 2: GPU tests, sanitizers on the changed rungs, the TMA-store layout before/after (SASS differs in offsets).
set -u
cd "$(dirname "$0")/../.."
O=${OUT:-/tmp/out}; mkdir -p $O
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nvcc --version | tail -2; } > $O/env.txt 2>&1
( time scripts/device-build ) > $O/build.log 2>&1 || { tail -50 $O/build.log; exit 1; }
B=$PWD/build-device/bin/gemmlab-cli
( date -u; ctest --test-dir build-device -L gpu -j4 ) > $O/ctest-gpu.txt 2>&1; echo "ctest rc=$?" >> $O/summary.txt
run() { # tag srcdir rung
  GEMMLAB_SOURCE_DIR=$2 GEMMLAB_COMPILE_AT_RUN_TIME=1 GEMMLAB_KERNEL_CACHE=/tmp/kc-$(basename $2) timeout 120 $B bench --rungs $3 --config tma_store=1 --sizes 4096,8192 --inputs bf16 --json $O/$1.json > $O/$1.txt 2>&1; echo "$1 rc=$?" >> $O/summary.txt
}
for round in 1 2; do for r in 20 21; do
  run old-ts$r-r$round $PWD/.scratch/old $r; run new-ts$r-r$round $PWD $r
done; done
( date -u; SANITIZE_RUNGS=20,21,23 SANITIZE_LOG_DIR=$O/sanitize timeout 270 scripts/sanitize $B ) > $O/sanitize.txt 2>&1; echo "sanitize rc=$?" >> $O/summary.txt
cd $O && tar czf all.tgz *.txt *.json sanitize 2>/dev/null; cat summary.txt; tail -3 ctest-gpu.txt; tail -6 sanitize.txt
