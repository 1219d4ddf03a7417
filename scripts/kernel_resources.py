#!/usr/bin/env python3
"""The rung kernels' names and ptxas's resource usage: the one parser, for the build and for scripts/sass-report.

As a program, two steps of the CUDA build (gpu/CMakeLists.txt):
  kernel_resources.py capture COMPILER ARGS... -o OBJECT ...
      the compiler launcher of gpu/kernels/*.cu: runs the compile (nvcc with --resource-usage), writes ptxas's
      "ptxas info" lines to OBJECT.ptxas.txt and forwards everything else (warnings, errors) to the console.
  kernel_resources.py generate [--nvcc NVCC] --output FILE.cpp OBJECT...
      reads each OBJECT.ptxas.txt and writes the C++ table of registers per thread behind gpu::compiled_registers.
      With cuobjdump (next to nvcc, on PATH, or PyPI's nvidia-cuda-cuobjdump, which scripts/setup installs), each
      kernel's SASS cut into regions by its loops goes into the table too (sass_regions; the time model's issue term,
      sim/include/gemmlab/sim/compiled_code.hpp). Without it the table has no regions and says so on the console.
  kernel_resources.py serialized OBJECT...
      a test (gpu.wgmma_not_serialized): prints every kernel whose wgmma ptxas serialised ("Potential Performance
      Loss: wgmma.mma_async instructions are serialized ...", C7515 to C7518 and kin) and exits 1 if there is one.
  kernel_resources.py cuobjdump
      prints the cuobjdump the build would use, or exits 1 (scripts/setup installs one from PyPI then).
  kernel_resources.py regions-json CUBIN OUTPUT
      writes the regions of a run-time compiled kernel (gpu/src/runtime_source.cpp, runtime_kernel_code) as JSON.
  kernel_resources.py regions OBJECT [SLUG-FILTER]
      prints the SASS regions of every rung kernel in OBJECT, as the table records them.
As a module: kernel_name() (mangled rung kernel -> rung and configuration), ptxas_usage() and sass_regions().
"""
import collections
import glob
import json
import os
import re
import shutil
import subprocess
import sys

KNOB_LIST = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "sim", "include", "gemmlab", "kernel",
                         "knobs.def")


def read_knobs(path=KNOB_LIST):
    """The knobs' names, in the knob list's order: kernel::FixedConfig's template parameters."""
    with open(path) as f:
        text = f.read()
    entries = re.findall(r"^\s*KNOB\(", text, re.MULTILINE)  # one a line; its help may go on below
    names = re.findall(r"^\s*KNOB\((\w+),\s*-?\d+,", text, re.MULTILINE)
    if not names or len(names) != len(entries):
        raise SystemExit(f"kernel_resources.py: {path} is not the knob list (KNOB(name, default, ...) lines)")
    return names


KNOBS = read_knobs()
# rung_kernel<kernel::rungs::Name[<bool>], kernel::FixedConfig<one int per knob>, In, bool AlignedRows>, as nvcc
# mangles it (rung_kernel_setmaxnreg: the same with its launch bounds, gpu/src/rung_block.cuh).
KERNEL = re.compile(r"rung_kernel(?:_setmaxnreg)?INS_6kernel5rungs(\d+)(\w+?)(?:ILb([01])EE)?ENS2_11FixedConfigI((?:Li-?\d+E){%d})" % len(KNOBS))
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


# The SASS instructions that stand for the description's own, in sim::SassAnchor's order
# (sim/include/gemmlab/sim/compiled_code.hpp): the opcode before its first '.', matched whole.
ANCHORS = ["FFMA", "HMMA", "HGMMA", "LDGSTS", "LDSM", "LDS", "STS", "LDG", "STG", "UTMALDG"]
SASS_FUNCTION = re.compile(r"Function : (\S+)")
SASS_ARCH = re.compile(r"^arch = (sm_\w+)")
SASS_INSTRUCTION = re.compile(r"^\s+/\*([0-9a-f]{4,})\*/\s+(?:@!?U?P[0-9T]\s+)?([A-Z][A-Z0-9_]*)((?:\.[A-Z0-9_]+)*)\s*([^;]*?)\s*;")
BRANCH_TARGET = re.compile(r"0x([0-9a-f]+)$")
# One SASS instruction: its address, opcode (before the first '.'), branch target (BRA) or None, modifiers (".E.128")
# and operands as written.
Instruction = collections.namedtuple("Instruction", "address opcode target modifiers operands", defaults=("", ""))
# Opcodes whose first operand is not a register they write.
NO_DESTINATION = re.compile(r"^(ST|RED|BRA|BAR|EXIT|RET|CALL|JMP|LDGSTS|LDGDEPBAR|DEPBAR|WARPSYNC|MEMBAR|FENCE|ERRBAR|"
                            r"CCTL|NOP|UTMA|SYNCS|YIELD|BSSY|BSYNC|WARPGROUP|ELECT|NANOSLEEP)")
