#!/usr/bin/env python3
"""scripts/tuning-table.py [--check]: the autotuner's recorded studies and the run-time compiler's comparison, as tables.

Reads
  - assets/tuning/h100/<slug>.json: `gemmlab-cli tune --rung <slug> --budget 56 --json F` of every rung with three
    knobs or more, at 4096^3 on the H100 (the desktop app's tuning study shows the same files);
  - docs/tuning-data/compare/: scripts/runtime-compile-compare's ncu counters and benchmarks of four configurations
    compiled by the build and at run time;
and writes
  - docs/tuning.md, between "<!-- tuning:begin -->" and "<!-- tuning:end -->": per rung, the space searched, the
    configurations timed, the rank correlation, the default, the best found and cuBLAS;
  - docs/tuning.md, between "<!-- tuning-misses:begin -->" and "<!-- tuning-misses:end -->": per rung, measured over
    predicted time by the term the model named and by registers per thread (where the model goes wrong);
  - docs/tuning.md, between "<!-- tuning-ncu:begin -->" and "<!-- tuning-ncu:end -->": ncu's issue activity and stall
    reasons of some FP32 configurations (docs/tuning-data/ncu-misses/), beside the model's miss on each;
  - docs/tuning.md, between "<!-- compile-times:begin -->" and "<!-- compile-times:end -->" (and the example output
    between "<!-- compile-example:begin -->" and its end): the first compiles and cache hits of each recorded run of
    docs/tuning-data/compile-times.txt;
  - docs/tuning.md, between "<!-- runtime-compile:begin -->" and "<!-- runtime-compile:end -->": the build's kernel
    beside the run-time compiled one, counter by counter, and their speeds;
  - each rung page (docs/rungs/NN-slug.md), between "<!-- tuned:begin -->" and "<!-- tuned:end -->": what the tuner
    found for that rung and whether the default changed.
  - docs/tuning.md, between "<!-- tuning-rescored:begin -->" and "<!-- tuning-rescored:end -->": each study's
    measurements predicted again by today's model (docs/tuning-data/rescored.json), beside the model that ranked them.
--own-sass DIR first writes docs/tuning-data/rescored-own-sass.json from `gemmlab-cli tune --rescore STUDY --compile
--json` outputs (run on the GPU machine, whose cores compile them quickly).
--rescore [--cli CLI] first writes docs/tuning-data/rescored.json with `gemmlab-cli tune --rescore` of every study (the
test CompiledFacts.TheRescoredStudiesAreTheModelsOwn checks it against the model).
--check writes nothing and fails where a page is not what the data gives (the ctest docs.tuning_tables_are_current).
"""
import argparse
import csv
import json
import math
import pathlib
import re
import statistics
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
STUDIES = ROOT / "assets/tuning/h100"
COMPARE = ROOT / "docs/tuning-data/compare"
NCU_MISSES = ROOT / "docs/tuning-data/ncu-misses"
COMPILE_TIMES = ROOT / "docs/tuning-data/compile-times.txt"
RESCORED = ROOT / "docs/tuning-data/rescored.json"
OWN_SASS = ROOT / "docs/tuning-data/rescored-own-sass.json"
DOC = ROOT / "docs/tuning.md"
RUNGS = ROOT / "docs/rungs"
TARGET = 0.8  # the rank correlation for the tiled rungs


def studies():
    out = []
    for path in STUDIES.glob("*.json"):
        d = json.loads(path.read_text())
        d["file"] = path.relative_to(ROOT).as_posix()
        out.append(d)
    number = {p.name.split("-", 1)[1][:-3]: int(p.name[:2]) for p in RUNGS.glob("[0-9][0-9]-*.md")}
    for d in out:
        d["number"] = number[d["rung"]]
    return sorted(out, key=lambda d: d["number"])


def by_label(d, label):
    return next((m for m in d["measured"] if m["label"] == label), None)


def fmt(x, digits=1):
    return f"{x:.{digits}f}"


