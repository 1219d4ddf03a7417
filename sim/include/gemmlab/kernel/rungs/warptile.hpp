#pragma once
// Rung 9: warp tiling. Defaults: a 128 x 256 block tile, bk = 32, 256 threads (8 warps of 32 x 128 results), each
// thread computing 8 x 16 results, a cp.async pipeline 3 stages deep.
//
// What changed from rung 8 (cp-async), and the bottleneck it removes. Rung 8 lays its 256 thread tiles over the block
// in plain row-major order: thread tid owns the 8 x 8 square at thread row tid / 16, thread column tid % 16. So a
// warp is 2 thread rows of 16 threads, and when it reads its B fragments, the 8 lanes of a quarter-warp ask for
// 16-byte pieces 32 bytes apart: 256 bytes, twice what the 32 banks deliver at once - a 2-way bank conflict on every
// B read. This rung gives the warp, not the block, the job of arranging its threads:
//
//   block tile (bm x bn = 128 x 256) -> warp tiles (wm x wn = 32 x 128; 4 x 2 of them) -> a 4 x 8 grid of lanes
//
// and a lane's tm x tn = 8 x 16 results are no longer one block. They are 2 x 4 sub-tiles of 4 x 4, spread over the
// warp tile one lane grid apart: lane (lr, lc) owns rows lr*4 + {0..3} and 16 + lr*4 + {0..3}, columns
// lc*4 + {0..3} + {0, 32, 64, 96} of its warp tile. When the warp reads one 4-float piece of its B fragment, the 8
// lane columns read 8 consecutive 16-byte chunks of one shared row: 128 bytes, each bank exactly once. The 4 lane
// rows read 4 consecutive chunks of A (A is stored transposed, see below): 64 bytes. Every other lane asks for an
// address a neighbour asks for too, which costs nothing (a broadcast).
//
// The lane order. Inside the warp, lanes are interleaved in pairs: lane bit 0 picks the lane row and the bits above
// it the lane column (lr = (lane / 16) * 2 + lane % 2, lc = (lane / 2) % 8 for the 4 x 8 grid). Then lanes n and
// n ^ 1 read the same B chunk and lanes n and n ^ 2 the same A chunk. The shared-memory unit serves a 128-bit load
// whose lanes agree in pairs like this two quarter-warps at a time (memory model rule L1, measured on the H100): each
// lds.128 takes 2 wavefronts instead of 4. Per k index a warp issues 6 lds.128 (2 of A, 4 of B) for 128 FMAs per
// lane: 12 wavefronts, none of them a conflict, where the plain row-major lane order (lr = lane / 8) would take 20.
//
// A is transposed again. Rung 8 kept A row-major because cp.async moves contiguous bytes. Here A is copied one float
// at a time (cp.async.4: 16 per thread per k-step, against 8 cp.async.16 for B), and a single float can land anywhere:
// element (m, k) of the tile goes to row k, column m of the shared A tile, as in rung 6. Rows of bm = 128 floats
// would put a copied column in one bank; a_pad = 4 shifts shared row k by 4k banks, and the shared side of the copy
// is conflict-free (its source side is not: see copy_tile_async_transposed). An element past the edge of A is
// zero-filled, so A needs no 16-byte alignment: any K works without a second path. B is copied as in rung 8
// (cp.async.16 when n % 4 == 0, else cp.async.4, zero-filled past the edges).
//
// Fragments are double-buffered in registers: while the FMAs of k index kk use one set of fragments, the lds.128
// of kk + 1 fill the other, so the shared-memory latency hides behind 128 independent FMAs. That needs bk even.
//
// The schedule (S = stages; one barrier per k-step):
//   prologue 0   zero the accumulators; issue tiles 0 .. S-2 into buffers 0 .. S-2 (a commit group each); wait
//                until tile 0 has landed - barrier
//   prologue 1   load fragment 0 of tile 0
//   k-step t, 0  issue tile t+S-1 into buffer (t+S-1) % S, the buffer of tile t-1, whose last reader (phase 0 of
//                k-step t-1) is behind the barrier; then the outer products of k indices 0 .. bk-2 of tile t, each
//                with the next fragments loading; then wait until tile t+1 has landed - barrier
//   k-step t, 1  load fragment 0 of tile t+1 (now visible to all) while computing the last k index of tile t
// Tiles past the end of K are not issued but still committed (empty groups), so "tile t+1 has landed" is always
// "S-2 groups still pending" (rung 8's wait). S = 2 works too: the copy of tile t+1 then has one k-step to land.
//
// Why 8 x 16 results per thread, on an H100. Each SM sub-partition issues one warp instruction per cycle, and its
// FP32 pipe accepts one warp FFMA per cycle: every other instruction - a shared load, a copy, an address computation
// - takes the issue slot of an FFMA. So the share of FFMAs among the instructions issued caps the speed. A thread
// tile of 8 x 16 needs 6 lds.128 per 128 FFMAs (8 x 8: 4 per 64) and half the copies per FFMA. The price is
// registers: 128 accumulators and 2 x 24 fragment floats, about 250 with the addresses, so one block of 256 threads
// per SM (2 warps per scheduler). That is enough here because each k index gives a warp 128 independent FFMAs. (The
// alternative, 8 x 8 results in 128 x 128 tiles at 2 blocks per SM, must fit 128 registers and loses more to the
// extra instructions than it gains from the extra warps.) A 4096 x 4096 C has 512 tiles of 128 x 256: 3.9 waves on
// 132 SMs, 97% of the last one busy (8192: 15.5 waves).
//
// bk = 32: a stage is 32 x 132 + 32 x 256 floats (48.5 KB), 3 stages 146 KB - past the 48 KB a block gets without
// opting in, inside the 227 KB a block may have on an H100. One barrier, one round of copies and one round of
// address arithmetic per 4096 FFMAs per thread. Measured on the H100, bk = 32 runs a little faster than bk = 16 (half
// the shared memory, twice the barriers), which ran faster than bk = 8 (the figures: docs/rungs/09-warptile.md).
//
// The main loop stays small. Unrolled over all its k indices, a k-step of 16 was about 2,300 instructions (37 KB of
// SASS): more than the instruction cache close to each scheduler keeps, and its two warps are rarely at the same place
// in it. The k indices therefore run in pairs, in a loop nvcc keeps rolled (GEMMLAB_KEEP_ROLLED): a body of 256 FFMAs
// and 12 lds.128 (about 4.4 KB) plus two address increments, whatever bk is. Measured on the H100 at bk = 16, it is
// faster and takes fewer registers per thread than the unrolled loop (docs/rungs/09-warptile.md has the figures).
//
// What is left for the next rung: C is written straight from the registers. With the 4 x 8 lane grid the 8 lanes
// of a lane row store 128 contiguous bytes (full lines), but other warp shapes (wn = 4 * tn) write half lines, and
// when n % 4 != 0 the 32-bit stores of a lane land 16 bytes apart from its neighbours' (16 sectors for 32 floats).
// Rung 10 routes C through shared memory so the stores are row-contiguous whatever the thread tiling.
#include <string>
#include <string_view>
#include "gemmlab/result.hpp"
#include "gemmlab/kernel/config.hpp"
#include "gemmlab/kernel/tiling_rules.hpp"
#include "gemmlab/kernel/context.hpp"
#include "gemmlab/kernel/epilogue.hpp"
#include "gemmlab/kernel/executor.hpp"
#include "gemmlab/kernel/layout.hpp"
#include "gemmlab/kernel/rungs/cp_async.hpp"
#include "gemmlab/kernel/rungs/vectorized.hpp"
#include "gemmlab/kernel/vec.hpp"

