#!/usr/bin/env bash
# Device call 4: the walk's place found before the producer's wait, the epilogue's tile found once - old against new.
set -u
cd "$(dirname "$0")/../.."
O=${OUT:-/tmp/out}; mkdir -p $O
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; } > $O/env.txt 2>&1
( time scripts/device-build ) > $O/build.log 2>&1 || { tail -50 $O/build.log; exit 1; }
B=$PWD/build-device/bin/gemmlab-cli
run() { # tag srcdir args...
  local tag=$1 src=$2; shift 2
  GEMMLAB_SOURCE_DIR=$src GEMMLAB_COMPILE_AT_RUN_TIME=1 GEMMLAB_KERNEL_CACHE=/tmp/kc-$(basename $src) timeout 150 $B bench "$@" --json $O/$tag.json > $O/$tag.txt 2>&1; echo "$tag rc=$?" >> $O/summary.txt
}
for round in 1 2; do
  for src in $PWD/.scratch/old $PWD; do
    t=$( [ $src = $PWD ] && echo new || echo old )
    run $t-hilbert-r$round $src --rungs 20,21,23,24 --sizes 4096,8192 --inputs bf16 --order hilbert
    run $t-row-r$round $src --rungs 20,21,23,24 --sizes 4096,8192 --inputs bf16 --order row
    run $t-ts21-r$round $src --rungs 21 --config tma_store=1 --sizes 4096,8192 --inputs bf16 --order hilbert
  done
done
cd $O && tar czf all.tgz *.txt *.json 2>/dev/null; cat summary.txt
