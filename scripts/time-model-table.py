#!/usr/bin/env python3
"""scripts/time-model-table.py [--cli CLI] [--check]: the time model against the H100, from recorded data.

For every configuration timed on the H100 in the recorded benchmark reports (REPORTS below: every compiled
configuration of every rung at 1024-8192, FP16 inputs for the tensor-core rungs, each row with the SM clock NVML read
right after its runs), runs
`gemmlab-cli sim --json` with the same rung, configuration and size, and compares the time model's prediction with the
measured median. It writes
  - docs/time-model-data/predictions.json: each row's prediction, limit and measured time (the recorded comparison);
  - the tables between the markers "<!-- time-model:begin -->" and "<!-- time-model:end -->" of docs/fidelity.md:
    the summary against the issue's targets, then every row;
  - docs/time-model.md's table of the H100's measured timing parameters and each recorded run's clocks.
--check re-predicts nothing: it checks that docs/fidelity.md and docs/time-model.md hold the tables predictions.json and
the H100 profile give (fast, for CI); the test CompiledFacts.TheRecordedPredictionsAreTheModelsOwn re-predicts some rows
and checks them against predictions.json.
It also writes, for each rung's default at 4096^3, what ncu measured (read from docs/time-model-data/NN-slug.ncu.csv,
recorded by scripts/ncu-sections-run): the kernel's
duration and average SM clock, the busiest of the pipes the model's terms stand for, and the top stall reasons: the
evidence that the term the model names is the real limit; and each default's warp instructions as the model counts
them (the build's SASS, tests/gpu/compiled_facts_test.cpp) beside ncu's instructions executed.
"""
import argparse
import collections
import concurrent.futures
import csv
import json
import math
import os
import pathlib
import re
import subprocess
import sys

from ncu_report import ncu_kernels
from rank_stats import spearman

ROOT = pathlib.Path(__file__).resolve().parent.parent
REPORTS = ["docs/time-model-data/fp32-alternates.json", "docs/time-model-data/tensor-alternates-fp16.json",
           "docs/results-data/tma-swizzle/bench17-fp16.json", "docs/results-data/tma-store/bench-row.json"]
PREDICTIONS = ROOT / "docs/time-model-data/predictions.json"
DOC = ROOT / "docs/fidelity.md"
BEGIN, END = "<!-- time-model:begin -->", "<!-- time-model:end -->"
PARAMETERS_DOC = ROOT / "docs/time-model.md"
PARAMETERS = ("<!-- time-model-parameters:begin -->", "<!-- time-model-parameters:end -->")
PROFILE = ROOT / "assets/devices/h100-sxm.json"
REPEAT = ROOT / "docs/time-model-data/repeat"  # three runs in turn of every default at 4096 and 8192 (env.txt there)
REPEAT_MARKERS = ("<!-- time-model-repeat:begin -->", "<!-- time-model-repeat:end -->")
HELD = ROOT / "docs/time-model-data/held"  # the tensor-core rungs held at their own clock (bench --hold; env.txt there)
HELD_MARKERS = ("<!-- time-model-held:begin -->", "<!-- time-model-held:end -->")
DATA_PIPE_MARKERS = ("<!-- time-model-data-pipe:begin -->", "<!-- time-model-data-pipe:end -->")
POWER_CAP = 0x4  # NVML's clocks event reason: the software power cap
TARGET = {1024: 0.30, 2048: 0.30, 4096: 0.20, 8192: 0.20}  # the issue's: within 30% at 1024 and 2048, 20% above


def default_row(rows, slug, size):
    """The row of a rung's default at a size among recorded rows, or None."""
    return next((r for r in rows if r["rung"] == slug and r["size"] == size and r["config"] == "default"), None)


def within_target(ratios, size):
    """How many of these predicted / measured ratios are within the issue's target at this size."""
    return sum(1 for x in ratios if abs(x - 1) <= TARGET[size])


