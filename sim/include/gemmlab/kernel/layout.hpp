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

// A tile of 16-bit elements (FP16, BF16), addressed in BYTES: (row, column in elements) -> byte offset. Tensor-core
// rungs move rows in 16-byte chunks of 8 elements (cp.async.16 writes one, each ldmatrix row address reads one), so
// both fixes act on chunks:
// - `pad` elements after each row (a multiple of 8, to keep chunks 16-byte aligned): 8 elements shift the next row
//   by one 16-byte bank group, so 8 consecutive rows at the same column fall in 8 different groups;
// - `swizzle`: no padding; the chunk index XOR the row mod 8 (CuTe's Swizzle<3,3,3> on the element offset of a
//   64-element row; a wider row repeats the pattern on every 8 chunks). The same 8 rows land in 8 groups, and the
//   8 chunks of a 128-byte span stay a permutation of one another, so 16-byte stores of whole rows stay conflict-free.
struct HalfTile {
  int cols;
  int pad = 0;
  bool swizzle = false;
  GEMMLAB_HD int row_bytes() const { return 2 * (cols + pad); }
  GEMMLAB_HD int operator()(int row, int col) const {
    const int chunk = col >> 3;
    const int placed = swizzle ? chunk ^ (row & 7) : chunk;
    return row * row_bytes() + (placed << 4) + ((col & 7) << 1);
  }
  GEMMLAB_HD int size_bytes(int rows) const { return rows * row_bytes(); }
};

}  // namespace gemmlab::kernel
