// Stream-K's walk (kernel/stream_k.hpp): every k-step of every tile computed once, equal shares, and the turns at C
// in launch order, for grids of tiles that fill their waves, leave a partial one, or are fewer than the units.
#include "gemmlab/kernel/stream_k.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace gemmlab::kernel {
namespace {

struct Walked {
  int launch;
  ThreadContext t;
};

// Every block's context over tiles_m x tiles_n tiles of `ksteps` k-steps, `blocks` launched in clusters of `cluster`.
std::vector<Walked> walk_all(int blocks, int tiles_m, int tiles_n, int ksteps, int cluster, int shared_waves = 2) {
  const BlockOrder order{OrderKind::Hilbert, 0};
  std::vector<Walked> out;
  const int slots = launch_slots(tiles_m, tiles_n, order, cluster);
  for (int launch = 0; launch < blocks; ++launch) {
    ThreadContext t;
    t.ksteps = ksteps;
    walk_stream_k(t, launch, blocks, slots, tiles_m, tiles_n, order, cluster, shared_waves);
    out.push_back({launch, t});
  }
  return out;
}

struct Case {
  int blocks, tiles_m, tiles_n, ksteps, cluster;
  int shared_waves = 2;
};
std::vector<Walked> walk_all(const Case& w) {
  return walk_all(w.blocks, w.tiles_m, w.tiles_n, w.ksteps, w.cluster, w.shared_waves);
}
StreamKPlan plan_of(const Case& w) {
  const int slots = launch_slots(w.tiles_m, w.tiles_n, {OrderKind::Hilbert, 0}, w.cluster);
  return StreamKPlan::of(w.blocks / w.cluster, slots / w.cluster, w.ksteps, w.shared_waves);
}
std::string where(const Case& w) {
  return std::to_string(w.blocks) + " blocks, " + std::to_string(w.tiles_m) + " x " + std::to_string(w.tiles_n) +
         " tiles of " + std::to_string(w.ksteps) + " k-steps, clusters of " + std::to_string(w.cluster) +
         ", shared waves " + std::to_string(w.shared_waves);
}
const std::vector<Case> kCases = {
    {132, 32, 16, 64, 2},  // 4096^3 in 128 x 256 tiles: 256 cluster tiles on 66 clusters
    {128, 32, 16, 64, 2},  // rung 21's grid: whole waves only
    {132, 1, 32, 224, 1},  // a decode step: 32 tiles on 132 blocks
    {10, 1, 2, 3, 1},      // more blocks than k-steps in all: 6 of them have one each
    {12, 6, 5, 7, 2},      // an odd grid in clusters: 15 cluster tiles on 6 clusters
    {7, 5, 3, 1, 1},       // one k-step a tile
    // The partial wave shared alone: 4096^3 on 66 clusters (three whole waves, 58 tiles shared); Qwen2.5-7B's
    // prefill o on 64 (three whole waves, 32 tiles in halves); an odd grid; one k-step a tile.
    {132, 32, 16, 64, 2, 1},
    {128, 32, 14, 56, 2, 1},
    {12, 6, 5, 7, 2, 1},
    {7, 5, 3, 1, 1, 1},
    // A partial wave of fewer k-steps than units: shared with the last whole wave instead (an empty range between a
    // tile's pieces would leave its last piece waiting for a turn no segment takes).
    {4, 5, 1, 2, 1, 1},
    {132, 134, 1, 2, 2, 1},
};

TEST(StreamKWalk, MostSegmentsIsTheLongestWalk) {
  for (const Case& w : kCases) {
    const auto walks = walk_all(w);
    int most = 0;
    for (const auto& [launch, t] : walks) most = std::max(most, t.tiles);
    EXPECT_EQ(stream_k_plan(walks.front().t).most_segments(), most) << where(w);
  }
}

TEST(StreamKWalk, EveryKStepOfEveryTileIsComputedOnce) {
  for (const Case& w : kCases) {
    std::map<std::pair<int, int>, std::vector<int>> computed;  // tile -> how often each k-step
    for (const auto& [launch, t] : walk_all(w)) {
      for (int j = 0; j < t.tiles; ++j) {
        const TileCoord tile = stream_k_tile(t, j);
        const KStepRange range = stream_k_ksteps(t, j);
        ASSERT_LT(range.first, range.end) << where(w);
        auto& steps = computed[{tile.row, tile.col}];
        steps.resize(static_cast<std::size_t>(w.ksteps), 0);
        for (int k = range.first; k < range.end; ++k) ++steps[static_cast<std::size_t>(k)];
      }
    }
    const std::string at = where(w);
    ASSERT_EQ(computed.size(), static_cast<std::size_t>(w.tiles_m * w.tiles_n)) << at;
    for (const auto& [tile, steps] : computed)
      for (int k = 0; k < w.ksteps; ++k)
        EXPECT_EQ(steps[static_cast<std::size_t>(k)], 1)
            << at << ": tile (" << tile.first << ", " << tile.second << ") k-step " << k;
  }
}

TEST(StreamKWalk, UnitsGetEqualSharesOfTheKSteps) {
  for (const Case& w : kCases) {
    int least = 1 << 30, most = 0, working = 0;
    for (const auto& [launch, t] : walk_all(w)) {
      if (t.tiles == 0) continue;
      ++working;
      const int share = t.whole_tiles * w.ksteps + t.iterations;
      least = std::min(least, share), most = std::max(most, share);
    }
    EXPECT_LE(most - least, 1) << where(w);
    EXPECT_EQ(working, std::min(w.blocks, w.tiles_m * w.tiles_n * w.ksteps)) << where(w);
  }
  // 4096^3: two whole waves, then 124 cluster tiles' 7936 k-steps in 66 ranges of 120 or 121; rung 21's grid of 64
  // clusters takes the four waves whole.
  for (const auto& [launch, t] : walk_all(132, 32, 16, 64, 2)) {
    EXPECT_EQ(t.whole_tiles, 2);
    EXPECT_TRUE(t.iterations == 120 || t.iterations == 121) << t.iterations;
  }
  const auto whole = walk_all(128, 32, 16, 64, 2);
  EXPECT_EQ(whole[0].t.whole_tiles, 4);
  EXPECT_EQ(whole[0].t.iterations, 0);
  EXPECT_EQ(whole[0].t.tiles, 4);
  // The partial wave alone (shared_waves = 1): three whole waves, then 58 cluster tiles' 3712 k-steps in 66 ranges of
  // 56 or 57; Qwen2.5-7B's prefill o on 64 clusters: three whole waves, then each of 32 tiles in two halves.
  for (const auto& [launch, t] : walk_all(132, 32, 16, 64, 2, 1)) {
    EXPECT_EQ(t.whole_tiles, 3);
    EXPECT_TRUE(t.iterations == 56 || t.iterations == 57) << t.iterations;
  }
  for (const auto& [launch, t] : walk_all(128, 32, 14, 56, 2, 1)) {
    EXPECT_EQ(t.whole_tiles, 3);
    EXPECT_EQ(t.iterations, 28);
  }
  EXPECT_EQ(plan_of({128, 32, 14, 56, 2, 1}).most_pieces(), 2);
  // 5 tiles of 2 k-steps on 4 units: the partial wave's 2 k-steps cannot give each unit one, so the last whole wave
  // is shared with it, as with shared_waves = 2.
  EXPECT_EQ(plan_of({4, 5, 1, 2, 1, 1}).whole_waves(), 0);
  EXPECT_EQ(plan_of({4, 5, 1, 2, 1, 1}).most_pieces(), plan_of({4, 5, 1, 2, 1, 2}).most_pieces());
}

TEST(StreamKWalk, TurnsAtCGoInLaunchOrderFromTheTilesLastKSteps) {
  for (const Case& w : kCases) {
    const std::string at = where(w);
    struct Turn {
      int launch, turn, turns, first_kstep, segment, first_shared;
    };
    std::map<std::pair<int, int>, std::vector<Turn>> by_tile;
    for (const auto& [launch, t] : walk_all(w))
      for (int j = 0; j < t.tiles; ++j) {
        const TileCoord tile = stream_k_tile(t, j);
        const StreamKTurn turn = stream_k_turn(t, j);
        EXPECT_EQ(stream_k_whole_segment(t, j), turn.turns == 1) << at << ", block " << launch << " segment " << j;
        by_tile[{tile.row, tile.col}].push_back(
            {launch, turn.turn, turn.turns, stream_k_ksteps(t, j).first, j, t.whole_tiles});
      }
    for (auto& [tile, turns] : by_tile) {
      std::sort(turns.begin(), turns.end(), [](const Turn& a, const Turn& b) { return a.turn < b.turn; });
      for (std::size_t i = 0; i < turns.size(); ++i) {
        EXPECT_EQ(turns[i].turn, static_cast<int>(i)) << at;
        EXPECT_EQ(turns[i].turns, static_cast<int>(turns.size())) << at;
        if (i == 0) continue;
        // A turn waits for a block launched earlier, whose piece of the tile lies after its own in k.
        EXPECT_LT(turns[i - 1].launch, turns[i].launch) << at;
        EXPECT_GT(turns[i - 1].first_kstep, turns[i].first_kstep) << at;
      }
      // The first turn is its block's first segment after its whole tiles: computed as soon as they are done.
      if (turns.size() > 1) {
        EXPECT_EQ(turns[0].segment, turns[0].first_shared) << at;
      }
    }
  }
}

TEST(StreamKWalk, ASegmentAloneIsTheSameSegment) {
  for (const Case& w : kCases)
    for (const auto& [launch, t] : walk_all(w))
      for (int j = 0; j < t.tiles; ++j) {
        const ThreadContext alone = stream_k_segment(t, j);
        const std::string at = where(w) + ", block " + std::to_string(launch) + " segment " + std::to_string(j);
        ASSERT_EQ(alone.tiles, 1) << at;
        const TileCoord a = stream_k_tile(alone, 0), b = stream_k_tile(t, j);
        EXPECT_TRUE(a.row == b.row && a.col == b.col) << at;
        EXPECT_TRUE(alone.first_tile.row == b.row && alone.first_tile.col == b.col) << at;
        EXPECT_EQ(stream_k_ksteps(alone, 0).first, stream_k_ksteps(t, j).first) << at;
        EXPECT_EQ(stream_k_ksteps(alone, 0).end, stream_k_ksteps(t, j).end) << at;
        EXPECT_EQ(stream_k_turn(alone, 0).turn, stream_k_turn(t, j).turn) << at;
        EXPECT_EQ(stream_k_turn(alone, 0).turns, stream_k_turn(t, j).turns) << at;
      }
}

TEST(StreamKWalk, ATilesPiecesAreTheSegmentsTheUnitsWalk) {
  for (const Case& w : kCases) {
    const std::string at = where(w);
    const BlockOrder order{OrderKind::Hilbert, 0};
    // What the units walk, by tile: (unit, first k-step, end), in k order.
    std::map<std::pair<int, int>, std::vector<std::tuple<int, int, int>>> walked;
    for (const auto& [launch, t] : walk_all(w))
      for (int j = 0; j < t.tiles; ++j) {
        const TileCoord tile = stream_k_tile(t, j);
        const KStepRange range = stream_k_ksteps(t, j);
        walked[{tile.row, tile.col}].emplace_back(t.unit, range.first, range.end);
      }
    for (auto& [tile, pieces] : walked)
      std::sort(pieces.begin(), pieces.end(),
                [](const auto& a, const auto& b) { return std::get<1>(a) < std::get<1>(b); });
    const StreamKPlan plan = plan_of(w);
    for (int tile = 0; tile < plan.tiles; ++tile)
      for (int member = 0; member < w.cluster; ++member) {
        const TileCoord coord = tile_of_launch(tile * w.cluster + member, w.tiles_m, w.tiles_n, order, w.cluster);
        if (coord.row >= w.tiles_m || coord.col >= w.tiles_n) continue;  // an idle slot of a rounded-up grid
        const auto& expected = walked[{coord.row, coord.col}];
        ASSERT_EQ(plan.pieces(tile), static_cast<int>(expected.size())) << at << ", tile " << tile;
        for (int p = 0; p < plan.pieces(tile); ++p) {
          const StreamKPlan::Piece piece = plan.piece(tile, p);
          EXPECT_EQ(piece.unit, std::get<0>(expected[static_cast<std::size_t>(p)])) << at << ", tile " << tile;
          EXPECT_EQ(piece.first, std::get<1>(expected[static_cast<std::size_t>(p)])) << at << ", tile " << tile;
          EXPECT_EQ(piece.end, std::get<2>(expected[static_cast<std::size_t>(p)])) << at << ", tile " << tile;
        }
      }
  }
}

// The time model's chain of turns at C (most_pieces - 1 of them): the most pieces any tile is cut into, as walked.
TEST(StreamKWalk, MostPiecesIsTheMostAnyTileIsCutInto) {
  for (const Case& w : kCases) {
    const std::string at = where(w);
    std::map<std::pair<int, int>, int> pieces;
    for (const auto& [launch, t] : walk_all(w))
      for (int j = 0; j < t.tiles; ++j) {
        const TileCoord tile = stream_k_tile(t, j);
        ++pieces[{tile.row, tile.col}];
      }
    int most = 0;
    for (const auto& [tile, n] : pieces) most = std::max(most, n);
    EXPECT_EQ(plan_of(w).most_pieces(), most) << at;
  }
  // A decode step's 32 tiles of 224 k-steps on 132 units: ranges of 54 or 55 k-steps, so a tile in five pieces.
  EXPECT_EQ(StreamKPlan::of(132, 32, 224, 2).most_pieces(), 5);
  // Whole waves only: every tile whole.
  EXPECT_EQ(StreamKPlan::of(64, 256, 64, 2).most_pieces(), 1);
}

TEST(StreamKWalk, AClustersBlocksWalkTheSameKStepsOfAdjacentTiles) {
  const auto walked = walk_all(12, 6, 5, 7, 2);
  for (std::size_t b = 0; b + 1 < walked.size(); b += 2) {
    const ThreadContext &first = walked[b].t, &second = walked[b + 1].t;
    ASSERT_EQ(first.tiles, second.tiles);
    for (int j = 0; j < first.tiles; ++j) {
      EXPECT_EQ(stream_k_tile(first, j).row + 1, stream_k_tile(second, j).row);
      EXPECT_EQ(stream_k_tile(first, j).col, stream_k_tile(second, j).col);
      EXPECT_EQ(stream_k_ksteps(first, j).first, stream_k_ksteps(second, j).first);
      EXPECT_EQ(stream_k_ksteps(first, j).end, stream_k_ksteps(second, j).end);
    }
  }
}

}  // namespace
}  // namespace gemmlab::kernel
