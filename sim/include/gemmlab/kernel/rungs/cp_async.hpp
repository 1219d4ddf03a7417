#pragma once
// Rung 8: a cp.async pipeline, `stages` (2 to 4, default 3) shared buffers deep. Defaults as in rungs 5-7:
// a 128 x 128 block tile, bk = 8, 8 x 8 results per thread, 256 threads.
//
// What changed. Double buffering (rung 7) hides the latency of the next tile's global loads behind the current
// tile's FMAs, but the data still travels global -> register -> shared: every float costs an LDG, a register
// held across the multiply (the thread's staging registers) and an STS, and a single tile of look-ahead is all
// the registers afford. `cp.async` (SASS LDGSTS, sm_80 and later) copies global memory straight into shared memory:
// one instruction per 16 bytes, no staging register, and the thread does not wait for it. Its completions are
// tracked in groups: cp_async_commit() closes the group of copies issued since the last commit, and
// cp_async_wait(Pending<P>) blocks until at most P groups are still in flight. So the block can keep several tiles
// in flight at once, each in its own shared buffer:
//
//   prologue       issue the copies of tiles 0 .. S-2 into buffers 0 .. S-2, one commit group per tile
//   k-step t, 0    wait until tile t has landed (at most S-2 younger groups pending), then a barrier: every
//                  thread's copies of tile t are visible, and every thread has finished multiplying tile t-1
//   k-step t, 1    issue the copies of tile t+S-1 into buffer (t+S-1) % S - the buffer tile t-1 used, which the
//                  barrier has just freed - and commit; then multiply tile t from buffer t % S
//
// Groups for tiles past the end of K are committed empty, so "tile t has landed" is always "S-2 groups pending"
// (the count has to be a compile-time constant; the simulator's run-time `stages` is dispatched by a switch). One
// barrier per k-step instead of double buffering's one per phase, and S-1 tiles in flight while one is multiplied.
//
// The shared layout: A stays ROW-MAJOR. cp.async moves contiguous bytes, so it cannot transpose; rung 6's
// transposed A tile would need one 4-byte cp.async per float (4 per thread per k-step instead of 1, each a
// separate LSU instruction) and a padded layout against the conflicts of a column-wise store. Instead the inner
// loop reads A along k: for each of its tm rows a thread loads 4 consecutive k values with one lds.128 and keeps a
// tm x 4 block of A in registers (32 floats, 24 more than rung 6's fragment) for 4 k indices. That is 2 lds.128 of
// A per k index, exactly what the transposed layout costs: lanes 0-15 of a warp share one thread row and lanes
// 16-31 the next, so each lds.128 has 2 distinct addresses and takes 2 wavefronts (16 lanes with one address are
// one phase). The B tile is row-major as before; B fragments are read with tn / 4 lds.128 per k index.
// Padding only hurts here (a padded A row breaks the cp.async stores' contiguous 128 bytes) and an XOR swizzle has
// nothing to fix, so this rung has a_pad / b_pad knobs (multiples of 4, to keep rows 16-byte aligned) but no swizzle.
//
// Any M, N and K. A row of A is 16-byte aligned in global memory only when k % 4 == 0, and a row of B when
// n % 4 == 0. Each operand checks its own alignment (a branch that is the same for every thread of the grid):
// aligned, a thread copies bm * bk / 4 / threads chunks of 16 bytes (1 for A and 1 for B at the defaults);
// otherwise bm * bk / threads single floats with cp.async.4, consecutive threads on consecutive columns so each
// warp instruction stays coalesced. A copy that falls outside the matrix is issued with its predicate off and
// fills its 16 (or 4) shared bytes with zeros, so a partial tile multiplies as if padded with zeros. C is written
// with 128-bit stores when n % 4 == 0, with 32-bit ones otherwise.
//
// bk stays 8: with 3 stages the block keeps 2 tiles (16 KiB) in flight in 24 KiB of shared memory, and a row of
// the A tile is 32 bytes, one whole sector per cp.async pair. bk = 16 halves the barriers per FMA but doubles the
// shared memory per stage (48 KiB at 3 stages, the limit without an opt-in); it is a knob worth trying.
//
// What is left for the next rungs: a warp's 16 lanes of one thread row read B fragments 32 bytes apart, so each
// quarter-warp of an lds.128 spans 256 bytes of one shared row - a 2-way bank conflict on every B read (8
// wavefronts for an ideal 4). Warp tiling (rung 9) arranges the threads of a warp so their reads stay within 128
// bytes. And each lane stores C 16 bytes out of every 32: half of each sector written per instruction (rung 10).
#include <string>
#include <string_view>
#include "gemmlab/result.hpp"
#include "gemmlab/kernel/config.hpp"
#include "gemmlab/kernel/tiling_rules.hpp"
#include "gemmlab/kernel/context.hpp"
#include "gemmlab/kernel/cp_async_pipeline.hpp"
#include "gemmlab/kernel/epilogue.hpp"
#include "gemmlab/kernel/executor.hpp"
#include "gemmlab/kernel/layout.hpp"
#include "gemmlab/kernel/rungs/vectorized.hpp"
#include "gemmlab/kernel/vec.hpp"

