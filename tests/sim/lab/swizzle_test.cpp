// Swizzle<B,M,S> with CuTe's semantics, and TMA's modes as swizzles: the same functions the Hopper kernels use.
#include "gemmlab/lab/swizzle.hpp"

#include <gtest/gtest.h>

#include "gemmlab/kernel/wgmma.hpp"

namespace gemmlab::lab {
namespace {

TEST(Swizzle, Swizzle333OnRowsOf64HalvesXorsTheChunkWithTheRow) {
  const Swizzle s{3, 3, 3};
  for (int o = 0; o < 8192; ++o) EXPECT_EQ(s(o), o ^ (((o >> 6) & 7) << 3)) << o;
  EXPECT_EQ(s.to_string(), "Swizzle<3,3,3>");
}

TEST(Swizzle, IsABijectionOnEveryAlignedRange) {
  for (const Swizzle s : {Swizzle{3, 3, 3}, Swizzle{2, 3, 3}, Swizzle{3, 4, 3}, Swizzle{1, 2, 4}, Swizzle{2, 1, -3}}) {
    const int n = 1 << (s.bits_used() + 1);
    std::vector<int> hits(static_cast<std::size_t>(n));
    for (int o = 0; o < n; ++o) ++hits[static_cast<std::size_t>(s(o))];
    for (int o = 0; o < n; ++o) EXPECT_EQ(hits[static_cast<std::size_t>(o)], 1) << s.to_string() << " at " << o;
  }
}

TEST(Swizzle, TmaModesAreSwizzlesOfSixteenByteUnits) {
  EXPECT_EQ(tma_swizzle_as_cute(128, 2).value(), (Swizzle{3, 3, 3}));
  EXPECT_EQ(tma_swizzle_as_cute(64, 2).value(), (Swizzle{2, 3, 3}));
  EXPECT_EQ(tma_swizzle_as_cute(32, 4).value(), (Swizzle{1, 2, 3}));
  EXPECT_EQ(tma_swizzle_as_cute(128, 1).value(), (Swizzle{3, 4, 3}));
  EXPECT_EQ(cute_as_tma_swizzle(Swizzle{3, 3, 3}, 2), 128);
  EXPECT_EQ(cute_as_tma_swizzle(Swizzle{3, 3, 4}, 2), std::nullopt);
  EXPECT_FALSE(tma_swizzle_as_cute(96, 2).ok());
  // On bytes, each mode is exactly the swizzle the Hopper rungs' TMA maps and wgmma descriptors use.
  for (const int mode : {32, 64, 128}) {
    const Swizzle s = tma_swizzle_as_cute(mode, 1).value();
    for (int byte = 0; byte < 4096; ++byte) EXPECT_EQ(s(byte), kernel::tma_swizzle(byte, mode)) << mode << " " << byte;
  }
}

TEST(Swizzle, ParsesCutesSpellingsAndRefusesOverlaps) {
  EXPECT_EQ(parse_swizzle("3,3,3").value(), (Swizzle{3, 3, 3}));
  EXPECT_EQ(parse_swizzle("Swizzle<2,4,3>").value(), (Swizzle{2, 4, 3}));
  EXPECT_EQ(parse_swizzle("Sw<3,4,3>").value(), (Swizzle{3, 4, 3}));
  EXPECT_EQ(parse_swizzle("Swizzle<3,3,3>{}").value(), (Swizzle{3, 3, 3}));
  const auto expect_error = [](std::string_view text, std::string_view part) {
    auto s = parse_swizzle(text);
    ASSERT_FALSE(s.ok()) << text;
    EXPECT_NE(s.error().message.find(part), std::string::npos) << s.error().message;
  };
  expect_error("3,3", "three numbers");
  expect_error("3,3,1", "|S| must be at least B");
  expect_error("3;3;3", "unexpected ';'");
  expect_error("Swizzle<3,3,3", "expected '>'");
}

}  // namespace
}  // namespace gemmlab::lab
