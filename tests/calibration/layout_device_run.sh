#!/usr/bin/env bash
# One GPU-machine run for the layout lab's check against the H100 (issue 30): the stmatrix rows appended to
# patterns.csv, then every row of layout_patterns.csv, each through run_on_device.sh (the probe built with nvcc,
# its SASS checked, ncu over chunks of launches, collect.py). Everything that comes back is under OUTDIR, flat:
#   env.txt               device, driver, CUDA, ncu, date (and the start time of each part)
#   stsm_measured.csv     collect.py's table of the stmatrix rows (the patterns.csv rows FIRST..FIRST+COUNT-1)
#   layout_measured.csv   collect.py's table of layout_patterns.csv
#   stsm.tar.gz, layout.tar.gz   each part's whole OUTDIR of run_on_device.sh (run.log, probe.sass, metrics_avail.txt,
#                         ncu_raw.tar.gz)
#   run.log               this script's output
#
# Usage (from the repository root, on the GPU machine):
#   tests/calibration/layout_device_run.sh OUTDIR [STSM_FIRST] [STSM_COUNT] [STSM_BUDGET_S] [LAYOUT_BUDGET_S]
# Defaults: the stmatrix rows are those of patterns.csv whose op starts with stsm; budgets 100 s and 330 s (no new
# chunk of ncu launches starts after them: run_on_device.sh).
set -uo pipefail
out=${1:?usage: layout_device_run.sh OUTDIR [stsm_first] [stsm_count] [stsm_budget_s] [layout_budget_s]}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out" && out=$(cd "$out" && pwd)
exec > >(tee -a "$out/run.log") 2>&1
export PATH=/usr/local/cuda/bin:$PATH
cd "$here/../.."

# the stmatrix rows: their place in patterns.csv (data rows counted from 0)
first_stsm=$(awk -F, 'NR > 1 && $2 ~ /^stsm/ { print NR - 2; exit }' "$here/patterns.csv")
count_stsm=$(awk -F, 'NR > 1 && $2 ~ /^stsm/' "$here/patterns.csv" | wc -l)
first=${2:-$first_stsm}
count=${3:-$count_stsm}
stsm_budget=${4:-100}
layout_budget=${5:-330}
work=$(mktemp -d)

{
  echo "device=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
  echo "driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)"
  echo "cuda=$(nvcc --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')"
  echo "ncu=$("$(scripts/find-ncu)" --version | sed -n 's/.*Version \([^ ]*\).*/\1/p' | head -1)"
  echo "date=$(date -u +%Y-%m-%dT%H:%MZ)"
  echo "stsm_rows=$first..$((first + count - 1)) of patterns.csv"
} > "$out/env.txt"
cat "$out/env.txt"

t0=$SECONDS
echo "stsm_start=$(date -u +%Y-%m-%dT%H:%M:%SZ)" >> "$out/env.txt"
"$here/run_on_device.sh" "$work/stsm" "$stsm_budget" "$first" "$count"
echo "stsm part: rc=$? $((SECONDS - t0)) s"
cp "$work/stsm/measured_h100.csv" "$out/stsm_measured.csv" 2>/dev/null

t1=$SECONDS
echo "layout_start=$(date -u +%Y-%m-%dT%H:%M:%SZ)" >> "$out/env.txt"
PATTERNS=layout_patterns.csv "$here/run_on_device.sh" "$work/layout" "$layout_budget"
echo "layout part: rc=$? $((SECONDS - t1)) s"
cp "$work/layout/measured_h100.csv" "$out/layout_measured.csv" 2>/dev/null

tar czf "$out/stsm.tar.gz" -C "$work" stsm
tar czf "$out/layout.tar.gz" -C "$work" layout
echo "total $((SECONDS - t0)) s"
