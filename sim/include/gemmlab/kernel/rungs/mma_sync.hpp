#pragma once
// Rungs 12 to 15 (and 16's main loop): tensor cores through mma.sync. FP16 or BF16 A and B, FP32 accumulation and C
// (the `acc=16` alternate accumulates in FP16: see AccumulatorAtom below and docs/rungs/16-mma-staged-epilogue.md).
//
// What changed from rung 11 (wmma.hpp). The same tiles and instructions, written by hand instead of through the WMMA
// API: the warp hands its tile to the tensor cores 16 x 8 x 16 at a time (mma.sync.m16n8k16: 2048 multiply-adds in
// one instruction, against 32 for a warp's FFMA), and every lane's addresses and registers are ours to place. The
// operands must be in registers in the atom's fragment layout (kernel/mma_atom.hpp), and ldmatrix builds that layout
// straight from shared memory: each lane gives the address of one 16-byte row of an 8 x 8 matrix, and every lane
// receives two elements of each matrix.
//
// The block: bm x bn of C, split into warps of wm x wn, 32 * (bm / wm) * (bn / wn) threads. A warp's tile is
// (wm / 16) x (wn / 8) atoms; per 16 k it loads wm / 16 A fragments (ldmatrix.x4) and wn / 16 pairs of B fragments
// (ldmatrix.x4.trans from the row-major B tile), then issues (wm / 16) * (wn / 8) mma. Tiles travel global -> shared
// with cp.async.cg, 16 bytes (8 elements) per copy, `stages` buffers deep, exactly as rung 8 (cp_async.hpp): the
// prologue issues tiles 0 .. S-2; k-step t waits for tile t, barrier, issues tile t+S-1 into the buffer tile t-1
// used, multiplies tile t.
//
// The four rungs share this description and differ in their defaults (and so in what a learner sees first):
//   mma-rowmajor    row-major shared tiles, rows of 64 halves (A) and 128 halves (B): each 8 x 8 matrix of an
//                   ldmatrix reads 8 rows that are a multiple of 128 bytes apart, all in the same 4 banks: 8-way
//                   conflicts, 8 wavefronts per matrix where 1 would do;
//   mma-padded      8 halves (16 bytes) of padding per row: the 8 rows fall in 8 different bank groups, no conflict,
//                   at the cost of 1/9 (A) and 1/17 (B) more shared memory;
//   mma-swizzled    no padding; the 16-byte chunk index XOR the row mod 8 (layout.hpp, HalfTile): conflict-free for
//                   the ldmatrix reads and the cp.async writes, nothing wasted;
//   mma-multistage  the swizzled layout with a bigger block tile and more stages in flight.
// Rung 16 (mma_staged_epilogue.hpp) keeps this main loop and changes the epilogue.
//
// Sizes: any m (rows past the edge are zero-filled and not stored). n and k multiples of 8 for rungs 12 to 14, so
// that every row of A and B starts on a 16-byte boundary and a 16-byte copy is wholly inside the matrix or outside
// it; rung 15 (and 16) take any n and k: an operand whose rows are not 16-byte aligned takes the element-by-element
// path of copy_tile. C is written straight from the accumulators: each lane's two consecutive floats with one 64-bit
// store (two 32-bit ones when n is odd, and rows of C are not 8-byte aligned).
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

#include "gemmlab/kernel/config.hpp"
#include "gemmlab/kernel/tiling_rules.hpp"
#include "gemmlab/kernel/context.hpp"
#include "gemmlab/kernel/cp_async_pipeline.hpp"
#include "gemmlab/kernel/element.hpp"
#include "gemmlab/kernel/epilogue.hpp"
#include "gemmlab/kernel/executor.hpp"
#include "gemmlab/kernel/layout.hpp"
#include "gemmlab/kernel/mma_atom.hpp"
#include "gemmlab/kernel/vec.hpp"
#include "gemmlab/result.hpp"

