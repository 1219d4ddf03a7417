#!/usr/bin/env python3
"""scripts/results-tables.py [REPORT]: writes the measured tables of the docs from a benchmark report.

REPORT is `gemmlab-cli bench --json` output (default assets/results/h100.json, the recorded H100 run). The script
  - prints the ladder table (every rung's default configuration, TFLOPS and ratio to cuBLAS per size) for
    docs/results.md, and
  - rewrites, in each docs/rungs/NN-slug.md, the block between "## Measured on the H100" and the line that starts
    with "Reproduce": the device line and the rung's table, so no number on a rung page is typed by hand.
The prose after each table (what the numbers mean) stays the author's.
"""
import json
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def load(path):
    report = json.loads(path.read_text())
    rows = [r for r in report["rows"] if r["status"] == "timed" and r["config"] in ("default", "CUBLAS_COMPUTE_32F")]
    sizes = sorted({r["m"] for r in rows if r["m"] == r["n"] == r["k"]})
    table = {}
    for r in rows:
        if r["m"] == r["n"] == r["k"]:
            table[(r["name"], r["m"])] = r
    return report, sizes, table


def device_line(report):
    d, s = report["device"], report["software"]
    return (f"Device: {d['name']} (sm_{d['compute_capability'].replace('.', '')}, {d['sm_count']} SMs), driver "
            f"{s['driver']}, CUDA {s['runtime_cuda']}, cuBLAS {s['cublas']}; {report['date_utc']};\n"
            f"{report['block_order']} block order. Method and the whole ladder: [results](../results.md).")


def rung_table(name, sizes, table):
    head = "| | " + " | ".join(f"{n}³" for n in sizes) + " |"
    rule = "| --- | " + " | ".join("---:" for _ in sizes) + " |"
    def cells(key, fmt):
        return " | ".join(fmt(table[(key, n)]) if (key, n) in table else "" for n in sizes)
    return "\n".join([
        head, rule,
        "| TFLOPS | " + cells(name, lambda r: "%.2f" % r["tflops"]) + " |",
        "| × cuBLAS | " + cells(name, lambda r: "%.3f" % r["ratio_to_cublas"]) + " |",
        "| cuBLAS FP32, TFLOPS | " + cells("cublas", lambda r: "%.2f" % r["tflops"]) + " |",
    ])


def ladder_table(rungs, sizes, table):
    lines = ["| rung | " + " | ".join(f"{n}³ TFLOPS | × cuBLAS" for n in sizes) + " |",
             "| --- | " + " | ".join("---: | ---:" for _ in sizes) + " |"]
    for number, name in [(None, "cublas")] + rungs:
        label = "cuBLAS FP32" if name == "cublas" else f"{number} {name}"
        cells = []
        for n in sizes:
            r = table.get((name, n))
            cells.append(f"{r['tflops']:.2f} | {r['ratio_to_cublas']:.3f}" if r else " | ")
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main():
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
        body = ("Default configuration, median of 20 runs, cuBLAS in the same process.\n" + device_line(report) +
                "\n\n" + rung_table(name, sizes, table) + "\n")
        page.write_text(text[:m.start(2)] + body + text[m.end(2):])
    print(ladder_table(rungs, sizes, table))


if __name__ == "__main__":
    main()
