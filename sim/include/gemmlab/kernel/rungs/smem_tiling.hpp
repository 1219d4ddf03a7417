#pragma once
// Rung 3: shared-memory tiling. The block stages a bk-deep slice of its A rows and B columns in shared memory,
// then every thread reads its dot product from there: each global element is read once per block instead of
// once per thread. One thread per element of C (bm = bn = bk, bm * bn threads).
//
// Teaching toggles:
//   conflicting = 1  threads take consecutive ROWS of C when reading shared memory, so a warp reads one column of
//                    the A tile: 32 words bm floats apart, all in one bank - a 32-way bank conflict.
//   a_pad = 1        one float of padding per A row moves each row one bank over: the column read is conflict-free.
#include <string>
#include <string_view>
#include "gemmlab/result.hpp"
#include "gemmlab/kernel/config.hpp"
#include "gemmlab/kernel/context.hpp"
#include "gemmlab/kernel/epilogue.hpp"
#include "gemmlab/kernel/layout.hpp"
#include "gemmlab/kernel/vec.hpp"

namespace gemmlab::kernel::rungs {

struct SmemTiling {
  template <class C>
  struct State {
    float acc = 0.0f;
  };

  template <class C> GEMMLAB_HD static PaddedRowMajor a_layout(const C& c) { return {c.bk, c.a_pad}; }  // bm x bk
  template <class C> GEMMLAB_HD static PaddedRowMajor b_layout(const C& c) { return {c.bn, c.b_pad}; }  // bk x bn
  template <class C> GEMMLAB_HD static constexpr int threads(const C& c) { return c.bm * c.bn; }
  template <class C> GEMMLAB_HD static int smem_floats(const C& c) {
    return a_layout(c).size(c.bm) + b_layout(c).size(c.bk);
  }
  template <class C> GEMMLAB_HD static int prologue_phases(const C&) { return 0; }
  template <class C> GEMMLAB_HD static int mainloop_phases(const C&) { return 2; }  // 0: load tiles, 1: multiply
  template <class C> GEMMLAB_HD static int epilogue_phases(const C&) { return 1; }
  GEMMLAB_HD static bool barrier_after(Section section, int) { return section == Section::Mainloop; }

  template <class C> GEMMLAB_HD static int row_in_tile(const C& c, int tid) { return c.conflicting ? tid % c.bm : tid / c.bn; }
  template <class C> GEMMLAB_HD static int col_in_tile(const C& c, int tid) { return c.conflicting ? tid / c.bm : tid % c.bn; }

  template <class X, class C>
  GEMMLAB_HD static void prologue(X&, const C&, const ThreadContext&, State<C>&, int) {}

  template <class X, class C>
  GEMMLAB_HD static void mainloop(X& x, const C& c, const ThreadContext& t, State<C>& s, int kstep, int phase) {
    const int k0 = kstep * c.bk;
    const PaddedRowMajor as = a_layout(c), bs = b_layout(c);
    const int b_base = as.size(c.bm);
    if (phase == 0) {
      // Each thread copies one element of each tile; consecutive threads take consecutive columns (coalesced).
      const int a_row = t.tid / c.bk, a_col = t.tid % c.bk;
      Vec<1> a;
      x.ldg(a, Operand::A, Index(t.row0 + a_row) * t.k + k0 + a_col, t.row0 + a_row < t.m && k0 + a_col < t.k);
      x.sts(as(a_row, a_col), a);
      const int b_row = t.tid / c.bn, b_col = t.tid % c.bn;
      Vec<1> b;
      x.ldg(b, Operand::B, Index(k0 + b_row) * t.n + t.col0 + b_col, k0 + b_row < t.k && t.col0 + b_col < t.n);
      x.sts(b_base + bs(b_row, b_col), b);
      return;
    }
    const int row = row_in_tile(c, t.tid), col = col_in_tile(c, t.tid);
    for (int kk = 0; kk < c.bk; ++kk) {
      Vec<1> a, b;
      x.lds(a, as(row, kk));
      x.lds(b, b_base + bs(kk, col));
      s.acc = x.fma(a[0], b[0], s.acc);
    }
  }

  template <class X, class C>
  GEMMLAB_HD static void epilogue(X& x, const C& c, const ThreadContext& t, State<C>& s, int) {
    const int row = t.row0 + row_in_tile(c, t.tid), col = t.col0 + col_in_tile(c, t.tid);
    store_c(x, t, Index(row) * t.n + col, s.acc, row < t.m && col < t.n);
  }
  // ---- Its knobs, defaults, tiling rules and register estimate: what the simulator, the CLI and the app read (host
  // only; sim/src/rung_model.cpp and occupancy.cpp). ----
  static constexpr std::string_view knobs[] = {"bm", "bn", "bk", "a_pad", "b_pad", "conflicting"};
  static constexpr KernelConfig defaults() {
    KernelConfig c;
    c.bm = 32, c.bn = 32, c.bk = 32;
    return c;
  }
  static Status validate([[maybe_unused]] const KernelConfig& c) {
    if (c.bm != c.bn || c.bk != c.bm)
      return Error{"smem-tiling copies one element of each tile per thread, so bm, bn and bk must be equal (got bm=" +
                   std::to_string(c.bm) + ", bn=" + std::to_string(c.bn) + ", bk=" + std::to_string(c.bk) + ")"};
    return Ok{};
  }
  // Registers a thread keeps live besides the overhead every kernel has (occupancy.cpp adds it).
  static int live_registers([[maybe_unused]] const KernelConfig& c) {
    return 3;  // the accumulator and the two loaded values
  }

};

}  // namespace gemmlab::kernel::rungs
