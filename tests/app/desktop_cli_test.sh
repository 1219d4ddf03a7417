#!/usr/bin/env bash
# desktop_cli_test.sh CHECK APP PNG_CHECK OUT_DIR: the desktop app's command line and its bad-input paths, as a
# user meets them. CHECK is one of: help, unknown-panel, unknown-rung, bad-order, bad-number (with a bad screenshot
# path), empty-flags, corrupt-settings, invalid-config, full-disk, frame-times, index-out-of-range, rung-number,
# lab-flags.
set -u
check=$1 app=$2 png_check=$3 out=$4
mkdir -p "$out"
. "$(dirname "$0")/xvfb.sh"  # xvfb APP ARGS...: the app under Xvfb, with its own exit code
need_xvfb() {
  command -v xvfb-run >/dev/null || { echo "skipped: xvfb-run is not installed"; exit 77; }
}
fail() { echo "FAILED: $*"; exit 1; }

case $check in
  help)  # every panel name appears in --help
    help=$("$app" --help) || fail "gemmlab --help exited with $?"
    for panel in $("$app" --list-panels); do
      grep -q -- "$panel" <<<"$help" || fail "--help does not list the panel '$panel'"
    done ;;
  unknown-panel)
    err=$("$app" --panel no-such-panel --screenshot "$out/x.png" 2>&1 >/dev/null); code=$?
    [ "$code" -eq 2 ] || fail "exit code $code, expected 2"
    grep -q "unknown panel 'no-such-panel'" <<<"$err" || fail "no message naming the panel: $err"
    grep -q "tile-stepper" <<<"$err" || fail "the message does not list the panels: $err" ;;
  unknown-rung)
    err=$("$app" --rung no-such-rung --screenshot "$out/x.png" 2>&1 >/dev/null); code=$?
    [ "$code" -eq 2 ] || fail "exit code $code, expected 2"
    grep -q "unknown rung 'no-such-rung'" <<<"$err" || fail "no message naming the rung: $err" ;;
  bad-order)  # a launch order that parse_order refuses is a usage error naming the flag
    err=$("$app" --panel launch-order --compare-order groupm:0 --screenshot "$out/x.png" 2>&1 >/dev/null); code=$?
    [ "$code" -eq 2 ] || fail "exit code $code, expected 2"
    grep -q -- "--compare-order: the group size in launch order 'groupm:0' must be at least 1" <<<"$err" \
      || fail "no message naming the flag and the order: $err" ;;
  bad-number)  # a flag's value CLI11 refuses is a usage error (2, like the app's own), naming the flag and the range
    err=$("$app" --frames 0 2>&1 >/dev/null); code=$?
    [ "$code" -eq 2 ] || fail "--frames 0: exit code $code, expected 2"
    grep -q -- "--frames: '0' is out of range: give a whole number from 1 to 100000" <<<"$err" \
      || fail "--frames 0: no message naming the flag and the range: $err"
    err=$("$app" --warp -1 2>&1 >/dev/null); code=$?
    [ "$code" -eq 2 ] || fail "--warp -1: exit code $code, expected 2"
    grep -q -- "--warp: '-1' is out of range: give a whole number 0 or more" <<<"$err" || fail "--warp -1: $err"
    err=$("$app" --no-such-flag 2>&1 >/dev/null); code=$?
    [ "$code" -eq 2 ] || fail "--no-such-flag: exit code $code, expected 2"
    # an unwritable screenshot path is refused before any window opens (so this needs no display)
    err=$("$app" --screenshot /nonexistent-folder/x.png 2>&1 >/dev/null); code=$?
    [ "$code" -eq 2 ] || fail "--screenshot into a missing folder: exit code $code, expected 2"
    grep -q "the folder '/nonexistent-folder' does not exist" <<<"$err" || fail "--screenshot: $err"
    # a picture is written as PNG: another extension is refused, not written as PNG under its name
    err=$("$app" --screenshot "$out/x.jpg" 2>&1 >/dev/null); code=$?
    [ "$code" -eq 2 ] || fail "--screenshot x.jpg: exit code $code, expected 2"
    grep -q "give a name ending in .png" <<<"$err" || fail "--screenshot x.jpg: $err"
    # flags that would be ignored are refused
    err=$("$app" --cancel-after 1 2>&1 >/dev/null); code=$?
    [ "$code" -eq 2 ] || fail "--cancel-after alone: exit code $code, expected 2"
    grep -q -- "--cancel-after requires --live-benchmark" <<<"$err" || fail "--cancel-after alone: $err"
    err=$("$app" --rung warptile --tma-swizzle 64 --screenshot "$out/x.png" 2>&1 >/dev/null); code=$?
    [ "$code" -eq 2 ] || fail "--tma-swizzle on warptile: exit code $code, expected 2"
    grep -q -- "--tma-swizzle shows the TMA swizzle mode of a Hopper rung" <<<"$err" || fail "--tma-swizzle: $err"
    # sizes and knobs no rung could take are refused by the flag, as gemmlab-cli refuses them
    err=$("$app" --m -5 --screenshot "$out/x.png" 2>&1 >/dev/null); code=$?
    [ "$code" -eq 2 ] || fail "--m -5: exit code $code, expected 2"
    grep -q -- "--m: '-5' is out of range: give a whole number from 1 to" <<<"$err" || fail "--m -5: $err"
    err=$("$app" --stages 100 --screenshot "$out/x.png" 2>&1 >/dev/null); code=$?
    [ "$code" -eq 2 ] || fail "--stages 100: exit code $code, expected 2"
    grep -q -- "--stages: '100' is out of range" <<<"$err" || fail "--stages 100: $err"
    err=$("$app" --alpha 1e39 --screenshot "$out/x.png" 2>&1 >/dev/null); code=$?
    [ "$code" -eq 2 ] || fail "--alpha 1e39: exit code $code, expected 2"
    grep -q -- "--alpha: '1e39' is out of range for a float" <<<"$err" || fail "--alpha 1e39: $err" ;;
  empty-flags)  # a text flag given as '' is refused (exit 2) before any window opens, never ignored
    for flag in --screenshot --panel --rung --order --compare-order --settings; do
      err=$("$app" "$flag" '' 2>&1 >/dev/null); code=$?
      [ "$code" -eq 2 ] || fail "$flag '': exit code $code, expected 2"
      grep -q -- "$flag: is empty" <<<"$err" || fail "$flag '': no message naming the flag: $err"
    done ;;
  corrupt-settings)  # a damaged settings file is a message; the app still renders
    need_xvfb
    settings="$out/corrupt-settings.json"
    printf '{"rung": "vectorized", "knobs": ' >"$settings"
    err=$(xvfb "$app" --settings "$settings" --screenshot "$out/corrupt-settings.png" 2>&1 >/dev/null); code=$?
    [ "$code" -eq 0 ] || fail "exit code $code with a corrupt settings file: $err"
    grep -q "not a valid settings file" <<<"$err" || fail "no message about the settings file: $err"
    "$png_check" "$out/corrupt-settings.png" || fail "no picture" ;;
  invalid-config)  # an invalid configuration renders, showing why, and the run exits 1 saying why
    need_xvfb
    err=$(xvfb "$app" --rung smem-tiling --bm 33 --panel tile-stepper --screenshot "$out/invalid-config.png" 2>&1 \
          >/dev/null); code=$?
    [ "$code" -eq 1 ] || fail "exit code $code for an invalid configuration, expected 1: $err"
    grep -q "the configuration shown is invalid" <<<"$err" || fail "no message about the configuration: $err"
    "$png_check" "$out/invalid-config.png" --region 0.32 0.08 1.0 1.0 || fail "the panel area is blank" ;;
  full-disk)  # a screenshot that cannot be written is a sentence and exit 1, never "wrote"
    need_xvfb
    [ -w /dev/full ] || { echo "skipped: no writable /dev/full"; exit 77; }
    result=$(xvfb "$app" --panel ladder --screenshot /dev/full 2>&1); code=$?
    [ "$code" -eq 1 ] || fail "exit code $code writing to /dev/full, expected 1: $result"
    grep -q "could not write the screenshot '/dev/full'" <<<"$result" || fail "no message: $result"
    grep -q "wrote" <<<"$result" && fail "reports success: $result" ;;
  frame-times)  # the report is printed (its figures are not judged: this is no timed test)
    need_xvfb
    report=$(xvfb "$app" --panel banks --frames 12 --frame-times) || fail "exit code $?"
    grep -Eq "frame times, panel banks, .* median [0-9.]+ ms" <<<"$report" || fail "no frame-time report: $report"
    grep -q "12 frames after" <<<"$report" || fail "--frames 12 did not measure 12 frames: $report" ;;
  index-out-of-range)  # stepper indices count from 0; past the end is a usage error naming the flag, never clamped
    need_xvfb
    rm -f "$out/index.png"
    err=$(xvfb "$app" --rung smem-tiling --m 256 --n 256 --k 256 --warp 99 --screenshot "$out/index.png" 2>&1 >/dev/null)
    code=$?
    [ "$code" -eq 2 ] || fail "--warp 99: exit code $code, expected 2"
    grep -q -- "--warp: warp 99 does not exist: the block has warps 0-31 (indices count from 0)" <<<"$err" \
      || fail "--warp 99: $err"
    err=$(xvfb "$app" --rung smem-tiling --m 256 --n 256 --k 256 --phase 9999 --screenshot "$out/index.png" 2>&1 >/dev/null)
    code=$?
    [ "$code" -eq 2 ] || fail "--phase 9999: exit code $code, expected 2"
    grep -q -- "--phase: phase 9999 does not exist: the block has phases 0-" <<<"$err" || fail "--phase 9999: $err"
    err=$(xvfb "$app" --rung smem-tiling --m 256 --n 256 --k 256 --phase 1 --instruction 99 \
          --screenshot "$out/index.png" 2>&1 >/dev/null)
    code=$?
    [ "$code" -eq 2 ] || fail "--instruction 99: exit code $code, expected 2"
    grep -q -- "--instruction: instruction 99 does not exist: warp 0 in phase 1 has instructions 0-" <<<"$err" \
      || fail "--instruction 99: $err"
    err=$(xvfb "$app" --panel launch-order --rung smem-tiling --m 256 --n 256 --k 256 --wave 3 \
          --screenshot "$out/index.png" 2>&1 >/dev/null)
    code=$?
    [ "$code" -eq 2 ] || fail "--wave 3: exit code $code, expected 2"
    grep -q -- "--wave: wave 3 does not exist: the launch has only wave 0" <<<"$err" || fail "--wave 3: $err"
    [ ! -e "$out/index.png" ] || fail "a refused index still wrote a picture" ;;
  rung-number)  # a rung by its ladder number, as the rung pages name it
    need_xvfb
    xvfb "$app" --rung 9 --panel ladder --screenshot "$out/rung-number.png" >/dev/null || fail "--rung 9: exit code $?"
    "$png_check" "$out/rung-number.png" || fail "no picture" ;;
  lab-flags)  # the layout lab's question from flags: a value unreadable on its own is a usage error naming the flag;
    # a question whose parts do not fit renders with the sentence and exits 1; a good one renders
    err=$("$app" --panel layout-lab --lab-preset no-such-preset --screenshot "$out/x.png" 2>&1 >/dev/null); code=$?
    [ "$code" -eq 2 ] || fail "--lab-preset no-such-preset: exit code $code, expected 2"
    grep -q -- "--lab-preset: no preset 'no-such-preset'; the presets are: rows-of-64-halves" <<<"$err" \
      || fail "--lab-preset: $err"
    err=$("$app" --panel layout-lab --lab-op ldmatrix.x3 --screenshot "$out/x.png" 2>&1 >/dev/null); code=$?
    [ "$code" -eq 2 ] || fail "--lab-op ldmatrix.x3: exit code $code, expected 2"
    grep -q -- "--lab-op: unknown access 'ldmatrix.x3'" <<<"$err" || fail "--lab-op: $err"
    err=$("$app" --panel layout-lab --lab-layout '(64,64):(64,' --screenshot "$out/x.png" 2>&1 >/dev/null); code=$?
    [ "$code" -eq 2 ] || fail "--lab-layout '(64,64):(64,': exit code $code, expected 2"
    grep -q -- "--lab-layout: " <<<"$err" || fail "--lab-layout: $err"
    err=$("$app" --lab-element fp64 2>&1 >/dev/null); code=$?
    [ "$code" -eq 2 ] || fail "--lab-element fp64: exit code $code, expected 2"
    grep -q -- "--lab-element: " <<<"$err" || fail "--lab-element: $err"
    need_xvfb
    rm -f "$out/lab-invalid.png"
    err=$(xvfb "$app" --panel layout-lab --lab-layout '(64,64):(1,1)' --screenshot "$out/lab-invalid.png" 2>&1 \
          >/dev/null); code=$?
    [ "$code" -eq 1 ] || fail "an overlapping layout: exit code $code, expected 1: $err"
    grep -q "the layout lab's question shown has no answer" <<<"$err" || fail "no message about the question: $err"
    "$png_check" "$out/lab-invalid.png" --region 0.32 0.08 1.0 1.0 || fail "the panel area is blank"
    xvfb "$app" --panel layout-lab --lab-preset cp-async-rows-64 --lab-op cp.async.8 --lab-swizzle 3,3,3 \
      --screenshot "$out/lab.png" >/dev/null || fail "a valid question: exit code $?"
    "$png_check" "$out/lab.png" || fail "no picture" ;;
  *) echo "unknown check $check"; exit 2 ;;
esac
echo "ok: $check"
