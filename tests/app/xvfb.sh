# Sourced by the desktop tests: xvfb APP ARGS... runs the app under Xvfb and returns the app's own exit code. On a
# busy machine xvfb-run can fail to remove its temporary folder after the app has finished ("problem while cleaning
# up temporary directory", exit 5), which is not the app's.
xvfb() {
  local status_file code
  status_file=$(mktemp)
  xvfb-run -a -s "-screen 0 1600x1000x24" sh -c '"$@"; echo $? >"$0"' "$status_file" "$@"
  code=$(cat "$status_file")
  rm -f "$status_file"
  return "${code:-125}"  # empty: the app never ran (Xvfb did not start)
}