def measured_rows():
    """(rung, config text, kernel_config, size) -> the measured row; FP16 preferred for tensor-core rungs."""
    rows = {}
    for report in REPORTS:
        for r in json.loads((ROOT / report).read_text())["rows"]:
            if r["name"] == "cublas" or r["status"] != "timed" or not (r["m"] == r["n"] == r["k"]) or r["m"] not in TARGET:
                continue
            key = (r["name"], r["config"], r["m"])
            old = rows.get(key)
            if old is None or (old["input"] == "bf16" and r["input"] == "fp16"):
                rows[key] = dict(r, report=report)
    return rows


def knobs_of(cli, rung, cache={}):
    if rung not in cache:
        out = subprocess.run([cli, "sim", "--rung", rung, "--m", "256", "--n", "256", "--k", "256", "--json"],
                             capture_output=True, text=True, check=True)
        cache[rung] = list(json.loads(out.stdout)["config"].keys())
    return cache[rung]


def recorded_knob(rung, knob, value):
    """A knob's value as an earlier report recorded it, in today's meaning: sim::recorded_knob_value's rule (the TMA
    rungs' swizzle wrote TMA's 128-byte mode as 0 until 2026-11-28)."""
    return 128 if knob == "swizzle" and value == 0 and rung.startswith("tma-wgmma") else value


def predict_all(cli, jobs):
    """predict() of each (row, clock_mhz), in their order: the CLI runs side by side, one per core."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        return list(pool.map(lambda job: predict(cli, *job), jobs))


def predict(cli, row, clock_mhz=0):
    args = [cli, "sim", "--rung", row["name"], "--m", str(row["m"]), "--n", str(row["n"]), "--k", str(row["k"]), "--json"]
    if clock_mhz:
        args += ["--clock-mhz", str(clock_mhz)]
    for knob in knobs_of(cli, row["name"]):
        if knob in row["kernel_config"]:  # a knob newer than the report keeps its default, which the report ran
            args += ["--" + knob.replace("_", "-"), str(recorded_knob(row["name"], knob, row["kernel_config"][knob]))]
    out = subprocess.run(args, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit("time-model-table: %s failed: %s" % (" ".join(args), out.stderr.strip()))
    doc = json.loads(out.stdout)
    t = doc["time_model"]
    if not t["available"]:
        raise SystemExit("time-model-table: no time model: " + t["note"])
    kernel = doc["kernel"]
    math_instruction = ("wgmma" if kernel.get("wgmma", {}).get("instructions") else "mma.sync" if kernel.get("mma") else "FFMA")
    return {"predicted_ms": t["predicted_seconds"] * 1e3, "limit": t["limit"], "clock_mhz": t["clock_mhz"],
            "math": math_instruction,
            # the data pipe's wavefronts of the whole kernel: shared wavefronts, and global accesses' (Rule G6)
            "data_pipe_wavefronts": sum(op.get("wavefronts", 0) + op.get("data_pipe_wavefronts", 0)
                                        for op in kernel["ops"].values()),
            "registers_per_thread": doc["occupancy"]["registers_per_thread"], "instructions": t["instructions"],
            "terms_ms": {term["term"]: term["seconds"] * 1e3 for term in t["terms"]},
            # the L2 term's bytes and the rate the model gives them; of the bytes, the stores (C's, and split-K's
            # partial sums): the rest are its reads
            "l2": next({"bytes": term["work"], "rate": term["rate"]} for term in t["terms"] if term["term"] == "L2"),
            "l2_store_bytes": t["l2_store_bytes"]}


NCU = ROOT / "docs/time-model-data"
# The ncu metrics that stand for the model's terms (percent of peak), and the stall reasons' metric prefix.
UTILISATION = [("issue", "sm__issue_active.avg.pct_of_peak_sustained_elapsed"),
               ("data pipe", "l1tex__data_pipe_lsu_wavefronts.avg.pct_of_peak_sustained_elapsed"),
               ("tensor", "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active"),
               ("L2", "lts__t_sectors.avg.pct_of_peak_sustained_elapsed"),
               ("DRAM", "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed")]


def ncu_row(rung_number, slug):
    """{metric: value} of the recorded ncu run of a rung's default at 4096^3, or None."""
    path = NCU / ("%02d-%s.ncu.csv" % (rung_number, slug))
    if not path.exists():
        return None
    return ncu_kernels(path)[0]