namespace gemmlab::kernel::rungs {

// The prologue and k-step of rungs 11 to 16, written once: K (the description) says how to zero its accumulators,
// copy a tile and multiply one; the cp.async pipeline says when.
template <class K>
struct MmaMainloop {
  template <class X, class C, class S>
  GEMMLAB_HD static void prologue(X& x, const C& c, const ThreadContext& t, S& s, int) {
    K::zero_accumulators(c, s);
    CpAsyncPipeline::fill(x, c.stages, t.ksteps, [&](int tile, int stage) { K::load_tile(x, c, t, tile, stage); });
  }

  template <class X, class C, class S>
  GEMMLAB_HD static void mainloop(X& x, const C& c, const ThreadContext& t, S& s, int kstep, int phase) {
    CpAsyncPipeline::step(
        x, c.stages, kstep, t.ksteps, phase, [&](int tile, int stage) { K::load_tile(x, c, t, tile, stage); },
        [&](int stage) { K::multiply_tile(x, c, t, s, stage); });
  }
};

// What rungs 11 to 16 share, whichever way they multiply: the block and warp tiles, the shared layouts and the
// copies into them, the rules of validate, and the registers a thread keeps.
struct MmaTiles {
  using Atom = MmaM16N8K16;
  static constexpr int input_bytes = 2;  // FP16 or BF16 A and B (kernel/element.hpp)
  static constexpr int chunk_elements = 8;  // one 16-byte cp.async

  // Stage s of shared memory: the A tile (bm x bk), then the B tile (bk x bn), both row-major as in global memory.
  template <class C> GEMMLAB_HD static HalfTile a_layout(const C& c) { return {c.bk, c.a_pad, c.swizzle != 0}; }
  template <class C> GEMMLAB_HD static HalfTile b_layout(const C& c) { return {c.bn, c.b_pad, c.swizzle != 0}; }
  template <class C> GEMMLAB_HD static int stage_bytes(const C& c) {
    return a_layout(c).size_bytes(c.bm) + b_layout(c).size_bytes(c.bk);
  }
  template <class C> GEMMLAB_HD static int a_base(const C& c, int stage) { return stage * stage_bytes(c); }
  template <class C> GEMMLAB_HD static int b_base(const C& c, int stage) {
    return a_base(c, stage) + a_layout(c).size_bytes(c.bm);
  }

  template <class C> GEMMLAB_HD static constexpr int warps(const C& c) { return (c.bm / c.wm) * (c.bn / c.wn); }
  template <class C> GEMMLAB_HD static constexpr int threads(const C& c) { return 32 * warps(c); }
  template <class C> GEMMLAB_HD static int smem_floats(const C& c) { return c.stages * stage_bytes(c) / 4; }
  template <class C> GEMMLAB_HD static int prologue_phases(const C&) { return 1; }
  template <class C> GEMMLAB_HD static int mainloop_phases(const C&) { return 2; }  // 0: wait, 1: copy + multiply
  template <class C> GEMMLAB_HD static int epilogue_phases(const C&) { return 1; }
  GEMMLAB_HD static bool barrier_after(Section section, int phase) {
    return section == Section::Mainloop && phase == 0;
  }

  // The warp's tile: rows [warp_row * wm, +wm) and columns [warp_col * wn, +wn) of the block's.
  template <class C> GEMMLAB_HD static int warp_row(const C& c, int tid) { return tid / 32 / (c.bn / c.wn); }
  template <class C> GEMMLAB_HD static int warp_col(const C& c, int tid) { return tid / 32 % (c.bn / c.wn); }

  // What a warp's multiply of one stage reads: the stage's A and B tiles (layout and first byte) and where the
  // warp's tile starts in the block's C tile.
  struct WarpStage {
    HalfTile a_layout, b_layout;
    int a_base, b_base;
    int row0, col0;
  };
  template <class C>
  GEMMLAB_HD static WarpStage warp_stage(const C& c, const ThreadContext& t, int stage) {
    return {a_layout(c), b_layout(c), a_base(c, stage), b_base(c, stage), warp_row(c, t.tid) * c.wm,
            warp_col(c, t.tid) * c.wn};
  }