def tuning_table(all_studies):
    lines = ["| rung | input | valid configurations | ranked | timed | scored | Spearman | default: TFLOPS (GPU rank) | "
             "best found | best: TFLOPS (× default) | cuBLAS TFLOPS |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |"]
    for d in all_studies:
        default = next((m for m in d["measured"] if m["pick"] == "default"), None)
        best = by_label(d, d.get("best", ""))
        rank = default["measured_rank"] if default else 0
        rank_text = (f"{rank:g} of {d['scored']}" if rank else "not scored") if default else "-"
        dflt = f'{fmt(default["tflops"])} ({rank_text})' if default and "tflops" in default else "-"
        gain = f'{fmt(best["tflops"])} ({best["tflops"] / default["tflops"]:.2f}×)' if best and default and "tflops" in default else "-"
        mark = "" if d["spearman"] >= TARGET else " ¹"
        lines.append(f'| {d["number"]} {d["rung"]} | {d["input"]} | {d["space"]} | {d["ranked"]} | {d["timed"]} | '
                     f'{d["scored"]} | {d["spearman"]:.2f}{mark} | {dflt} | {d.get("best", "-")} | {gain} | '
                     f'{fmt(d.get("cublas_tflops", 0))} |')
    dates = sorted({d["date_utc"][:16] + "Z" for d in all_studies})
    d0 = all_studies[0]
    lines += ["", f"¹ below the {TARGET} target: see [what the model gets wrong](#what-the-model-gets-wrong). Scored: "
              "timed and without spills (ptxas's report); Spearman and the ranks are over those.", "",
              f"Measured on the {d0['device']} (driver {d0['driver']}, CUDA {d0['runtime_cuda']}, cuBLAS "
              f"{d0['cublas_version']}), {dates[0]} to {dates[-1]}; {d0['m']}³, block order {d0['block_order']}, "
              f"model profile {d0['profile']}; budget {d0['budget']} (the model's top {d0['top']}, the default, a random "
              f"sample with seed {d0['seed']}), median of {d0['runs']} runs. Reproduce one row on the GPU machine: "
              "`build-device/bin/gemmlab-cli tune --rung <slug> --budget 56 --json F`. Files: `assets/tuning/h100/`."]
    return "\n".join(lines)


def ncu(path):
    rows = list(csv.reader(path.open()))
    head = next(i for i, r in enumerate(rows) if r and r[0] == "ID")
    names, values = rows[head], rows[head + 2]  # the row after the header holds the units
    return {n: v.replace(",", "") for n, v in zip(names, values)}


COUNTERS = [("registers", "launch__registers_per_thread", 1), ("warp instructions (M)", "smsp__inst_executed.sum", 1e6),
            ("shared wavefronts (M)", "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum", 1e6),
            ("global load sectors (M)", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 1e6),
            ("L2 read sectors (M)", "lts__t_sectors_srcunit_tex_op_read.sum", 1e6),
            ("DRAM read (MB)", "dram__bytes_read.sum", 1e6), ("duration (µs)", "gpu__time_duration.sum", 1e3)]