def probe_runs(name):
    """{(run, metric): value} of a probe's ncu runs kept in tests/calibration/NAME (columns run, metric, unit, value)."""
    return {(r["run"], r["metric"]): float(r["value"]) for r in csv.DictReader((ROOT / "tests" / "calibration" / name).open())}


# The probes' ncu runs that also profiled rung defaults at 4096^3 (the run named by the rung): their LSU data-pipe
# wavefronts against the data-pipe term's.
DATA_PIPE_RUNS = ("l1_sectors_ncu_h100.csv", "cp_async_rows_ncu_h100.csv")
DATA_PIPE_NCU = "l1tex__data_pipe_lsu_wavefronts.sum"


def data_pipe_table(data):
    """The data-pipe term's wavefronts (the whole kernel's) of the rung defaults the probes' ncu runs profiled, against
    ncu's l1tex__data_pipe_lsu_wavefronts.sum."""
    out = ["The data pipe term's wavefronts against ncu's (`%s`), for the rung defaults at 4096³ that the probes' ncu "
           "runs also profiled (%s; FP16 inputs for the tensor-core rungs):" % (
               DATA_PIPE_NCU, ", ".join("`tests/calibration/%s`" % name for name in DATA_PIPE_RUNS)), "",
           "| rung | ncu: LSU data-pipe wavefronts | model | model / ncu |", "| --- | ---: | ---: | ---: |"]
    ratios = []
    for name in DATA_PIPE_RUNS:
        ncu = probe_runs(name)
        for _, slug in data["ladder"]:
            row = default_row(data["rows"], slug, 4096)
            if (slug, DATA_PIPE_NCU) not in ncu or row is None:
                continue
            measured = ncu[(slug, DATA_PIPE_NCU)]
            ratios.append(row["data_pipe_wavefronts"] / measured)
            out.append("| %s | {:,.0f} | {:,.0f} | %.3f× |".format(measured, row["data_pipe_wavefronts"]) % (
                slug, ratios[-1]))
    out += ["", "The model's count is %.3f× to %.3f× of ncu's on these %d rungs." % (min(ratios), max(ratios), len(ratios))]
    return "\n".join(out)


def number(text):
    return float(text.replace(",", "")) if text not in ("", "n/a", None) else 0.0


def ncu_table(rows, ladder):
    out = ["| rung | the model's limit | predicted / measured | ncu: duration, SM clock | ncu: busiest pipes (% of peak) "
           "| ncu: top stall reasons (cycles per issued instruction) |",
           "| --- | --- | ---: | ---: | --- | --- |"]
    for number_, slug in ladder:
        row = default_row(rows, slug, 4096)
        ncu = ncu_row(number_, slug)
        if row is None or ncu is None:
            continue
        pipes = sorted(((number(ncu.get(metric, "")), name) for name, metric in UTILISATION), reverse=True)[:3]
        stalls = sorted(((number(v), k.split("stalled_")[1].split("_per")[0]) for k, v in ncu.items()
                         if k.startswith("smsp__average_warps_issue_stalled_") and k.endswith("_per_issue_active.ratio")),
                        reverse=True)[:3]
        out.append("| %s | %s | %.2f× | %.3f ms, %.0f MHz | %s | %s |" % (
            slug, row["limit"], row["predicted_ms"] / row["measured_ms"],
            number(ncu["gpu__time_duration.sum"]) / 1e6, number(ncu["gpc__cycles_elapsed.avg.per_second"]) / 1e6,
            ", ".join("%s %.0f" % (name, value) for value, name in pipes),
            ", ".join("`%s` %.1f" % (name, value) for value, name in stalls)))
    return "\n".join(out)


def ncu_problem(slug):
    """The problem the rung default's ncu record profiled (docs/time-model-data/ncu-problems.json)."""
    problems = json.loads((NCU / "ncu-problems.json").read_text())
    return tuple(problems["problems"].get(slug, problems["default"]))


