#pragma once
// Rung 5: 2D register blocking. Each thread computes a tm x tn tile of C (default 8 x 8 in a 128 x 128 block tile,
// bk = 8, 256 threads). Per k index it loads tm A values and tn B values into registers and does tm * tn FMAs
// with them (an outer product): 64 FMAs for 16 shared loads, against 8 for 9 in rung 4.
//
// What is left for the next rung: the A fragment is a column of the A tile (tm floats bk apart) and the B
// fragment tn floats of a row, all read with 32-bit loads, and lanes that read B 8 floats apart share banks.
#include <string>
#include <string_view>
#include "gemmlab/result.hpp"
#include "gemmlab/kernel/config.hpp"
#include "gemmlab/kernel/tiling_rules.hpp"
#include "gemmlab/kernel/context.hpp"
#include "gemmlab/kernel/epilogue.hpp"
#include "gemmlab/kernel/layout.hpp"
#include "gemmlab/kernel/rungs/tile_loads.hpp"
#include "gemmlab/kernel/vec.hpp"

namespace gemmlab::kernel::rungs {

struct BlockTile2D {
  template <class C>
  struct State {
    float acc[C::max_tm * C::max_tn];
    float a_frag[C::max_tm];
    float b_frag[C::max_tn];
  };

  template <class C> GEMMLAB_HD static PaddedRowMajor a_layout(const C& c) { return {c.bk, c.a_pad}; }
  template <class C> GEMMLAB_HD static PaddedRowMajor b_layout(const C& c) { return {c.bn, c.b_pad}; }
  template <class C> GEMMLAB_HD static constexpr int threads(const C& c) { return (c.bm / c.tm) * (c.bn / c.tn); }
  template <class C> GEMMLAB_HD static int smem_floats(const C& c) {
    return a_layout(c).size(c.bm) + b_layout(c).size(c.bk);
  }
  template <class C> GEMMLAB_HD static int prologue_phases(const C&) { return 1; }
  template <class C> GEMMLAB_HD static int mainloop_phases(const C&) { return 2; }
  template <class C> GEMMLAB_HD static int epilogue_phases(const C&) { return 1; }
  GEMMLAB_HD static bool barrier_after(Section section, int) { return section == Section::Mainloop; }

  // The thread's tile of C, relative to the block's: rows [thread_row * tm, +tm), columns [thread_col * tn, +tn).
  template <class C> GEMMLAB_HD static int thread_row(const C& c, int tid) { return tid / (c.bn / c.tn); }
  template <class C> GEMMLAB_HD static int thread_col(const C& c, int tid) { return tid % (c.bn / c.tn); }

  template <class X, class C>
  GEMMLAB_HD static void prologue(X&, const C& c, const ThreadContext&, State<C>& s, int) {
    for (int i = 0; i < c.tm * c.tn; ++i) s.acc[i] = 0.0f;
  }

  template <class X, class C>
  GEMMLAB_HD static void mainloop(X& x, const C& c, const ThreadContext& t, State<C>& s, int kstep, int phase) {
    const int k0 = kstep * c.bk;
    const PaddedRowMajor as = a_layout(c), bs = b_layout(c);
    const int b_base = as.size(c.bm);
    if (phase == 0) {
      copy_tile_scalar(x, Operand::A, t.row0, k0, t.m, t.k, c.bm, c.bk, t.tid, threads(c), 0, as);
      copy_tile_scalar(x, Operand::B, k0, t.col0, t.k, t.n, c.bk, c.bn, t.tid, threads(c), b_base, bs);
      return;
    }
    const int tr = thread_row(c, t.tid), tc = thread_col(c, t.tid);
    for (int kk = 0; kk < c.bk; ++kk) {
      for (int i = 0; i < c.tm; ++i) {
        Vec<1> a;
        x.lds(a, as(tr * c.tm + i, kk));
        s.a_frag[i] = a[0];
      }
      for (int j = 0; j < c.tn; ++j) {
        Vec<1> b;
        x.lds(b, b_base + bs(kk, tc * c.tn + j));
        s.b_frag[j] = b[0];
      }
      for (int i = 0; i < c.tm; ++i)
        for (int j = 0; j < c.tn; ++j) s.acc[i * c.tn + j] = x.fma(s.a_frag[i], s.b_frag[j], s.acc[i * c.tn + j]);
    }
  }

  template <class X, class C>
  GEMMLAB_HD static void epilogue(X& x, const C& c, const ThreadContext& t, State<C>& s, int) {
    const int tr = thread_row(c, t.tid), tc = thread_col(c, t.tid);
    for (int i = 0; i < c.tm; ++i) {
      const int row = t.row0 + tr * c.tm + i;
      for (int j = 0; j < c.tn; ++j) {
        const int col = t.col0 + tc * c.tn + j;
        store_c(x, t, Index(row) * t.n + col, s.acc[i * c.tn + j], row < t.m && col < t.n);
      }
    }
  }
  // ---- Its knobs, defaults, tiling rules and register estimate: what the simulator, the CLI and the app read (host
  // only; sim/src/rung_model.cpp and occupancy.cpp). ----
  static constexpr std::string_view knobs[] = {"bm", "bn", "bk", "tm", "tn", "a_pad", "b_pad"};
  static constexpr KernelConfig defaults() {
    KernelConfig c;
    c.bm = 128, c.bn = 128, c.bk = 8, c.tm = 8, c.tn = 8;
    return c;
  }
  static Status validate([[maybe_unused]] const KernelConfig& c) {
    if (auto rows = whole_thread_rows(c); !rows) return rows;
    return whole_thread_columns(c);
  }
  // Registers a thread keeps live besides the overhead every kernel has (occupancy.cpp adds it).
  static int live_registers([[maybe_unused]] const KernelConfig& c) {
    const int n = threads(c) > 0 ? threads(c) : 1;  // validate() refuses a tile with no thread; estimate anyway
    const int staged = (c.bm * c.bk + c.bk * c.bn + n - 1) / n;  // one thread's share of a k-step's tiles
    // Loads and fragments are not live at the same time: the tile is copied, then multiplied.
    return c.tm * c.tn + (c.tm + c.tn > staged ? c.tm + c.tn : staged);
  }

};

}  // namespace gemmlab::kernel::rungs
