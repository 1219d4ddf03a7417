#pragma once
// Rung 17: Hopper's own path to the tensor cores - TMA copies, mbarriers, wgmma (kernel/wgmma.hpp). FP16 or BF16 A
// and B, FP32 accumulation and C; needs an sm_90a GPU.
//
// What changed from rung 16. Three jobs move from instructions of every thread to hardware units:
//
//   copying      one thread issues a TMA copy per tile box (cp.async.bulk.tensor.2d): the copy engine computes every
//                address, writes the 128-byte-swizzled image, and fills what lies outside the matrix with zeros. No
//                thread computes a copy address; no copy passes through the load/store pipe of the SMs' warps.
//   waiting      an mbarrier per stage counts the bytes landing (arrive.expect_tx, then the copies' complete_tx); the
//                threads wait on its phase parity instead of cp.async.wait_group and a barrier of their own.
//   multiplying  a warpgroup (4 warps) issues wgmma.m64nNk16, which reads A and B straight from shared memory through
//                descriptors: no ldmatrix, no fragment registers, and one instruction does 64 x N x 16 multiply-adds
//                (N = 256: 128 times an mma.sync.m16n8k16). wgmma is asynchronous: the warps go on while it runs,
//                and wait for it (wgmma.wait_group) only before its shared memory is overwritten.
//
// The block: bm x bn of C, bm / 64 warpgroups, each the 64 x bn strip of rows its wgmma computes; bk = 64 or 128
// (one or two 128-byte boxes of A per tile). Stage s holds A (bk / 64 boxes of bm rows of 128 bytes) and B (bn / 64
// panels of bk rows
// of 128 bytes, one box each), every box 1024-byte aligned. The schedule, one block-wide barrier per k-step:
//
//   prologue 0   thread 0 initialises one mbarrier per stage; barrier
//   prologue 1   thread 0 announces the bytes of tiles 0 .. S-2 and issues their copies
//   k-step t, 0  every thread waits for stage t % S (parity t / S); each warpgroup issues its bk / 16 wgmma on it,
//                commits them as a group and waits until only that group is in flight (so the group of step t - 1,
//                which read stage (t - 1) % S, is done); barrier
//   k-step t, 1  thread 0 refills stage (t - 1) % S with tile t + S - 1, while this step's wgmma run
//   epilogue     wait for the last group; each thread stores its accumulator pairs (64-bit stores), as rung 15
//
// A matrix shorter than the block (decode: M = 16 tokens against bm = 64 rows) has A's boxes only as tall as the
// matrix, rounded up to 8 rows (a_box_rows): TMA then writes no rows of zeros past M. wgmma still reads the warpgroup's
// 64 rows; the rows past the box hold whatever the stage's room held, which reaches only accumulator rows past M, and
// those are never stored. Measured, the zeros cost the decode shapes dearly (docs/rungs/17-tma-wgmma.md).
//
// Sizes: any m; n and k multiples of 8 (TMA needs the rows of A and B 16 bytes apart: a row pitch that is a multiple
// of 16 bytes). Edges of the matrices are TMA's zero fill and the stores' predicates.
#include <string>
#include <string_view>
#include <type_traits>

#include "gemmlab/kernel/config.hpp"
#include "gemmlab/kernel/context.hpp"
#include "gemmlab/kernel/executor.hpp"
#include "gemmlab/kernel/tiling_rules.hpp"
#include "gemmlab/kernel/wgmma.hpp"
#include "gemmlab/result.hpp"

namespace gemmlab::kernel::rungs {

struct TmaWgmma {
  static constexpr int input_bytes = 2;
  static constexpr int barrier_bytes = 8;

  // TMA's swizzle mode in bytes (the `swizzle` knob: 32, 64 or 128), and so a box row: 16, 32 or 64 elements. The
  // later rungs keep the 128-byte mode.
  template <class C> GEMMLAB_HD static constexpr int row_bytes(const C& c) { return c.swizzle; }
  template <class C> GEMMLAB_HD static constexpr int box_cols(const C& c) { return row_bytes(c) / 2; }