namespace gemmlab::kernel {

// Copies a tile_rows x tile_cols tile of a row-major matrix (first element (row0, col0)) into shared memory
// TRANSPOSED - element (r, c) to smem_base + layout(c, r) - one float per cp.async.4. The tile is walked in slabs of
// 8 columns: 8 consecutive threads copy the 8 floats (32 bytes, one sector) of one row of a slab, a warp 4 rows, and
// one round of copies covers threads / 8 rows. tile_cols must be a multiple of 8 and tile_rows of threads / 8.
//
// The slab width is a trade. A cp.async reads its source through L1's banks, and rows of A lie K floats apart: when K
// is a multiple of 32 the 4 rows of a warp's copy sit in the same 8 banks, and the copy takes 4 wavefronts where 1
// would do (3 bank conflicts; the H100 agrees). Slabs of 16 would halve that, but then a thread's copies (8 per
// k-step at the defaults) come from 8 different rows of A instead of 4 rows x 2 slabs, and the GPU keeps an address
// per row. At this rung's register budget the extra addresses cost more than the wavefronts.
//
// Elements outside the matrix are filled with zeros: a copy whose predicate is off reads no byte of its source
// (src-size 0), so its address is left as computed, unclamped (compute-sanitizer's memcheck agrees). Clamping it, as
// rung 8 does, costs a select per copy and live registers. The row and column are written apart from the round so
// that, with compile-time tile sizes, each round's address is an earlier one's plus a constant: a few instructions
// per copy on the GPU. That matters, because every non-FMA instruction takes an issue slot from the FMAs.
template <class X, class Layout>
GEMMLAB_HD void copy_tile_async_transposed(X& x, Operand operand, int row0, int col0, int rows_total, int cols_total,
                                           int tile_rows, int tile_cols, int tid, int threads, int smem_base,
                                           const Layout& layout) {
  constexpr int kSlab = 8;
  const int rows_per_round = threads / kSlab, rounds_per_slab = tile_rows / rows_per_round;
  const int per_thread = tile_rows * tile_cols / threads;
  GEMMLAB_UNROLL
  for (int i = 0; i < per_thread; ++i) {
    const int r = tid / kSlab + i % rounds_per_slab * rows_per_round;
    const int c = i / rounds_per_slab * kSlab + tid % kSlab;
    const bool pred = row0 + r < rows_total && col0 + c < cols_total;
    x.cp_async(smem_base + layout(c, r), operand, Index(row0 + r) * cols_total + col0 + c, pred, Width<1>{});
  }
}

namespace rungs {

struct WarpTile {
  template <class C>
  struct State {
    float acc[C::max_tm * C::max_tn];
    float a_frag[2][C::max_tm];  // k index kk reads buffer kk % 2 while kk + 1 loads into the other
    float b_frag[2][C::max_tn];
  };