def compare_table():
    specs = [p.name[: -len("-build.ncu.csv")] for p in sorted(COMPARE.glob("*-build.ncu.csv"))]
    lines = ["| rung | counter | build | run time |", "| --- | --- | ---: | ---: |"]
    for slug in specs:
        build, runtime = ncu(COMPARE / f"{slug}-build.ncu.csv"), ncu(COMPARE / f"{slug}-runtime.ncu.csv")
        for i, (name, metric, scale) in enumerate(COUNTERS):
            a, b = float(build[metric]) / scale, float(runtime[metric]) / scale
            digits = 0 if scale == 1 else 2
            lines.append(f'| {slug if i == 0 else ""} | {name} | {a:.{digits}f} | {b:.{digits}f} |')
    speed = ["", "| rung | input | build: TFLOPS (× cuBLAS), run 1 · run 2 | run time: TFLOPS (× cuBLAS), run 1 · run 2 |",
             "| --- | --- | ---: | ---: |"]
    runs = {how: [json.loads((COMPARE / f"bench-{how}-{i}.json").read_text()) for i in (1, 2)] for how in ("build", "runtime")}
    for row in runs["build"][0]["rows"]:
        if row["name"] == "cublas":
            continue
        cells = []
        for how in ("build", "runtime"):
            got = [next(r for r in rep["rows"] if r["name"] == row["name"] and r["input"] == row["input"]) for rep in runs[how]]
            cells.append(" · ".join(f'{fmt(r["tflops"])} ({r["ratio_to_cublas"]:.3f})' for r in got))
        speed.append(f'| {row["name"]} | {row["input"]} | {cells[0]} | {cells[1]} |')
    env = (COMPARE / "env.txt").read_text().strip()
    return "\n".join(lines + speed + ["", f"ncu and benchmark: {env}. Reproduce on the GPU machine: "
                                          "`scripts/runtime-compile-compare OUT` (after `scripts/device-build`)."])


def misses_table(all_studies):
    """Measured over predicted time, by the term the model named and by registers per thread, per rung."""
    lines = ["| rung | Spearman | measured ÷ predicted, by the model's limit | at ≥ 160 registers | below 160 | "
             "worst miss |", "| --- | ---: | --- | ---: | ---: | --- |"]
    for d in all_studies:
        timed = [m for m in d["measured"] if m.get("status") == "timed" and m.get("spill_bytes", 0) == 0]
        if len(timed) < 10:
            continue
        ratio = lambda ms: f"{sum(m['median_ms'] / m['predicted_ms'] for m in ms) / len(ms):.2f} ({len(ms)})" if ms else "-"
        limits = sorted({m["predicted_limit"] for m in timed})
        by_limit = "; ".join(f"{limit}: {ratio([m for m in timed if m['predicted_limit'] == limit])}" for limit in limits)
        worst = d["misses"][0]["label"] + f' (model {d["misses"][0]["model_rank"]:g}, GPU {d["misses"][0]["measured_rank"]:g})' if d["misses"] else "-"
        lines.append(f'| {d["number"]} {d["rung"]} | {d["spearman"]:.2f} | {by_limit} | '
                     f'{ratio([m for m in timed if m["registers"] >= 160])} | {ratio([m for m in timed if m["registers"] < 160])} | {worst} |')
    return "\n".join(lines + ["", "Mean of each scored configuration's measured ÷ predicted time (how many in brackets); "
                                   "ranks among the scored configurations. Rungs with fewer than 10 scored are left out."])


