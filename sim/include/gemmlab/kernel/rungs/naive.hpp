#pragma once
// Rungs 1 and 2: the naive kernels. One thread per element of C, each walking all of K straight from global
// memory. They differ only in how a block's threads are laid over its bm x bn tile of C:
//
//   naive-uncoalesced  consecutive threads take consecutive ROWS. A warp's 32 loads of A are K floats apart
//                      (32 sectors for 128 useful bytes) and its 32 stores of C are N floats apart.
//   naive-coalesced    consecutive threads take consecutive COLUMNS. A warp reads 32 neighbouring floats of B
//                      (4 sectors) and one float of A that all lanes share (1 sector, broadcast).
//
// Each k-step is one k index (bk = 1) and needs no barrier: the threads share nothing.
#include <string>
#include <string_view>
#include "gemmlab/result.hpp"
#include "gemmlab/kernel/config.hpp"
#include "gemmlab/kernel/context.hpp"
#include "gemmlab/kernel/epilogue.hpp"
#include "gemmlab/kernel/vec.hpp"

namespace gemmlab::kernel::rungs {

template <bool RowsFastest>
struct Naive {
  template <class C>
  struct State {
    float acc = 0.0f;
  };

  template <class C> GEMMLAB_HD static constexpr int threads(const C& c) { return c.bm * c.bn; }
  template <class C> GEMMLAB_HD static int smem_floats(const C&) { return 0; }
  template <class C> GEMMLAB_HD static int prologue_phases(const C&) { return 0; }
  template <class C> GEMMLAB_HD static int mainloop_phases(const C&) { return 1; }
  template <class C> GEMMLAB_HD static int epilogue_phases(const C&) { return 1; }
  GEMMLAB_HD static bool barrier_after(Section, int) { return false; }

  // The element of C this thread owns, relative to the block's tile.
  template <class C> GEMMLAB_HD static int row_in_tile(const C& c, int tid) { return RowsFastest ? tid % c.bm : tid / c.bn; }
  template <class C> GEMMLAB_HD static int col_in_tile(const C& c, int tid) { return RowsFastest ? tid / c.bm : tid % c.bn; }

  template <class X, class C>
  GEMMLAB_HD static void prologue(X&, const C&, const ThreadContext&, State<C>&, int) {}

  template <class X, class C>
  GEMMLAB_HD static void mainloop(X& x, const C& c, const ThreadContext& t, State<C>& s, int kstep, int) {
    const int row = t.row0 + row_in_tile(c, t.tid);
    const int col = t.col0 + col_in_tile(c, t.tid);
    const bool in_c = row < t.m && col < t.n;
    Vec<1> a, b;
    x.ldg(a, Operand::A, Index(row) * t.k + kstep, in_c);
    x.ldg(b, Operand::B, Index(kstep) * t.n + col, in_c);
    s.acc = x.fma(a[0], b[0], s.acc);
  }

  template <class X, class C>
  GEMMLAB_HD static void epilogue(X& x, const C& c, const ThreadContext& t, State<C>& s, int) {
    const int row = t.row0 + row_in_tile(c, t.tid);
    const int col = t.col0 + col_in_tile(c, t.tid);
    store_c(x, t, Index(row) * t.n + col, s.acc, row < t.m && col < t.n);
  }

  // ---- Its knobs, defaults, tiling rules and register estimate: what the simulator, the CLI and the app read (host
  // only; sim/src/rung_model.cpp and occupancy.cpp). ----
  static constexpr std::string_view knobs[] = {"bm", "bn"};
  static constexpr KernelConfig defaults() {
    KernelConfig c;
    c.bm = 32, c.bn = 32, c.bk = 1;
    return c;
  }
  static Status validate([[maybe_unused]] const KernelConfig& c) {
    return Ok{};
  }
  // Registers a thread keeps live besides the overhead every kernel has (occupancy.cpp adds it).
  static int live_registers([[maybe_unused]] const KernelConfig& c) {
    return 3;  // the accumulator and the two loaded values
  }
};

using NaiveUncoalesced = Naive<true>;
using NaiveCoalesced = Naive<false>;

}  // namespace gemmlab::kernel::rungs
