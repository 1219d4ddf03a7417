# Sourced by the probes' ncu scripts (tests/calibration/*_ncu.sh), ON THE GPU MACHINE, after they set $out to their
# OUTDIR: makes $out absolute, moves to the checkout's root, finds ncu ($ncu) and nvcc, and defines merge_runs.
mkdir -p "$out" && out=$(cd "$out" && pwd)
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
export PATH=/usr/local/cuda/bin:$PATH
ncu=$(command -v ncu || ls -d /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | tail -1)

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
