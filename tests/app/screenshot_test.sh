#!/usr/bin/env bash
# screenshot_test.sh APP PNG_CHECK OUT_DIR: renders the app under Xvfb and checks the PNG is not blank.
set -u
app=$1 check=$2 out=$3
if ! command -v xvfb-run >/dev/null; then
  echo "skipped: xvfb-run is not installed (scripts/setup installs it)"
  exit 77
fi
mkdir -p "$out"
rm -f "$out/welcome.png"
xvfb-run -a -s "-screen 0 1600x1000x24" "$app" --screenshot "$out/welcome.png" || exit 1
"$check" "$out/welcome.png"
