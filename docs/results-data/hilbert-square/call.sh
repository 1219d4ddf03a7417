#!/usr/bin/env bash
# Device call 8: the Hilbert curve's plain-square path - old against new (Hilbert order), then the recorded predictions
# regenerated and the GPU tests.
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
  run old-hilbert-r$round $PWD/.scratch/old --rungs 20,21,23,24 --sizes 4096,8192 --inputs bf16 --order hilbert
  run new-hilbert-r$round $PWD --rungs 20,21,23,24 --sizes 4096,8192 --inputs bf16 --order hilbert
done
( time python3 scripts/time-model-table.py --cli $B ) > $O/time-model-table.txt 2>&1; echo "time-model-table rc=$?" >> $O/summary.txt
$B sweep --rescore docs/results-data/sweep/sweep-llm-bf16.json --profile h200 --json docs/results-data/sweep/sweep-llm-bf16-h200-model.json > $O/rescore.txt 2>&1; echo "rescore rc=$?" >> $O/summary.txt
( date -u; ctest --test-dir build-device -L gpu -j4 ) > $O/ctest-gpu.txt 2>&1; echo "ctest rc=$?" >> $O/summary.txt
mkdir -p $O/files && cp docs/time-model-data/predictions.json docs/fidelity.md docs/time-model.md docs/results-data/sweep/sweep-llm-bf16-h200-model.json $O/files/
cd $O && tar czf all.tgz *.txt *.json files; cat summary.txt; tail -3 ctest-gpu.txt