def untimed_instructions(cli, numbered_slugs):
    """The issue term's instructions of each rung the recorded H100 runs did not time (rungs 21 on, recorded by ncu on
    the H200): its default at its ncu record's problem, predicted by the CLI."""
    out = []
    for number_, slug in numbered_slugs:
        if ncu_row(number_, slug) is None:
            continue
        m, n, k = ncu_problem(slug)
        p = predict(cli, {"name": slug, "m": m, "n": n, "k": k, "kernel_config": {}})
        out.append({"number": number_, "rung": slug, "m": m, "n": n, "k": k, "instructions": p["instructions"]})
    return out


def instruction_ratios(data):
    """{rung: (ncu's instructions executed, the model's instructions, the description's)} of every rung's default with
    an ncu record: at 4096^3 from the timed rows, the others (data["untimed_instructions"]) at their ncu problem."""
    found = {}
    for number_, slug in data["ladder"]:
        row = default_row(data["rows"], slug, 4096)
        if row is not None and "instructions" in row:
            found[slug] = (number_, row["instructions"])
    for u in data.get("untimed_instructions", []):
        found[u["rung"]] = (u["number"], u["instructions"])
    out = {}
    for slug, (number_, i) in sorted(found.items(), key=lambda kv: kv[1][0]):
        ncu = ncu_row(number_, slug)
        if ncu is not None:
            out[slug] = (number(ncu["smsp__inst_executed.sum"]), i, ncu.get("device__attribute_display_name", ""))
    return out


def instructions_table(data):
    """The issue term's warp instructions of each rung's default against ncu's smsp__inst_executed.sum."""
    out = ["| rung | problem | ncu on | ncu: instructions executed | model: SASS loops + description | model / ncu | "
           "the description's alone | description / ncu |", "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |"]
    model_ratios, description_ratios = [], []
    for slug, (executed, i, device) in instruction_ratios(data).items():
        model_ratios.append(i["kernel"] / executed)
        description_ratios.append(i["description"] / executed)
        source = "" if i["source"] == "sass" else " (%s)" % i["source"]
        m, n, k = ncu_problem(slug)
        problem = "%d³" % m if m == n == k else "%d × %d × %d" % (m, n, k)
        out.append("| %s | %s | %s | %s | %s%s | %.2f× | %s | %.2f× |" % (
            slug, problem, device.replace("NVIDIA ", ""), "{:,.0f}".format(executed), "{:,.0f}".format(i["kernel"]),
            source, model_ratios[-1], "{:,.0f}".format(i["description"]), description_ratios[-1]))
    if model_ratios:
        out += ["", "The model's count is %.2f× to %.2f× of ncu's on the %d rungs; the description's own instructions "
                "alone were %.2f× to %.2f×." % (min(model_ratios), max(model_ratios), len(model_ratios),
                                                 min(description_ratios), max(description_ratios))]
    return "\n".join(out)