  // Issues this thread's copies of a tile_rows x tile_cols tile of 16-bit elements whose first element is (row0, col0)
  // of a row-major rows_total x cols_total matrix, 16 bytes (one chunk of 8 elements) at a time. Consecutive threads
  // take consecutive chunks of a row. The branch depends only on the matrix's width, so every thread of the launch
  // takes the same one (x.rows_aligned: a constant in the GPU kernel compiled for n and k multiples of 8):
  //   cols_total % 8 == 0  every row starts on a 16-byte boundary, and a chunk is wholly inside the matrix or wholly
  //                        outside: one cp.async.16 per chunk, zero-filled outside;
  //   otherwise            a chunk's source is not 16-byte aligned, which cp.async.16 needs (and 2-byte elements have
  //                        no 2-byte cp.async): the thread loads the chunk's 8 elements one by one (ld.global.b16,
  //                        each predicated on its own column, 0 past the edge) and stores them with one st.shared.v4.
  //                        The copy is synchronous; the barrier before the tile is multiplied orders it, as it
  //                        orders the cp.async groups.
  template <class X>
  GEMMLAB_HD static void copy_tile(X& x, Operand operand, int row0, int col0, int rows_total, int cols_total,
                                   int tile_rows, int tile_cols, int tid, int threads, int smem_base,
                                   const HalfTile& layout) {
    const int chunks_per_row = tile_cols / chunk_elements;
    const int per_thread = tile_rows * chunks_per_row / threads;
    const bool aligned_rows = x.rows_aligned(cols_total);
    for (int i = 0; i < per_thread; ++i) {
      const int chunk = tid + i * threads;
      const int r = chunk / chunks_per_row, col = chunk % chunks_per_row * chunk_elements;
      const int row = row0 + r, first = col0 + col;
      if (aligned_rows) {
        const bool pred = row < rows_total && first < cols_total;
        x.cp_async16(smem_base + layout(r, col), operand, pred ? Index(row) * cols_total + first : Index(0), pred);
      } else {
        std::uint32_t words[4];
        GEMMLAB_UNROLL
        for (int w = 0; w < 4; ++w) {
          std::uint16_t lo, hi;
          const bool lo_in = row < rows_total && first + 2 * w < cols_total;
          const bool hi_in = row < rows_total && first + 2 * w + 1 < cols_total;
          x.ldg_element(lo, operand, lo_in ? Index(row) * cols_total + first + 2 * w : Index(0), lo_in);
          x.ldg_element(hi, operand, hi_in ? Index(row) * cols_total + first + 2 * w + 1 : Index(0), hi_in);
          words[w] = std::uint32_t{lo} | std::uint32_t{hi} << 16;
        }
        x.sts_chunk(smem_base + layout(r, col), words);
      }
    }
  }

  template <class X, class C>
  GEMMLAB_HD static void load_tile(X& x, const C& c, const ThreadContext& t, int tile, int stage) {
    const int k0 = tile * c.bk;
    copy_tile(x, Operand::A, t.row0, k0, t.m, t.k, c.bm, c.bk, t.tid, threads(c), a_base(c, stage), a_layout(c));
    copy_tile(x, Operand::B, k0, t.col0, t.k, t.n, c.bk, c.bn, t.tid, threads(c), b_base(c, stage), b_layout(c));
  }

  // ---- What the simulator, the CLI and the app need to know about this description (host only). ----

  // Whether the rung takes n and k that are not multiples of 8. Its GPU kernel is then compiled a second time with
  // copy_tile's element-by-element path (the first, for aligned sizes, leaves it out: a branch around the copies
  // keeps the compiler from interleaving them with the fragment loads and mma, which rung 15 measured much slower:
  // docs/rungs/15-mma-multistage.md).
  // Rungs 15 and 16 do; the others refuse such sizes.
  static constexpr bool any_size = false;
  static Status validate_sizes(int /*m*/, int n, int k) {
    return sixteen_byte_rows(n, k,
                             " here: rows of A (k halves) and B (n halves) are copied in 16-byte chunks of 8, which must "
                             "start on 16-byte boundaries (rungs 15 and 16 take any size)");
  }