  template <class C> GEMMLAB_HD static constexpr int warpgroups(const C& c) { return c.bm / 64; }  // wgmma's m
  template <class C> GEMMLAB_HD static constexpr int threads(const C& c) { return 128 * warpgroups(c); }
  // The room of one box of A in a stage (bm rows), and the rows a copy fills: all of them, or, where the whole matrix
  // has fewer rows than the block, those it has (rounded up to 8, the swizzle's pattern of rows). The same for every
  // block, as the tensor map's box must be.
  template <class C> GEMMLAB_HD static int a_box_bytes(const C& c) { return c.bm * row_bytes(c); }
  template <class C> GEMMLAB_HD static int a_box_rows(const C& c, const ThreadContext& t) {
    return t.m < c.bm ? (t.m + 7) / 8 * 8 : c.bm;
  }
  template <class C> GEMMLAB_HD static int a_bytes(const C& c) { return c.bk / box_cols(c) * a_box_bytes(c); }
  template <class C> GEMMLAB_HD static int b_panel_bytes(const C& c) { return c.bk * row_bytes(c); }
  template <class C> GEMMLAB_HD static int stage_bytes(const C& c) {
    return a_bytes(c) + c.bn / box_cols(c) * b_panel_bytes(c);
  }
  // The bytes a stage's copies bring, which its mbarrier counts: its room, less the rows A's boxes leave out.
  template <class C> GEMMLAB_HD static int stage_arrival_bytes(const C& c, const ThreadContext& t) {
    return stage_bytes(c) - c.bk / box_cols(c) * (c.bm - a_box_rows(c, t)) * row_bytes(c);
  }
  template <class C> GEMMLAB_HD static int a_base(const C& c, int stage) { return stage * stage_bytes(c); }
  template <class C> GEMMLAB_HD static int b_base(const C& c, int stage) { return a_base(c, stage) + a_bytes(c); }
  // The mbarriers follow the stages (the later rungs add their own after these).
  template <class C> GEMMLAB_HD static int barrier(const C& c, int stage) {
    return c.stages * stage_bytes(c) + stage * barrier_bytes;
  }
  template <class C> GEMMLAB_HD static int smem_floats(const C& c) { return barrier(c, c.stages) / 4; }
  template <class C> GEMMLAB_HD static int prologue_phases(const C&) { return 2; }
  template <class C> GEMMLAB_HD static int mainloop_phases(const C&) { return 2; }
  template <class C> GEMMLAB_HD static int epilogue_phases(const C&) { return 1; }
  GEMMLAB_HD static bool barrier_after(Section section, int phase) { return phase == 0 && section != Section::Epilogue; }

  // Where step `step` of the block's main loop falls: the origin of its tile of C and its k-step there. A block
  // computes one tile, so the step is the k-step (under split-K, rung 22, counted from its range's first). Later rungs
  // walk several tiles, each its own way (TmaWgmmaSpecialized::OneTileWalk and the walks after it).
  struct TileStep {
    int row0, col0, kstep;
  };
  template <class C> GEMMLAB_HD static TileStep tile_step(const C&, const ThreadContext& t, int step) {
    return {t.row0, t.col0, t.first_kstep + step};
  }
  GEMMLAB_HD static int steps(const ThreadContext& t) { return t.ksteps * t.tiles; }

  // The boxes of one k-tile: A's a_box_rows x box_cols (bk / box_cols of them, side by side in k), and B's
  // bk x box_cols panels.
  template <class C> GEMMLAB_HD static TmaBox a_box(const C& c, const ThreadContext& t, TileStep at, int part) {
    const int rows = a_box_rows(c, t), k0 = at.kstep * c.bk + part * box_cols(c);
    return {Operand::A, at.row0, k0, rows, box_cols(c), t.m, t.k, row_bytes(c)};
  }
  template <class C> GEMMLAB_HD static TmaBox b_box(const C& c, const ThreadContext& t, TileStep at, int panel) {
    return {Operand::B, at.kstep * c.bk, at.col0 + panel * box_cols(c), c.bk, box_cols(c), t.k, t.n, row_bytes(c)};
  }

  static constexpr int max_n = 256;
  template <class C>
  struct State {
    float acc[WgmmaM64K16<max_n>::d_values];  // bn / 2 of them used
  };

  // Calls f(WgmmaM64K16<bn>{}): the instruction whose N is the block's width (a constant on the GPU).
  template <class C, class F>
  GEMMLAB_HD static void with_atom(const C& c, F&& f) {
    if (c.bn == 256) f(WgmmaM64K16<256>{});
    else if (c.bn == 128) f(WgmmaM64K16<128>{});
    else f(WgmmaM64K16<64>{});
  }

  // Who copies a stage into the block: the block itself, all of it. (Rung 19 shares B among a cluster's blocks:
  // TmaWgmmaMulticast::SharedB, the other answer to the same two questions.)
  struct OwnCopies {
    // The blocks whose consumers read each copy, and so release its stage.
    template <class C> GEMMLAB_HD static constexpr int blocks(const C&) { return 1; }
    // How panel `panel` of B's `panels` lands: in this block only, issued here.
    template <class C>
    GEMMLAB_HD static TmaMulticast b_panel(const C&, const ThreadContext&, int /*panel*/, int /*panels*/) {
      return {};
    }
  };

