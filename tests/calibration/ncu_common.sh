# Sourced by the probes' ncu scripts (tests/calibration/*_ncu.sh), ON THE GPU MACHINE, after they set $out to their
# OUTDIR: makes $out absolute, moves to the checkout's root, finds ncu ($ncu) and nvcc, and defines profile_run and merge_runs.
mkdir -p "$out" && out=$(cd "$out" && pwd)
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
export PATH=/usr/local/cuda/bin:$PATH
ncu=$(scripts/find-ncu)

# profile_run RUN SECONDS METRICS NCU_ARGUMENT... : ncu's METRICS (--clock-control none: the card's own clocks) of what
# the arguments name and launch, within SECONDS, into $out/ncu-RUN.csv and its log into $out/ncu-RUN.log; says and
# returns ncu's status.
profile_run() {
  local run=$1 seconds=$2 metrics=$3
  shift 3
  timeout "$seconds" $ncu --clock-control none --csv --print-units base --metrics "$metrics" "$@" \
    > "$out/ncu-$run.csv" 2> "$out/ncu-$run.log"
  local rc=$?
  echo "ncu $run rc $rc"
  return $rc
}

# merge_runs FILE RUN...: one CSV (run, metric, unit, value) of $out/ncu-RUN.csv, ncu's --csv output of each run, as
# the probes keep it beside their script; written to $out/FILE.
merge_runs() {
  python3 - "$out" "$@" <<'PY'
import csv, sys, pathlib
out = pathlib.Path(sys.argv[1])
with open(out / sys.argv[2], "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["run", "metric", "unit", "value"])
    for run in sys.argv[3:]:
        path = out / ("ncu-%s.csv" % run)
        rows = list(csv.reader(path.read_text().splitlines())) if path.exists() else []
        header = next((i for i, r in enumerate(rows) if r and r[0] == "ID"), None)
        for r in rows[header + 1:] if header is not None else []:
            d = dict(zip(rows[header], r))
            w.writerow([run, d["Metric Name"], d["Metric Unit"], d["Metric Value"].replace(",", "")])
PY
}