def tables(data):
    rows = data["rows"]
    out = ["Predicted (`gemmlab-cli sim`, time model) against measured (`gemmlab-cli bench`, median) on the H100; "
           "FP16 inputs for the tensor-core rungs. Regenerate: `scripts/time-model-table.py` (the measured reports: " +
           ", ".join("`%s`" % r for r in REPORTS) + ").", "",
           "| size | configurations | within the target | lowest ratio | highest ratio | Spearman, defaults |",
           "| ---: | ---: | ---: | ---: | ---: | ---: |"]
    for size, tolerance in TARGET.items():
        at = [r for r in rows if r["size"] == size]
        if not at:
            continue
        ratios = [r["predicted_ms"] / r["measured_ms"] for r in at]
        inside = within_target(ratios, size)
        defaults = [r for r in at if r["config"] == "default"]
        rho = spearman([r["predicted_ms"] for r in defaults], [r["measured_ms"] for r in defaults])
        out.append("| %d³ | %d | %d (±%d%%) | %.2f× | %.2f× | %.3f |" % (
            size, len(at), inside, tolerance * 100, min(ratios), max(ratios), rho))
    # Within each rung and size: do the alternates come in the measured order?
    pairs = agree = 0
    for size in TARGET:
        for rung in sorted({r["rung"] for r in rows}):
            group = [r for r in rows if r["rung"] == rung and r["size"] == size]
            for i in range(len(group)):
                for j in range(i + 1, len(group)):
                    a, b = group[i], group[j]
                    if abs(a["measured_ms"] / b["measured_ms"] - 1) < 0.03:
                        continue  # within run-to-run noise: no measured order to match
                    pairs += 1
                    agree += (a["predicted_ms"] < b["predicted_ms"]) == (a["measured_ms"] < b["measured_ms"])
    out += ["", "Compiled alternates of one rung at one size, taken in pairs whose measured times differ by more "
            "than 3%%: the model orders %d of %d pairs as measured." % (agree, pairs), "",
            "| rung | configuration | size | predicted ms | measured ms | predicted / measured | limit |",
            "| --- | --- | ---: | ---: | ---: | ---: | --- |"]
    for r in rows:
        ratio = r["predicted_ms"] / r["measured_ms"]
        flag = "" if abs(ratio - 1) <= TARGET[r["size"]] else " **"
        out.append("| %s | %s | %d | %.4g | %.4g | %.2f×%s | %s |" % (r["rung"], r["config"], r["size"], r["predicted_ms"],
                                                                      r["measured_ms"], ratio, flag, r["limit"]))
    out += ["", "** outside the target (±30% at 1024³ and 2048³, ±20% at 4096³ and 8192³).", "",
            "The measured rows are the H100's recorded runs of each configuration as it was compiled then; rung 20's "
            "`tma_store=1` with one producer warp no longer launches since A's boxes follow a short M (2026-11-30), "
            "and the build compiles it with `setmaxnreg=1` instead "
            "([rung 20](rungs/20-tma-wgmma-persistent.md#storing-through-shared-memory-tma-stores)).", "",
            "Each rung's default at 4096³ under ncu (`docs/time-model-data/NN-slug.ncu.csv`; reproduce on the GPU "
            "machine: `scripts/device-build && scripts/ncu-sections-run OUT`), beside the model's limit:", "",
            ncu_table(rows, data["ladder"]), "",
            "The instruction issue term's warp instructions of each default (the build's SASS, its loops' "
            "executions solved against the description's counts: [time-model.md](time-model.md#instructions-from-the-sass)) against "
            "ncu's `smsp__inst_executed.sum` in the same recordings (rungs 21 on, which the H100's runs above did not "
            "time, recorded on the H200: the same SASS):", "",
            instructions_table(data)]
    return "\n".join(out)


def parameters():
    """The H100 profile's measured timing, and the SM clock at the start and end of each recorded run."""
    profile = json.loads(PROFILE.read_text())
    out = ["| parameter | H100 |", "| --- | ---: |"]
    for name, value in profile["timing"].items():
        out.append("| `%s` | %s |" % (name, ("%.4g" % value) if isinstance(value, float) else value))
    out += ["", "Source: " + profile["sources"]["timing"], "",
            "The SM clock over each recorded benchmark run the comparison uses (NVML, at its start and its end):", "",
            "| run | date | SM clock at the start | at the end |", "| --- | --- | ---: | ---: |"]
    for report in REPORTS:
        r = json.loads((ROOT / report).read_text())
        out.append("| `%s` | %s | %d MHz | %d MHz |" % (report, r["date_utc"], r["sm_clock_start_mhz"],
                                                       r["sm_clock_end_mhz"]))
    return "\n".join(out)


def repeat_runs():
    """[(size, report)] of the repeated runs in the order they ran, and {(rung, size): [(median ms, NVML clock)]}."""
    runs = sorted(((int(p.stem.split("-")[1]), json.loads(p.read_text())) for p in REPEAT.glob("rep*-*.json")),
                  key=lambda run: run[1]["date_utc"])
    medians = {}
    for size, report in runs:
        for r in report["rows"]:
            if r["status"] == "timed" and r["name"] != "cublas":
                medians.setdefault((r["name"], size), []).append((r["median_ms"], r["sm_clock_mhz"]))
    return runs, medians


Sample = collections.namedtuple("Sample", "time clock_mhz watts reasons")


