#!/usr/bin/env python3
"""scripts/results-tables.py [REPORT]: writes the measured tables of the docs from a benchmark report.

REPORT is `gemmlab-cli bench --json` output (default assets/results/h100.json, the recorded H100 run). The script
  - prints the ladder table (every rung's default configuration, TFLOPS and ratio to cuBLAS per size) for
    docs/results.md, and
  - rewrites, in each docs/rungs/NN-slug.md, the block between "## Measured on the H100" and the line that starts
    with "Reproduce": the device line and the rung's table, so no number on a rung page is typed by hand.
The prose after each table (what the numbers mean) stays the author's.

scripts/results-tables.py --alternates REPORT prints every timed row of a report (`bench --all`), each configuration
and input type against cuBLAS on the same inputs: the tables of compiled alternates in docs/results.md.

scripts/results-tables.py --ratio-tables [--check] rewrites (or, with --check, checks) every table of a rung page
between "<!-- ratios: REPORT -->" and "<!-- ratios end -->": each timed kernel of REPORT (a path from the checkout)
against cuBLAS, one column per input type and size (the test docs.ratio_tables_are_current); docs/sweep.md's
between "<!-- sweep: SWEEP -->" and "<!-- sweep end -->", from a `gemmlab-cli sweep --json` report; and docs/timeline.md's
between "<!-- traces: DIR -->" and "<!-- traces end -->", from the summaries scripts/trace-run wrote into DIR, and
between "<!-- tile-window: DIR -->" and "<!-- tile-window end -->", from summaries of `gemmlab-cli trace --tiles T`.
"""
import json
import math
import pathlib
import re
import statistics
import sys

from rank_stats import spearman
from report_json import multiplying_role, read_json

ROOT = pathlib.Path(__file__).resolve().parent.parent


INPUTS = ("fp32", "fp16", "bf16")  # the ladder's input types; a tensor-core rung's ratio is to cuBLAS on its own


def load(path):
    report = json.loads(path.read_text())
    rows = [r for r in report["rows"] if r["status"] == "timed" and (r["config"] == "default" or r["name"] == "cublas")]
    sizes = sorted({r["m"] for r in rows if r["m"] == r["n"] == r["k"]})
    table = {}
    for r in rows:
        if r["m"] == r["n"] == r["k"]:
            table[(r["name"], r["m"], r.get("input", "fp32"))] = r  # reports before the tensor-core rungs: all fp32
    return report, sizes, table


def inputs_of(name, sizes, table):
    return [i for i in INPUTS if any((name, n, i) in table for n in sizes)]


def device_line(report):
    d, s = report["device"], report["software"]
    return (f"Device: {d['name']} (sm_{d['compute_capability'].replace('.', '')}, {d['sm_count']} SMs), driver "
            f"{s['driver']}, CUDA {s['runtime_cuda']}, cuBLAS {s['cublas']}; {report['date_utc']};\n"
            f"{report['block_order']} block order. Method and the whole ladder: [results](../results.md).")


def rung_table(name, sizes, table):
    head = "| | " + " | ".join(f"{n}³" for n in sizes) + " |"
    rule = "| --- | " + " | ".join("---:" for _ in sizes) + " |"
    def cells(key, inp, fmt):
        return " | ".join(fmt(table[(key, n, inp)]) if (key, n, inp) in table else "" for n in sizes)
    lines = [head, rule]
    inputs = inputs_of(name, sizes, table)
    for inp in inputs:
        suffix = "" if len(inputs) == 1 else f" ({inp.upper()})"
        lines += [
            f"| TFLOPS{suffix} | " + cells(name, inp, lambda r: "%.2f" % r["tflops"]) + " |",
            f"| × cuBLAS{suffix} | " + cells(name, inp, lambda r: "%.3f" % r["ratio_to_cublas"]) + " |",
            f"| cuBLAS {inp.upper()}, TFLOPS | " + cells("cublas", inp, lambda r: "%.2f" % r["tflops"]) + " |",
        ]
    return "\n".join(lines)


