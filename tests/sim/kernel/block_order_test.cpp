#include "gemmlab/kernel/block_order.hpp"

#include <gtest/gtest.h>

#include <set>
#include <utility>

namespace gemmlab::kernel {
namespace {

// Every order is a permutation of the tiles (CUTLASS's may add idle slots outside the grid).
void expect_permutation(int tiles_m, int tiles_n, BlockOrder order) {
  std::set<std::pair<int, int>> seen;
  for (int launch = 0; launch < launch_slots(tiles_m, tiles_n, order); ++launch) {
    const TileCoord t = tile_of_launch(launch, tiles_m, tiles_n, order);
    if (t.row >= tiles_m || t.col >= tiles_n) {
      EXPECT_EQ(order.kind, OrderKind::Cutlass) << "only CUTLASS's grid has idle slots";
      continue;
    }
    EXPECT_TRUE(seen.insert({t.row, t.col}).second) << "tile (" << t.row << "," << t.col << ") launched twice";
  }
  EXPECT_EQ(seen.size(), static_cast<std::size_t>(tiles_m * tiles_n));
}

TEST(BlockOrder, EveryOrderCoversEveryTileOnce) {
  for (const auto& [m, n] : {std::pair{1, 1}, {7, 5}, {8, 8}, {13, 32}}) {
    expect_permutation(m, n, {OrderKind::RowMajor, 0});
    expect_permutation(m, n, {OrderKind::ColumnMajor, 0});
    for (int log = 0; log <= 3; ++log) expect_permutation(m, n, {OrderKind::Cutlass, log});
    for (int group = 1; group <= 8; ++group) expect_permutation(m, n, {OrderKind::GroupM, group});
  }
}

TEST(BlockOrder, RowMajorWalksColumnsFirst) {
  const TileCoord t = tile_of_launch(5, 4, 4, {OrderKind::RowMajor, 0});
  EXPECT_EQ(t.row, 1);
  EXPECT_EQ(t.col, 1);
}

TEST(BlockOrder, GroupMWalksDownAGroupBeforeMovingRight) {
  // Groups of 2 tile rows: launches 0,1 are (0,0),(1,0); 2,3 are (0,1),(1,1).
  const BlockOrder g{OrderKind::GroupM, 2};
  EXPECT_EQ(tile_of_launch(1, 4, 4, g).row, 1);
  EXPECT_EQ(tile_of_launch(1, 4, 4, g).col, 0);
  EXPECT_EQ(tile_of_launch(2, 4, 4, g).row, 0);
  EXPECT_EQ(tile_of_launch(2, 4, 4, g).col, 1);
}

TEST(BlockOrder, CutlassSwizzleFollowsItsFormula) {
  // log 1: offset = (bx >> 1, (by << 1) + (bx & 1)) with grid_x = tiles_m * 2.
  const BlockOrder o{OrderKind::Cutlass, 1};
  const TileCoord t = tile_of_launch(3, 4, 4, o);  // bx = 3, by = 0
  EXPECT_EQ(t.row, 1);
  EXPECT_EQ(t.col, 1);
}

}  // namespace
}  // namespace gemmlab::kernel