def ncu_misses_table(all_studies):
    """ncu's view of some FP32 configurations: how often the schedulers issue, and what holds the warps."""
    lines = ["| rung | configuration | model ÷ GPU rank | measured ÷ predicted | warps per SM | issue active | top stall "
             "reasons (warps per issue) |", "| --- | --- | --- | ---: | ---: | ---: | --- |"]
    studies_by_rung = {d["rung"]: d for d in all_studies}
    for path in sorted(NCU_MISSES.glob("*.ncu.csv")):
        # N-<rung slug>-<knob=value_knob=value...>.ncu.csv: the slug may hold dashes, knob names underscores.
        stem = path.name[: -len(".ncu.csv")].split("-", 1)[1]
        rung = stem[: re.search(r"-[a-z_]+=\d", stem).start()]
        knobs = [k.lstrip("_") for k in re.findall(r"[a-z_]+=\d+", stem[len(rung) + 1:])]
        v = ncu(path)
        stalls = {k[len("smsp__average_warps_issue_stalled_"): -len("_per_issue_active.ratio")]: float(x)
                  for k, x in v.items() if k.startswith("smsp__average_warps_issue_stalled_")
                  and k.endswith("_per_issue_active.ratio") and x not in ("", "n/a")}
        top = ", ".join(f"{k.replace('_', ' ')} {x:.2f}" for k, x in sorted(stalls.items(), key=lambda kv: -kv[1])
                        if k not in ("selected", "not_selected"))
        top = ", ".join(top.split(", ")[:3])
        d = studies_by_rung.get(rung)
        label = "default"
        m = None
        if d:
            config = dict(next(m2["config"] for m2 in d["measured"] if m2["pick"] == "default"))
            for knob in knobs:
                name, value = knob.split("=")
                config[name] = int(value)
            m = next((x for x in d["measured"] if x["config"] == config), None)
            label = m["label"] if m else " ".join(knobs)
        ranks = f'{m["model_rank_of_all"]} of {d["ranked"]} ÷ {m["measured_rank"]:g} of {d["scored"]}' if m else "-"
        ratio = f'{m["median_ms"] / m["predicted_ms"]:.2f}' if m and "median_ms" in m else "-"
        lines.append(f'| {rung} | {label} | {ranks} | {ratio} | {float(v["sm__warps_active.avg.per_cycle_active"]):.1f} | '
                     f'{float(v["smsp__issue_active.avg.per_cycle_active"]):.2f} | {top} |')
    env = (NCU_MISSES / "env.txt").read_text().strip()
    return "\n".join(lines + ["", f"ncu (sections WarpStateStats, SchedulerStats, Occupancy, SpeedOfLight) of each "
                                   f"configuration's first launch: {env}. Issue active: the share of cycles a scheduler "
                                   "issues an instruction (1.00 at best). Reproduce on the GPU machine: "
                                   "`ncu --section WarpStateStats --section SchedulerStats --kernel-name "
                                   "regex:'rung_kernel|gemmlab_runtime_kernel' --launch-count 1 build-device/bin/gemmlab-cli "
                                   "bench --rungs R --config C --sizes 4096 --runs 1`."])


def compile_sections():
    """The recorded runs of docs/tuning-data/compile-times.txt: (heading, first compiles in s, cached loads in ms,
    lines)."""
    sections = []
    for line in COMPILE_TIMES.read_text().splitlines():
        if line.startswith("## "):
            sections.append((line[3:], [], [], []))
        elif sections and "compiling" in line:
            heading, first, cached, lines = sections[-1]
            lines.append(line)
            if m := re.search(r"compiled in ([\d.]+) s", line):
                first.append(float(m.group(1)))
            elif m := re.search(r"found in the kernel cache .*ready in ([\d.]+) ms", line):
                cached.append(float(m.group(1)))
    return sections


def compile_table():
    lines = ["| run | first compile (s) | from the cache (ms) |", "| --- | ---: | ---: |"]
    for heading, first, cached, _ in compile_sections():
        lines.append(f"| {heading.split(': each line')[0]} | {min(first):.2f} to {max(first):.2f} ({len(first)}) | "
                     f"{min(cached):.1f} to {max(cached):.1f} ({len(cached)}) |")
    return "\n".join(lines + ["", "In brackets, how many configurations. Each was compiled by a new "
                                   "`gemmlab-cli verify --rungs R --config C --sizes 256` process into an empty cache, "
                                   "then found in it by the next one. The file: `docs/tuning-data/compile-times.txt`."])


def compile_example():
    """The latest run's first compile and cache hit of its first configuration, as the CLI prints them."""
    _, _, _, lines = compile_sections()[-1]
    first = next(l for l in lines if "compiled in" in l).split(": ", 1)[-1]
    cached = next(l for l in lines if "found in the kernel cache" in l).split(": ", 1)[-1]
    return "```\n" + first + "\n```\n\nand the next process finds it in the cache:\n\n```\n" + cached + "\n```"


