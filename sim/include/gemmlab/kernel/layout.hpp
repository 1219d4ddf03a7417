#pragma once
// Shared-memory layouts as small functors: (row, column) of a tile -> float offset in shared memory.
// Kernels and the simulator call the same functor, so a padding or swizzle toggle changes both at once.
#include "gemmlab/hd.hpp"

namespace gemmlab::kernel {

// Row-major with `pad` floats added after each row. A row of 32 floats plus 1 shifts the next row by one bank,
// which is what turns a 32-way conflict on a column read into none.
struct PaddedRowMajor {
  int cols;
  int pad;
  GEMMLAB_HD int stride() const { return cols + pad; }
  GEMMLAB_HD int operator()(int row, int col) const { return row * stride() + col; }
  GEMMLAB_HD int size(int rows) const { return rows * stride(); }
};

// Row-major without padding, with the 16-byte chunks of each row permuted by XOR with the row: chunk c of row r
// is stored at chunk c ^ (r % chunks_per_group). Same footprint as the plain layout, and a column of 128-bit
// reads or writes spreads across banks. `cols` must be a multiple of 4 * chunks_per_group.
struct XorSwizzled {
  int cols;
  int chunks_per_group;  // a power of two: 8 chunks of 16 bytes = the 128 bytes of all 32 banks
  GEMMLAB_HD int stride() const { return cols; }
  GEMMLAB_HD int operator()(int row, int col) const {
    const int chunk = col >> 2;
    const int swizzled = chunk ^ (row & (chunks_per_group - 1));
    return row * cols + (swizzled << 2) + (col & 3);
  }
  GEMMLAB_HD int size(int rows) const { return rows * cols; }
};

}  // namespace gemmlab::kernel