  // The issuing thread announces the tile's bytes to its stage's mbarrier and issues its copies; the others issue
  // nothing. `Copies` says whether B lands by the block's own copies or shared with other blocks (rung 19).
  template <class X, class C>
  GEMMLAB_HD static void load_tile(X& x, const C& c, const ThreadContext& t, int step, int stage, bool issuer) {
    load_tile_at(x, c, t, tile_step(c, t, step), stage, issuer);
  }
  template <class Copies = OwnCopies, class X, class C>
  GEMMLAB_HD static void load_tile_at(X& x, const C& c, const ThreadContext& t, TileStep at, int stage, bool issuer) {
    x.mbarrier_expect_bytes(barrier(c, stage), stage_arrival_bytes(c, t), issuer);
    for (int part = 0; part < c.bk / box_cols(c); ++part)
      x.tma_load(a_box(c, t, at, part), a_base(c, stage) + part * a_box_bytes(c), barrier(c, stage), issuer);
    const int panels = c.bn / box_cols(c);
    for (int panel = 0; panel < panels; ++panel)
      x.tma_load(b_box(c, t, at, panel), b_base(c, stage) + panel * b_panel_bytes(c), barrier(c, stage), issuer,
                 Copies::b_panel(c, t, panel, panels));
  }

  template <class X, class C, class S>
  GEMMLAB_HD static void prologue(X& x, const C& c, const ThreadContext& t, S&, int phase) {
    if (phase == 0) {  // no zeroing of the accumulators: the first k-step's first wgmma sets D = A * B
      for (int stage = 0; stage < c.stages; ++stage) x.mbarrier_init(barrier(c, stage), 1, t.tid == 0);
      return;
    }
    for (int step = 0; step < c.stages - 1; ++step) load_tile(x, c, t, step, step, t.tid == 0 && step < steps(t));
  }

  template <class X, class C, class S>
  GEMMLAB_HD static void mainloop(X& x, const C& c, const ThreadContext& t, S& s, int kstep, int phase) {
    if (phase == 1) {
      const int step = kstep + c.stages - 1;
      return load_tile(x, c, t, step, step % c.stages, t.tid == 0 && step < steps(t));
    }
    const int stage = kstep % c.stages;
    x.mbarrier_wait(barrier(c, stage), (kstep / c.stages) % 2);
    multiply_tile(x, c, t, s, stage, kstep > 0);
    x.wgmma_wait(Pending<1>{}, s.acc);
  }

  // The warpgroup's bk / 16 wgmma on one stage: its 64 rows of A, all of B, committed as one group. The first adds to
  // the accumulators unless `accumulate` is false (a tile's first k-step: D = A * B). Zeroing 128 accumulator
  // registers with ordinary instructions instead made ptxas serialise the wgmma of rung 17 in one build ("C7515: ...
  // non wgmma instructions defining accumulator registers of a wgmma between start and end of the pipeline stage").
  template <class X, class C, class S>
  GEMMLAB_HD static void multiply_tile(X& x, const C& c, const ThreadContext& t, S& s, int stage, bool accumulate) {
    const int r = row_bytes(c), columns = box_cols(c);
    const int a_rows = a_base(c, stage) + t.tid / 128 * 64 * r;  // in each box of A
    x.wgmma_fence(s.acc);
    with_atom(c, [&](auto atom) {
      GEMMLAB_UNROLL
      for (int k16 = 0; k16 < c.bk; k16 += 16) {
        const WgmmaOperand a{a_rows + k16 / columns * a_box_bytes(c) + 2 * (k16 % columns), 16, 8 * r, Major::K, r};
        const WgmmaOperand b{b_base(c, stage) + k16 * r, b_panel_bytes(c), 8 * r, Major::MN, r};
        x.wgmma(atom, s.acc, a, b, accumulate || k16 > 0);
      }
    });
    x.wgmma_commit();
  }

