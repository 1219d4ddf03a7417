#!/usr/bin/env bash
# expect_exit.sh CODE COMMAND...: passes when COMMAND exits with exactly CODE.
expected=$1; shift
"$@"
actual=$?
if [ "$actual" -ne "$expected" ]; then
  echo "expected exit code $expected, got $actual" >&2
  exit 1
fi