  // The lane grid inside a warp tile: lane_rows x lane_cols = 32 (validate() checks it).
  template <class C> GEMMLAB_HD static int lane_rows(const C& c) { return c.wm / c.tm; }
  template <class C> GEMMLAB_HD static int lane_cols(const C& c) { return c.wn / c.tn; }
  template <class C> GEMMLAB_HD static int warps_per_row(const C& c) { return c.bn / c.wn; }
  template <class C> GEMMLAB_HD static constexpr int threads(const C& c) {
    return c.wm > 0 && c.wn > 0 ? (c.bm / c.wm) * (c.bn / c.wn) * 32 : 0;
  }

  // Lanes in pairs: bit 0 of the lane picks the lane row, the bits above it the lane column (see the top).
  template <class C> GEMMLAB_HD static int lane_row(const C& c, int lane) {
    return lane / (2 * lane_cols(c)) * 2 + lane % 2;
  }
  template <class C> GEMMLAB_HD static int lane_col(const C& c, int lane) { return lane / 2 % lane_cols(c); }
  template <class C> GEMMLAB_HD static int warp_row(const C& c, int tid) { return tid / 32 / warps_per_row(c); }
  template <class C> GEMMLAB_HD static int warp_col(const C& c, int tid) { return tid / 32 % warps_per_row(c); }

