#!/usr/bin/env python3
"""The rung kernels' names and ptxas's resource usage: the one parser, for the build and for scripts/sass-report.

As a program, two steps of the CUDA build (gpu/CMakeLists.txt):
  kernel_resources.py capture COMPILER ARGS... -o OBJECT ...
      the compiler launcher of gpu/kernels/*.cu: runs the compile (nvcc with --resource-usage), writes ptxas's
      "ptxas info" lines to OBJECT.ptxas.txt and forwards everything else (warnings, errors) to the console.
  kernel_resources.py generate --output FILE.cpp OBJECT...
      reads each OBJECT.ptxas.txt and writes the C++ table of registers per thread behind gpu::compiled_registers.
  kernel_resources.py serialized OBJECT...
      a test (gpu.wgmma_not_serialized): prints every kernel whose wgmma ptxas serialised ("Potential Performance
      Loss: wgmma.mma_async instructions are serialized ...", C7515 to C7518 and kin) and exits 1 if there is one.
As a module: kernel_name() (mangled rung kernel -> rung and configuration) and ptxas_usage().
"""
import os
import re
import subprocess
import sys

# kernel::FixedConfig's parameters, in order (gpu/include/gemmlab/gpu/instances.def).
KNOBS = ["bm", "bn", "bk", "tm", "tn", "wm", "wn", "a_pad", "b_pad", "swizzle", "conflicting", "stages", "cluster",
         "grid"]
# rung_kernel<kernel::rungs::Name[<bool>], kernel::FixedConfig<one int per knob>, In, bool AlignedRows>, as nvcc
# mangles it.
KERNEL = re.compile(r"rung_kernelINS_6kernel5rungs(\d+)(\w+?)(?:ILb([01])EE)?ENS2_11FixedConfigI((?:Li-?\d+E){%d})" % len(KNOBS))
# The last template argument: 0 for the kernel compiled with the copies of rows that are not 16-byte aligned (rungs
# 15 and 16 at n or k not multiples of 8; gpu/src/rung_kernel.cuh).
ALIGNED_ROWS = re.compile(r"Lb([01])EEEv")

ENTRY = re.compile(r"ptxas info\s*: Compiling entry function '([^']+)' for '(\w+)'")
USED = re.compile(r"ptxas info\s*: Used (\d+) registers")
STACK = re.compile(r"^\s+(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")


def kernel_name(mangled):
    """(rung struct, {knob: value}) of a rung kernel's mangled name; None for any other function. The kernel compiled
    for rows that are not 16-byte aligned is named "<any size>" after the rung."""
    m = KERNEL.search(mangled)
    if not m:
        return None
    rung = m.group(2) + ({"1": "<uncoalesced>", "0": "<coalesced>"}.get(m.group(3), ""))
    aligned = ALIGNED_ROWS.search(mangled, m.end())
    if aligned and aligned.group(1) == "0":
        rung += "<any size>"
    values = [int(v) for v in re.findall(r"Li(-?\d+)E", m.group(4))]
    return rung, dict(zip(KNOBS, values))


def ptxas_usage(text):
    """{(mangled, arch): {"registers": N, "stack": B, "spill_stores": B, "spill_loads": B}} from ptxas -v output."""
    usage = {}
    current = None
    for line in text.splitlines():
        m = ENTRY.search(line)
        if m:
            current = usage.setdefault((m.group(1), m.group(2)), {})
            continue
        m = STACK.search(line)
        if m and current is not None:
            current.update(stack=int(m.group(1)), spill_stores=int(m.group(2)), spill_loads=int(m.group(3)))
            continue
        m = USED.search(line)
        if m and current is not None:
            current["registers"] = int(m.group(1))
    return usage


def is_ptxas_info(line):
    return line.startswith("ptxas info") or STACK.search(line) is not None