def nvml_samples(folder):
    """NVML's samples in FOLDER/clocks.csv (nvidia-smi's timestamp, SM clock, power, temperature and clock event
    reasons), and the interval between them in ms, read from the nvidia-smi command that FOLDER/env.txt records."""
    import datetime
    interval = re.search(r"nvidia-smi .*-lms (\d+)", (folder / "env.txt").read_text())
    samples = [Sample(datetime.datetime.strptime(r[0].strip()[:19], "%Y/%m/%d %H:%M:%S"), number(r[1].split()[0]),
                      number(r[2].split()[0]), int(r[4], 16))
               for r in list(csv.reader((folder / "clocks.csv").read_text().splitlines()))[1:] if len(r) > 4]
    return samples, int(interval.group(1))


def clock_samples(runs):
    """NVML's samples (nvml_samples) taken while the 8192^3 runs ran, and their interval in ms."""
    import datetime
    def when(text):
        return datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ")
    # A report's date is its start, to the second: a run's window ends a second after the next one starts (which
    # begins with FP32 rows, far from the power cap).
    starts = [when(report["date_utc"]) for _, report in runs]
    windows = [(starts[i], starts[i + 1] + datetime.timedelta(seconds=1) if i + 1 < len(starts) else datetime.datetime.max)
               for i, (size, _) in enumerate(runs) if size == 8192]
    samples, interval = nvml_samples(REPEAT)
    return [s for s in samples if any(a <= s.time < b for a, b in windows)], interval