REGISTER = re.compile(r"\bR(\d+)(\.64)?\b")


def find_cuobjdump(nvcc=None):
    """cuobjdump: $GEMMLAB_CUOBJDUMP, next to nvcc, on PATH, or from PyPI's nvidia-cuda-cuobjdump; None if none."""
    candidates = [os.environ.get("GEMMLAB_CUOBJDUMP")]
    if nvcc:
        candidates.append(os.path.join(os.path.dirname(os.path.realpath(nvcc)), "cuobjdump"))
    candidates += [shutil.which("cuobjdump"), "/usr/local/cuda/bin/cuobjdump"]
    for root in sys.path + [os.path.expanduser("~/.local/lib")]:
        candidates += sorted(glob.glob(os.path.join(root, "nvidia", "cu*", "bin", "cuobjdump")), reverse=True)
        candidates += sorted(glob.glob(os.path.join(root, "python3*", "site-packages", "nvidia", "cu*", "bin",
                                                    "cuobjdump")), reverse=True)
    # cuobjdump -sass runs nvdisasm: the one beside it, or one on PATH.
    return next((c for c in candidates if c and os.path.isfile(c) and os.access(c, os.X_OK) and
                 (os.path.isfile(os.path.join(os.path.dirname(c), "nvdisasm")) or shutil.which("nvdisasm"))), None)


def sass_functions(text):
    """{(mangled, arch): [(address, opcode, branch target or None)]} from `cuobjdump -sass` output."""
    functions = {}
    arch = None
    current = None
    for line in text.splitlines():
        m = SASS_ARCH.match(line)
        if m:
            arch = m.group(1)
            continue
        m = SASS_FUNCTION.search(line)
        if m:
            current = functions.setdefault((m.group(1), arch), [])
            continue
        m = SASS_INSTRUCTION.match(line)
        if m and current is not None:
            t = BRANCH_TARGET.search(m.group(4)) if m.group(2) == "BRA" else None
            current.append(Instruction(int(m.group(1), 16), m.group(2), int(t.group(1), 16) if t else None, m.group(3),
                                       m.group(4)))
    return functions


def registers(operand):
    """The general registers an operand names: R4 -> [4], R4.64 (a 64-bit pair) -> [4, 5]; RZ names none."""
    return [r for m in REGISTER.finditer(operand) for r in ((int(m.group(1)), int(m.group(1)) + 1) if m.group(2)
                                                             else (int(m.group(1)),))]


def written_and_read(instruction):
    """(registers the instruction writes, registers it reads). A load writes as many registers as its width."""
    operands = [o.strip() for o in instruction.operands.split(",")] if instruction.operands else []
    if not operands or NO_DESTINATION.match(instruction.opcode):
        return [], [r for o in operands for r in registers(o)]
    first = registers(operands[0])
    width = 4 if ".128" in instruction.modifiers else 2 if ".64" in instruction.modifiers or ".WIDE" in instruction.modifiers else 1
    written = list(range(first[0], first[0] + width)) if first else []
    return written, [r for o in operands[1:] for r in registers(o)]


def load_wait_points(body):
    """Where one warp, issuing a loop body's instructions in order, waits for a global load (LDG) it issued: the
    addresses of the instructions that read a register a load has not yet delivered. By the time one waits, every
    load issued before it has been on its way as long as the awaited one or longer; taking them as arrived with it (as
    they would if every load took the same time), the loads issued together share one wait. An approximation: loads
    that miss further take longer, and the hardware's stalls spread over more instructions
    (docs/time-model-data/02-naive-coalesced.sass-stalls.csv). Taken from a second pass of the body, so that loads issued in
    one pass and used in the next count."""
    pending = {}  # register -> position of the load that writes it
    covered = -1  # the loads issued at or before this position have arrived
    position = 0
    points = []
    for second in (False, True):
        for instruction in body:
            written, read = written_and_read(instruction)
            if any(pending.get(r, -1) > covered for r in read):
                covered = position - 1
                if second:
                    points.append(instruction.address)
            for r in written:
                pending.pop(r, None)
                if instruction.opcode == "LDG":
                    pending[r] = position
            position += 1
    return points


def load_waits(body):
    """How many times a warp waits for its global loads in a pass of a loop body (load_wait_points). The time model
    takes each wait as the whole wait for tiles from L2 in a kernel that loads straight into registers: ptxas decides
    how far ahead of their use it issues them."""
    return len(load_wait_points(body))


