#include "gemmlab/sim/launch_order.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <vector>
#include <utility>

namespace gemmlab::sim {
namespace {

using kernel::BlockOrder;
using kernel::OrderKind;

void expect_error(const Result<BlockOrder>& r, std::string_view says) {
  ASSERT_FALSE(r.ok()) << "expected an error saying: " << says;
  EXPECT_NE(r.error().message.find(says), std::string::npos) << r.error().message;
}

TEST(LaunchOrder, ParsesEachKindAndNamesItBack) {
  for (const char* name : {"row", "col", "cutlass:1", "cutlass:2", "cutlass:8", "groupm:1", "groupm:8", "groupm:12"}) {
    const auto order = parse_order(name);
    ASSERT_TRUE(order.ok()) << name << ": " << order.error().message;
    EXPECT_EQ(order_name(*order), name);
    EXPECT_FALSE(order_description(*order).empty());
  }
  EXPECT_EQ(parse_order("cutlass:8")->param, 3) << "BlockOrder keeps CUTLASS's log2 of the width";
  EXPECT_EQ(parse_order("groupm:8")->kind, OrderKind::GroupM);
}

TEST(LaunchOrder, KindNamesGoBothWays) {
  for (const OrderKind kind : {OrderKind::RowMajor, OrderKind::ColumnMajor, OrderKind::Cutlass, OrderKind::GroupM})
    EXPECT_EQ(find_order_kind(order_kind_name(kind)), kind);
  EXPECT_FALSE(find_order_kind("diagonal").has_value());
}

TEST(LaunchOrder, BadNamesAndSizesAreErrors) {
  expect_error(parse_order("row:2"), "unknown launch order 'row:2'");
  expect_error(parse_order("diagonal"), "unknown launch order 'diagonal'");
  expect_error(parse_order("groupm"), "unknown launch order");
  expect_error(parse_order("groupm:"), "not a whole number");
  expect_error(parse_order("groupm:x"), "not a whole number");
  expect_error(parse_order("groupm:0"), "group size in launch order 'groupm:0' must be at least 1");
  expect_error(parse_order("groupm:-3"), "must be at least 1");
  expect_error(parse_order("cutlass:0"), "swizzle width in launch order 'cutlass:0' must be at least 1");
  expect_error(parse_order("cutlass:3"), "must be a power of two");
  expect_error(parse_order("groupm:99999999999"), "larger than any grid");
}

TEST(LaunchOrder, SizesLargerThanTheGridAreErrors) {
  EXPECT_TRUE(validate_order(*parse_order("groupm:8"), 8, 2).ok());
  const auto group = validate_order(*parse_order("groupm:9"), 8, 100);
  ASSERT_FALSE(group.ok());
  EXPECT_NE(group.error().message.find("group size 9 of groupm:9 is larger than the grid's 8 tile rows"),
            std::string::npos)
      << group.error().message;
  EXPECT_TRUE(validate_order(*parse_order("cutlass:4"), 1, 4).ok());
  const auto width = validate_order(*parse_order("cutlass:8"), 100, 4);
  ASSERT_FALSE(width.ok());
  EXPECT_NE(width.error().message.find("swizzle width 8 of cutlass:8 is larger than the grid's 4 tile columns"),
            std::string::npos)
      << width.error().message;
  EXPECT_TRUE(validate_order(*parse_order("row"), 1, 1).ok());
}

TEST(LaunchOrder, SequenceIsEveryTileOnceWithoutIdleSlots) {
  for (const char* name : {"row", "col", "cutlass:4", "groupm:3"}) {
    const BlockOrder order = *parse_order(name);
    const auto tiles = launch_sequence(7, 6, order);  // 6 columns: CUTLASS's width 4 rounds the grid up to 8
    ASSERT_EQ(tiles.size(), 42u) << name;
    std::set<std::pair<int, int>> seen;
    for (const auto& t : tiles) {
      EXPECT_TRUE(t.row >= 0 && t.row < 7 && t.col >= 0 && t.col < 6) << name;
      seen.insert({t.row, t.col});
    }
    EXPECT_EQ(seen.size(), 42u) << name;
  }
  // Row-major starts along the first tile row; groupm:3 walks down the first 3 rows of column 0.
  const auto row = launch_sequence(7, 6, *parse_order("row"));
  EXPECT_EQ(row[1].row, 0);
  EXPECT_EQ(row[1].col, 1);
  const auto grouped = launch_sequence(7, 6, *parse_order("groupm:3"));
  EXPECT_EQ(grouped[2].row, 2);
  EXPECT_EQ(grouped[2].col, 0);
  EXPECT_EQ(grouped[3].row, 0);
  EXPECT_EQ(grouped[3].col, 1);
}

// The tiles as the GPU computes them: a block a tile in launch order; a persistent grid's blocks, each walking every
// grid-th tile; and where the grid has more blocks than fit, the first batch's tiles before the next's.
TEST(LaunchOrder, TilesInFlightFollowThePersistentGrid) {
  const BlockOrder row = *parse_order("row");
  const auto launch = launch_sequence(7, 6, row);
  const auto same_tiles = [](const std::vector<kernel::TileCoord>& a, const std::vector<kernel::TileCoord>& b) {
    return a.size() == b.size() &&
           std::equal(a.begin(), a.end(), b.begin(), [](auto x, auto y) { return x.row == y.row && x.col == y.col; });
  };
  const TilesInFlight one_a_tile = tiles_in_flight(7, 6, row, 1, 10, 0, false);
  EXPECT_EQ(one_a_tile.per_wave, 10);
  EXPECT_TRUE(same_tiles(one_a_tile.sequence, launch));
  const TilesInFlight fewer = tiles_in_flight(7, 6, row, 1, 10, 5, false);  // 5 blocks walk 0, 5, 10, ...
  EXPECT_EQ(fewer.per_wave, 5);
  EXPECT_TRUE(same_tiles(fewer.sequence, launch));
  // 4 blocks, 3 fit: blocks 0-2 walk launches 0 1 2, 4 5 6, ..., 40 41; then block 3 walks 3, 7, ..., 39.
  const TilesInFlight batches = tiles_in_flight(7, 6, row, 1, 3, 4, false);
  EXPECT_EQ(batches.per_wave, 3);
  ASSERT_EQ(batches.sequence.size(), 42u);
  std::vector<int> order;
  for (const auto& t : batches.sequence) order.push_back(t.row * 6 + t.col);
  EXPECT_EQ(std::vector<int>(order.begin(), order.begin() + 6), (std::vector<int>{0, 1, 2, 4, 5, 6}));
  EXPECT_EQ(order[31], 41);
  EXPECT_EQ(std::vector<int>(order.begin() + 32, order.begin() + 35), (std::vector<int>{3, 7, 11}));
  EXPECT_EQ(std::set<int>(order.begin(), order.end()).size(), 42u);
  // Stream-K's units are all resident, and its shared part is walked by position in the launch sequence.
  EXPECT_TRUE(same_tiles(tiles_in_flight(7, 6, row, 1, 3, 4, true).sequence, launch));
}

}  // namespace
}  // namespace gemmlab::sim
