#include "gemmlab/sim/tma_swizzle.hpp"

#include <algorithm>
#include <string>

#include "gemmlab/kernel/wgmma.hpp"

namespace gemmlab::sim {

int SwizzleImage::byte_offset(int row, int chunk) const {
  return kernel::tma_swizzle(row * row_bytes + chunk * 16, mode_bytes);
}

Result<SwizzleImage> swizzle_image(int mode_bytes, int row_bytes) {
  if (mode_bytes != 0 && std::find(std::begin(kTmaSwizzleModes), std::end(kTmaSwizzleModes), mode_bytes) ==
                             std::end(kTmaSwizzleModes))
    return Error{"TMA swizzles 32, 64 or 128 bytes (or not at all), not " + std::to_string(mode_bytes)};
  if (row_bytes < 16 || row_bytes > 128 || (row_bytes & (row_bytes - 1)) != 0)
    return Error{"a box row of " + std::to_string(row_bytes) + " bytes: this view takes 16, 32, 64 or 128"};
  if (mode_bytes != 0 && row_bytes != mode_bytes)
    return Error{"the " + std::to_string(mode_bytes) + "-byte swizzle permutes rows of " + std::to_string(mode_bytes) +
                 " bytes, not " + std::to_string(row_bytes)};
  return SwizzleImage{mode_bytes, row_bytes};
}

Result<CoreMatrixRead> core_matrix_read(const SwizzleImage& image, int chunk) {
  if (chunk < 0 || chunk >= image.chunks())
    return Error{"a row of " + std::to_string(image.row_bytes) + " bytes has chunks 0 to " +
                 std::to_string(image.chunks() - 1) + ", not " + std::to_string(chunk)};
  CoreMatrixRead read;
  read.chunk = chunk;
  WarpAccess access;
  access.op = MemOp::LdMatrix;
  access.ldmatrix_count = 1;
  for (int r = 0; r < SwizzleImage::rows; ++r) {
    read.byte_offset[static_cast<std::size_t>(r)] = image.byte_offset(r, chunk);
    access.address[static_cast<std::size_t>(r)] = static_cast<std::uint64_t>(image.byte_offset(r, chunk));
  }
  auto detail = shared_detail(access);
  if (!detail) return detail.error();
  read.detail = std::move(*detail);
  return read;
}

}  // namespace gemmlab::sim