def region_bodies(instructions):
    """The function's loops as regions: [(parent, [its instructions])], region 0 first (what no loop holds), then one
    per loop (a backward branch and its target) holding what no inner loop holds, in address order; a parent comes
    before its loops. NOPs (padding) and the closing branch to itself are not executed work and are left out."""
    code = [Instruction(*i) for i in instructions if i[1] != "NOP"]
    while code and code[-1].opcode == "BRA" and code[-1].target == code[-1].address:
        code.pop()
    index = {instruction.address: n for n, instruction in enumerate(code)}
    ends = {}
    for n, (address, opcode, target, _, _) in enumerate(code):
        if target is not None and target < address and target in index:
            start = index[target]
            ends[start] = max(ends.get(start, n), n)
    # A loop nests in another or lies beside it. A backward branch whose span crosses a loop's end is not a loop of its
    # own: ptxas places a loop's rarely taken paths (an mbarrier wait's retry) after the function's end, and they jump
    # back into the loop. Innermost spans are taken first; a crossing one is left out, its instructions counted where
    # they sit.
    accepted = []
    for start, end in sorted(ends.items(), key=lambda loop: loop[1] - loop[0]):
        if all(end < s0 or start > e0 or (start <= s0 and e0 <= end) or (s0 <= start and end <= e0)
               for s0, e0 in accepted):  # beside, around or inside each loop taken so far
            accepted.append((start, end))
    loops = sorted(accepted, key=lambda loop: (loop[0], -loop[1]))
    parents = []
    for i, (start, end) in enumerate(loops):
        enclosing = [j for j in range(i) if loops[j][0] <= start and end <= loops[j][1]]
        parents.append(enclosing[-1] + 1 if enclosing else 0)
    owner = [0] * len(code)
    for i, (start, end) in sorted(enumerate(loops), key=lambda loop: loop[1][0] - loop[1][1]):
        for n in range(start, end + 1):
            owner[n] = i + 1  # widest first, so the innermost loop is the last to claim an instruction
    return [(parent, [instruction for n, instruction in enumerate(code) if owner[n] == r])
            for r, parent in enumerate([-1] + parents)]


def sass_regions(instructions):
    """The function's regions (region_bodies), [(parent, instructions, [count of each of ANCHORS], load waits)], with
    the times a warp waits for its global loads in a pass of each loop (load_waits; 0 for region 0)."""
    regions = []
    for r, (parent, body) in enumerate(region_bodies(instructions)):
        anchors = [sum(1 for instruction in body if instruction.opcode == a) for a in ANCHORS]
        regions.append((parent, len(body), anchors, load_waits(body) if r > 0 else 0))
    return regions


MATH = ("FFMA", "HMMA", "HGMMA")  # the anchors that are the math, as sim::main_loop counts them


def main_loop_body(instructions):
    """The instructions of the loop that holds the most math (MATH), as the time model's main loop; [] without one."""
    loops = region_bodies(instructions)[1:]
    math = lambda body: sum(1 for instruction in body if instruction.opcode in MATH)
    best = max(loops, key=lambda region: math(region[1]), default=(None, []))
    return best[1] if math(best[1]) > 0 else []


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


def object_regions(cuobjdump, obj):
    """{(mangled, arch): regions} of every function in OBJ; {} without cuobjdump."""
    if cuobjdump is None:
        return {}
    env = dict(os.environ, PATH=os.path.dirname(cuobjdump) + os.pathsep + os.environ.get("PATH", ""))
    result = subprocess.run([cuobjdump, "-sass", obj], capture_output=True, text=True, env=env)
    if result.returncode != 0:
        print(f"kernel_resources.py: {cuobjdump} -sass {obj} failed: {result.stderr.strip()}", file=sys.stderr)
        return {}
    return {key: sass_regions(code) for key, code in sass_functions(result.stdout).items()}


def cpp_regions(regions):
    return ", ".join("{%d, %d, {%s}, %d}" % (parent, size, ", ".join(map(str, anchors)), waits)
                     for parent, size, anchors, waits in regions)