  static Status validate(const KernelConfig& c) {
    const auto str = [](int v) { return std::to_string(v); };
    if (c.stages < 2)
      return Error{"stages=" + str(c.stages) + " leaves no tile in flight while one is multiplied: use 2 to 4"};
    if (c.wm % 16 != 0 || c.wn % 16 != 0 || c.wm > KernelConfig::max_wm || c.wn > KernelConfig::max_wn)
      return Error{"the warp tile " + str(c.wm) + " x " + str(c.wn) +
                   " must be made of 16 x 16 blocks (an A fragment is 16 rows; B fragments load 16 columns at a time) "
                   "and at most " + str(KernelConfig::max_wm) + " x " + str(KernelConfig::max_wn)};
    if (c.bm % c.wm != 0 || c.bn % c.wn != 0)
      return Error{"the block tile " + str(c.bm) + " x " + str(c.bn) + " must be a multiple of the warp tile " +
                   str(c.wm) + " x " + str(c.wn)};
    if (c.bk % 16 != 0)
      return Error{"bk=" + str(c.bk) + " is not a multiple of 16: one mma.m16n8k16 consumes 16 k"};
    if (auto padding = padding_keeps_rows_aligned(c, 8, "halves", "cp.async.16 and ldmatrix"); !padding)
      return padding;
    if (c.swizzle && (c.a_pad != 0 || c.b_pad != 0))
      return Error{"swizzle=1 replaces padding: set a_pad=0 and b_pad=0 (or swizzle=0 to pad)"};
    if (c.swizzle && (c.bk % 64 != 0 || c.bn % 64 != 0))
      return Error{"swizzle=1 permutes the 8 16-byte chunks of 128 bytes, so shared rows must be multiples of 64 "
                   "halves: bk=" + str(c.bk) + " and bn=" + str(c.bn) + " must be multiples of 64"};
    return copies_share_evenly(32 * (c.bm / c.wm) * (c.bn / c.wn), c.bm * c.bk / chunk_elements,
                               c.bk * c.bn / chunk_elements);
  }

  // Registers a thread keeps live: accumulators, one k16 slice of fragments, and the next slice's loads overlapping
  // this slice's mma (the compiler double-buffers them when it unrolls the k16 loop).
  static int live_registers(const KernelConfig& c, int accumulator_registers = Atom::c_registers) {
    const int m_tiles = c.wm / Atom::m, n_tiles = c.wn / Atom::n;
    return m_tiles * n_tiles * accumulator_registers + 2 * (4 * m_tiles + 2 * n_tiles);
  }
};

// The accumulators' precision (the `acc` knob). A compiled kernel (a FixedConfig, where acc is a compile-time
// constant) with acc = 16 keeps each atom's C in two registers of two halves and issues the FP16-accumulating mma;
// the simulator keeps four floats whatever acc is, and its executors round them to FP16 after each mma when acc = 16.
template <class C>
constexpr bool compiled_half_accumulators() {
  if constexpr (C::compile_time) return C::acc == 16;
  else return false;
}
template <class C>
using AccumulatorAtom = std::conditional_t<compiled_half_accumulators<C>(), MmaM16N8K16HalfAccumulator, MmaM16N8K16>;
template <class C>
using AccumulatorRegister = std::conditional_t<compiled_half_accumulators<C>(), std::uint32_t, float>;

// Rungs 12 to 16: the fragments in registers in the atom's layout, loaded with ldmatrix, multiplied with mma.sync.
struct MmaSync : MmaTiles, MmaMainloop<MmaSync> {
  template <class C> static constexpr int max_m_tiles = C::max_wm / Atom::m;
  template <class C> static constexpr int max_n_tiles = C::max_wn / Atom::n;