def tuned_paragraph(d):
    default = next((m for m in d["measured"] if m["pick"] == "default"), None)
    best = by_label(d, d.get("best", ""))
    head = (f'**Tuned** ([autotuner](../tuning.md), {d["m"]}³ {d["input"]}, {d["device"]}, {d["date_utc"][:10]}): of '
            f'{d["space"]} valid configurations the model ranked {d["ranked"]}; {d["timed"]} were timed (rank correlation '
            f'of predicted and measured time {d["spearman"]:.2f} over the {d["scored"]} without spills).')
    if not (default and best and "tflops" in default):
        return head
    if d["best"] == "default" or best["tflops"] <= default["tflops"] * 1.01:
        return head + f' The default was the fastest timed, or within 1% of it ({fmt(default["tflops"])} TFLOPS): it stays.'
    return (head + f' The fastest was `{d["best"]}` at {fmt(best["tflops"])} TFLOPS, {best["tflops"] / default["tflops"]:.2f}× the '
            f'default\'s {fmt(default["tflops"])}. The default stays: it is the configuration this page teaches (the '
            'layout the rung introduces, on the tile of the rung before it where it can), so that the ladder measures '
            'one change at a time; the tuned configuration is the next step (the app\'s tuning study loads it with a '
            'click).')


def accuracy(measured):
    """Over the scored measurements (timed, no spills): how many are predicted within 20%, and the median of
    |log(predicted / measured)|."""
    errors = [abs(math.log(m["predicted_ms"] / m["median_ms"])) for m in measured
              if m.get("status") == "timed" and m.get("spill_bytes", 0) == 0]
    return {"scored": len(errors), "within_20": sum(e <= math.log(1.2) for e in errors),
            "median_error": statistics.median(errors) if errors else 0.0}


def rescore(cli, all_studies):
    """docs/tuning-data/rescored.json: every study's measurements predicted again by today's model."""
    out = []
    for d in all_studies:
        run = subprocess.run([cli, "tune", "--rescore", str(ROOT / d["file"]), "--json", "-"], capture_output=True,
                             text=True)
        if run.returncode != 0:
            raise SystemExit("tuning-table: gemmlab-cli tune --rescore %s failed: %s" % (d["file"], run.stderr.strip()))
        today = json.loads(run.stdout)
        out.append({"file": d["file"], "rung": d["rung"],
                    "recorded": dict(accuracy(d["measured"]), spearman=d["spearman"]),
                    "today": dict(accuracy(today["measured"]), spearman=today["spearman"]),
                    "predicted_ms": {m["label"]: m["predicted_ms"] for m in today["measured"]}})
    RESCORED.write_text(json.dumps({"command": "scripts/tuning-table.py --rescore", "studies": out}, indent=1) + "\n")


def own_sass(directory):
    """docs/tuning-data/rescored-own-sass.json from DIRECTORY/<slug>.json: `gemmlab-cli tune --rescore STUDY --compile
    --json` of every study, run where nvcc and cuobjdump compiled and disassembled each configuration (devrun)."""
    out = []
    for path in sorted(pathlib.Path(directory).glob("*.json")):
        d = json.loads(path.read_text())
        out.append({"rung": d["rung"], "own_sass": dict(accuracy(d["measured"]), spearman=d["spearman"])})
    env = (pathlib.Path(directory) / "env.txt").read_text().strip().splitlines()
    OWN_SASS.write_text(json.dumps({"command": "gemmlab-cli tune --rescore assets/tuning/h100/<slug>.json --compile "
                                               "--jobs 16 --json F, then scripts/tuning-table.py --own-sass DIR",
                                    "compiler": env[0], "date_utc": env[-1], "studies": out}, indent=1) + "\n")