def ladder_table(rungs, sizes, table):
    lines = ["| rung | inputs | " + " | ".join(f"{n}³ TFLOPS | × cuBLAS" for n in sizes) + " |",
             "| --- | --- | " + " | ".join("---: | ---:" for _ in sizes) + " |"]
    for inp in INPUTS:
        for number, name in [(None, "cublas")] + rungs:
            if (name, sizes[-1], inp) not in table and not any((name, n, inp) in table for n in sizes):
                continue
            label = f"cuBLAS {inp.upper()}" if name == "cublas" else f"{number} {name}"
            cells = []
            for n in sizes:
                r = table.get((name, n, inp))
                cells.append(f"{r['tflops']:.2f} | {r['ratio_to_cublas']:.3f}" if r else " | ")
            lines.append(f"| {label} | {inp} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def alternates_table(report):
    sizes = sorted({r["m"] for r in report["rows"] if r["m"] == r["n"] == r["k"]})
    lines = ["| rung | configuration | input | " + " | ".join(f"{n}³ TFLOPS | × cuBLAS" for n in sizes) + " |",
             "| --- | --- | --- | " + " | ".join("---: | ---:" for _ in sizes) + " |"]
    keys = []
    for r in report["rows"]:
        key = (r["name"], r["config"], r.get("input", "fp32"))
        if r["status"] == "timed" and key not in keys:
            keys.append(key)
    for name, config, inp in keys:
        cells = []
        for n in sizes:
            r = next((r for r in report["rows"] if (r["name"], r["config"], r.get("input", "fp32")) == (name, config, inp)
                      and r["m"] == r["n"] == r["k"] == n and r["status"] == "timed"), None)
            cells.append(f"{r['tflops']:.2f} | {r['ratio_to_cublas']:.3f}" if r else " | ")
        label = ("cuBLAS", "") if name == "cublas" else (name, config)
        lines.append(f"| {label[0]} | {label[1]} | {inp} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


RATIOS = re.compile(r"(<!-- ratios: (\S+) -->\n)(.*?)(<!-- ratios end -->)", re.S)


def shape_ratio_table(report, rows, numbers):
    """A report of shapes that are not all cubes: one row per input type and shape (M × N × K), one column per timed
    kernel and configuration, each cell its ratio to cuBLAS (and TFLOPS)."""
    keys = list(dict.fromkeys((r["name"], r["config"]) for r in rows))
    one_rung = len({name for name, _ in keys}) == 1
    shapes = list(dict.fromkeys((r.get("input", "fp32"), r["m"], r["n"], r["k"]) for r in rows))
    heads = [(config if config == "default" else f"`{config}`") if one_rung else
             f"{numbers.get(name, '?')} {name}" + ("" if config == "default" else f" `{config}`") for name, config in keys]
    lines = ["| input | M × N × K | " + " | ".join(heads) + " |", "| --- | --- | " + " | ".join("---:" for _ in keys) + " |"]
    for inp, m, n, k in shapes:
        cells = []
        for name, config in keys:
            r = next((r for r in rows if (r["name"], r["config"], r.get("input", "fp32"), r["m"], r["n"], r["k"]) ==
                      (name, config, inp, m, n, k)), None)
            cells.append(f"{r['ratio_to_cublas']:.3f}× ({r['tflops']:.0f})" if r else "")
        lines.append(f"| {inp.upper()} | {m} × {n} × {k} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def ratio_table(report):
    """One row per timed kernel and configuration of a report, its ratio to cuBLAS per input type and size; a report
    with other shapes than cubes, one row per shape instead (shape_ratio_table)."""
    numbers = {p.stem[3:]: int(p.name[:2]) for p in (ROOT / "docs/rungs").glob("[0-9][0-9]-*.md")}
    timed = [r for r in report["rows"] if r["status"] == "timed" and r["name"] != "cublas"]
    if any(not r["m"] == r["n"] == r["k"] for r in timed):
        return shape_ratio_table(report, timed, numbers)
    rows = [r for r in timed if r["m"] == r["n"] == r["k"]]
    sizes = sorted({r["m"] for r in rows})
    inputs = [i for i in INPUTS if any(r.get("input", "fp32") == i for r in rows)]
    columns = [(i, n) for n in sizes for i in inputs]
    keys = list(dict.fromkeys((r["name"], r["config"]) for r in rows))
    one_rung = len({name for name, _ in keys}) == 1
    lines = ["| " + ("configuration" if one_rung else "rung") + " | " +
             " | ".join(f"{i.upper()} {n}³" for i, n in columns) + " |",
             "| --- | " + " | ".join("---:" for _ in columns) + " |"]
    for name, config in keys:
        label = (config if config == "default" else f"`{config}`") if one_rung else \
            f"{numbers.get(name, '?')} {name}" + ("" if config == "default" else f" `{config}`")
        cells = []
        for i, n in columns:
            r = next((r for r in rows if (r["name"], r["config"], r.get("input", "fp32"), r["m"]) == (name, config, i, n)),
                     None)
            cells.append(f"{r['ratio_to_cublas']:.3f}× ({r['tflops']:.0f})" if r else "")
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


SWEEP = re.compile(r"(<!-- sweep(-summary)?: (\S+) -->\n)(.*?)(<!-- sweep end -->)", re.S)


def sweep_table(report, summary_only=False):
    """A sweep report (gemmlab-cli sweep --json): per shape, cuBLAS, the best configuration measured and its ratio, the
    tiles and the last wave of that configuration, and the model's prediction against the measurement; then the
    summary lines (with `sweep --tuned`: the defaults' geometric mean beside the best's, and how well the model ranked
    each shape's configurations)."""
    lines = ["| shape | M × N × K | cuBLAS TFLOPS | cuBLAS runs | best rung | TFLOPS | × cuBLAS | blocks (last wave) | "
             "predicted / measured |",
             "| --- | --- | ---: | --- | --- | ---: | ---: | ---: | ---: |"]
    ratios, default_ratios, within, pairs, slow, fast, miss_limits = [], [], 0, 0, 0, 0, {}
    half_empty, split_wins = 0, 0  # shapes whose best data-parallel rung leaves its last wave under half full
    spearmans = []  # per shape with several configurations timed: the model's ranking of them against the GPU's
    tuned = any(e.get("config", "default") != "default" for shape in report["shapes"] for e in shape["entries"])
    for shape in report["shapes"]:
        timed = [e for e in shape["entries"] if e.get("measured", {}).get("status") == "timed"]
        defaults = [e for e in timed if e.get("config", "default") == "default"]
        split = [e for e in defaults if e["rung"] == "tma-wgmma-splitk"]
        # Data-parallel: a block computes whole tiles (not split-K's ranges nor Stream-K's shares of the k-steps).
        whole = [e for e in defaults if e["rung"] not in ("tma-wgmma-splitk", "tma-wgmma-streamk")]
        if split and whole:
            best_whole = max(whole, key=lambda e: e["measured"]["tflops"])
            if 2 * best_whole["last_wave_tiles"] < best_whole["concurrent_blocks"]:
                half_empty += 1
                split_wins += split[0]["measured"]["tflops"] > best_whole["measured"]["tflops"]
        for e in timed:
            pairs += 1
            ratio_of_time = e["predicted_seconds"] / (e["measured"]["median_ms"] / 1e3)
            within += 0.8 <= ratio_of_time <= 1.2
            if not 0.8 <= ratio_of_time <= 1.2:
                slow, fast = slow + (ratio_of_time > 1.2), fast + (ratio_of_time < 0.8)
                miss_limits[e["limit"]] = miss_limits.get(e["limit"], 0) + 1
        if len(timed) >= 3:
            spearmans.append(spearman([e["predicted_seconds"] for e in timed],
                                      [e["measured"]["median_ms"] for e in timed]))
        if not timed or "cublas" not in shape:
            continue
        best = max(timed, key=lambda e: e["measured"]["tflops"])
        ratios.append(best["measured"]["ratio_to_cublas"])
        if defaults:
            default_ratios.append(max(defaults, key=lambda e: e["measured"]["tflops"])["measured"]["ratio_to_cublas"])
        ratio_of_time = best["predicted_seconds"] / (best["measured"]["median_ms"] / 1e3)
        decoded = shape["cublas"].get("decoded", {}).get("summary", "")
        name = best["rung"] + ("" if best.get("config", "default") == "default" else f" `{best['config']}`")
        lines.append(f"| {shape['label']} | {shape['m']} × {shape['n']} × {shape['k']} | {shape['cublas']['tflops']:.1f} | "
                     f"{decoded} | {name} | {best['measured']['tflops']:.1f} | {best['measured']['ratio_to_cublas']:.3f} | "
                     f"{best['tiles']} ({best['last_wave_tiles']}/{best['concurrent_blocks']}) | {ratio_of_time:.2f} |")
    geomean = math.exp(sum(math.log(r) for r in ratios) / len(ratios)) if ratios else 0
    faster = sum(r > 1 for r in ratios)
    on = report.get("measured_on", {})
    what = "(shape, configuration)" if tuned else "(shape, rung)"
    lines += ["", f"{len(ratios)} shapes; the best {'configuration' if tuned else 'rung'}'s geometric mean {geomean:.3f}× "
                  f"cuBLAS; faster than cuBLAS on {faster}. The time model ({report['profile']['name']} profile) within "
                  f"±20% of the measured median on {within} of {pairs} {what} pairs; of the others, it predicted {slow} "
                  f"slower than measured and {fast} faster, their limits "
                  f"{', '.join(f'{n} {k}' for k, n in sorted(miss_limits.items(), key=lambda kv: -kv[1]))}. Measured on {on.get('device', {}).get('name', '?')}, "
                  f"driver {on.get('software', {}).get('driver', '?')}, CUDA {on.get('software', {}).get('runtime_cuda', '?')}, "
                  f"cuBLAS {on.get('software', {}).get('cublas', '?')}, "
                  f"{on.get('date_utc', '?')}; {report['input']} inputs, block order {report['order']}."]
    if tuned and default_ratios:
        default_geomean = math.exp(sum(math.log(r) for r in default_ratios) / len(default_ratios))
        median = statistics.median(spearmans)
        lines[-1] += (f" The rungs' defaults alone: geometric mean {default_geomean:.3f}×, faster than cuBLAS on "
                      f"{sum(r > 1 for r in default_ratios)}. The model's ranking of each shape's timed configurations "
                      f"against the measured one: Spearman {median:.2f} at the median shape, ≥ 0.8 on "
                      f"{sum(r >= 0.8 for r in spearmans)} of {len(spearmans)} shapes.")
    if half_empty:
        lines[-1] += (f" Split-K (tma-wgmma-splitk, its default) is faster than the best data-parallel rung on {split_wins} of "
                      f"the {half_empty} shapes where that rung's last wave fills less than half the GPU.")
    if summary_only:
        lines = lines[-1:]
    return "\n".join(lines) + "\n"


TRACES = re.compile(r"(<!-- traces: (\S+) -->\n)(.*?)(<!-- traces end -->)", re.S)


def untraced_kstep_ns(summary):
    """The untraced kernel's time spread over its k-steps as the time model spreads its prediction (gemmlab-cli trace
    --json's summary): the k-step of the kernel as it runs, against which the sampled block's (slowed by its stamps)
    and the model's are compared; 0 without the model's figures."""
    model = summary["model"]
    return model["kstep_ns"] * summary["untraced_ms"] / model["kernel_ms"] if model["kernel_ms"] else 0


def trace_table(folder):
    """The summaries of scripts/trace-run (gemmlab-cli trace --json), a row per rung: the kernel untraced and traced,
    what the consumers' time went to, their median k-step beside the time model's, the copies' latency as the
    consumers see it; then where and when it was measured."""
    lines = ["| rung | untraced (ms) | traced | consumers: own work / waiting for copies / other waits | median k-step "
             "(ns) | untraced k-step | model's k-step | copy to use (ns) | consumer waited (ns) |",
             "| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: |"]
    env = (ROOT / folder / "env.txt").read_text().strip()
    summaries = sorted((ROOT / folder).glob("*.summary.json"))
    if not summaries:
        raise SystemExit(f"results-tables: {folder} has no *.summary.json (scripts/trace-run writes them)")
    for path in summaries:
        d = json.loads(path.read_text())
        role = multiplying_role(d)
        total = role["total_ns"]
        copies = role["waits_ns"].get("mbarrier wait", 0)
        other = sum(ns for op, ns in role["waits_ns"].items() if op != "mbarrier wait")
        model = d["model"]
        untraced = untraced_kstep_ns(d)
        untraced_kstep = f"{untraced:.0f} ({role['median_kstep_ns'] / untraced - 1:+.0%})" if untraced else "-"
        model_kstep = f"{model['kstep_ns']:.0f} ({model['kstep_ns'] / untraced - 1:+.0%})" if untraced else "-"
        notes = []
        if d.get("tiles_per_block", 1) > 1:  # summaries from 2026-11-30 on say how many of a block's tiles were stamped
            notes.append(f"{d['tiles_stamped']} of {d['tiles_per_block']} tiles")
        if any("setmaxnreg" in w for w in d["traced_ptxas_warnings"]):
            notes.append("ptxas ignored its setmaxnreg")
        if d.get("traced_spill_bytes", 0) > 0 and d.get("tiles_per_block", 1) > 1:  # the two walks' registers
            notes.append(f"its tracing build spilled {d['traced_spill_bytes']} bytes")
        warn = f" ({'; '.join(notes)})" if notes else ""
        lines.append(f"| {path.name.split('.')[0]} | {d['untraced_ms']:.4f} | {d['overhead']:+.1%}{warn} | "
                     f"{role['busy_ns'] / total:.0%} / {copies / total:.0%} / {other / total:.0%} | "
                     f"{role['median_kstep_ns']:.0f} | {untraced_kstep} | {model_kstep} | {d['median_copy_to_use_ns']:.0f} | "
                     f"{d['median_consumer_wait_ns']:.0f} |")
    lines += ["", f"Measured: {env}; {d['runs']} runs of each kernel alternating, medians; the time model's figures from "
                  f"its {model['profile']} profile."]
    return "\n".join(lines) + "\n"


TILE_WINDOW = re.compile(r"(<!-- tile-window: (\S+) -->\n)(.*?)(<!-- tile-window end -->)", re.S)


def tile_window_table(folder):
    """What tracing costs a persistent rung against how many of a sampled block's tiles are stamped (gemmlab-cli trace
    --tiles): the summaries in FOLDER named rR-tT-repN.summary.json (T = 0: every tile), each run's overhead, and at
    8192^3 those in FOLDER/8192 (rR-tT.summary.json); then where and when."""
    root = ROOT / folder
    runs = {}
    for path in sorted(root.glob("r*-t*-rep*.summary.json")) + sorted(root.glob("8192/r*-t*.summary.json")):
        rung, tiles = (int(x) for x in re.match(r"r(\d+)-t(\d+)", path.name).groups())
        d = json.loads(path.read_text())
        size = "8192" if path.parent.name == "8192" else "4096"
        runs.setdefault((rung, d["kernel"].split(" ")[0]), {}).setdefault(
            (size, tiles), []).append(d)
    if not runs:
        raise SystemExit(f"results-tables: {folder} has no rR-tT-repN.summary.json")
    columns = [("4096", 1), ("4096", 2), ("4096", 0), ("8192", 1), ("8192", 0)]
    lines = ["| rung | tiles a block walks (4096³ / 8192³) | 4096³: first tile | first two | every tile | "
             "8192³: first tile | every tile |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for (rung, kernel), cells in sorted(runs.items()):
        walks = " / ".join(str(cells[(size, 0)][0]["tiles_per_block"]) if (size, 0) in cells else "-"
                           for size in ("4096", "8192"))
        row = [" / ".join(f"{d['overhead']:+.1%}" for d in cells.get(key, [])) or "-" for key in columns]
        lines.append(f"| {rung}-{kernel} | {walks} | " + " | ".join(row) + " |")
    env = (root / "env.txt").read_text().strip()
    # The dearest run of the default window (gemmlab-cli trace's --tiles 1), so the page's claim about it is checked.
    worst = max(((d["overhead"], f"{rung}-{kernel}", size) for (rung, kernel), cells in runs.items()
                 for (size, tiles), ds in cells.items() if tiles == 1 for d in ds), default=None)
    dearest = (f" With the default, one stamped tile, the dearest run: {worst[0]:+.1%} ({worst[1]}, {worst[2]}³)."
               if worst else "")
    lines += ["", f"The traced kernel's time over the untraced one's, less 1 (each run's median of its alternating runs; "
                  f"two runs at 4096³). Stream-K's \"tiles\" are its segments.{dearest} Measured: {env}"]
    return "\n".join(lines) + "\n"


def ratio_tables(check):
    stale = []
    for page in sorted((ROOT / "docs/rungs").glob("[0-9][0-9]-*.md")) + [ROOT / "docs/sweep.md", ROOT / "docs/timeline.md"]:
        if not page.exists():
            continue
        text = page.read_text()
        new = RATIOS.sub(lambda m: m.group(1) + ratio_table(json.loads((ROOT / m.group(2)).read_text())) + m.group(4),
                         text)
        new = SWEEP.sub(lambda m: m.group(1) + sweep_table(read_json(ROOT / m.group(3)),
                                                          m.group(2) is not None) + m.group(5), new)
        new = TRACES.sub(lambda m: m.group(1) + trace_table(m.group(2)) + m.group(4), new)
        new = TILE_WINDOW.sub(lambda m: m.group(1) + tile_window_table(m.group(2)) + m.group(4), new)
        if new != text:
            stale.append(str(page.relative_to(ROOT)))
            if not check:
                page.write_text(new)
    if check and stale:
        print("out of date: " + ", ".join(stale) + ": run scripts/results-tables.py --ratio-tables", file=sys.stderr)
        return 1
    return 0


def main():
    if sys.argv[1:2] == ["--ratio-tables"]:
        return ratio_tables("--check" in sys.argv[2:])
    if len(sys.argv) == 3 and sys.argv[1] == "--alternates":
        print(alternates_table(json.loads(pathlib.Path(sys.argv[2]).read_text())))
        return
    report_path = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "assets/results/h100.json"
    report, sizes, table = load(report_path)
    rungs = []
    for page in sorted((ROOT / "docs/rungs").glob("[0-9][0-9]-*.md")):
        number, name = int(page.name[:2]), page.stem[3:]
        rungs.append((number, name))
        text = page.read_text()
        block = re.compile(r"(## Measured on the H100\n\n)(.*?)(\nReproduce)", re.S)
        m = block.search(text)
        if not m:
            print(f"{page}: no '## Measured on the H100' section with a 'Reproduce' line", file=sys.stderr)
            continue
        body = ("Default configuration, median of 20 runs. × cuBLAS is to cuBLAS runs on the same inputs that alternate with\n"
                "the rung's runs (reports from before 2026-11-24T09:27Z: to cuBLAS's own row); the cuBLAS row is cuBLAS timed\n"
                "alone, before the rungs.\n" +
                device_line(report) +
                "\n\n" + rung_table(name, sizes, table) + "\n")
        page.write_text(text[:m.start(2)] + body + text[m.end(2):])
    print(ladder_table(rungs, sizes, table))


if __name__ == "__main__":
    sys.exit(main())