  // C = alpha * acc + beta * C, each thread's pairs of consecutive results with one 64-bit access.
  template <class X, class C, class S>
  GEMMLAB_HD static void epilogue(X& x, const C& c, const ThreadContext& t, S& s, int) {
    x.wgmma_wait(Pending<0>{}, s.acc);
    store_accumulators(x, c, t, s, t.row0, t.col0);
  }
  // The warpgroup's 64 x bn strip of the tile at (tile_row0, tile_col0): C = alpha * acc + beta * C.
  //
  // Register i of a thread sits at the thread's place plus the register's (Atom::d_row, d_col), so each pair is one
  // 64-bit access at one of the thread's two row addresses plus a constant, predicated on the pair lying inside C (rows
  // of C are whole pairs: n is a multiple of 8). No branch around a pair: with store_c_run's bounds test, address
  // arithmetic and branches on beta for every store, the consumers spent about a tenth of their time in the epilogue
  // while the tensor cores waited (ncu's stall samples of rung 21, docs/rungs/21-tma-wgmma-hilbert.md), and a strip's
  // branchy code was long enough that each epilogue over C's edge waited to fetch it (ncu's "no instruction" stalls,
  // docs/rungs/23-tma-wgmma-streamk.md). C is read only where beta != 0 (a uniform branch, the
  // same in every thread), so that a C never written (or poisoned with NaN) does not leak into the result.
  template <class X, class C, class S>
  GEMMLAB_HD static void store_accumulators(X& x, const C& c, const ThreadContext& t, S& s, int tile_row0, int tile_col0) {
    const int lane = t.tid % 128, row0 = tile_row0 + t.tid / 128 * 64;
    with_atom(c, [&](auto atom) {
      using Atom = decltype(atom);
      const int thread_row = row0 + Atom::d_row(lane, 0), thread_col = tile_col0 + Atom::d_col(lane, 0);
      const int rows_left = t.m - thread_row, cols_left = t.n - thread_col;
      const Index thread = Index(thread_row) * t.n + thread_col;
      const auto store_pairs = [&](auto with_c) {
        GEMMLAB_UNROLL
        for (int i = 0; i < Atom::d_values; i += 2) {
          const Index at = thread + Index(Atom::d_row(0, i)) * t.n + Atom::d_col(0, i);
          const bool inside = Atom::d_row(0, i) < rows_left && Atom::d_col(0, i) < cols_left;
          // Scaled in place: products in fresh registers left ptxas a handful to rotate through (the accumulators
          // take most of them), and each product waited for the store that last read its register.
          s.acc[i] *= t.alpha, s.acc[i + 1] *= t.alpha;
          Vec<2> pair;
          pair[0] = s.acc[i], pair[1] = s.acc[i + 1];
          if constexpr (decltype(with_c)::value) {
            Vec<2> old;
            x.ldg(old, Operand::C, at, inside);
            pair[0] += t.beta * old[0], pair[1] += t.beta * old[1];
          }
          x.stg(Operand::C, at, pair, inside);
        }
      };
      if (t.beta == 0.0f) return store_pairs(std::false_type{});
      store_pairs(std::true_type{});
    });
  }

  // ---- What the simulator, the CLI and the app need to know about this description (host only). ----

  static constexpr std::string_view knobs[] = {"bm", "bn", "bk", "swizzle", "stages"};
  static constexpr int swizzle_modes[] = {32, 64, 128};
  // The block's width is wgmma's N; a skinny problem (a decode step's 128 rows against a few thousand columns) has
  // twice the tiles at 64 as at 128, enough to give every SM one.
  static constexpr int wgmma_widths[] = {64, 128, 256};
  static constexpr KnobChoice bn_choice = {"bn", wgmma_widths,
                                           "the block's width, wgmma's N: the widths this repository compiles"};
  static constexpr KnobChoice knob_choices[] = {
      bn_choice,
      {"swizzle", swizzle_modes, "TMA's swizzle mode in bytes, and so the width of a box row: 32, 64 or 128 (16, 32 "
                                 "or 64 elements)"}};

  static constexpr KernelConfig defaults() {
    KernelConfig c;
    c.bm = 192, c.bn = 256, c.bk = 64, c.stages = 4;  // 3 warpgroups: 224 KiB of stages, 154 registers
    c.swizzle = 128;                                   // TMA's widest mode: a box row is a whole 64-element k-step
    return c;
  }

  static Status validate_sizes(int /*m*/, int n, int k) {
    return sixteen_byte_rows(n, k,
                             ": TMA reads rows of A (k halves) and B (n halves) whose starts are a multiple of 16 bytes "
                             "apart");
  }

  static Status validate(const KernelConfig& c) {
    const auto str = [](int v) { return std::to_string(v); };
    if (c.bm != 64 && c.bm != 128 && c.bm != 192)
      return Error{"bm=" + str(c.bm) + ": each warpgroup takes 64 rows (wgmma's m), and a block has 1 to 3 of them: "
                   "use 64, 128 or 192"};
    // bn and swizzle: one of wgmma_widths and swizzle_modes, which sim::validate checks (every knob's listed values)
    // before these rules.
    if (c.bk != 64 && c.bk != 128)
      return Error{"bk=" + str(c.bk) + ": a tile of A is one or two TMA boxes of 64 k (128-byte rows, the 128-byte "
                   "swizzle's width): use 64 or 128"};
    if (c.stages < 2)
      return Error{"stages=" + str(c.stages) + " leaves no tile in flight while one is multiplied: use 2 to 4"};
    return Ok{};
  }

  // Registers a thread keeps live: the accumulators (no fragments: wgmma reads shared memory); estimate_registers adds
  // the indices and addresses every rung keeps. ptxas: 154 at bn = 256, 90 at bn = 128 (estimate: 160 and 96).
  static int live_registers(const KernelConfig& c) { return c.bn / 2; }
};

}  // namespace gemmlab::kernel::rungs
