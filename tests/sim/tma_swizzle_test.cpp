#include "gemmlab/sim/tma_swizzle.hpp"

#include <gtest/gtest.h>

#include <set>

#include "gemmlab/kernel/wgmma.hpp"

namespace gemmlab::sim {
namespace {

TEST(TmaSwizzle, EachModePermutesTheChunksOfARowAndKeepsTheRow) {
  for (const int mode : kTmaSwizzleModes) {
    const auto image = swizzle_image(mode, mode);
    ASSERT_TRUE(image.ok()) << image.error().message;
    for (int r = 0; r < SwizzleImage::rows; ++r) {
      std::set<int> chunks;
      for (int c = 0; c < image->chunks(); ++c) {
        EXPECT_EQ(image->byte_offset(r, c) / mode, r) << mode;  // the swizzle stays inside the row
        chunks.insert(image->physical_chunk(r, c));
      }
      EXPECT_EQ(static_cast<int>(chunks.size()), image->chunks()) << mode << " row " << r;
    }
  }
  // The 128-byte mode: chunk c of row r at chunk c ^ r, as the rungs' hand-built swizzle (rungs 14 to 16).
  const auto wide = swizzle_image(128, 128);
  ASSERT_TRUE(wide.ok());
  EXPECT_EQ(wide->physical_chunk(5, 2), 2 ^ 5);
  // The 32-byte mode swaps the two chunks of rows 4 to 7.
  const auto narrow = swizzle_image(32, 32);
  ASSERT_TRUE(narrow.ok());
  EXPECT_EQ(narrow->physical_chunk(3, 0), 0);
  EXPECT_EQ(narrow->physical_chunk(4, 0), 1);
}

TEST(TmaSwizzle, TheModesXorTheBitsThePtxIsaNames) {
  // Literal offsets, not the function against itself: the 16-byte chunk bits [4, 4 + b) XOR bits [7, 7 + b).
  EXPECT_EQ(kernel::tma_swizzle(0x080, 128), 0x090);
  EXPECT_EQ(kernel::tma_swizzle(0x380, 128), 0x3F0);
  EXPECT_EQ(kernel::tma_swizzle(0x080, 64), 0x090);
  EXPECT_EQ(kernel::tma_swizzle(0x100, 64), 0x120);
  EXPECT_EQ(kernel::tma_swizzle(0x180, 64), 0x1B0);
  EXPECT_EQ(kernel::tma_swizzle(0x080, 32), 0x090);
  EXPECT_EQ(kernel::tma_swizzle(0x100, 32), 0x100);
  EXPECT_EQ(kernel::tma_swizzle(0x180, 0), 0x180);
}

TEST(TmaSwizzle, ASwizzledCoreMatrixTakesOneWavefront) {
  for (const int mode : kTmaSwizzleModes) {
    const auto image = swizzle_image(mode, mode);
    ASSERT_TRUE(image.ok());
    for (int c = 0; c < image->chunks(); ++c) {
      const auto read = core_matrix_read(*image, c);
      ASSERT_TRUE(read.ok()) << read.error().message;
      EXPECT_EQ(read->detail.cost.wavefronts, 1) << mode << " chunk " << c;
      EXPECT_EQ(read->detail.cost.bank_conflicts(), 0);
    }
  }
}

TEST(TmaSwizzle, UnswizzledRowsConflictAsTheyAreWide) {
  // 8 rows of a 16-byte column at a stride of the row: 128-byte rows put all 8 in the same 4 banks.
  const int expected[][2] = {{32, 2}, {64, 4}, {128, 8}};
  for (const auto& [row_bytes, wavefronts] : expected) {
    const auto image = swizzle_image(0, row_bytes);
    ASSERT_TRUE(image.ok());
    const auto read = core_matrix_read(*image, 0);
    ASSERT_TRUE(read.ok());
    EXPECT_EQ(read->detail.cost.wavefronts, wavefronts) << row_bytes;
  }
}

TEST(TmaSwizzle, ModesAndRowsTmaDoesNotHaveAreErrors) {
  EXPECT_FALSE(swizzle_image(16, 16).ok());
  EXPECT_FALSE(swizzle_image(128, 64).ok());
  EXPECT_FALSE(swizzle_image(0, 48).ok());
  const auto image = swizzle_image(64, 64);
  ASSERT_TRUE(image.ok());
  EXPECT_FALSE(core_matrix_read(*image, 4).ok());
  EXPECT_FALSE(core_matrix_read(*image, -1).ok());
}

}  // namespace
}  // namespace gemmlab::sim