  // A thread's registers: its warp tile's accumulators, and the A and B fragments of one 16-deep slice of k.
  template <class C>
  struct State {
    AccumulatorRegister<C> acc[max_m_tiles<C>][max_n_tiles<C>][AccumulatorAtom<C>::c_registers];
    std::uint32_t a[max_m_tiles<C>][4];
    std::uint32_t b[max_n_tiles<C>][2];  // n8 tiles 2j and 2j + 1 are one ldmatrix.x4.trans: 4 consecutive registers
  };

  template <class C>
  GEMMLAB_HD static void zero_accumulators(const C& c, State<C>& s) {
    GEMMLAB_UNROLL
    for (int i = 0; i < c.wm / Atom::m; ++i)
      GEMMLAB_UNROLL
      for (int j = 0; j < c.wn / Atom::n; ++j)
        GEMMLAB_UNROLL
        for (auto& r : s.acc[i][j]) r = 0;  // +0.0 in FP32, or two FP16 +0.0
  }

  // One atom: d += a * b, in the accumulators' precision.
  template <class X, class C, class D>
  GEMMLAB_HD static void multiply_atom(X& x, [[maybe_unused]] const C& c, D* d, const std::uint32_t* a, const std::uint32_t* b) {
    if constexpr (C::compile_time) x.mma(AccumulatorAtom<C>{}, d, a, b);
    else if (c.acc == 16) x.mma(MmaM16N8K16HalfAccumulator{}, d, a, b);
    else x.mma(Atom{}, d, a, b);
  }

  // Per 16 k of the tile: the warp's A fragments, its B fragments, then every atom of its tile. Unrolled, so every
  // index into the State is a constant and the fragments and accumulators stay in registers.
  template <class X, class C>
  GEMMLAB_HD static void multiply_tile(X& x, const C& c, const ThreadContext& t, State<C>& s, int stage) {
    const WarpStage w = warp_stage(c, t, stage);
    GEMMLAB_UNROLL
    for (int k16 = 0; k16 < c.bk; k16 += Atom::k) {
      GEMMLAB_UNROLL
      for (int i = 0; i < c.wm / Atom::m; ++i) {
        const int r = w.row0 + i * Atom::m;
        x.ldmatrix(Ldsm<4, false>{}, s.a[i], [&](int lane) {
          return w.a_base + w.a_layout(r + Atom::ldsm_row(lane), k16 + Atom::ldsm_col(lane));
        });
      }
      GEMMLAB_UNROLL
      for (int j = 0; j < c.wn / Atom::n; j += 2) {
        const int col = w.col0 + j * Atom::n;
        x.ldmatrix(Ldsm<4, true>{}, s.b[j], [&](int lane) {
          return w.b_base + w.b_layout(k16 + Atom::ldsm_row(lane), col + Atom::ldsm_col(lane));
        });
      }
      GEMMLAB_UNROLL
      for (int i = 0; i < c.wm / Atom::m; ++i)
        GEMMLAB_UNROLL
        for (int j = 0; j < c.wn / Atom::n; ++j) multiply_atom(x, c, s.acc[i][j], s.a[i], s.b[j]);
    }
  }

  // Results v and v + 1 of an atom's accumulators, as floats.
  GEMMLAB_HD static Vec<2> result_pair(const float (&acc)[4], int v) {
    Vec<2> pair;
    pair[0] = acc[v], pair[1] = acc[v + 1];
    return pair;
  }
  GEMMLAB_HD static Vec<2> result_pair(const std::uint32_t (&acc)[2], int v) {
    const std::uint32_t halves = acc[v / 2];
    Vec<2> pair;
    pair[0] = half_to_float(static_cast<std::uint16_t>(halves & 0xFFFFu));
    pair[1] = half_to_float(static_cast<std::uint16_t>(halves >> 16));
    return pair;
  }

