// Rung 24 (kernel/rungs/tma_wgmma_pingpong.hpp): exact GEMMs with the two consumers taking turns at 64-row tiles; the
// functional executor checks every copy against the wgmma reads it overwrites, so a stage released by the wrong
// warpgroup or too early is a race here. The counters are rung 21's at bm = 64, tile for tile.
#include <gtest/gtest.h>

#include <string>

#include "gemmlab/kernel/rungs/tma_wgmma_pingpong.hpp"
#include "gemmlab/kernel/schedule.hpp"
#include "gemmlab/sim/rung_model.hpp"
#include "rung_test_support.hpp"

namespace gemmlab::sim {
namespace {

using kernel::KernelConfig;
using kernel::rungs::TmaWgmmaPingPong;

TEST(TmaWgmmaPingPong, TwoConsumersOfSixtyFourRowsAndAProducer) {
  const KernelConfig d = rung_model(RungId::TmaWgmmaPingPong).defaults;
  EXPECT_EQ(d.bm, 64);
  EXPECT_EQ(d.cluster, 2);
  EXPECT_GT(d.grid, 0);
  EXPECT_EQ(TmaWgmmaPingPong::consumers(d), 2);
  EXPECT_EQ(TmaWgmmaPingPong::threads(d), 3 * 128);
  const auto moves = TmaWgmmaPingPong::register_moves(d);
  EXPECT_TRUE(moves.valid(2));
  EXPECT_EQ(moves.consumer,
            kernel::rungs::TmaWgmmaHilbert::register_moves(rung_model(RungId::TmaWgmmaHilbert).defaults).consumer);
}

TEST(TmaWgmmaPingPong, EachConsumerRunsItsOwnTilesOnly) {
  const KernelConfig d = rung_model(RungId::TmaWgmmaPingPong).defaults;
  kernel::ThreadContext t;
  t.tiles = 5, t.ksteps = 3;
  for (const int warpgroup : {0, 1, 2}) {
    t.warpgroup = warpgroup, t.tid = warpgroup * 128;
    std::string walked;
    kernel::for_each_thread_phase<TmaWgmmaPingPong>(d, t, [&](kernel::Section s, int step, int) {
      if (s == kernel::Section::Epilogue) walked.append(1, 'e').append(std::to_string(step));
      // The GPU's walk and the simulator's filter agree.
      EXPECT_TRUE(kernel::runs_phase<TmaWgmmaPingPong>(d, t, s, step));
    });
    int runs = 0;
    kernel::for_each_block_phase<TmaWgmmaPingPong>(d, t, [&](kernel::Section s, int step, int) {
      runs += kernel::runs_phase<TmaWgmmaPingPong>(d, t, s, step) ? 1 : 0;
    });
    int own = 0;
    kernel::for_each_thread_phase<TmaWgmmaPingPong>(d, t, [&](kernel::Section, int, int) { ++own; });
    EXPECT_EQ(runs, own);
    EXPECT_EQ(walked, warpgroup == 0 ? "e0e2e4" : warpgroup == 1 ? "e1e3" : "e0e1e2e3e4") << warpgroup;
  }
}

TEST(TmaWgmmaPingPong, ComputesTheExactGemm) {
  const KernelConfig d = rung_model(RungId::TmaWgmmaPingPong).defaults;
  test_support::expect_exact_gemm(RungId::TmaWgmmaPingPong, d, {{67, 40, 72}, {1, 8, 8}}, "default");
  // Blocks of several tiles, an odd number of them (one consumer takes one more), the ring of 2 to 4 stages wrapping
  // inside a tile and across the turns, tiles of one k-step (released at the epilogue alone), clusters or not.
  test_support::expect_exact_gemms(
      RungId::TmaWgmmaPingPong, d,
      {"grid=4 bn=256 stages=4 cluster=2 setmaxnreg=1", "grid=2 bn=128 stages=2 cluster=2 setmaxnreg=0",
       "grid=6 bn=64 stages=3 cluster=1 setmaxnreg=1", "grid=3 bn=128 stages=4 cluster=1 setmaxnreg=0"},
      {{330, 504, 200}, {200, 136, 456}, {130, 200, 64}});
}

TEST(TmaWgmmaPingPong, CountsRung21sCopiesAndWgmmaAtSixtyFourRows) {
  KernelConfig shared = rung_model(RungId::TmaWgmmaHilbert).defaults;
  shared.bm = 64, shared.setmaxnreg = 0;
  test_support::expect_same_copies_wgmma_and_stores(RungId::TmaWgmmaPingPong,
                                                    rung_model(RungId::TmaWgmmaPingPong).defaults,
                                                    RungId::TmaWgmmaHilbert, shared, {1024, 1024, 1024});
}

TEST(TmaWgmmaPingPong, RefusesWhatCannotTakeTurns) {
  KernelConfig c = rung_model(RungId::TmaWgmmaPingPong).defaults;
  c.bm = 128;
  auto refused = validate(RungId::TmaWgmmaPingPong, c, {4096, 4096, 4096});
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("no knob 'bm'"), std::string::npos) << refused.error().message;
  EXPECT_FALSE(TmaWgmmaPingPong::validate(c));  // the description's own check, for a configuration built in code
  c.bm = 64, c.grid = 0;
  refused = validate(RungId::TmaWgmmaPingPong, c, {4096, 4096, 4096});
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("grid=0"), std::string::npos);
  c.grid = 131;
  refused = validate(RungId::TmaWgmmaPingPong, c, {4096, 4096, 4096});
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("multiple of the cluster size"), std::string::npos);
}

}  // namespace
}  // namespace gemmlab::sim
