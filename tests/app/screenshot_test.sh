#!/usr/bin/env bash
# screenshot_test.sh APP PNG_CHECK OUT_DIR: renders the app under Xvfb, once with its defaults and once per panel
# (the names come from the app itself: gemmlab --list-panels), at its own window size and at 1280 x 800 (a laptop's
# screen: the launch-order panel once crashed the renderer there), and checks that each picture, and the panel's part
# of it, is not blank.
set -u
app=$1 check=$2 out=$3
if ! command -v xvfb-run >/dev/null; then
  echo "skipped: xvfb-run is not installed (scripts/setup installs it)"
  exit 77
fi
mkdir -p "$out"
. "$(dirname "$0")/xvfb.sh"  # xvfb APP ARGS...: the app under Xvfb, with its own exit code
failed=0
shoot() {  # shoot NAME ARGS...: render into OUT/NAME.png and check the right-hand (panel) part of it
  local name=$1; shift
  rm -f "$out/$name.png"
  if ! xvfb "$app" --screenshot "$out/$name.png" "$@"; then
    echo "FAILED: gemmlab --screenshot $name.png $*"
    failed=1
    return
  fi
  "$check" "$out/$name.png" || failed=1
  "$check" "$out/$name.png" --region 0.32 0.08 1.0 1.0 || { echo "FAILED: the panel area of $name.png is blank"; failed=1; }
}
shoot welcome
panels=$("$app" --list-panels) || { echo "FAILED: gemmlab --list-panels"; exit 1; }
[ -n "$panels" ] || { echo "FAILED: gemmlab --list-panels printed nothing"; exit 1; }
for panel in $panels; do
  shoot "$panel" --panel "$panel"
  shoot "$panel-1280x800" --panel "$panel" --window-size 1280 800
done
# The launch-order panel's own flags: two other orders, one wave selected, tiles coloured by launch order.
shoot launch-order-flags --panel launch-order --rung blocktile-2d --m 4096 --n 4096 --k 256 --order cutlass:4 \
  --compare-order col --wave 1 --colour-by launch
exit $failed