def capture(command):
    """Runs the compile; ptxas's report goes to OBJECT.ptxas.txt, the rest of its error output to the console."""
    try:
        obj = command[command.index("-o") + 1]
    except (ValueError, IndexError):
        print("kernel_resources.py capture: no '-o OBJECT' in the compile command", file=sys.stderr)
        return 2
    report = obj + ".ptxas.txt"
    result = subprocess.run(command, stderr=subprocess.PIPE, text=True)
    info = [line for line in result.stderr.splitlines() if is_ptxas_info(line)]
    rest = [line for line in result.stderr.splitlines() if not is_ptxas_info(line)]
    if rest:
        print("\n".join(rest), file=sys.stderr)
    if result.returncode != 0:
        if os.path.exists(report):
            os.remove(report)  # never leave a report beside a failed (or missing) object
        return result.returncode
    tmp = report + ".tmp"
    with open(tmp, "w") as f:
        f.write("\n".join(info) + "\n")
    os.replace(tmp, report)
    return 0


def compute_capability(arch):
    """'sm_90' or 'sm_90a' -> '9.0', as the device profiles (assets/devices/) write it."""
    number = int(re.sub(r"\D", "", arch))
    return f"{number // 10}.{number % 10}"


def generate(output, objects):
    """The C++ table: one row per rung kernel and architecture compiled in OBJECTS (gpu/kernels/<slug>.cu.o: the
    file names the rung)."""
    rows = []
    for obj in objects:
        report = obj + ".ptxas.txt"
        if not os.path.exists(report):
            print(f"kernel_resources.py: {report} is missing (the kernel was not compiled through the capture "
                  f"launcher); delete {obj} and build again", file=sys.stderr)
            return 1
        slug = os.path.basename(obj).split(".")[0]
        with open(report) as f:
            usage = ptxas_usage(f.read())
        for (mangled, arch), figures in sorted(usage.items()):
            named = kernel_name(mangled)
            # The table holds the kernels that run at aligned sizes, the ones the ladder is measured at; the any-size
            # kernel of rungs 15 and 16 is reported by scripts/sass-report.
            if named is None or "registers" not in figures or named[0].endswith("<any size>"):
                continue
            values = ", ".join(str(named[1][k]) for k in KNOBS)
            rows.append(f'    {{"{slug}", make_kernel_config({values}), "{compute_capability(arch)}", '
                        f'{figures["registers"]}}},')
    text = ("// Generated at build time by scripts/kernel_resources.py from ptxas's resource usage of gpu/kernels/*.cu.\n"
            "// Not committed, not edited: registers per thread of each compiled rung kernel.\n"
            '#include "recorded_registers.hpp"\n\n'
            "namespace gemmlab::gpu {\n\n"
            "std::span<const RecordedRegisters> recorded_registers() {\n"
            "  static constexpr RecordedRegisters table[] = {\n" + "\n".join(rows) + "\n  };\n"
            "  return table;\n}\n\n}  // namespace gemmlab::gpu\n")
    if not rows:
        print("kernel_resources.py: ptxas reported no rung kernel in " + " ".join(objects), file=sys.stderr)
        return 1
    with open(output, "w") as f:
        f.write(text)
    return 0


WGMMA_SERIALIZED = re.compile(r"ptxas info\s*: \((C\d+)\) (?:Potential Performance Loss: wgmma|warpgroup\.wait is injected)"
                              r"[^']*'([^']+)'")


def serialized(objects):
    """Exit status 1, with a line per kernel, where ptxas serialised a kernel's wgmma or injected waits into it."""
    found = 0
    for obj in objects:
        with open(obj + ".ptxas.txt") as f:
            for m in WGMMA_SERIALIZED.finditer(f.read()):
                named = kernel_name(m.group(2))
                what = (named[0] + " " + " ".join(f"{k}={v}" for k, v in named[1].items())) if named else m.group(2)
                print(f"{os.path.basename(obj)}: {m.group(1)} in {what}")
                found += 1
    print(f"{found} serialisation reports in {len(objects)} objects")
    return 1 if found else 0


def main(argv):
    if len(argv) >= 2 and argv[0] == "serialized":
        return serialized(argv[1:])
    if len(argv) >= 2 and argv[0] == "capture":
        return capture(argv[1:])
    if len(argv) >= 3 and argv[0] == "generate" and argv[1] == "--output":
        return generate(argv[2], argv[3:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