  // The block-tile row of the thread's result row i (0 <= i < tm) and column of its result column j (0 <= j < tn):
  // sub-tile i / 4 of the warp tile's rows, lane row lr inside it, row i % 4 of the lane's 4 x 4.
  template <class C> GEMMLAB_HD static int thread_row(const C& c, int tid, int i) {
    return warp_row(c, tid) * c.wm + i / 4 * (4 * lane_rows(c)) + lane_row(c, tid % 32) * 4 + i % 4;
  }
  template <class C> GEMMLAB_HD static int thread_col(const C& c, int tid, int j) {
    return warp_col(c, tid) * c.wn + j / 4 * (4 * lane_cols(c)) + lane_col(c, tid % 32) * 4 + j % 4;
  }

  // Stage s of shared memory: A transposed (bk rows of bm floats, padded by a_pad) then B (bk rows of bn floats,
  // padded by b_pad) - rung 6's layouts.
  template <class C> GEMMLAB_HD static PaddedRowMajor a_layout(const C& c) { return Vectorized::a_padded(c); }
  template <class C> GEMMLAB_HD static PaddedRowMajor b_layout(const C& c) { return Vectorized::b_layout(c); }
  template <class C> GEMMLAB_HD static int stage_floats(const C& c) {
    return a_layout(c).size(c.bk) + b_layout(c).size(c.bk);
  }
  template <class C> GEMMLAB_HD static int a_base(const C& c, int stage) { return stage * stage_floats(c); }
  template <class C> GEMMLAB_HD static int b_base(const C& c, int stage) {
    return a_base(c, stage) + a_layout(c).size(c.bk);
  }
  template <class C> GEMMLAB_HD static int smem_floats(const C& c) { return c.stages * stage_floats(c); }

  template <class C> GEMMLAB_HD static int prologue_phases(const C&) { return 2; }
  template <class C> GEMMLAB_HD static int mainloop_phases(const C&) { return 2; }
  template <class C> GEMMLAB_HD static int epilogue_phases(const C&) { return 1; }
  GEMMLAB_HD static bool barrier_after(Section section, int phase) {
    return section != Section::Epilogue && phase == 0;
  }

  // Issues the copies of k-tile `tile` into shared buffer `stage` (not committed).
  template <class X, class C>
  GEMMLAB_HD static void load_tile(X& x, const C& c, const ThreadContext& t, int tile, int stage) {
    const int k0 = tile * c.bk;
    copy_tile_async_transposed(x, Operand::A, t.row0, k0, t.m, t.k, c.bm, c.bk, t.tid, threads(c), a_base(c, stage),
                               a_layout(c));
    copy_tile_async(x, Operand::B, k0, t.col0, t.k, t.n, c.bk, c.bn, t.tid, threads(c), b_base(c, stage), b_layout(c));
  }

  // The fragments of k index kk of the tile in `stage`, into register buffer `buf`: tm / 4 lds.128 of A (a chunk of
  // 4 rows per sub-tile, consecutive in the transposed tile) and tn / 4 lds.128 of B.
  template <class X, class C>
  GEMMLAB_HD static void load_fragments(X& x, const C& c, const ThreadContext& t, State<C>& s, int stage, int kk,
                                        int buf) {
    const PaddedRowMajor as = a_layout(c), bs = b_layout(c);
    GEMMLAB_UNROLL
    for (int i = 0; i < c.tm; i += 4) {
      Vec<4> a;
      x.lds(a, a_base(c, stage) + as(kk, thread_row(c, t.tid, i)));
      for (int q = 0; q < 4; ++q) s.a_frag[buf][i + q] = a[q];
    }
    GEMMLAB_UNROLL
    for (int j = 0; j < c.tn; j += 4) {
      Vec<4> b;
      x.lds(b, b_base(c, stage) + bs(kk, thread_col(c, t.tid, j)));
      for (int q = 0; q < 4; ++q) s.b_frag[buf][j + q] = b[q];
    }
  }

