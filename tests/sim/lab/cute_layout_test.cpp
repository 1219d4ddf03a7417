// CuTe's notation: what CuTe prints parses back to the same layout and evaluates as CuTe does.
#include "gemmlab/lab/cute_layout.hpp"

#include <gtest/gtest.h>

namespace gemmlab::lab {
namespace {

Layout parse(std::string_view text) {
  auto l = parse_layout(text);
  EXPECT_TRUE(l.ok()) << text << ": " << (l.ok() ? "" : l.error().message);
  return l.ok() ? *l : Layout{};
}

TEST(CuteLayout, RowMajorTile) {
  const Layout l = parse("(64,64):(64,1)");
  EXPECT_EQ(l.rank(), 2);
  EXPECT_EQ(l.size(), 4096);
  EXPECT_EQ(l(1, 0), 64);
  EXPECT_EQ(l(3, 5), 197);
  EXPECT_EQ(l.to_string(), "(64,64):(64,1)");
  EXPECT_EQ(l.to_cute(), "Layout<Shape<_64,_64>, Stride<_64,_1>>{}");
}

// print(make_layout(make_shape(2,4))) and print(make_layout(make_shape(2,4), LayoutRight{})) in CuTe.
TEST(CuteLayout, CutesOwnPrintedExamples) {
  const Layout left = parse("(2,4):(_1,2)");
  EXPECT_EQ(left, parse("(2,4)"));  // a shape alone takes CuTe's default, column-major, strides
  for (int i = 0; i < 8; ++i) EXPECT_EQ(left.at(i), i);
  const Layout right = parse("(2,4):(4,_1)");
  EXPECT_EQ(right.at(1), 4);  // index 1 is coordinate (1,0): colexicographic, the first mode fastest
  EXPECT_EQ(right.at(2), 1);
  EXPECT_EQ(parse("(_64,_64):(_64,_1)"), parse("(64,64):(64,1)"));
  EXPECT_EQ(parse("8:1").size(), 8);
}

TEST(CuteLayout, NestedModesSplitTheirIndexColexicographically) {
  const Layout l = parse("((8,8),(8,8)):((64,512),(1,8))");
  EXPECT_EQ(l.extent(0), 64);
  EXPECT_EQ(l.extent(1), 64);
  EXPECT_EQ(l(9, 10), 1 * 64 + 1 * 512 + 10);  // row 9 = (1,1) of (8,8); column 10 = (2,1)
  EXPECT_EQ(l.to_string(), "((8,8),(8,8)):((64,512),(1,8))");
  EXPECT_EQ(l.to_cute(), "Layout<Shape<Shape<_8,_8>,Shape<_8,_8>>, Stride<Stride<_64,_512>,Stride<_1,_8>>>{}");
  // Nested this way, it is the plain row-major tile element for element; with the row modes' strides swapped it is
  // not: rows 0-7 then lie 512 apart.
  const Layout plain = parse("(64,64):(64,1)");
  const Layout swapped = parse("((8,8),(8,8)):((512,64),(1,8))");
  int differ = 0, differ_swapped = 0;
  for (int r = 0; r < 64; ++r)
    for (int c = 0; c < 64; ++c) {
      differ += l(r, c) != plain(r, c);
      differ_swapped += swapped(r, c) != plain(r % 8 * 8 + r / 8, c);
    }
  EXPECT_EQ(differ, 0);
  EXPECT_EQ(differ_swapped, 0);
}

TEST(CuteLayout, ErrorsNameTheCharacterAndWhatWasExpected) {
  const auto expect_error = [](std::string_view text, std::string_view part) {
    auto l = parse_layout(text);
    ASSERT_FALSE(l.ok()) << text;
    EXPECT_NE(l.error().message.find(part), std::string::npos) << text << ": " << l.error().message;
  };
  expect_error("(64,x):(64,1)", "at character 5");
  expect_error("(64,x):(64,1)", "found 'x'");
  expect_error("(64,64:(64,1)", "expected ',' or ')'");
  expect_error("(64,64):(64)", "different ranks");
  expect_error("(64,64);(64,1)", "expected ':'");
  expect_error("(64,64):(64,1) extra", "expected the end of the layout");
  expect_error("(64,0):(64,1)", "at least 1");
  expect_error("", "found the end of the text");
}

}  // namespace
}  // namespace gemmlab::lab
