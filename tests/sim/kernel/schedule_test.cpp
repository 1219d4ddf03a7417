// The schedule's walks (kernel/schedule.hpp) over a range of a block's tiles: the tracing build walks a sampled block's
// first tiles stamped and the rest not (gpu/src/rung_block.cuh), so walking [0, w) and then [w, end) must call
// exactly what one walk of every tile calls, in the same order, wherever w falls: for a persistent block's tiles,
// Stream-K's segments (main-loop steps counted on across them) and ping-pong's consumers taking turns.
#include "gemmlab/kernel/schedule.hpp"

#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "gemmlab/kernel/rungs/tma_wgmma_persistent.hpp"
#include "gemmlab/kernel/rungs/tma_wgmma_pingpong.hpp"
#include "gemmlab/kernel/rungs/tma_wgmma_streamk.hpp"
#include "gemmlab/kernel/stream_k.hpp"
#include "gemmlab/sim/rung_model.hpp"

namespace gemmlab::kernel {
namespace {

using Call = std::tuple<Section, int, int>;

template <class Kernel>
std::vector<Call> walked(const KernelConfig& c, const ThreadContext& t, TileRange range = {}) {
  std::vector<Call> out;
  for_each_thread_phase<Kernel>(c, t, [&](Section s, int step, int phase) { out.emplace_back(s, step, phase); },
                                range);
  return out;
}

// Split at every tile, and past the last: the two walks together are the whole walk.
template <class Kernel>
void expect_splits_walk_the_same(const KernelConfig& c, const ThreadContext& t, const std::string& what) {
  const std::vector<Call> whole = walked<Kernel>(c, t);
  ASSERT_FALSE(whole.empty()) << what;
  for (int w = 0; w <= t.tiles + 1; ++w) {
    std::vector<Call> split = walked<Kernel>(c, t, {0, w});
    const std::vector<Call> rest = walked<Kernel>(c, t, {w, -1});
    split.insert(split.end(), rest.begin(), rest.end());
    EXPECT_EQ(split, whole) << what << ", split at tile " << w;
  }
  EXPECT_EQ(walked<Kernel>(c, t, {0, t.tiles + 3}), whole) << what << ": a range past the last tile";
}

TEST(TileRange, APersistentBlocksTilesSplitAnywhereWalkAsOne) {
  const KernelConfig c = sim::rung_model(RungId::TmaWgmmaPersistent).defaults;
  ThreadContext t;
  t.ksteps = 3;
  for (const int tiles : {1, 4, 7}) {
    t.tiles = tiles;
    expect_splits_walk_the_same<rungs::TmaWgmmaPersistent>(c, t, std::to_string(tiles) + " tiles");
  }
}

TEST(TileRange, StreamKSegmentsSplitAnywhereWalkAsOne) {
  const KernelConfig c = sim::rung_model(RungId::TmaWgmmaStreamK).defaults;
  const BlockOrder order{};
  const int tiles_m = 6, tiles_n = 5, blocks = 12;  // 15 cluster tiles on 6 clusters: whole tiles, then pieces
  const int slots = launch_slots(tiles_m, tiles_n, order, c.cluster);
  int split_blocks = 0;
  for (int launch = 0; launch < blocks; ++launch) {
    ThreadContext t;
    t.ksteps = 7;
    walk_stream_k(t, launch, blocks, slots, tiles_m, tiles_n, order, c.cluster, c.shared_waves);
    split_blocks += t.tiles > 1;
    expect_splits_walk_the_same<rungs::TmaWgmmaStreamK>(c, t, "block " + std::to_string(launch));
  }
  EXPECT_GT(split_blocks, 0);  // the case has blocks of several segments
}

TEST(TileRange, PingPongConsumersTurnsSplitAnywhereWalkAsOne) {
  const KernelConfig c = sim::rung_model(RungId::TmaWgmmaPingPong).defaults;
  ThreadContext t;
  t.ksteps = 2, t.tiles = 5;
  for (const int warpgroup : {0, 1, 2}) {  // the two consumers, then the producer
    t.warpgroup = warpgroup, t.tid = 128 * warpgroup;
    expect_splits_walk_the_same<rungs::TmaWgmmaPingPong>(c, t, "warpgroup " + std::to_string(warpgroup));
  }
}

TEST(TileRange, TheDefaultWalksEveryTile) {
  const TileRange all;
  EXPECT_EQ(all.end(9), 9);
  EXPECT_EQ((TileRange{0, 2}).end(9), 2);
  EXPECT_EQ((TileRange{0, 12}).end(9), 9);
}

}  // namespace
}  // namespace gemmlab::kernel