  template <class X, class C>
  GEMMLAB_HD static void outer_product(X& x, const C& c, State<C>& s, int buf) {
    GEMMLAB_UNROLL
    for (int i = 0; i < c.tm; ++i) {
      GEMMLAB_UNROLL
      for (int j = 0; j < c.tn; ++j) {
        float& acc = s.acc[i * c.tn + j];
        acc = x.fma(s.a_frag[buf][i], s.b_frag[buf][j], acc);
      }
    }
  }

  template <class X, class C>
  GEMMLAB_HD static void prologue(X& x, const C& c, const ThreadContext& t, State<C>& s, int phase) {
    if (phase == 0) {
      GEMMLAB_UNROLL
      for (int i = 0; i < c.tm * c.tn; ++i) s.acc[i] = 0.0f;
      CpAsyncPipeline::fill(x, c.stages, t.ksteps, [&](int tile, int stage) { load_tile(x, c, t, tile, stage); });
      CpAsyncPipeline::wait_for_oldest_tile(x, c.stages);  // tile 0; then the barrier
      return;
    }
    load_fragments(x, c, t, s, 0, 0, 0);
  }

  template <class X, class C>
  GEMMLAB_HD static void mainloop(X& x, const C& c, const ThreadContext& t, State<C>& s, int kstep, int phase) {
    if (phase == 0) {
      CpAsyncPipeline::refill(x, c.stages, kstep, t.ksteps,
                              [&](int tile, int stage) { load_tile(x, c, t, tile, stage); });
      const int stage = kstep % c.stages;
      // The k indices in pairs, so that each fragment buffer has a constant index; the pair loop stays rolled on
      // the GPU (see "The main loop stays small" above). It leaves kk = bk - 2 (bk is even) for after the loop: its
      // outer product while the fragments of bk - 1 load, whose outer product is phase 1's.
      int kk = 0;
      GEMMLAB_KEEP_ROLLED
      for (; kk + 2 < c.bk; kk += 2) {
        load_fragments(x, c, t, s, stage, kk + 1, 1);
        outer_product(x, c, s, 0);
        load_fragments(x, c, t, s, stage, kk + 2, 0);
        outer_product(x, c, s, 1);
      }
      load_fragments(x, c, t, s, stage, kk + 1, 1);
      outer_product(x, c, s, 0);
      CpAsyncPipeline::wait_for_oldest_tile(x, c.stages);  // tile kstep + 1; then the barrier
      return;
    }
    // bk is even, so the last k index used buffer 1 and the next tile's first fragments go to buffer 0.
    if (kstep + 1 < t.ksteps) load_fragments(x, c, t, s, (kstep + 1) % c.stages, 0, 0);
    outer_product(x, c, s, (c.bk - 1) % 2);
  }

