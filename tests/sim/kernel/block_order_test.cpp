#include "gemmlab/kernel/block_order.hpp"
#include "gemmlab/kernel/context.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
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
    expect_permutation(m, n, {OrderKind::Hilbert, 0});
  }
}

// The textbook Hilbert curve (distance to point, bottom-up, as on Wikipedia's page): written independently of
// hilbert_cell's top-down descent, which it checks.
std::pair<int, int> textbook_hilbert(int side, int d) {
  int x = 0, y = 0;
  for (int s = 1; s < side; s *= 2) {
    const int rx = 1 & (d / 2), ry = 1 & (d ^ rx);
    if (ry == 0) {
      if (rx == 1) x = s - 1 - x, y = s - 1 - y;
      std::swap(x, y);
    }
    x += s * rx, y += s * ry;
    d /= 4;
  }
  return {x, y};
}

TEST(BlockOrder, HilbertFollowsTheCurveSkippingCellsOutsideTheGrid) {
  for (const auto& [m, n] : {std::pair{1, 1}, {2, 2}, {8, 8}, {7, 5}, {3, 16}, {16, 3}, {12, 9}, {32, 17}}) {
    int side = 1;
    while (side < m || side < n) side *= 2;
    int launch = 0;
    for (int d = 0; d < side * side; ++d) {
      const auto [x, y] = textbook_hilbert(side, d);
      if (x >= m || y >= n) continue;
      const TileCoord t = tile_of_launch(launch++, m, n, {OrderKind::Hilbert, 0});
      EXPECT_EQ(t.row, x) << m << " x " << n << ", cell " << launch - 1;
      EXPECT_EQ(t.col, y) << m << " x " << n << ", cell " << launch - 1;
    }
    EXPECT_EQ(launch, m * n);
  }
}

TEST(BlockOrder, HilbertStepsToANeighbourOnASquare) {
  for (int side : {2, 4, 16, 64}) {
    TileCoord last = tile_of_launch(0, side, side, {OrderKind::Hilbert, 0});
    for (int launch = 1; launch < side * side; ++launch) {
      const TileCoord t = tile_of_launch(launch, side, side, {OrderKind::Hilbert, 0});
      EXPECT_EQ(std::abs(t.row - last.row) + std::abs(t.col - last.col), 1) << side << ", launch " << launch;
      last = t;
    }
  }
}

// Clusters of 2 along M: consecutive launches are one cluster, vertically adjacent tiles of one column; the grid's
// odd last tile row gets a partner row, and every tile of the rounded grid is launched once.
TEST(BlockOrder, ClustersPairVerticallyAdjacentTiles) {
  for (const BlockOrder order : {BlockOrder{OrderKind::RowMajor, 0}, BlockOrder{OrderKind::GroupM, 2},
                                 BlockOrder{OrderKind::Cutlass, 1}, BlockOrder{OrderKind::Hilbert, 0}}) {
    const int tiles_m = cluster_tile_rows(7, 2), tiles_n = 5;
    ASSERT_EQ(tiles_m, 8);
    std::set<std::pair<int, int>> seen;
    for (int launch = 0; launch < launch_slots(tiles_m, tiles_n, order, 2); launch += 2) {
      const TileCoord first = tile_of_launch(launch, tiles_m, tiles_n, order, 2);
      const TileCoord second = tile_of_launch(launch + 1, tiles_m, tiles_n, order, 2);
      EXPECT_EQ(first.row % 2, 0);
      EXPECT_EQ(second.row, first.row + 1);
      EXPECT_EQ(second.col, first.col);
      if (first.col >= tiles_n) continue;  // CUTLASS's idle slots: the whole cluster
      seen.insert({first.row, first.col});
      seen.insert({second.row, second.col});
    }
    EXPECT_EQ(seen.size(), static_cast<std::size_t>(tiles_m * tiles_n));
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

// CUTLASS's GemmIdentityThreadblockSwizzle<N>, in its own terms: get_grid_shape launches a 2-D grid of
// (tiles_m << log) x ceil(tiles_n / 2^log) blocks and get_tile_offset maps (blockIdx.x, blockIdx.y) to the tile
// (x >> log, (y << log) + (x & (2^log - 1))). Our kernels flatten the grid as x + y * gridDim.x.
TEST(BlockOrder, CutlassMatchesItsTwoDimensionalGrid) {
  for (const auto& [tiles_m, tiles_n] : {std::pair{5, 7}, {8, 8}, {3, 16}}) {
    for (int log = 0; log <= 3; ++log) {
      const int grid_x = tiles_m << log, grid_y = (tiles_n + (1 << log) - 1) >> log;
      const BlockOrder order{OrderKind::Cutlass, log};
      ASSERT_EQ(launch_slots(tiles_m, tiles_n, order), grid_x * grid_y);
      for (int y = 0; y < grid_y; ++y)
        for (int x = 0; x < grid_x; ++x) {
          const TileCoord t = tile_of_launch(x + y * grid_x, tiles_m, tiles_n, order);
          EXPECT_EQ(t.row, x >> log);
          EXPECT_EQ(t.col, (y << log) + (x & ((1 << log) - 1)));
        }
    }
  }
}

// Triton's tutorial 03 (matrix multiplication) with GROUP_SIZE_M, written as the tutorial writes it.
TEST(BlockOrder, GroupMMatchesTritonsProgramIdMapping) {
  for (const auto& [num_pid_m, num_pid_n] : {std::pair{7, 5}, {8, 8}, {13, 3}}) {
    for (int group = 1; group <= num_pid_m; ++group) {
      for (int pid = 0; pid < num_pid_m * num_pid_n; ++pid) {
        const int num_pid_in_group = group * num_pid_n;
        const int group_id = pid / num_pid_in_group;
        const int first_pid_m = group_id * group;
        const int group_size_m = std::min(num_pid_m - first_pid_m, group);
        const int pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m);
        const int pid_n = (pid % num_pid_in_group) / group_size_m;
        const TileCoord t = tile_of_launch(pid, num_pid_m, num_pid_n, {OrderKind::GroupM, group});
        EXPECT_EQ(t.row, pid_m);
        EXPECT_EQ(t.col, pid_n);
      }
    }
  }
}

TEST(BlockOrder, ClustersAndPersistentBlocksAreWhatTheLaunchWalksSay) {
  // A cluster's launches map to one cluster row group of one column (tile_of_launch with a cluster).
  const BlockOrder row{};
  for (int launch = 0; launch < 64; ++launch) {
    const TileCoord t = tile_of_launch(launch, 8, 8, row, 2);
    const TileCoord first = tile_of_launch(cluster_of_launch(launch, 2) * 2, 8, 8, row, 2);
    EXPECT_EQ(t.col, first.col);
    EXPECT_EQ(t.row / 2, first.row / 2);
  }
  // The block walk_launches gives launch b walks exactly the launches persistent_block_of_launch assigns to b.
  for (int b = 0; b < 5; ++b) {
    ThreadContext t;
    walk_launches(t, b, 5, 23, 4, 6, row);
    for (int j = 0; j < t.tiles; ++j) EXPECT_EQ(persistent_block_of_launch(t.first_launch + j * t.launch_stride, 5), b);
  }
}

}  // namespace
}  // namespace gemmlab::kernel
