#!/usr/bin/env bash
# tests/peers/run.sh PEERS [SIZES...]: the two fastest public H100 BF16 GEMMs, ThunderKittens' H100 GEMM and fast.cu's
# kernel 12, each timed beside cuBLAS in its own process (README.md beside this file says how, and where PEERS comes
# from). Needs an H100 or H200 and nvcc; not part of the build or of ctest.
#
# PEERS holds the two projects' sources at the commits README.md names: PEERS/ThunderKittens and PEERS/fast.cu.
# Writes into $OUT (default /tmp/out): tk.txt and fastcu.txt (each harness's report), compile_tk.log and
# compile_fastcu.log, env.txt (nvidia-smi, nvcc) and summary.txt (the result lines, also printed). One harness failing
# to build or run does not stop the other; the exit status is 0 only when both ran and passed their check.
# Environment: BUILD_DIR (default /tmp/gemm_bench_build), RUN_TIMEOUT_S (default 90), and BENCH_ROUNDS, BENCH_WARMUP,
# BENCH_SPIN_CYCLES for the harnesses. SIZES: square sizes, multiples of 256 (default 4096 8192).

set -u
OUT="${OUT:-/tmp/out}"
mkdir -p "$OUT"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [ $# -lt 1 ] || [ ! -d "$1/ThunderKittens" ] || [ ! -d "$1/fast.cu" ]; then
    echo "usage: tests/peers/run.sh PEERS [SIZES...]: PEERS must hold ThunderKittens/ and fast.cu/ (README.md)" >&2
    exit 2
fi
PEERS="$(cd "$1" && pwd)"
shift
BUILD="${BUILD_DIR:-/tmp/gemm_bench_build}"
mkdir -p "$BUILD"
RUN_TIMEOUT_S="${RUN_TIMEOUT_S:-90}"
SIZES=("$@")

if command -v nvcc >/dev/null 2>&1; then
    NVCC="$(command -v nvcc)"
elif [ -x /usr/local/cuda/bin/nvcc ]; then
    NVCC=/usr/local/cuda/bin/nvcc
else
    echo "ERROR: nvcc not found on PATH or at /usr/local/cuda/bin/nvcc" | tee "$OUT/tk.txt" "$OUT/fastcu.txt"
    exit 1
fi
CUDA_HOME_GUESS="$(cd "$(dirname "$NVCC")/.." && pwd)"
CUDA_LIBDIR="$CUDA_HOME_GUESS/lib64"
[ -d "$CUDA_LIBDIR" ] || CUDA_LIBDIR="$CUDA_HOME_GUESS/lib"
RPATH=(-Xlinker -rpath -Xlinker "$CUDA_LIBDIR")
export LD_LIBRARY_PATH="$CUDA_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "host: $(hostname)"
    echo "nvcc: $NVCC"
    "$NVCC" --version
    echo "CUDA lib dir: $CUDA_LIBDIR"
    ls -l "$CUDA_LIBDIR"/libcublas.so* 2>/dev/null
    if command -v nvidia-smi >/dev/null 2>&1; then
        nvidia-smi
        nvidia-smi -q -d CLOCK,PERFORMANCE,POWER,TEMPERATURE 2>/dev/null | head -150
    else
        echo "nvidia-smi not found"
    fi
} > "$OUT/env.txt" 2>&1

# --- ThunderKittens: flags of kernels/common.mk with GPU=H100, CONFIG=standalone (+ -lcublas) ---
TK_FLAGS=(-std=c++20 -O3 --use_fast_math
    -lrt -lpthread -ldl -lcuda -lcudadevrt -lcudart_static
    --expt-extended-lambda --expt-relaxed-constexpr
    -forward-unknown-to-host-compiler
    -Xcompiler=-Wno-psabi -Xcompiler=-fno-strict-aliasing
    -Xnvlink=--verbose -Xptxas=--verbose -Xptxas=--warn-on-spills
    -I"$PEERS/ThunderKittens/include" -I"$PEERS/ThunderKittens/prototype" -I"$PEERS/ThunderKittens"
    -DNDEBUG -lineinfo -ftemplate-backtrace-limit=0
    -DKITTENS_HOPPER -gencode arch=compute_90a,code=sm_90a
    -lcublas)