  // C = alpha * acc + beta * C straight from the registers: per result row, tn / 4 stores of 4 columns.
  template <class X, class C>
  GEMMLAB_HD static void epilogue(X& x, const C& c, const ThreadContext& t, State<C>& s, int) {
    x.cp_async_wait(Pending<0>{});  // only empty groups are left; no copy may outlive the block
    GEMMLAB_UNROLL
    for (int i = 0; i < c.tm; ++i) {
      GEMMLAB_UNROLL
      for (int j = 0; j < c.tn; j += 4) {
        Vec<4> acc;
        for (int q = 0; q < 4; ++q) acc[q] = s.acc[i * c.tn + j + q];
        store_c_run(x, t, t.row0 + thread_row(c, t.tid, i), t.col0 + thread_col(c, t.tid, j), acc);
      }
    }
  }
  // ---- Its knobs, defaults, tiling rules and register estimate: what the simulator, the CLI and the app read (host
  // only; sim/src/rung_model.cpp and occupancy.cpp). ----
  static constexpr std::string_view knobs[] = {"bm", "bn", "bk", "wm", "wn", "tm", "tn", "a_pad", "b_pad", "stages"};
  static constexpr KernelConfig defaults() {
    KernelConfig c;
    // A 128 x 256 x 32 block tile, 8 warps of 32 x 128, a 4 x 8 lane grid of 8 x 16 results per lane, A padded
    // against the copies' bank conflicts, 3 stages (the comment at the top of this file explains each choice).
    c.bm = 128, c.bn = 256, c.bk = 32, c.tm = 8, c.tn = 16, c.wm = 32, c.wn = 128, c.a_pad = 4, c.stages = 3;
    return c;
  }
  static Status validate([[maybe_unused]] const KernelConfig& c) {
    if (c.stages < 2)
      return Error{"stages=" + std::to_string(c.stages) + " leaves no tile in flight while one is multiplied: use 2 to 4"};
    if (c.tm % 4 != 0 || c.tn % 4 != 0)
      return Error{"tm=" + std::to_string(c.tm) + " and tn=" + std::to_string(c.tn) +
                   " must be multiples of 4: a thread's results are 4 x 4 sub-tiles read with 128-bit shared loads"};
    if (c.wm % c.tm != 0 || c.wn % c.tn != 0)
      return Error{"the warp tile " + std::to_string(c.wm) + " x " + std::to_string(c.wn) + " must be a multiple of the thread tile " +
                   std::to_string(c.tm) + " x " + std::to_string(c.tn) + ": each lane takes tm rows and tn columns of it"};
    const int lane_rows = c.wm / c.tm, lane_cols = c.wn / c.tn;
    if (lane_rows * lane_cols != 32 || lane_rows < 2 || lane_cols < 2)
      return Error{"the warp tile " + std::to_string(c.wm) + " x " + std::to_string(c.wn) + " with " + std::to_string(c.tm) + " x " + std::to_string(c.tn) +
                   " results per lane gives a " + std::to_string(lane_rows) + " x " + std::to_string(lane_cols) +
                   " lane grid; it must have 32 lanes and at least 2 in each direction (e.g. wm=32, wn=128 with "
                   "tm=8, tn=16: 4 x 8)"};
    if (c.bm % c.wm != 0 || c.bn % c.wn != 0)
      return Error{"the block tile " + std::to_string(c.bm) + " x " + std::to_string(c.bn) + " must be a multiple of the warp tile " +
                   std::to_string(c.wm) + " x " + std::to_string(c.wn) + ": change bm, bn, wm or wn"};
    if (c.bk % 8 != 0)
      return Error{"bk=" + std::to_string(c.bk) + " is not a multiple of 8: A is copied in slabs of 8 k (one 32-byte sector of a "
                   "row) and fragments alternate between two register buffers"};
    if (auto padding = padding_keeps_rows_aligned(c, 4, "floats", "128-bit loads"); !padding) return padding;
    const int threads = (c.bm / c.wm) * (c.bn / c.wn) * 32;
    const int rows_per_round = threads / 8;  // copy_tile_async_transposed: 8 threads per row of A
    if (c.bm % rows_per_round != 0)
      return Error{"bm=" + std::to_string(c.bm) + " is not a multiple of " + std::to_string(rows_per_round) +
                   ": each round of A copies puts 8 of the " + std::to_string(threads) + " threads on a row, covering " +
                   std::to_string(rows_per_round) + " rows; use a taller block tile or fewer warps"};
    const int b_chunks = c.bk * c.bn / 4;
    if (b_chunks % threads != 0)
      return Error{"the " + std::to_string(threads) + " threads must share the B tile's copies evenly, but it has " + std::to_string(b_chunks) +
                   " 16-byte chunks: change bk or bn so that is a multiple of " + std::to_string(threads)};
    return Ok{};
  }
  // Registers a thread keeps live besides the overhead every kernel has (occupancy.cpp adds it).
  static int live_registers([[maybe_unused]] const KernelConfig& c) {
    return c.tm * c.tn + 2 * (c.tm + c.tn);  // two sets of fragments: the next k index loads while this one multiplies
  }

};

}  // namespace rungs
}  // namespace gemmlab::kernel
