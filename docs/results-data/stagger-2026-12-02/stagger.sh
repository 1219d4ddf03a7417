#!/usr/bin/env bash
# Experiment (not kept): do the persistent blocks' simultaneous epilogues cost rung 21 its time?
# Copies of the source tree whose rung_block.cuh delays cluster groups g = 1..G-1 by g*STEP ns at the start;
# each compiled at run time from its own copy, timed beside cuBLAS.
set -u
cd "$(dirname "$0")/../../.."
CLI=$PWD/build-device/bin/gemmlab-cli
SIZES=${SIZES:-4096,8192,4096x6144x4096,4096x28672x4096}
variants=${VARIANTS:-"0:0 2:2000 2:4000 4:1500"}
for v in $variants; do
  g=${v%%:*}; step=${v##*:}
  src=/tmp/src-$g-$step; rm -rf $src; mkdir -p $src
  cp -r gpu sim $src/
  if [ "$g" != 0 ]; then
    python3 - "$src/gpu/src/rung_block.cuh" "$g" "$step" <<'P'
import sys
p,g,step=sys.argv[1:]
s=open(p).read()
anchor="  if constexpr (Traced) {\n    // A traced launch"
assert anchor in s
patch=f"""  if constexpr (C::grid > 0) {{  // EXPERIMENT: stagger the cluster groups' start
    const int group = (block / (C::cluster > 1 ? C::cluster : 1)) % {g};
    if (group > 0) {{
      unsigned long long start, now;
      asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
      do {{ asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now)); }} while (now - start < {step}ull * group);
    }}
  }}
"""
open(p,'w').write(s.replace(anchor, patch+anchor))
P
  fi
  for rung in ${RUNGS:-tma-wgmma-hilbert}; do
    GEMMLAB_COMPILE_AT_RUN_TIME=1 GEMMLAB_SOURCE_DIR=$src GEMMLAB_KERNEL_CACHE=/tmp/cache-$g-$step \
      $CLI bench --rungs $rung --sizes $SIZES --inputs bf16 --order hilbert --runs 30 \
      --json $OUT/stagger-$g-$step.json > $OUT/stagger-$g-$step.txt 2>&1
    echo "== $rung groups=$g step=$step"; grep -E "tma-wgmma|cuBLAS" $OUT/stagger-$g-$step.txt | head -20
  done
done