namespace gemmlab::kernel {

// Copies a tile_rows x tile_cols tile of a row-major matrix (rows_total x cols_total elements; the tile's first
// element is (row0, col0)) into shared memory at smem_base + layout(r, c), with cp.async and no register.
// Every thread issues the same number of copies: tile_rows * tile_cols must be a multiple of 4 * threads (16-byte
// path) and of threads (4-byte path). Parts of the tile outside the matrix are filled with zeros.
template <class X, class Layout>
GEMMLAB_HD void copy_tile_async(X& x, Operand operand, int row0, int col0, int rows_total, int cols_total,
                                int tile_rows, int tile_cols, int tid, int threads, int smem_base, const Layout& layout) {
  if (cols_total % 4 == 0 && col0 % 4 == 0) {
    // Rows are 16-byte aligned: one cp.async.16 per 4 floats; consecutive threads take consecutive chunks of a row.
    const int chunks_per_row = tile_cols / 4;
    const int per_thread = tile_rows * chunks_per_row / threads;
    for (int i = 0; i < per_thread; ++i) {
      const int chunk = tid + i * threads;
      const int r = chunk / chunks_per_row, c = (chunk % chunks_per_row) * 4;
      // cols_total % 4 == 0, so a chunk is either wholly inside the matrix or wholly outside.
      const bool pred = row0 + r < rows_total && col0 + c < cols_total;
      // A zero-filling copy reads nothing; it still gets a valid address (the matrix's first element).
      const Index index = pred ? Index(row0 + r) * cols_total + col0 + c : Index(0);
      x.cp_async(smem_base + layout(r, c), operand, index, pred, Width<4>{});
    }
  } else {
    // Unaligned rows: one cp.async.4 per float, a warp covering 32 consecutive elements of the tile.
    const int per_thread = tile_rows * tile_cols / threads;
    for (int i = 0; i < per_thread; ++i) {
      const int e = tid + i * threads;
      const int r = e / tile_cols, c = e % tile_cols;
      const bool pred = row0 + r < rows_total && col0 + c < cols_total;
      const Index index = pred ? Index(row0 + r) * cols_total + col0 + c : Index(0);
      x.cp_async(smem_base + layout(r, c), operand, index, pred, Width<1>{});
    }
  }
}

}  // namespace gemmlab::kernel

namespace gemmlab::kernel::rungs {

struct CpAsync {
  // Rung 6's accumulators and B fragment (its epilogue writes C from them), plus the tm x 4 block of A.
  template <class C>
  struct State : Vectorized::State<C> {
    float a_block[C::max_tm * 4];  // row i of the thread's A rows, 4 consecutive k: one lds.128 per row
  };

  // Stage s of shared memory holds A (bm x bk, ROW-MAJOR as in global memory) and then B (bk x bn, rung 6's layout).
  template <class C> GEMMLAB_HD static PaddedRowMajor a_layout(const C& c) { return {c.bk, c.a_pad}; }
  template <class C> GEMMLAB_HD static PaddedRowMajor b_layout(const C& c) { return Vectorized::b_layout(c); }
  template <class C> GEMMLAB_HD static int stage_floats(const C& c) {
    return a_layout(c).size(c.bm) + b_layout(c).size(c.bk);
  }
  template <class C> GEMMLAB_HD static int a_base(const C& c, int stage) { return stage * stage_floats(c); }
  template <class C> GEMMLAB_HD static int b_base(const C& c, int stage) {
    return a_base(c, stage) + a_layout(c).size(c.bm);
  }

  template <class C> GEMMLAB_HD static constexpr int threads(const C& c) { return Vectorized::threads(c); }
  template <class C> GEMMLAB_HD static int smem_floats(const C& c) { return c.stages * stage_floats(c); }
  template <class C> GEMMLAB_HD static int prologue_phases(const C&) { return 1; }
  template <class C> GEMMLAB_HD static int mainloop_phases(const C&) { return 2; }  // 0: wait, 1: copy + multiply
  template <class C> GEMMLAB_HD static int epilogue_phases(const C&) { return 1; }
  GEMMLAB_HD static bool barrier_after(Section section, int phase) {
    return section == Section::Mainloop && phase == 0;
  }

  // The thread's tile of C is rung 6's: rows [thread_row * tm, +tm), columns [thread_col * tn, +tn) of the block's.
  template <class C> GEMMLAB_HD static int thread_row(const C& c, int tid) { return Vectorized::thread_row(c, tid); }
  template <class C> GEMMLAB_HD static int thread_col(const C& c, int tid) { return Vectorized::thread_col(c, tid); }

