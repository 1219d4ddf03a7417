#!/usr/bin/env bash
# desktop_live_bench_test.sh APP [OUT_DIR]: the desktop app's live benchmark on a real GPU, end to end (label "gpu").
# Starts the app under a display (DISPLAY, or xvfb-run), presses the benchmark panel's "Run every rung on the GPU"
# for one size (gemmlab --live-benchmark), and its "Run this configuration" for a configuration the build did not
# compile (compiled at run time), and checks that
#   - the panel then shows results measured now on this machine's GPU (its device name, not the recorded file), every
#     row timed;
#   - the uncompiled configuration was compiled, verified and timed beside cuBLAS;
#   - Cancel, pressed part way through a longer run, stops it promptly, the panel says it was cancelled and keeps
#     the rows measured before it;
#   - the app stayed responsive while the GPU worked: no frame took longer than MAX_FRAME_MS (default 1000).
# Exit 77 (skipped) where there is no GPU or no display server, unless GEMMLAB_REQUIRE_GPU=1 (then a failure: a GPU
# machine whose CUDA is broken must not read as skipped). scripts/device-desktop runs it on the GPU machine so.
set -u
app=$1 out=${2:-$(mktemp -d)}
max_frame_ms=${MAX_FRAME_MS:-1000}
mkdir -p "$out"
. "$(dirname "$0")/xvfb.sh"  # xvfb APP ARGS...: the app under Xvfb, with its own exit code
run() {  # run LOG ARGS...: the app on the display we have
  local log=$1; shift
  if [ -n "${DISPLAY:-}" ]; then
    "$app" "$@" >"$log" 2>&1
  elif command -v xvfb-run >/dev/null; then
    xvfb "$app" "$@" >"$log" 2>&1
  else
    echo "skipped: no DISPLAY and no xvfb-run"
    exit 77
  fi
}
run "$out/full.log" --live-benchmark 256 --panel benchmark --screenshot "$out/live-benchmark.png"
rc=$?
cat "$out/full.log"
if [ $rc -eq 77 ]; then
  [ "${GEMMLAB_REQUIRE_GPU:-0}" = 1 ] && { echo "FAILED: no GPU, and GEMMLAB_REQUIRE_GPU=1"; exit 1; }
  echo "skipped: no GPU here"
  exit 77
fi
failed=0
summary=$(grep "live benchmark (256)" "$out/full.log")
[ $rc -eq 0 ] || { echo "FAILED: exit $rc"; failed=1; }
echo "$summary" | grep -q "measured now on the " || { echo "FAILED: the panel does not show results measured now"; failed=1; }
gpu=$(echo "$summary" | sed -n 's/.*measured now on the \([^,]*\),.*/\1/p')
[ -n "$gpu" ] && [ "$gpu" != "recorded" ] || { echo "FAILED: no device name in the results shown"; failed=1; }
timed=$(echo "$summary" | sed -n 's/.*: \([0-9]*\) of \([0-9]*\) rows timed.*/\1 \2/p')
read -r got total <<<"$timed"
[ -n "${got:-}" ] && [ "$got" -gt 0 ] && [ "$got" = "$total" ] || { echo "FAILED: not every row was timed ($timed)"; failed=1; }
responsive() {  # responsive LOG: no frame over the limit while the benchmark ran
  local slowest
  slowest=$(grep "live benchmark (" "$1" | sed -n 's/.*max \([0-9.]*\) ms.*/\1/p')
  [ -n "$slowest" ] && awk -v s="$slowest" -v m="$max_frame_ms" 'BEGIN { exit !(s < m) }' ||
    { echo "FAILED: a frame took ${slowest:-?} ms while the benchmark ran (limit $max_frame_ms ms)"; failed=1; }
}
responsive "$out/full.log"

# "Run this configuration" on warptile with bm = 64, bk = 16: not in instances.def, so compiled by nvcc first.
run "$out/config.log" --live-benchmark 1024 --live-this-configuration --rung warptile --bm 64 --bk 16 \
    --panel benchmark --screenshot "$out/live-configuration.png"
rc=$?
cat "$out/config.log"
[ $rc -eq 0 ] || { echo "FAILED: the configuration's run exited $rc"; failed=1; }
grep -q "live benchmark (1024): warptile (bm=64 bk=16): 2 of 2 rows timed, measured now on the " "$out/config.log" ||
  { echo "FAILED: the configuration compiled at run time was not timed beside cuBLAS"; failed=1; }

start=$(date +%s)
run "$out/cancel.log" --live-benchmark 4096,8192 --cancel-after 5
rc=$?
took=$(( $(date +%s) - start ))
cat "$out/cancel.log"
[ $rc -eq 0 ] || { echo "FAILED: the cancelled run exited $rc"; failed=1; }
grep -q "Cancel pressed after .*the app says: benchmark cancelled" "$out/cancel.log" || { echo "FAILED: the app does not say the run was cancelled"; failed=1; }
# The rows measured before Cancel stay on show, marked as cancelled part way.
grep -q "rows timed, measured now (cancelled part way) on the .*rows measured before it are shown" "$out/cancel.log" ||
  { echo "FAILED: the rows measured before Cancel are not shown"; failed=1; }
[ $took -lt 60 ] || { echo "FAILED: the cancelled run took $took s to end"; failed=1; }
responsive "$out/cancel.log"
[ $failed -eq 0 ] && echo "live benchmark on $gpu: $got rows timed; cancelled run ended after $took s"
exit $failed
