#include "gemmlab/kernel/layout.hpp"

#include <gtest/gtest.h>

#include <set>

namespace gemmlab::kernel {
namespace {

TEST(PaddedRowMajor, PaddingShiftsEachRowByOneBank) {
  const PaddedRowMajor plain{32, 0}, padded{32, 1};
  EXPECT_EQ(plain(1, 0) % 32, 0);   // column 0 of every row: bank 0
  EXPECT_EQ(padded(1, 0) % 32, 1);  // ... or bank r with one float of padding
  EXPECT_EQ(padded(5, 3), 5 * 33 + 3);
  EXPECT_EQ(padded.size(32), 32 * 33);
}

TEST(XorSwizzled, IsAPermutationOfEachRow) {
  const XorSwizzled s{128, 8};
  for (int r = 0; r < 16; ++r) {
    std::set<int> offsets;
    for (int c = 0; c < 128; ++c) {
      const int o = s(r, c);
      EXPECT_GE(o, r * 128);
      EXPECT_LT(o, (r + 1) * 128);
      offsets.insert(o);
    }
    EXPECT_EQ(offsets.size(), 128u);
  }
}

TEST(XorSwizzled, AColumnOf16ByteChunksSpreadsOverAllBanks) {
  // Chunk 0 of rows 0..7 lands in 8 different chunk positions: 8 x 4 = 32 distinct banks.
  const XorSwizzled s{32, 8};
  std::set<int> banks;
  for (int r = 0; r < 8; ++r)
    for (int i = 0; i < 4; ++i) banks.insert(s(r, i) % 32);
  EXPECT_EQ(banks.size(), 32u);
}

}  // namespace
}  // namespace gemmlab::kernel
