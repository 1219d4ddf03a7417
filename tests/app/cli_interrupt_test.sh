#!/usr/bin/env bash
# cli_interrupt_test.sh CLI OUT_DIR: a long simulation shows its progress on stderr, and Ctrl-C stops it cleanly: a
# sentence and exit 130, within moments, not after the minutes the whole run would take.
set -u
cli=$1 out=$2
mkdir -p "$out"
fail() { echo "FAILED: $*"; exit 1; }
# 65536^3 on smem-tiling: minutes of simulation.
"$cli" sim --rung smem-tiling --m 65536 --n 65536 --k 65536 >"$out/out.txt" 2>"$out/err.txt" &
pid=$!
sleep 3
kill -INT "$pid"
for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$pid" 2>/dev/null; then
  kill -KILL "$pid"
  fail "still running 10 s after Ctrl-C"
fi
wait "$pid"; code=$?
err=$(cat "$out/err.txt")
[ "$code" -eq 130 ] || fail "exit code $code after Ctrl-C, expected 130: $err"
grep -q "simulating smem-tiling: [0-9]*%" <<<"$err" || fail "no progress line: $err"
grep -q "stopped (Ctrl-C)" <<<"$err" || fail "no sentence saying it stopped: $err"
echo "ok"
