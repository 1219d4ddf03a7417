#pragma once
// Rung 4: 1D register blocking. Each thread now computes tm results down one column of C. In the inner loop it
// reads one B value into a register and reuses it tm times against tm A values: tm FMAs per B load instead of 1,
// so shared-memory traffic per FMA drops and the block can cover a larger tile (default 64 x 64, bk = 8,
// tm = 8: 512 threads).
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

struct BlockTile1D {
  template <class C>
  struct State {
    float acc[C::max_tm];
  };

  template <class C> GEMMLAB_HD static PaddedRowMajor a_layout(const C& c) { return {c.bk, c.a_pad}; }
  template <class C> GEMMLAB_HD static PaddedRowMajor b_layout(const C& c) { return {c.bn, c.b_pad}; }
  template <class C> GEMMLAB_HD static constexpr int threads(const C& c) { return c.bm / c.tm * c.bn; }
  template <class C> GEMMLAB_HD static int smem_floats(const C& c) {
    return a_layout(c).size(c.bm) + b_layout(c).size(c.bk);
  }
  template <class C> GEMMLAB_HD static int prologue_phases(const C&) { return 1; }  // zero the accumulators
  template <class C> GEMMLAB_HD static int mainloop_phases(const C&) { return 2; }
  template <class C> GEMMLAB_HD static int epilogue_phases(const C&) { return 1; }
  GEMMLAB_HD static bool barrier_after(Section section, int) { return section == Section::Mainloop; }

  template <class X, class C>
  GEMMLAB_HD static void prologue(X&, const C& c, const ThreadContext&, State<C>& s, int) {
    for (int i = 0; i < c.tm; ++i) s.acc[i] = 0.0f;
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
    const int col = t.tid % c.bn, row_group = t.tid / c.bn;  // a warp shares row_group: A reads broadcast
    for (int kk = 0; kk < c.bk; ++kk) {
      Vec<1> b;
      x.lds(b, b_base + bs(kk, col));
      for (int i = 0; i < c.tm; ++i) {
        Vec<1> a;
        x.lds(a, as(row_group * c.tm + i, kk));
        s.acc[i] = x.fma(a[0], b[0], s.acc[i]);
      }
    }
  }

  template <class X, class C>
  GEMMLAB_HD static void epilogue(X& x, const C& c, const ThreadContext& t, State<C>& s, int) {
    const int col = t.col0 + t.tid % c.bn, row_group = t.tid / c.bn;
    for (int i = 0; i < c.tm; ++i) {
      const int row = t.row0 + row_group * c.tm + i;
      store_c(x, t, Index(row) * t.n + col, s.acc[i], row < t.m && col < t.n);
    }
  }
  // ---- Its knobs, defaults, tiling rules and register estimate: what the simulator, the CLI and the app read (host
  // only; sim/src/rung_model.cpp and occupancy.cpp). ----
  static constexpr std::string_view knobs[] = {"bm", "bn", "bk", "tm", "a_pad", "b_pad"};
  static constexpr KernelConfig defaults() {
    KernelConfig c;
    c.bm = 64, c.bn = 64, c.bk = 8, c.tm = 8;
    return c;
  }
  static Status validate([[maybe_unused]] const KernelConfig& c) {
    return whole_thread_rows(c);
  }
  // Registers a thread keeps live besides the overhead every kernel has (occupancy.cpp adds it).
  static int live_registers([[maybe_unused]] const KernelConfig& c) {
    return c.tm + 2;  // the column of results, the loaded A value and B value
  }

};

}  // namespace gemmlab::kernel::rungs