# --- fast.cu: flags of its Makefile (NVCC_BASE) (+ -ldl for the NVML dlopen, -Xptxas=--verbose for
# the log). Its Makefile says -arch=sm_90a; with CUDA 13 nvcc that ALSO emits a generic compute_90
# PTX, which rejects wgmma/setmaxnreg, so the equivalent explicit sm_90a-only gencode is used.
FC_FLAGS=(-std=c++17 -O3 -DNDEBUG -w
    --expt-relaxed-constexpr --expt-extended-lambda --use_fast_math
    -Xcompiler=-fPIE -Xcompiler=-Wno-psabi -Xcompiler=-fno-strict-aliasing
    -gencode arch=compute_90a,code=sm_90a -I"$PEERS/fast.cu"
    -lcublas -lcuda -lineinfo -ldl -Xptxas=--verbose)

compile() {  # name src outbin log flags...
    local name="$1" src="$2" bin="$3" log="$4"; shift 4
    rm -f "$bin"
    {
        echo "+ cd $(dirname "$src")"
        echo "+ $NVCC $(basename "$src") $* ${RPATH[*]} -o $bin"
        local t0=$SECONDS
        (cd "$(dirname "$src")" && "$NVCC" "$(basename "$src")" "$@" "${RPATH[@]}" -o "$bin")
        local rc=$?
        echo "[$name] compile exit code $rc after $((SECONDS - t0)) s"
        return $rc
    } > "$log" 2>&1
}

echo "compiling both harnesses in parallel (logs: $OUT/compile_tk.log, $OUT/compile_fastcu.log) ..."
compile tk "$HERE/thunderkittens_bench.cu" "$BUILD/tk_bench" "$OUT/compile_tk.log" "${TK_FLAGS[@]}" &
PID_TK=$!
compile fastcu "$HERE/fastcu_bench.cu" "$BUILD/fastcu_bench" "$OUT/compile_fastcu.log" "${FC_FLAGS[@]}" &
PID_FC=$!
wait $PID_TK; RC_TK_BUILD=$?
wait $PID_FC; RC_FC_BUILD=$?
echo "compile: tk rc=$RC_TK_BUILD, fastcu rc=$RC_FC_BUILD"

run_one() {  # name bin outfile build_rc
    local name="$1" bin="$2" out="$3" brc="$4"
    if [ "$brc" -ne 0 ] || [ ! -x "$bin" ]; then
        {
            echo "ERROR: $name harness did not compile (rc=$brc); tail of compile log:"
            tail -40 "$OUT/compile_$name.log"
        } > "$out" 2>&1
        return 1
    fi
    local t0=$SECONDS
    timeout -k 5 "$RUN_TIMEOUT_S" "$bin" ${SIZES[@]+"${SIZES[@]}"} > "$out" 2>&1
    local rc=$?
    [ $rc -eq 124 ] && echo "ERROR: $name harness timed out after ${RUN_TIMEOUT_S}s (hung kernel?)" >> "$out"
    echo "[$name] exit code $rc after $((SECONDS - t0)) s" >> "$out"
    return $rc
}

# Run sequentially (never two GPU benchmarks at the same time).
run_one tk "$BUILD/tk_bench" "$OUT/tk.txt" "$RC_TK_BUILD"; RC_TK=$?
run_one fastcu "$BUILD/fastcu_bench" "$OUT/fastcu.txt" "$RC_FC_BUILD"; RC_FC=$?

{
    echo "tk: exit $RC_TK; fastcu: exit $RC_FC"
    grep -h -E '^(Device|NVIDIA driver|CUDA runtime|cuBLAS version)' "$OUT/tk.txt" 2>/dev/null | head -4
    grep -h -E '^(ThunderKittens H100 GEMM|fast\.cu kernel 12) [0-9]+\^3:|FATAL|ERROR|RESULT' "$OUT/tk.txt" "$OUT/fastcu.txt" 2>/dev/null
} > "$OUT/summary.txt"
cat "$OUT/summary.txt"

[ $RC_TK -eq 0 ] && [ $RC_FC -eq 0 ]