def repeatability(data):
    """The repeated runs beside the recorded comparison: how far each default's median moves from run to run, and
    which pairs of defaults the model orders otherwise than these runs (median of the three) do."""
    runs, medians = repeat_runs()
    predicted = {(r["rung"], r["size"]): r["predicted_ms"] for r in data["rows"] if r["config"] == "default"}
    spread = {key: max(m for m, _ in v) / min(m for m, _ in v) - 1 for key, v in medians.items()}
    middle = {key: sorted(m for m, _ in v)[len(v) // 2] for key, v in medians.items()}
    dates = sorted({report["date_utc"][:10] for _, report in runs})
    out = ["Every rung's default run %d times in turn on %s, kernels as in the table above " % (
               len({report["date_utc"] for size, report in runs if size == 4096}), " and ".join(dates)) +
           "(`docs/time-model-data/repeat/`, commands and versions in its `env.txt`): each run's median, how far apart "
           "they are, and NVML's SM clock after each run of the row.", "",
           "| rung | size | medians (ms) | spread | SM clock after each (MHz) |", "| --- | ---: | --- | ---: | --- |"]
    for rung_number, slug in data["ladder"]:
        for size in (4096, 8192):
            v = medians.get((slug, size))
            if v:
                out.append("| %s | %d | %s | %.1f%% | %s |" % (slug, size, ", ".join("%.4g" % m for m, _ in v),
                                                               spread[(slug, size)] * 100,
                                                               ", ".join(str(c) for _, c in v)))
    for size in (4096, 8192):
        keys = [(slug, size) for _, slug in data["ladder"] if (slug, size) in middle and (slug, size) in predicted]
        rho = spearman([predicted[k] for k in keys], [middle[k] for k in keys])
        wrong = []
        for i in range(len(keys)):
            for j in range(i + 1, len(keys)):
                a, b = keys[i], keys[j]
                if (predicted[a] < predicted[b]) != (middle[a] < middle[b]):
                    gap = max(middle[a], middle[b]) / min(middle[a], middle[b]) - 1
                    wrong.append((gap, a[0], b[0], gap > max(spread[a], spread[b])))
        wrong.sort(reverse=True)
        out += ["", "At %d³ the model's order of these %d defaults against their median run: Spearman %.3f; the pairs "
                "it orders otherwise, with how far apart the runs put them:" % (size, len(keys), rho), ""]
        out += ["- %s and %s: %.1f%% apart, %s" % (a, b, gap * 100, "more than either's spread from run to run"
                                                   if real else "within one of their spreads from run to run")
                for gap, a, b, real in wrong]
    samples, interval = clock_samples(runs)
    capped = [s for s in samples if s.reasons & POWER_CAP]
    free = [s.clock_mhz for s in samples if not s.reasons & POWER_CAP]
    if capped:
        out += ["", "NVML's samples every %d ms from the start of each 8192³ run to a second after the next run began "
                "(`clocks.csv`): %d of %d with the software power cap active (event reason %#x), the clock then between "
                "%d and %d MHz and the power read between %.0f and %.0f W (a sample is one instant); in the other samples "
                "the clock was between %d and %d MHz." % (
                    interval, len(capped), len(samples), POWER_CAP, min(s.clock_mhz for s in capped),
                    max(s.clock_mhz for s in capped), min(s.watts for s in capped), max(s.watts for s in capped),
                    min(free), max(free))]
    return "\n".join(out)


def held_rows(cli):
    """The held runs (HELD), each predicted at the model's clock and at the SM clock NVML read right after its runs."""
    report = json.loads((HELD / "tensor-held-fp16.json").read_text())
    rows = []
    timed = [r for r in report["rows"] if r["name"] != "cublas" and r["status"] == "timed"]
    own_list = predict_all(cli, [(r, 0) for r in timed])
    at_list = predict_all(cli, [(r, r["sm_clock_mhz"]) for r in timed])
    for r, own, at_clock in zip(timed, own_list, at_list):
        rows.append({"rung": r["name"], "config": r["config"], "size": r["m"], "measured_ms": r["median_ms"],
                     "sm_clock_mhz": r["sm_clock_mhz"], "math": own["math"], "predicted_ms": own["predicted_ms"],
                     "predicted_at_clock_ms": at_clock["predicted_ms"], "limit_at_clock": at_clock["limit"]})
    return {"hold_seconds": report["hold_seconds"], "date_utc": report["date_utc"], "rows": rows}


def held(data):
    """The tensor-core rungs held at their own clock: how much slower than alternated with cuBLAS, the clocks NVML
    read, and the model at its own clock and at each row's."""
    h = data["held"]
    alternated = {(r["rung"], r["config"], r["size"]): r["measured_ms"] for r in data["rows"]}
    rung_number = {slug: n for n, slug in data["ladder"]}
    numbers = [rung_number[r["rung"]] for r in h["rows"]]
    out = ["Every compiled configuration of rungs %d to %d at 4096³ and 8192³ (FP16), each run alone for %g s before its "
           "timed runs, which did not alternate with cuBLAS's (`gemmlab-cli bench --hold`, %s; "
           "`docs/time-model-data/held/`, commands in its `env.txt`). Each row's clock is NVML's right after its runs; "
           "\"at each row's clock\" is the model given that clock (`gemmlab-cli sim --clock-mhz`)." % (
               min(numbers), max(numbers), h["hold_seconds"], h["date_utc"][:16] + "Z"), "",
           "| rungs | size | configurations | held / alternated (median) | SM clock (MHz) | within the target at the "
           "model's clock | at each row's clock | predicted / measured at each row's clock |",
           "| --- | ---: | ---: | ---: | --- | ---: | ---: | --- |"]
    for math_instruction in sorted({r["math"] for r in h["rows"]}, key=lambda m: min(
            rung_number[r["rung"]] for r in h["rows"] if r["math"] == m)):
        group = [rung_number[r["rung"]] for r in h["rows"] if r["math"] == math_instruction]
        name = "%d to %d (`%s`)" % (min(group), max(group), math_instruction)
        for size in (4096, 8192):
            rows = [r for r in h["rows"] if r["math"] == math_instruction and r["size"] == size]
            if not rows:
                continue
            slower = sorted(r["measured_ms"] / alternated[(r["rung"], r["config"], size)] for r in rows
                            if (r["rung"], r["config"], size) in alternated)
            clocks = [r["sm_clock_mhz"] for r in rows]
            own = [r["predicted_ms"] / r["measured_ms"] for r in rows]
            at = [r["predicted_at_clock_ms"] / r["measured_ms"] for r in rows]
            out.append("| %s | %d | %d | %.2f× | %d to %d | %d | %d | %.2f× to %.2f× |" % (
                name, size, len(rows), slower[len(slower) // 2], min(clocks), max(clocks), within_target(own, size), within_target(at, size),
                min(at), max(at)))
    # NVML's samples while the benchmark ran (clocks.csv: timestamp, clock, power, temperature, event reasons), those
    # above 300 W (the GPU busy, not between processes): the card's clock under these kernels' own load.
    samples, interval = nvml_samples(HELD)
    loaded = sorted((x for x in samples if x.watts > 300), key=lambda x: x.clock_mhz)  # the GPU busy, not between processes
    capped = [x for x in loaded if x.reasons & POWER_CAP]
    out += ["", "NVML's samples every %d ms while the benchmark ran with the GPU busy (`clocks.csv`, %d samples): the SM "
            "clock from %d to %d MHz, median %d; %d of them with the software power cap active (event reason %#x), the "
            "power read up to %.0f W. The model assumes %d MHz for every tensor-core kernel." % (
                interval, len(loaded), loaded[0].clock_mhz, loaded[-1].clock_mhz, loaded[len(loaded) // 2].clock_mhz,
                len(capped), POWER_CAP, max(x.watts for x in loaded),
                json.loads(PROFILE.read_text())["timing"]["sustained_clock_mhz_tensor"])]
    return "\n".join(out)


def write_doc(path, markers, text, check):
    begin, end = markers
    doc = path.read_text()
    if begin not in doc or end not in doc:
        raise SystemExit("time-model-table: %s lacks the markers %s ... %s" % (path, begin, end))
    new = doc[:doc.index(begin) + len(begin)] + "\n" + text + "\n" + doc[doc.index(end):]
    if check:
        if new != doc:
            raise SystemExit("time-model-table: %s's generated tables are not current (from "
                             "docs/time-model-data/predictions.json and the H100 profile): run "
                             "scripts/time-model-table.py" % path.relative_to(ROOT))
        return
    path.write_text(new)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cli", default=str(ROOT / "build/bin/gemmlab-cli"))
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    if args.check:
        data = json.loads(PREDICTIONS.read_text())
        write_doc(DOC, (BEGIN, END), tables(data), True)
        write_doc(DOC, REPEAT_MARKERS, repeatability(data), True)
        write_doc(DOC, HELD_MARKERS, held(data), True)
        write_doc(DOC, DATA_PIPE_MARKERS, data_pipe_table(data), True)
        write_doc(PARAMETERS_DOC, PARAMETERS, parameters(), True)
        return
    every_rung = json.loads(subprocess.run([args.cli, "list", "--json"], capture_output=True, text=True, check=True).stdout)
    timed = {rung for rung, _, _ in measured_rows()}
    ladder = [r for r in every_rung if r["slug"] in timed]  # the rungs the recorded H100 runs timed
    order = {r["slug"]: i for i, r in enumerate(ladder)}
    rows = []
    measured = sorted(measured_rows().items(), key=lambda kv: (kv[0][2], order[kv[0][0]], kv[0][1] != "default", kv[0][1]))
    predictions = predict_all(args.cli, [(m, 0) for _, m in measured])
    for ((rung, config, size), m), p in zip(measured, predictions):
        rows.append({"rung": rung, "config": config, "kernel_config": m["kernel_config"], "size": size,
                     "input": m["input"], "report": m["report"], "measured_ms": m["median_ms"],
                     "sm_clock_mhz": m.get("sm_clock_mhz", 0), **p})
        print("%-22s %-34s %5d  predicted %9.4g ms  measured %9.4g ms  %.2fx  %s" % (
            rung, config, size, p["predicted_ms"], m["median_ms"], p["predicted_ms"] / m["median_ms"], p["limit"]),
            file=sys.stderr)
    data = {"command": "scripts/time-model-table.py", "ladder": [[r["number"], r["slug"]] for r in ladder], "rows": rows,
            "held": held_rows(args.cli),
            "untimed_instructions": untimed_instructions(
                args.cli, [(r["number"], r["slug"]) for r in every_rung if r["slug"] not in timed])}
    PREDICTIONS.write_text(json.dumps(data, indent=1) + "\n")
    write_doc(DOC, (BEGIN, END), tables(data), False)
    write_doc(DOC, REPEAT_MARKERS, repeatability(data), False)
    write_doc(DOC, HELD_MARKERS, held(data), False)
    write_doc(DOC, DATA_PIPE_MARKERS, data_pipe_table(data), False)
    write_doc(PARAMETERS_DOC, PARAMETERS, parameters(), False)


if __name__ == "__main__":
    main()
