// Rung 19 (kernel/rungs/tma_wgmma_multicast.hpp): exact GEMMs with blocks paired into clusters (an odd number of tile
// rows leaves the last cluster's second block without rows of C), each block issuing half of B's copies, multicast
// to both; the L2 model reads each cluster's B tile once.
#include <gtest/gtest.h>

#include <tuple>

#include "gemmlab/kernel/rungs/tma_wgmma_multicast.hpp"
#include "gemmlab/sim/l2_model.hpp"
#include "gemmlab/sim/rung_model.hpp"
#include "rung_test_support.hpp"

namespace gemmlab::sim {
namespace {

using kernel::KernelConfig;

TEST(TmaWgmmaMulticast, ComputesTheExactGemm) {
  const KernelConfig d = rung_model(RungId::TmaWgmmaMulticast).defaults;
  ASSERT_EQ(d.cluster, 2);
  // 67 and 130 rows: one tile row (its partner has none) and two; 1 x 8 x 8: a single element.
  test_support::expect_exact_gemm(RungId::TmaWgmmaMulticast, d, {{67, 40, 72}, {130, 264, 456}, {1, 8, 8}}, "default");
  KernelConfig moving = d;
  moving.setmaxnreg = 1;  // a producer warpgroup in each block of the cluster
  test_support::expect_exact_gemm(RungId::TmaWgmmaMulticast, moving, {{330, 72, 200}}, "setmaxnreg=1");
  for (const auto& [bm, bn, stages] : {std::tuple{64, 128, 2}, std::tuple{128, 64, 3}, std::tuple{64, 256, 4}}) {
    KernelConfig c = d;
    c.bm = bm, c.bn = bn, c.stages = stages;
    test_support::expect_exact_gemm(RungId::TmaWgmmaMulticast, c, {{200, 136, 456}, {330, 72, 200}},
                                    "bm=" + std::to_string(bm) + " bn=" + std::to_string(bn));
  }
}

TEST(TmaWgmmaMulticast, EachBlockIssuesItsHalfOfB) {
  const KernelConfig c = rung_model(RungId::TmaWgmmaMulticast).defaults;
  const Problem p{1024, 1024, 1024};
  const auto paired = simulate_kernel(RungId::TmaWgmmaMulticast, c, p);
  const auto alone = simulate_kernel(RungId::TmaWgmmaSpecialized, rung_model(RungId::TmaWgmmaSpecialized).defaults, p);
  ASSERT_TRUE(paired && alone);
  EXPECT_EQ(paired->shape.blocks, alone->shape.blocks);
  // Per block and k-step: 1 box of A (512 sectors) and 4 panels of B (1024) alone; A and 2 panels (512) paired.
  EXPECT_EQ(alone->total.tma_copies * 3, paired->total.tma_copies * 5);
  EXPECT_EQ(alone->total.tma_sectors * 2, paired->total.tma_sectors * 3);
  EXPECT_EQ(paired->total.wgmma, alone->total.wgmma);
  // The partner's half of B lands in each block too: with its own copies, every box that lands alone.
  EXPECT_EQ(paired->total.tma_partner_copies * 5, alone->total.tma_copies * 2);
  EXPECT_EQ(paired->total.tma_copies + paired->total.tma_partner_copies, alone->total.tma_copies);
  EXPECT_EQ(paired->total.tma_sectors + paired->total.tma_partner_sectors, alone->total.tma_sectors);
  EXPECT_EQ(paired->total.tma_bytes, alone->total.tma_bytes);
}

TEST(TmaWgmmaMulticast, AnOddTileRowGetsAPartnerWithoutRows) {
  const KernelConfig c = rung_model(RungId::TmaWgmmaMulticast).defaults;
  const auto counters = simulate_kernel(RungId::TmaWgmmaMulticast, c, {3 * 128, 256, 64});
  ASSERT_TRUE(counters);
  EXPECT_EQ(counters->shape.tiles_m, 4);  // 3 tile rows, rounded up to 2 clusters
  EXPECT_EQ(counters->shape.cluster, 2);
  // The fourth block copies no A (its rows are past the matrix) but its half of B, and stores nothing.
  const auto alone = simulate_kernel(RungId::TmaWgmmaSpecialized, rung_model(RungId::TmaWgmmaSpecialized).defaults,
                                     {3 * 128, 256, 64});
  ASSERT_TRUE(alone);
  EXPECT_EQ(counters->total.global_stores().sectors, alone->total.global_stores().sectors);
  EXPECT_EQ(counters->total.tma_sectors, 3 * 512 + 2 * 1024);  // three A boxes, each cluster's B once
}

TEST(TmaWgmmaMulticast, TheL2ServesEachClustersBOnce) {
  const Problem p{2048, 2048, 2048};
  const L2Options options{kernel::BlockOrder{}, 132, 50 * 1024 * 1024};
  const auto paired = simulate_l2(RungId::TmaWgmmaMulticast, rung_model(RungId::TmaWgmmaMulticast).defaults, p, options);
  const auto alone =
      simulate_l2(RungId::TmaWgmmaSpecialized, rung_model(RungId::TmaWgmmaSpecialized).defaults, p, options);
  ASSERT_TRUE(paired && alone) << (paired ? alone.error().message : paired.error().message);
  EXPECT_EQ(paired->a.sectors, alone->a.sectors);
  EXPECT_EQ(2 * paired->b.sectors, alone->b.sectors);
}

TEST(TmaWgmmaMulticast, ValidateSaysWhatDoesNotFit) {
  KernelConfig c = rung_model(RungId::TmaWgmmaMulticast).defaults;
  c.cluster = 4;
  EXPECT_NE(test_support::validate_message(RungId::TmaWgmmaMulticast, c, {64, 64, 64}).find("out of range"),
            std::string::npos);
  c.cluster = 2, c.bm = 192;
  EXPECT_NE(test_support::validate_message(RungId::TmaWgmmaMulticast, c, {64, 64, 64}).find("65,536"),
            std::string::npos);
  c = rung_model(RungId::TmaWgmmaSpecialized).defaults;
  c.cluster = 2;  // rung 18's blocks run alone
  EXPECT_NE(test_support::validate_message(RungId::TmaWgmmaSpecialized, c, {64, 64, 64}).find("no knob 'cluster'"),
            std::string::npos);
}

}  // namespace
}  // namespace gemmlab::sim
