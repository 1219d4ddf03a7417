// Rung 20 (kernel/rungs/tma_wgmma_persistent.hpp): exact GEMMs with persistent blocks that walk several tiles each,
// the ring of stages running on across tiles (the functional executor checks each copy against the wgmma reads it
// overwrites, and that every element of C is written once), and the same counters as rung 18, tile for tile.
#include <gtest/gtest.h>

#include <tuple>

#include "gemmlab/kernel/rungs/tma_wgmma_persistent.hpp"
#include "gemmlab/sim/rung_model.hpp"
#include "rung_test_support.hpp"

namespace gemmlab::sim {
namespace {

using kernel::KernelConfig;

TEST(TmaWgmmaPersistent, ComputesTheExactGemm) {
  const KernelConfig d = rung_model(RungId::TmaWgmmaPersistent).defaults;
  ASSERT_EQ(d.grid, 132);
  test_support::expect_exact_gemm(RungId::TmaWgmmaPersistent, d, {{67, 40, 72}, {1, 8, 8}}, "default");
  KernelConfig moving = d;
  moving.setmaxnreg = 1, moving.grid = 3;  // 3 blocks walking the tiles with a producer warpgroup each
  test_support::expect_exact_gemm(RungId::TmaWgmmaPersistent, moving, {{200, 504, 456}}, "setmaxnreg=1 grid=3");
  // Fewer blocks than tiles: 3 blocks for 2 x 3 = 6 tiles, 2 blocks for 4 x 2 tiles of 64 x 128 (k-steps 1 to 8,
  // the ring of 2 to 4 stages wrapping inside and across tiles), and one block for everything.
  for (const auto& [grid, bm, bn, stages] : {std::tuple{3, 128, 256, 4}, std::tuple{2, 64, 128, 2},
                                             std::tuple{1, 128, 64, 3}, std::tuple{5, 64, 64, 4}}) {
    KernelConfig c = d;
    c.grid = grid, c.bm = bm, c.bn = bn, c.stages = stages;
    test_support::expect_exact_gemm(RungId::TmaWgmmaPersistent, c, {{200, 504, 456}, {256, 256, 64}, {130, 136, 24}},
                                    "grid=" + std::to_string(grid) + " bm=" + std::to_string(bm) +
                                        " stages=" + std::to_string(stages));
  }
}

TEST(TmaWgmmaPersistent, CountsTheSameCopiesWgmmaAndStoresAsRung18) {
  const Problem p{1024, 1024, 1024};
  const auto persistent = simulate_kernel(RungId::TmaWgmmaPersistent, rung_model(RungId::TmaWgmmaPersistent).defaults, p);
  const auto alone = simulate_kernel(RungId::TmaWgmmaSpecialized, rung_model(RungId::TmaWgmmaSpecialized).defaults, p);
  ASSERT_TRUE(persistent && alone);
  EXPECT_EQ(persistent->total.tma, alone->total.tma);
  EXPECT_EQ(persistent->total.tma_sectors, alone->total.tma_sectors);
  EXPECT_EQ(persistent->total.wgmma, alone->total.wgmma);
  EXPECT_EQ(persistent->total.global_stores().sectors, alone->total.global_stores().sectors);
}

TEST(TmaWgmmaPersistent, ATileAfterTheFirstStartsFromTheLaunchOrder) {
  kernel::ThreadContext t;
  t.first_tile = {0, 1}, t.first_launch = 1, t.launch_stride = 3, t.tiles = 3;
  t.tiles_m = 3, t.tiles_n = 3;
  EXPECT_EQ(t.tile(0).col, 1);
  EXPECT_EQ(t.tile(1).row, 1);  // launch 4 of a row-major 3 x 3 grid
  EXPECT_EQ(t.tile(1).col, 1);
  EXPECT_EQ(t.tile(2).row, 2);  // launch 7
  EXPECT_EQ(t.tile(2).col, 1);
}

}  // namespace
}  // namespace gemmlab::sim
