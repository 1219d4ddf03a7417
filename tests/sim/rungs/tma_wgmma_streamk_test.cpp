// Rung 23 (kernel/rungs/tma_wgmma_streamk.hpp): exact GEMMs with persistent clusters sharing the k-steps, tiles cut
// into segments that take turns at C: the functional executor runs the blocks in launch order, so a turn that waited
// for a block launched later, a read of C before its turn, or a flag left set fails here; the counters are rung 21's
// copies and wgmma, plus the segments' second visits to C.
#include <gtest/gtest.h>

#include <vector>

#include "gemmlab/kernel/rungs/tma_wgmma_streamk.hpp"
#include "gemmlab/kernel/schedule.hpp"
#include "gemmlab/sim/rung_model.hpp"
#include "rung_test_support.hpp"

namespace gemmlab::sim {
namespace {

using kernel::KernelConfig;

TEST(TmaWgmmaStreamK, DefaultsAreRung21sOnEverySm) {
  const KernelConfig d = rung_model(RungId::TmaWgmmaStreamK).defaults;
  const KernelConfig hilbert = rung_model(RungId::TmaWgmmaHilbert).defaults;
  EXPECT_EQ(d.grid, 132);
  EXPECT_EQ(d.cluster, hilbert.cluster);
  EXPECT_EQ(d.bm, hilbert.bm);
  EXPECT_EQ(d.bn, hilbert.bn);
  EXPECT_EQ(d.stages, hilbert.stages);
  EXPECT_TRUE(walks_stream_k(RungId::TmaWgmmaStreamK));
  EXPECT_FALSE(walks_stream_k(RungId::TmaWgmmaHilbert));
  // Its blocks share k-steps, so a launch has `grid` of them even where there are fewer tiles.
  EXPECT_EQ(launched_blocks(RungId::TmaWgmmaStreamK, d, 16, 1), 132);
  EXPECT_EQ(launched_blocks(RungId::TmaWgmmaHilbert, hilbert, 16, 1), 16);
}

TEST(TmaWgmmaStreamK, ComputesTheExactGemm) {
  const KernelConfig d = rung_model(RungId::TmaWgmmaStreamK).defaults;
  // More blocks than k-steps (the one tile's two k-steps, a block each), and one element.
  test_support::expect_exact_gemm(RungId::TmaWgmmaStreamK, d, {{67, 40, 72}, {1, 8, 8}}, "default");
  // Whole waves then shared ranges, ranges shorter and longer than a tile, rings of 2 to 4 stages wrapping across
  // segments, an odd number of tile rows, clusters or not.
  test_support::expect_exact_gemms(
      RungId::TmaWgmmaStreamK, d,
      {"grid=4 bm=128 bn=256 stages=4 cluster=2 setmaxnreg=1", "grid=6 bm=64 bn=128 stages=2 cluster=2 setmaxnreg=0",
       "grid=10 bm=64 bn=64 stages=3 cluster=2 setmaxnreg=0", "grid=16 bm=64 bn=64 stages=2 cluster=1 setmaxnreg=0"},
      {{330, 504, 200}, {136, 136, 456}});
  // The partial wave shared alone: whole waves, then ranges shorter than a tile (at 330 x 504 x 200 each grid leaves
  // a partial wave: 4 cluster tiles on 3 units, 24 on 5, 48 tiles on 14 blocks).
  test_support::expect_exact_gemms(RungId::TmaWgmmaStreamK, d,
                                   {"grid=6 bm=128 bn=256 stages=4 cluster=2 setmaxnreg=1 shared_waves=1",
                                    "grid=10 bm=64 bn=64 stages=3 cluster=2 setmaxnreg=0 shared_waves=1",
                                    "grid=14 bm=64 bn=64 stages=2 cluster=1 setmaxnreg=0 shared_waves=1"},
                                   {{330, 504, 200}, {136, 136, 456}});
  // A partial wave of fewer k-steps than units (5 tiles of 2 k-steps on 4 blocks): shared with the last whole wave
  // instead, else the tile's last piece would wait for the turn of an empty range.
  test_support::expect_exact_gemms(RungId::TmaWgmmaStreamK, d,
                                   {"grid=4 bm=64 bn=64 cluster=1 setmaxnreg=0 shared_waves=1"}, {{320, 64, 128}});
}

TEST(TmaWgmmaStreamK, CountsRung21sCopiesAndWgmmaAndTheTurnsAtC) {
  const Problem p{1024, 1024, 1024};
  const KernelConfig shared = rung_model(RungId::TmaWgmmaStreamK).defaults;
  const auto streamk = simulate_kernel(RungId::TmaWgmmaStreamK, shared, p);
  const auto hilbert = simulate_kernel(RungId::TmaWgmmaHilbert, rung_model(RungId::TmaWgmmaHilbert).defaults, p);
  ASSERT_TRUE(streamk) << streamk.error().message;
  ASSERT_TRUE(hilbert);
  EXPECT_EQ(streamk->total.tma_copies, hilbert->total.tma_copies);
  EXPECT_EQ(streamk->total.tma_sectors, hilbert->total.tma_sectors);
  EXPECT_EQ(streamk->total.wgmma, hilbert->total.wgmma);
  // 16 cluster tiles of 16 k-steps on 66 clusters: every tile is cut, so its later turns read C and store it again.
  EXPECT_GT(streamk->total.global_stores().sectors, hilbert->total.global_stores().sectors);
  EXPECT_GT(streamk->total.global_loads().sectors, hilbert->total.global_loads().sectors);
  // On 64 clusters at 4096^3 the tiles divide into whole waves: rung 21's counts exactly.
  KernelConfig whole = shared;
  whole.grid = 128;
  const Problem big{4096, 4096, 4096};
  const auto waves = simulate_kernel(RungId::TmaWgmmaStreamK, whole, big);
  const auto rung21 = simulate_kernel(RungId::TmaWgmmaHilbert, rung_model(RungId::TmaWgmmaHilbert).defaults, big);
  ASSERT_TRUE(waves && rung21);
  EXPECT_EQ(waves->total.global_stores().sectors, rung21->total.global_stores().sectors);
  EXPECT_EQ(waves->total.global_loads().sectors, rung21->total.global_loads().sectors);
  EXPECT_EQ(waves->total.tma_copies, rung21->total.tma_copies);
}

TEST(TmaWgmmaStreamK, RefusesNoGrid) {
  KernelConfig c = rung_model(RungId::TmaWgmmaStreamK).defaults;
  c.grid = 0;
  EXPECT_NE(test_support::validate_message(RungId::TmaWgmmaStreamK, c, {4096, 4096, 4096}).find("persistent"),
            std::string::npos);
  c.grid = 131;
  EXPECT_NE(
      test_support::validate_message(RungId::TmaWgmmaStreamK, c, {4096, 4096, 4096}).find("multiple of the cluster"),
      std::string::npos);
}

}  // namespace
}  // namespace gemmlab::sim
