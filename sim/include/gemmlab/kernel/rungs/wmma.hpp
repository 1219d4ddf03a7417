#pragma once
// Rung 11: tensor cores through the WMMA API (nvcuda::wmma). FP16 or BF16 A and B, FP32 accumulation and C.
//
// What changed from rung 10. Rung 10's threads each computed an 8 x 16 tile of C with FFMAs. Here a warp hands its
// tile to the tensor cores through the portable API: load_matrix_sync fills a 16 x 16 fragment of A or B from
// shared memory, mma_sync multiplies two fragments into a 16 x 16 accumulator, store_matrix_sync writes it to C.
// The API hides which lane holds what, and on sm_80 and later nvcc turns it into ldmatrix and mma.sync.m16n8k16
// (kernel/wmma.hpp lists the instructions): the simulator counts those.
//
// Everything else is rung 12's (MmaTiles in mma_sync.hpp): the same block and warp tiles, the same cp.async pipeline
// into row-major shared tiles, so the two rungs run the same instructions in their main loops. What the API takes
// away is control, and the next rungs need it:
//   - load_matrix_sync takes one pointer and a row stride. The rows of an 8 x 8 matrix 128 (A) or 256 (B) bytes apart
//     land in the same banks (8-way conflicts), and the only cure it allows is padding (a_pad, b_pad); an
//     XOR-swizzled tile is not a pointer and a stride, so rung 14's layout is out of reach;
//   - the accumulator's layout is unspecified: C can be staged only where store_matrix_sync puts it, not in a layout
//     chosen for each lane's stores (rung 16);
//   - the API's few shapes (16 x 16 x 16 here) fix the fragments: warp tiles are multiples of 16 x 16.
//
// Sizes: m and n multiples of 16 (store_matrix_sync writes whole 16 x 16 blocks, and a block past the edge of C is
// not stored), k a multiple of 8 (16-byte copies of A's rows).
#include <string>
#include <string_view>

#include "gemmlab/kernel/rungs/mma_sync.hpp"
#include "gemmlab/kernel/wmma.hpp"

namespace gemmlab::kernel::rungs {

struct Wmma : MmaTiles, MmaMainloop<Wmma> {
  using Shape = Wmma16x16x16;

  template <class C> static constexpr int max_m_blocks = C::max_wm / Shape::m;
  template <class C> static constexpr int max_n_blocks = C::max_wn / Shape::n;

  // A thread's share of the warp's fragments: accumulators for its tile, A and B for one 16-deep slice of k.
  template <class C>
  struct State {
    Shape::Accumulator acc[max_m_blocks<C>][max_n_blocks<C>];
    Shape::A a[max_m_blocks<C>];
    Shape::B b[max_n_blocks<C>];
  };

  template <class C>
  GEMMLAB_HD static void zero_accumulators(const C& c, State<C>& s) {
    GEMMLAB_UNROLL
    for (int i = 0; i < c.wm / Shape::m; ++i)
      GEMMLAB_UNROLL
      for (int j = 0; j < c.wn / Shape::n; ++j)
        GEMMLAB_UNROLL
        for (float& v : s.acc[i][j].v) v = 0.0f;  // fill_fragment(acc, 0)
  }

  // Per 16 k of the tile: the warp's A fragments, its B fragments, then every 16 x 16 block of its tile.
  template <class X, class C>
  GEMMLAB_HD static void multiply_tile(X& x, const C& c, const ThreadContext& t, State<C>& s, int stage) {
    const WarpStage w = warp_stage(c, t, stage);
    GEMMLAB_UNROLL
    for (int k16 = 0; k16 < c.bk; k16 += Shape::k) {
      GEMMLAB_UNROLL
      for (int i = 0; i < c.wm / Shape::m; ++i)
        wmma_load(x, s.a[i], w.a_base + w.a_layout(w.row0 + i * Shape::m, k16), w.a_layout.row_bytes());
      GEMMLAB_UNROLL
      for (int j = 0; j < c.wn / Shape::n; ++j)
        wmma_load(x, s.b[j], w.b_base + w.b_layout(k16, w.col0 + j * Shape::n), w.b_layout.row_bytes());
      GEMMLAB_UNROLL
      for (int i = 0; i < c.wm / Shape::m; ++i)
        GEMMLAB_UNROLL
        for (int j = 0; j < c.wn / Shape::n; ++j) wmma_mma(x, s.acc[i][j], s.a[i], s.b[j]);
    }
  }

  // C = alpha * acc + beta * C, one 16 x 16 block at a time. The accumulator and the C fragment share their
  // (unspecified) layout, so the arithmetic is element by element.
  template <class X, class C>
  GEMMLAB_HD static void epilogue(X& x, const C& c, const ThreadContext& t, State<C>& s, int) {
    x.cp_async_wait(Pending<0>{});  // only empty groups are left; no copy may outlive the block
    const int row0 = t.row0 + warp_row(c, t.tid) * c.wm, col0 = t.col0 + warp_col(c, t.tid) * c.wn;
    GEMMLAB_UNROLL
    for (int i = 0; i < c.wm / Shape::m; ++i)
      GEMMLAB_UNROLL
      for (int j = 0; j < c.wn / Shape::n; ++j) {
        const int row = row0 + i * Shape::m, col = col0 + j * Shape::n;
        if (row >= t.m || col >= t.n) continue;  // the whole block is past the edge (m, n multiples of 16)
        const Index index = Index(row) * t.n + col;
        Shape::Accumulator& acc = s.acc[i][j];
        if (t.beta != 0.0f) {
          Shape::Accumulator old;
          wmma_load_c(x, old, t, index);
          for (int v = 0; v < 8; ++v) acc.v[v] = t.alpha * acc.v[v] + t.beta * old.v[v];
        } else {
          for (float& v : acc.v) v *= t.alpha;
        }
        wmma_store_c(x, acc, t, index);
      }
  }

  // ---- What the simulator, the CLI and the app need to know about this description (host only). ----

  // swizzle is a knob so that the app can toggle it and show why the API refuses it.
  static constexpr std::string_view knobs[] = {"bm", "bn", "bk", "wm", "wn", "a_pad", "b_pad", "swizzle", "stages"};

  static constexpr KernelConfig defaults() { return detail::mma_defaults(128, 128, 64, 64, 64, 0, 0, 2); }

  static Status validate_sizes(int m, int n, int k) {
    if (m % 16 != 0 || n % 16 != 0)
      return Error{"m=" + std::to_string(m) + " and n=" + std::to_string(n) +
                   " must be multiples of 16: store_matrix_sync writes whole 16 x 16 blocks of C"};
    return MmaTiles::validate_sizes(m, n, k);
  }

  static Status validate(const KernelConfig& c) {
    if (c.swizzle != 0)
      return Error{"swizzle=1 is not possible here: load_matrix_sync reads a tile given by a pointer and a row "
                   "stride, and an XOR-swizzled tile is neither (rung 14 swizzles with ldmatrix): use a_pad=8 and "
                   "b_pad=8 to remove the conflicts"};
    return MmaTiles::validate(c);
  }
  // live_registers: MmaTiles's (the fragments the hardware uses are the same 4 registers per A and per B block).
};

}  // namespace gemmlab::kernel::rungs