def rescored_table(all_studies):
    data = json.loads(RESCORED.read_text())["studies"]
    own = json.loads(OWN_SASS.read_text())
    own_by_rung = {r["rung"]: r["own_sass"] for r in own["studies"]}
    number = {d["rung"]: d["number"] for d in all_studies}
    out = ["| rung | scored | Spearman: recorded | today | today, own SASS | within ±20%: recorded | today | today, own "
           "SASS | median error: recorded | today | today, own SASS |",
           "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    totals = {"recorded": 0, "today": 0, "own": 0, "scored": 0}
    pct = lambda e: 100 * (math.exp(e) - 1)
    for r in sorted(data, key=lambda r: number[r["rung"]]):
        a, b, c = r["recorded"], r["today"], own_by_rung[r["rung"]]
        totals["recorded"] += a["within_20"]
        totals["today"] += b["within_20"]
        totals["own"] += c["within_20"]
        totals["scored"] += a["scored"]
        out.append("| %d %s | %d | %.2f | %.2f | %.2f | %d | %d | %d | %.0f%% | %.0f%% | %.0f%% |" % (
            number[r["rung"]], r["rung"], a["scored"], a["spearman"], b["spearman"], c["spearman"], a["within_20"],
            b["within_20"], c["within_20"], pct(a["median_error"]), pct(b["median_error"]), pct(c["median_error"])))
    out += ["", "Within ±20%% of the measured time: %d of %d scored configurations with the model that ranked them, "
            "%d with today's, %d with today's given each configuration's own SASS. Median error: the median over the "
            "scored configurations of how far the prediction is from the measurement, as a percentage of the smaller "
            "of the two. \"today\": `scripts/tuning-table.py --rescore` (`gemmlab-cli tune --rescore` of each study, no "
            "GPU; a configuration the build did not compile borrows its nearest compiled neighbour's SASS). \"own "
            "SASS\": `%s` on the GPU machine (its 16 cores; %s; %s), each configuration the build lacks compiled again "
            "and disassembled." % (totals["recorded"], totals["scored"], totals["today"], totals["own"],
                                   own["command"], own["compiler"], own["date_utc"])]
    return "\n".join(out)


def replace(text, begin, end, body):
    a, b = text.index(begin), text.index(end)
    return text[: a + len(begin)] + "\n" + body + "\n" + text[b:]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--rescore", action="store_true")
    ap.add_argument("--cli", default=str(ROOT / "build/bin/gemmlab-cli"))
    ap.add_argument("--own-sass", metavar="DIR")
    args = ap.parse_args()
    all_studies = studies()
    if args.own_sass and not args.check:
        own_sass(args.own_sass)
    if args.rescore and not args.check:
        rescore(args.cli, all_studies)
    updates = {DOC: [("<!-- tuning:begin -->", "<!-- tuning:end -->", tuning_table(all_studies)),
                     ("<!-- runtime-compile:begin -->", "<!-- runtime-compile:end -->", compare_table()),
                     ("<!-- tuning-misses:begin -->", "<!-- tuning-misses:end -->", misses_table(all_studies)),
                     ("<!-- tuning-ncu:begin -->", "<!-- tuning-ncu:end -->", ncu_misses_table(all_studies)),
                     ("<!-- tuning-rescored:begin -->", "<!-- tuning-rescored:end -->", rescored_table(all_studies)),
                     ("<!-- compile-times:begin -->", "<!-- compile-times:end -->", compile_table()),
                     ("<!-- compile-example:begin -->", "<!-- compile-example:end -->", compile_example())]}
    for d in all_studies:
        page = next(RUNGS.glob(f'{d["number"]:02d}-*.md'))
        updates[page] = [("<!-- tuned:begin -->", "<!-- tuned:end -->", tuned_paragraph(d))]
    stale = []
    for path, parts in updates.items():
        text = path.read_text()
        if "<!-- tuned:begin -->" not in text and path.parent == RUNGS:
            text = text.rstrip("\n") + "\n\n<!-- tuned:begin -->\n<!-- tuned:end -->\n"
        new = text
        for begin, end, body in parts:
            new = replace(new, begin, end, body)
        if new != path.read_text():
            if args.check:
                stale.append(path.relative_to(ROOT).as_posix())
            else:
                path.write_text(new)
    if stale:
        print("not current (run scripts/tuning-table.py): " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