  // Calls f(row, col, pair) for each pair of consecutive results the lane holds (c0, c1 and c2, c3 of every atom),
  // at (row, col) of the block's C tile.
  template <class C, class F>
  GEMMLAB_HD static void for_each_result_pair(const C& c, const ThreadContext& t, const State<C>& s, F&& f) {
    const int lane = t.tid % 32;
    const int row0 = warp_row(c, t.tid) * c.wm, col0 = warp_col(c, t.tid) * c.wn;
    GEMMLAB_UNROLL
    for (int i = 0; i < c.wm / Atom::m; ++i)
      GEMMLAB_UNROLL
      for (int j = 0; j < c.wn / Atom::n; ++j)
        GEMMLAB_UNROLL
        for (int v = 0; v < Atom::c_values; v += 2) {
          const Vec<2> pair = result_pair(s.acc[i][j], v);
          f(row0 + i * Atom::m + Atom::c_row(lane, v), col0 + j * Atom::n + Atom::c_col(lane, v), pair);
        }
  }

  // ---- Host only: the knobs, and what FP16 accumulators change. ----

  static constexpr std::string_view knobs[] = {"bm", "bn", "bk", "wm", "wn", "a_pad", "b_pad", "swizzle", "stages",
                                               "acc"};
  // The FP16-accumulating mma takes FP16 inputs only: the rule, for validate_input's sentence and for the build,
  // which compiles no BF16 kernel of such a configuration (gpu/src/rung_kernel.cuh).
  template <class C>
  static constexpr bool takes_input(const C& c, InputType input) {
    return c.acc != 16 || input == InputType::F16;
  }
  static Status validate_input(const KernelConfig& c, InputType input) {
    if (!takes_input(c, input))
      return Error{"acc=16 accumulates in FP16, which mma.sync offers on FP16 inputs only: use fp16 inputs, or acc=32 "
                   "for " + std::string(input_name(input))};
    return Ok{};
  }
  static int live_registers(const KernelConfig& c) {
    return MmaTiles::live_registers(c, c.acc == 16 ? MmaM16N8K16HalfAccumulator::c_registers : Atom::c_registers);
  }

  // C = alpha * acc + beta * C: each lane's two consecutive results of a row with one 64-bit access.
  template <class X, class C>
  GEMMLAB_HD static void epilogue(X& x, const C& c, const ThreadContext& t, State<C>& s, int) {
    x.cp_async_wait(Pending<0>{});  // only empty groups are left; no copy may outlive the block
    for_each_result_pair(c, t, s,
                         [&](int r, int col, const Vec<2>& pair) { store_c_run(x, t, t.row0 + r, t.col0 + col, pair); });
  }
};

namespace detail {
constexpr KernelConfig mma_defaults(int bm, int bn, int bk, int wm, int wn, int pad, int swizzle, int stages) {
  KernelConfig c;
  c.bm = bm, c.bn = bn, c.bk = bk, c.wm = wm, c.wn = wn, c.a_pad = pad, c.b_pad = pad, c.swizzle = swizzle;
  c.stages = stages;
  return c;
}
}  // namespace detail

// 128 x 128 blocks of 4 warps (64 x 64 each), bk = 64 (128-byte rows of A), 2 stages.
struct MmaRowMajor : MmaSync {
  static constexpr KernelConfig defaults() { return detail::mma_defaults(128, 128, 64, 64, 64, 0, 0, 2); }
};
struct MmaPadded : MmaSync {
  static constexpr KernelConfig defaults() { return detail::mma_defaults(128, 128, 64, 64, 64, 8, 0, 2); }
};
struct MmaSwizzled : MmaSync {
  static constexpr KernelConfig defaults() { return detail::mma_defaults(128, 128, 64, 64, 64, 0, 1, 2); }
};
// 128 x 256 blocks of 8 warps (64 x 64 each), 3 stages in flight (144 KiB of shared memory); any size.
struct MmaMultistage : MmaSync {
  static constexpr KernelConfig defaults() { return detail::mma_defaults(128, 256, 64, 64, 64, 0, 1, 3); }
  static constexpr bool any_size = true;
  static Status validate_sizes(int, int, int) { return Ok{}; }
};

}  // namespace gemmlab::kernel::rungs
