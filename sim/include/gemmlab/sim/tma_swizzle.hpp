#pragma once
// The shared image TMA writes in each of its swizzle modes, and what reading one wgmma core matrix from it costs: the
// banks panel's view of the Hopper rungs, whose tiles no warp instruction touches (the copy engine writes them, the
// tensor cores read them). The swizzle is kernel::tma_swizzle, the function the rungs' TMA maps and wgmma descriptors
// use; a core matrix (8 rows of 16 bytes: 8 x 8 16-bit elements) is costed as the 8 row addresses of an ldmatrix
// .x1, by the same bank model (memory_model.hpp). ncu has no counter of wgmma's shared reads (docs/fidelity.md), so
// this cost is the model's, not a measurement.
#include <array>
#include <vector>

#include "gemmlab/memory_model.hpp"
#include "gemmlab/result.hpp"

namespace gemmlab::sim {

inline constexpr int kTmaSwizzleModes[] = {32, 64, 128};  // bytes; 0 is no swizzle

// 8 rows of a box whose rows are `row_bytes` wide, as TMA lands them: logical 16-byte chunk c of row r (c counted
// along the global row) at a byte offset of the image.
struct SwizzleImage {
  int mode_bytes = 128;  // 0: no swizzle
  int row_bytes = 128;
  static constexpr int rows = 8;
  int chunks() const { return row_bytes / 16; }
  int byte_offset(int row, int chunk) const;
  int physical_chunk(int row, int chunk) const { return (byte_offset(row, chunk) % row_bytes) / 16; }
  // Where it lies for the banks: the 128-byte line (32 banks of 4 bytes), and the group of 4 banks in it (0 to 7).
  int line(int row, int chunk) const { return byte_offset(row, chunk) / 128; }
  int bank_group(int row, int chunk) const { return byte_offset(row, chunk) % 128 / 16; }
};

// An error for a mode TMA does not have, or a row it cannot swizzle: rows of 16 to 128 bytes (a power of two), and
// with a swizzle, rows exactly as wide as the mode (the box's inner dimension spans the pattern).
Result<SwizzleImage> swizzle_image(int mode_bytes, int row_bytes);

// wgmma's core matrix at logical chunk `chunk` of the 8 rows: the rows' 16 bytes each, where they lie, and the
// wavefronts the 8 row reads take (1 when they fall in 8 different groups of 4 banks).
struct CoreMatrixRead {
  int chunk = 0;
  std::array<int, 8> byte_offset{};
  SharedDetail detail;
};
Result<CoreMatrixRead> core_matrix_read(const SwizzleImage& image, int chunk);

}  // namespace gemmlab::sim