def generate(output, objects, nvcc=None):
    """The C++ table: one row per rung kernel and architecture compiled in OBJECTS (gpu/kernels/<slug>.cu.o: the
    file names the rung), with ptxas's registers and the SASS's regions. A tensor-core rung compiles a kernel per input
    type; the table keeps the FP16 one, the type the time model's data is measured in."""
    cuobjdump = find_cuobjdump(nvcc)
    if cuobjdump is None:
        print("kernel_resources.py: no cuobjdump with nvdisasm (CUDA toolkit, or `pip install --user "
              "nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm`): the time model counts the description's instructions "
              "only", file=sys.stderr)
    rows, arrays, seen = [], [], set()
    for obj in objects:
        report = obj + ".ptxas.txt"
        if not os.path.exists(report):
            print(f"kernel_resources.py: {report} is missing (the kernel was not compiled through the capture "
                  f"launcher); delete {obj} and build again", file=sys.stderr)
            return 1
        slug = os.path.basename(obj).split(".")[0]
        with open(report) as f:
            usage = ptxas_usage(f.read())
        regions = object_regions(cuobjdump, obj)
        # FP16 (or FP32) instances before BF16 ones, so that the first of a configuration is the one kept.
        for (mangled, arch), figures in sorted(usage.items(), key=lambda item: ("__nv_bfloat16" in item[0][0], item[0])):
            named = kernel_name(mangled)
            # The table holds the kernels that run at aligned sizes, the ones the ladder is measured at; the any-size
            # kernel of rungs 15 and 16 is reported by scripts/sass-report.
            if named is None or "registers" not in figures or named[0].endswith("<any size>"):
                continue
            key = (slug, tuple(named[1][k] for k in KNOBS), arch)
            if key in seen:
                continue
            seen.add(key)
            config = ", ".join(f".{k} = {v}" for k, v in zip(KNOBS, key[1]))
            code = regions.get((mangled, arch), [])
            span = "{}"
            if code:
                arrays.append(f"constexpr sim::CodeRegion regions_{len(arrays)}[] = {{{cpp_regions(code)}}};")
                span = f"regions_{len(arrays) - 1}"
            rows.append(f'    {{"{slug}", kernel::KernelConfig{{{config}}}, "{compute_capability(arch)}", '
                        f'{figures["registers"]}, {span}}},')
    text = ("// Generated at build time by scripts/kernel_resources.py from ptxas's resource usage of gpu/kernels/*.cu and\n"
            "// their SASS (cuobjdump -sass). Not committed, not edited.\n"
            '#include "recorded_kernels.hpp"\n\n'
            "namespace gemmlab::gpu {\n\nnamespace {\n\n" + "\n".join(arrays) + "\n\n}  // namespace\n\n"
            "std::span<const RecordedKernel> recorded_kernels() {\n"
            "  static constexpr RecordedKernel table[] = {\n" + "\n".join(rows) + "\n  };\n"
            "  return table;\n}\n\n}  // namespace gemmlab::gpu\n")
    if not rows:
        print("kernel_resources.py: ptxas reported no rung kernel in " + " ".join(objects), file=sys.stderr)
        return 1
    with open(output, "w") as f:
        f.write(text)
    return 0


def regions_json(cubin, output):
    """kernel_resources.py regions-json: the regions of the one kernel of a run-time compiled cubin
    (gpu/src/runtime_source.cpp), as JSON {"function": name, "regions": [[parent, size, [anchors], load waits], ...]}."""
    cuobjdump = find_cuobjdump()
    if cuobjdump is None:
        print("kernel_resources.py: no cuobjdump with nvdisasm", file=sys.stderr)
        return 1
    functions = object_regions(cuobjdump, cubin)
    if len(functions) != 1:
        print(f"kernel_resources.py: {cubin} holds {len(functions)} functions, not one kernel", file=sys.stderr)
        return 1
    (name, _), regions = next(iter(functions.items()))
    tmp = "%s.%d.tmp" % (output, os.getpid())  # two processes sharing a kernel cache write apart
    with open(tmp, "w") as f:
        json.dump({"function": name, "anchors": ANCHORS, "regions": [[p, n, a, w] for p, n, a, w in regions]}, f)
    os.replace(tmp, output)
    return 0


def print_regions(obj, slug_filter=""):
    """kernel_resources.py regions: what the table records of OBJ's kernels, readably."""
    cuobjdump = find_cuobjdump()
    if cuobjdump is None:
        print("kernel_resources.py: no cuobjdump with nvdisasm", file=sys.stderr)
        return 1
    for (mangled, arch), regions in object_regions(cuobjdump, obj).items():
        named = kernel_name(mangled)
        if named is None or slug_filter not in named[0]:
            continue
        print(named[0], arch, " ".join(f"{k}={v}" for k, v in named[1].items()))
        for n, (parent, size, anchors, waits) in enumerate(regions):
            held = " ".join(f"{a}:{c}" for a, c in zip(ANCHORS, anchors) if c)
            print(f"  region {n} (in {parent}): {size} instructions; {held}; {waits} waits for global loads a pass")
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
    if len(argv) >= 5 and argv[0] == "generate" and argv[1] == "--nvcc" and argv[3] == "--output":
        return generate(argv[4], argv[5:], nvcc=argv[2])
    if len(argv) >= 3 and argv[0] == "generate" and argv[1] == "--output":
        return generate(argv[2], argv[3:])
    if len(argv) == 3 and argv[0] == "regions-json":
        return regions_json(*argv[1:])
    if argv == ["cuobjdump"]:
        found = find_cuobjdump()
        print(found or "no cuobjdump with nvdisasm")
        return 0 if found else 1
    if len(argv) in (2, 3) and argv[0] == "regions":
        return print_regions(*argv[1:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
