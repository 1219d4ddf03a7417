#pragma once
// Copying a tile of A (rows x cols of a row-major matrix) or B into shared memory, one float per thread per
// round, consecutive threads on consecutive columns so each warp's global load is coalesced. Rungs 4 and 5 use it.
#include "gemmlab/kernel/context.hpp"
#include "gemmlab/kernel/vec.hpp"

namespace gemmlab::kernel {

// The global tile starts at (row0, col0) of a matrix with `rows_total` x `cols_total` elements; `layout` places
// element (r, c) of the tile at smem_base + layout(r, c).
template <class X, class Layout>
GEMMLAB_HD void copy_tile_scalar(X& x, Operand operand, int row0, int col0, int rows_total, int cols_total,
                                 int tile_rows, int tile_cols, int tid, int threads, int smem_base,
                                 const Layout& layout) {
  for (int e = tid; e < tile_rows * tile_cols; e += threads) {
    const int r = e / tile_cols, c = e % tile_cols;
    Vec<1> v;
    x.ldg(v, operand, Index(row0 + r) * cols_total + col0 + c, row0 + r < rows_total && col0 + c < cols_total);
    x.sts(smem_base + layout(r, c), v);
  }
}

}  // namespace gemmlab::kernel
