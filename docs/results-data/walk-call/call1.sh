#!/usr/bin/env bash
# Device call 1: setmaxnreg honoured in persistent walks (Hilbert curve inlined) - old headers against new, alternating.
set -u
cd "$(dirname "$0")/../.."
O=${OUT:-/tmp/out}; mkdir -p $O
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; date -u; } > $O/env.txt 2>&1
( time scripts/device-build ) > $O/build.log 2>&1 || { tail -50 $O/build.log; exit 1; }
CLI=$PWD/build-device/bin/gemmlab-cli
run() { # tag srcdir args...
  local tag=$1 src=$2; shift 2
  GEMMLAB_SOURCE_DIR=$src GEMMLAB_COMPILE_AT_RUN_TIME=1 GEMMLAB_KERNEL_CACHE=/tmp/kc-$(basename $src) timeout 200 $CLI bench "$@" --json $O/$tag.json > $O/$tag.txt 2>&1; echo "$tag rc=$?" >> $O/summary.txt
}
for round in 1 2; do
  for src in $PWD/.scratch/old $PWD; do
    t=$( [ $src = $PWD ] && echo new || echo old )
    run $t-r$round $src --rungs 20,21,23,24 --sizes 4096,8192 --inputs bf16
    run $t-smr20-r$round $src --rungs 20 --config setmaxnreg=1 --sizes 4096,8192 --inputs bf16
  done
done
for r in 21 24; do
  o=""; [ $r = 21 ] && o="--order hilbert"
  timeout 120 $CLI trace --rung $r --m 4096 --n 4096 --k 4096 --input bf16 --blocks 2 $o --out $O/trace$r.json > $O/trace$r.txt 2>&1; echo "trace$r rc=$?" >> $O/summary.txt
done
cd $O && for f in *.txt; do echo "== $f"; grep -E "tma-wgmma|rc=|overhead|slower|traced|untraced" $f | head -30; done > digest.txt; tar czf all.tgz *.json *.txt; ls
