// The lab's tile: a layout, an element type and a swizzle; and the sentences for tiles that cannot be.
#include "gemmlab/lab/tile.hpp"

#include <gtest/gtest.h>

#include "gemmlab/kernel/layout.hpp"

namespace gemmlab::lab {
namespace {

Tile tile(std::string_view layout, Element e = Element::Fp16, Swizzle s = {}) {
  auto t = make_tile(parse_layout(layout).value(), e, s);
  EXPECT_TRUE(t.ok()) << layout << ": " << (t.ok() ? "" : t.error().message);
  return *t;
}

std::string error_of(std::string_view layout, Element e = Element::Fp16, Swizzle s = {}) {
  auto t = make_tile(parse_layout(layout).value(), e, s);
  EXPECT_FALSE(t.ok()) << layout;
  return t.ok() ? "" : t.error().message;
}

TEST(Tile, BytesFollowTheElementType) {
  EXPECT_EQ(tile("(64,64):(64,1)").byte_offset(1, 3), 134);
  EXPECT_EQ(tile("(64,64):(64,1)", Element::Fp32).byte_offset(1, 3), 268);
  EXPECT_EQ(tile("(64,128):(128,1)", Element::Int8).byte_offset(1, 3), 131);
  EXPECT_EQ(tile("(64,64):(72,1)").footprint_bytes(), (63 * 72 + 64) * 2);
  EXPECT_EQ(tile("(64,64):(72,1)").payload_bytes(), 8192);
  EXPECT_EQ(parse_element("BF16").value(), Element::Bf16);
  EXPECT_EQ(parse_element("e4m3").value(), Element::Fp8);
  EXPECT_FALSE(parse_element("fp64").ok());
}

// The rungs' own tile functors (kernel/layout.hpp), written in the lab's notation, give the same bytes: a learner sees
// one model in the ladder and in the lab.
TEST(Tile, TheRungsHalfTilesAreCuteLayouts) {
  struct Case {
    kernel::HalfTile functor;
    int rows;
    std::string layout;
    Swizzle swizzle;
  };
  const Case cases[] = {
      {{64, 0, false}, 128, "(128,64):(64,1)", {}},         // rung 12, row-major
      {{32, 8, false}, 64, "(64,32):(40,1)", {}},           // rung 13, padded by 8 halves
      {{64, 0, true}, 128, "(128,64):(64,1)", {3, 3, 3}},   // rung 14, swizzled rows of 64 halves
      {{128, 0, true}, 64, "(64,128):(128,1)", {3, 3, 4}},  // a wider row: the same 8 chunks, the row one bit up
  };
  for (const auto& c : cases) {
    const Tile t = tile(c.layout, Element::Fp16, c.swizzle);
    int differ = 0;
    for (int r = 0; r < c.rows; ++r)
      for (int col = 0; col < c.functor.cols; ++col) differ += t.byte_offset(r, col) != c.functor(r, col);
    EXPECT_EQ(differ, 0) << c.layout << " " << c.swizzle.to_string();
  }
}

TEST(Tile, OverlapsAndBadSwizzlesAreRefusedWithTheirCoordinates) {
  EXPECT_NE(error_of("(4,4):(1,1)").find("elements (0,1) and (1,0) at the same offset 1"), std::string::npos);
  EXPECT_NE(error_of("(64,64,2):(64,1,4096)").find("has 3 mode(s)"), std::string::npos);
  EXPECT_NE(error_of("(64,64):(72,1)", Element::Fp16, {3, 3, 3}).find("not a bijection on this tile"),
            std::string::npos);
  EXPECT_NE(error_of("(64,64):(64,1)", Element::Fp16, {3, 3, 10}).find("needs more bits than the offsets have"),
            std::string::npos);
  EXPECT_NE(error_of("(256,256):(256,1)", Element::Fp32).find("227 KiB"), std::string::npos);
  EXPECT_NE(error_of("(64,64):(64,1)", Element::Fp16, {3, 3, 1}).find("|S| must be at least B"), std::string::npos);
}

TEST(Tile, PrintsAsCutePrintsAndAsCuteCompiles) {
  const Tile t = tile("(64,64):(64,1)", Element::Fp16, {3, 3, 3});
  EXPECT_EQ(t.to_string(), "Sw<3,3,3> o (64,64):(64,1)");
  EXPECT_EQ(t.to_cute(), "composition(Swizzle<3,3,3>{}, Layout<Shape<_64,_64>, Stride<_64,_1>>{})");
  Swizzle s;
  auto l = parse_swizzled_layout("Sw<3,3,3> o _0 o (64,64):(64,1)", s);
  ASSERT_TRUE(l.ok());
  EXPECT_EQ(s, (Swizzle{3, 3, 3}));
  EXPECT_EQ(*l, t.layout);
}

}  // namespace
}  // namespace gemmlab::lab
