#!/usr/bin/env bash
# Measures every pattern of tests/calibration/patterns.csv on the GPU with ncu and writes measured_h100.csv.
#
# Usage (from the repository root, on the GPU machine):
#   [PATTERNS=FILE] tests/calibration/run_on_device.sh OUTDIR [NCU_TIME_BUDGET_S] [FIRST] [COUNT]
# PATTERNS names another file of patterns.csv's format (a path, or a name in tests/calibration/), e.g.
# layout_patterns.csv (tests/calibration/layout_patterns.py); default patterns.csv.
# Writes into OUTDIR: env.txt, run.log, probe.sass (+ the SASS check in run.log), metrics_avail.txt (the ncu metric
# names on this chip that mention shared/global/ldsm/ldgsts), measured_h100.csv, ncu_raw.tar.gz (ncu's own CSV).
# ncu runs over chunks of CHUNK (default 50) launches; no new chunk starts after NCU_TIME_BUDGET_S (default 300).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: run_on_device.sh OUTDIR [budget_s] [first] [count]}
budget=${2:-300}
first=${3:-0}
mkdir -p "$out"
exec > >(tee -a "$out/run.log") 2>&1

work=$(mktemp -d)
NCU=$("$here/../../scripts/find-ncu")
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
CUOBJDUMP=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
CHUNK=${CHUNK:-50}
patterns=${PATTERNS:-patterns.csv}
[ -f "$patterns" ] || patterns="$here/$patterns"
[ -f "$patterns" ] || { echo "no patterns file ${PATTERNS:-patterns.csv}"; exit 1; }
patterns=$(cd "$(dirname "$patterns")" && pwd)/$(basename "$patterns")
npat=$(grep -vc -e '^name,' -e '^#' "$patterns")
count=${4:-$npat}
last=$(( first + count < npat ? first + count : npat ))

# ---- environment, for the CSV header
{
  echo "device=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
  echo "driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)"
  echo "cuda=$("$NVCC" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')"
  echo "ncu=$("$NCU" --version | sed -n 's/.*Version \([^ ]*\).*/\1/p' | head -1)"
  echo "date=$(date -u +%Y-%m-%dT%H:%MZ)"
  echo "command=ncu --clock-control none --csv --print-units base --print-kernel-base mangled --metrics <list> probe $(basename "$patterns")"
} > "$out/env.txt"
cat "$out/env.txt"

# ---- build and check the SASS: exactly one probed instruction per kernel
"$NVCC" -arch=sm_90 -O3 -std=c++17 -o "$work/probe" "$here/probe.cu" || exit 1
"$CUOBJDUMP" -sass "$work/probe" > "$out/probe.sass" || exit 1
python3 "$here/sass_check.py" < "$out/probe.sass" || { echo "SASS check failed"; exit 1; }

# ---- metric list: keep the names this ncu knows on this chip
wanted=(
  l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
  l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
  l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum
  l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum
  l1tex__data_pipe_lsu_wavefronts_mem_shared.sum
  l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
  l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
  l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum
  l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum
  l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum
  smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
  smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum
  smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum
  smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum
  smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
  smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
  smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum
  smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum
  l1tex__data_pipe_lsu_wavefronts_mem_shared_op_stsm.sum
  l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_stsm.sum
  smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_stsm.sum
  smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_stsm.sum
  l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
  l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
  l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
  l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
  l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts.sum
  l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts.sum
  l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access.sum
  l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_bypass.sum
  l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts_cache_access.sum
  l1tex__t_output_wavefronts_pipe_lsu_mem_global_op_ld.sum
  l1tex__t_output_wavefronts_pipe_lsu_mem_global_op_ldgsts_cache_access.sum
  l1tex__m_xbar2l1tex_read_sectors_mem_global_op_ldgsts_cache_access.sum
  smsp__sass_l1tex_t_requests_pipe_lsu_mem_global_op_ldgsts.sum
  smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ldgsts.sum
  smsp__sass_l1tex_m_xbar2l1tex_read_sectors_mem_global_op_ldgsts_cache_bypass.sum
  l1tex__data_pipe_lsu_wavefronts.sum
  l1tex__data_bank_reads.sum
  l1tex__data_bank_writes.sum
  smsp__sass_inst_executed_op_shared_ld.sum
  smsp__sass_inst_executed_op_shared_st.sum
  smsp__sass_inst_executed_op_ldsm.sum
  smsp__sass_inst_executed_op_stsm.sum
  smsp__inst_executed_op_stsm.sum
  smsp__sass_inst_executed_op_ldgsts.sum
  smsp__sass_inst_executed_op_global_ld.sum
  smsp__sass_inst_executed_op_global_st.sum
)
"$NCU" --query-metrics > "$work/query.txt" 2>&1
grep -E 'shared|global_op|ldsm|stsm|ldgsts' "$work/query.txt" > "$out/metrics_avail.txt"
list=""
for m in "${wanted[@]}"; do
  if grep -qE "(^|[[:space:]])${m%.sum}([[:space:]]|$)" "$work/query.txt"; then list+="${list:+,}$m"; else echo "ncu lacks $m: skipped"; fi
done
echo "metrics: $list"
[ -n "$list" ] || { echo "no metric left"; head -30 "$work/query.txt"; exit 1; }

# ---- profile, one chunk of launches per ncu run
start=$SECONDS
for (( f = first; f < last; f += CHUNK )); do
  if (( SECONDS - start > budget )); then echo "time budget ${budget}s reached before pattern $f"; break; fi
  n=$(( last - f < CHUNK ? last - f : CHUNK ))
  t0=$SECONDS
  "$NCU" --clock-control none --csv --print-units base --print-kernel-base mangled --metrics "$list" \
    --log-file "$work/ncu_$f.csv" "$work/probe" "$patterns" "$f" "$n" > "$work/probe_$f.log" 2>&1
  echo "ncu patterns $f..$((f + n - 1)): rc=$? $((SECONDS - t0)) s"
done

python3 "$here/collect.py" --patterns "$patterns" --env "$out/env.txt" --out "$out/measured_h100.csv" \
  $(ls "$work"/ncu_*.csv | sort -t_ -k2 -n)
rc=$?
tar czf "$out/ncu_raw.tar.gz" -C "$work" $(cd "$work" && ls ncu_*.csv probe_*.log query.txt)
exit $rc
