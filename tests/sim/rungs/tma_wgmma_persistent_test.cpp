// Rung 20 (kernel/rungs/tma_wgmma_persistent.hpp): exact GEMMs with persistent blocks that walk several tiles each,
// the ring of stages running on across tiles (the functional executor checks each copy against the wgmma reads it
// overwrites, and that every element of C is written once), and the same counters as rung 18, tile for tile.
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "gemmlab/kernel/rungs/tma_wgmma_persistent.hpp"
#include "gemmlab/sim/rung_model.hpp"
#include "rung_test_support.hpp"

namespace gemmlab::sim {
namespace {

using kernel::KernelConfig;

// Exact GEMMs of `base` with each {grid, bm, bn, stages} at each size.
void expect_walks(const KernelConfig& base, const std::vector<std::array<int, 4>>& walks,
                  const std::vector<Problem>& sizes) {
  for (const auto& [grid, bm, bn, stages] : walks) {
    KernelConfig c = base;
    c.grid = grid, c.bm = bm, c.bn = bn, c.stages = stages;
    test_support::expect_exact_gemm(RungId::TmaWgmmaPersistent, c, sizes,
                                    "tma_store=" + std::to_string(c.tma_store) + " grid=" + std::to_string(grid) +
                                        " bm=" + std::to_string(bm) + " bn=" + std::to_string(bn) +
                                        " stages=" + std::to_string(stages));
  }
}

TEST(TmaWgmmaPersistent, ComputesTheExactGemm) {
  const KernelConfig d = rung_model(RungId::TmaWgmmaPersistent).defaults;
  ASSERT_EQ(d.grid, 132);
  test_support::expect_exact_gemm(RungId::TmaWgmmaPersistent, d, {{67, 40, 72}, {1, 8, 8}}, "default");
  KernelConfig moving = d;
  moving.setmaxnreg = 1, moving.grid = 3;  // 3 blocks walking the tiles with a producer warpgroup each
  test_support::expect_exact_gemm(RungId::TmaWgmmaPersistent, moving, {{200, 504, 456}}, "setmaxnreg=1 grid=3");
  // Fewer blocks than tiles: 3 blocks for 2 x 3 = 6 tiles, 2 blocks for 4 x 2 tiles of 64 x 128 (k-steps 1 to 8,
  // the ring of 2 to 4 stages wrapping inside and across tiles), and one block for everything.
  expect_walks(d, {{3, 128, 256, 4}, {2, 64, 128, 2}, {1, 128, 64, 3}, {5, 64, 64, 4}},
               {{200, 504, 456}, {256, 256, 64}, {130, 136, 24}});
}

// tma_store = 1: C through two shared buffers and TMA stores, across tiles (a block's buffers reused from one tile to
// the next while the last store may still read), at edges TMA leaves out, with beta = 0 (the stores) and beta != 0
// (stored from the registers): the functional executor checks the fences, barriers and waits of every store.
TEST(TmaWgmmaPersistent, ComputesTheExactGemmThroughTmaStores) {
  KernelConfig d = rung_model(RungId::TmaWgmmaPersistent).defaults;
  d.tma_store = 1;
  expect_walks(d, {{132, 128, 256, 4}, {2, 128, 256, 2}, {3, 64, 128, 3}, {0, 64, 64, 4}, {2, 64, 64, 2},
                  {3, 128, 128, 3}},
               {{200, 504, 136}, {67, 40, 72}, {1, 8, 8}});
  d.setmaxnreg = 1;  // with a producer warpgroup: the consumers' barrier is still warpgroups 0 and 1
  expect_walks(d, {{3, 128, 256, 4}}, {{200, 504, 136}});
}

TEST(TmaWgmmaPersistent, TmaStoresWriteCsSectorsOnceWithoutTheThreadsStores) {
  const Problem p{1024, 1024, 1024};
  KernelConfig c = rung_model(RungId::TmaWgmmaPersistent).defaults;
  const auto direct = simulate_kernel(RungId::TmaWgmmaPersistent, c, p);
  c.tma_store = 1;
  const auto staged = simulate_kernel(RungId::TmaWgmmaPersistent, c, p);
  ASSERT_TRUE(direct && staged);
  EXPECT_EQ(staged->total.global_stores().instructions, 0);
  EXPECT_EQ(staged->total.tma_stores, 1024 * 1024 / (128 * 32));  // one 128 x 32 box per chunk of every tile
  EXPECT_EQ(staged->total.tma_store_sectors, direct->total.global_stores().sectors);
  // The staging writes: 64-bit, a half-warp's 4 rows of 32 bytes on one line of the panels: no bank conflicts.
  EXPECT_EQ(staged->total.shared_stores().bank_conflicts(), 0);
  EXPECT_EQ(staged->total.shared_stores().instructions, direct->total.global_stores().instructions);
}

TEST(TmaWgmmaPersistent, OnlyThePersistentRungStoresWithTma) {
  for (const RungId other : {RungId::TmaWgmma, RungId::TmaWgmmaSpecialized, RungId::TmaWgmmaMulticast}) {
    KernelConfig c = rung_model(other).defaults;
    c.tma_store = 1;
    EXPECT_NE(test_support::validate_message(other, c, {256, 256, 256}).find("has no knob 'tma_store'"),
              std::string::npos);
  }
  KernelConfig c = rung_model(RungId::TmaWgmmaPersistent).defaults;
  c.tma_store = 1;
  EXPECT_EQ(test_support::validate_message(RungId::TmaWgmmaPersistent, c, {256, 256, 256}), "ok");
}

TEST(TmaWgmmaPersistent, CountsTheSameCopiesWgmmaAndStoresAsRung18) {
  test_support::expect_same_copies_wgmma_and_stores(
      RungId::TmaWgmmaPersistent, rung_model(RungId::TmaWgmmaPersistent).defaults, RungId::TmaWgmmaSpecialized,
      rung_model(RungId::TmaWgmmaSpecialized).defaults, {1024, 1024, 1024});
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