  // Issues the copies of k-tile `tile` into shared buffer `stage` (not committed).
  template <class X, class C>
  GEMMLAB_HD static void load_tile(X& x, const C& c, const ThreadContext& t, int tile, int stage) {
    const int k0 = tile * c.bk;
    copy_tile_async(x, Operand::A, t.row0, k0, t.m, t.k, c.bm, c.bk, t.tid, threads(c), a_base(c, stage), a_layout(c));
    copy_tile_async(x, Operand::B, k0, t.col0, t.k, t.n, c.bk, c.bn, t.tid, threads(c), b_base(c, stage), b_layout(c));
  }

  template <class X, class C>
  GEMMLAB_HD static void prologue(X& x, const C& c, const ThreadContext& t, State<C>& s, int) {
    Vectorized::prologue(x, c, t, s, 0);  // zero the accumulators
    CpAsyncPipeline::fill(x, c.stages, t.ksteps, [&](int tile, int stage) { load_tile(x, c, t, tile, stage); });
  }

  template <class X, class C>
  GEMMLAB_HD static void mainloop(X& x, const C& c, const ThreadContext& t, State<C>& s, int kstep, int phase) {
    CpAsyncPipeline::step(
        x, c.stages, kstep, t.ksteps, phase, [&](int tile, int stage) { load_tile(x, c, t, tile, stage); },
        [&](int stage) { multiply_tile(x, c, t, s, stage); });
  }

  // The outer products of one k-tile: per 4 k indices, tm lds.128 of A (a tm x 4 block), then per k index tn / 4
  // lds.128 of B and tm * tn FMAs.
  template <class X, class C>
  GEMMLAB_HD static void multiply_tile(X& x, const C& c, const ThreadContext& t, State<C>& s, int stage) {
    const PaddedRowMajor as = a_layout(c), bs = b_layout(c);
    const int a0 = a_base(c, stage), b0 = b_base(c, stage);
    const int tr = thread_row(c, t.tid), tc = thread_col(c, t.tid);
    for (int k4 = 0; k4 < c.bk; k4 += 4) {
      for (int i = 0; i < c.tm; ++i) {
        Vec<4> a;
        x.lds(a, a0 + as(tr * c.tm + i, k4));
        for (int q = 0; q < 4; ++q) s.a_block[i * 4 + q] = a[q];
      }
      for (int q = 0; q < 4; ++q) {
        for (int j = 0; j < c.tn; j += 4) {
          Vec<4> b;
          x.lds(b, b0 + bs(k4 + q, tc * c.tn + j));
          for (int v = 0; v < 4; ++v) s.b_frag[j + v] = b[v];
        }
        for (int i = 0; i < c.tm; ++i)
          for (int j = 0; j < c.tn; ++j)
            s.acc[i * c.tn + j] = x.fma(s.a_block[i * 4 + q], s.b_frag[j], s.acc[i * c.tn + j]);
      }
    }
  }

  // C = alpha * acc + beta * C with rung 6's epilogue: 128-bit stores when n % 4 == 0, 32-bit ones otherwise.
  template <class X, class C>
  GEMMLAB_HD static void epilogue(X& x, const C& c, const ThreadContext& t, State<C>& s, int phase) {
    x.cp_async_wait(Pending<0>{});  // only empty groups are left; no copy may outlive the block
    Vectorized::epilogue(x, c, t, s, phase);
  }
  // ---- Its knobs, defaults, tiling rules and register estimate: what the simulator, the CLI and the app read (host
  // only; sim/src/rung_model.cpp and occupancy.cpp). ----
  static constexpr std::string_view knobs[] = {"bm", "bn", "bk", "tm", "tn", "a_pad", "b_pad", "stages"};
  static constexpr KernelConfig defaults() {
    KernelConfig c;
    c = Vectorized::defaults();
    c.stages = 3;  // two tiles in flight while one is multiplied
    return c;
  }
  static Status validate([[maybe_unused]] const KernelConfig& c) {
    if (c.stages < 2)
      return Error{"stages=" + std::to_string(c.stages) + " leaves no tile in flight while one is multiplied: cp-async needs 2 to 4"};
    if (c.tn % 4 != 0)
      return Error{"tn=" + std::to_string(c.tn) + " is not a multiple of 4: each thread reads its B fragment with 128-bit loads"};
    if (auto rows = whole_thread_rows(c); !rows) return rows;
    if (auto columns = whole_thread_columns(c); !columns) return columns;
    if (c.bk % 4 != 0)
      return Error{"bk=" + std::to_string(c.bk) + " is not a multiple of 4: the A tile is copied and read 4 consecutive k at a time"};
    if (auto padding = padding_keeps_rows_aligned(c, 4, "floats", "cp.async.16 and lds.128"); !padding) return padding;
    return copies_share_evenly((c.bm / c.tm) * (c.bn / c.tn), c.bm * c.bk / 4, c.bk * c.bn / 4);
  }
  // Registers a thread keeps live besides the overhead every kernel has (occupancy.cpp adds it).
  static int live_registers([[maybe_unused]] const KernelConfig& c) {
    return c.tm * c.tn + 4 * c.tm + c.tn;  // A read 4 k at a time: a tm x 4 block of A and a B fragment
  }

};

}  // namespace gemmlab::kernel::rungs
