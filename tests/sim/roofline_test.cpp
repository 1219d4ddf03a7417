#include "gemmlab/sim/roofline.hpp"

#include <gtest/gtest.h>

namespace gemmlab::sim {
namespace {

DeviceProfile h100() { return *find_device("h100"); }

// Two waves on the H100: 264 blocks (2 per SM) and 100 (1 per SM at most), with the given DRAM bytes each.
L2Result two_waves(std::int64_t first_bytes, std::int64_t second_bytes) {
  L2Result l2;
  l2.per_wave.resize(2);
  l2.per_wave[0].blocks = 264;
  l2.per_wave[0].dram_read_bytes = first_bytes;
  l2.per_wave[1].blocks = 100;
  l2.per_wave[1].dram_read_bytes = second_bytes;
  l2.dram_read_bytes = first_bytes + second_bytes;
  l2.a = {1000, 900};
  return l2;
}

constexpr int kBlocks = 364;
constexpr int kLds32 = 6;  // op class of lds.32

TEST(Roofline, EachLimiterIsItsWorkOverTheDevicesRateWaveByWave) {
  const DeviceProfile d = h100();
  Counters k;
  k.fma = std::int64_t{1} << 36;
  k.ops[kLds32].instructions = std::int64_t{1} << 30;
  k.ops[kLds32].wavefronts = std::int64_t{1} << 31;
  const L2Result l2 = two_waves(1'000'000'000, 500'000'000);
  const auto r = roofline({RungId::BlockTile2D, {4096, 4096, 4096}, &k, kBlocks, &l2}, d);
  ASSERT_TRUE(r.ok()) << r.error().message;

  const double clock = 1980e6;
  const double rounds = 2 + 1;  // ceil(264 / 132) + ceil(100 / 132): the busiest SM's blocks, wave by wave
  const double fma_per_sm = 66.9e12 / 2 / 132;
  const double instructions = double(k.fma) / 32 + double(k.ops[kLds32].instructions);
  EXPECT_NEAR(r->limit(Limiter::FmaUnits).seconds, rounds * double(k.fma) / kBlocks / fma_per_sm, 1e-9);
  EXPECT_NEAR(r->limit(Limiter::InstructionIssue).seconds, rounds * instructions / kBlocks / (4 * clock), 1e-9);
  EXPECT_NEAR(r->limit(Limiter::SharedMemory).seconds, rounds * double(k.ops[kLds32].wavefronts) / kBlocks / clock,
              1e-9);
  EXPECT_NEAR(r->limit(Limiter::Dram).seconds, 1.5e9 / 3350e9, 1e-12);
  EXPECT_DOUBLE_EQ(r->warp_instructions, instructions);
  EXPECT_NEAR(r->fma_instruction_share, (double(k.fma) / 32) / instructions, 1e-12);
  EXPECT_DOUBLE_EQ(r->useful_flops, 2.0 * 4096 * 4096 * 4096);

  // 2^31 wavefronts at one per clock per SM are more than the FMAs or the issue slots need.
  EXPECT_EQ(r->bottleneck, Limiter::SharedMemory);
  EXPECT_NE(r->explanation.find("Shared memory is the limit"), std::string::npos) << r->explanation;
  ASSERT_EQ(r->wave_seconds.size(), 2u);
  EXPECT_NEAR(r->predicted_seconds, r->wave_seconds[0] + r->wave_seconds[1], 1e-15);
  EXPECT_GE(r->predicted_seconds, r->limit(r->bottleneck).seconds);
  EXPECT_NEAR(r->predicted_tflops, r->useful_flops / r->predicted_seconds / 1e12, 1e-9);
}

TEST(Roofline, TheBottleneckFollowsTheLargestTime) {
  const DeviceProfile d = h100();
  Counters k;
  k.fma = std::int64_t{1} << 36;
  const L2Result light = two_waves(1000, 1000);
  const auto fma = roofline({RungId::BlockTile2D, {4096, 4096, 4096}, &k, kBlocks, &light}, d);
  ASSERT_TRUE(fma.ok());
  // With no memory instructions, issue and FMA need the same slots: FMA counts first among equals.
  EXPECT_EQ(fma->bottleneck, Limiter::FmaUnits);
  EXPECT_NE(fma->explanation.find("The FP32 units are the limit"), std::string::npos) << fma->explanation;

  k.ops[kLds32].instructions = std::int64_t{1} << 31;
  const auto issue = roofline({RungId::BlockTile2D, {4096, 4096, 4096}, &k, kBlocks, &light}, d);
  EXPECT_EQ(issue->bottleneck, Limiter::InstructionIssue);
  EXPECT_NE(issue->explanation.find("(50% of them FMAs)"), std::string::npos) << issue->explanation;

  const L2Result heavy = two_waves(std::int64_t{200} << 30, std::int64_t{100} << 30);
  const auto dram = roofline({RungId::BlockTile2D, {4096, 4096, 4096}, &k, kBlocks, &heavy}, d);
  EXPECT_EQ(dram->bottleneck, Limiter::Dram);
  EXPECT_NE(dram->explanation.find("DRAM bandwidth is the limit"), std::string::npos) << dram->explanation;
  EXPECT_NE(dram->explanation.find("90.0% of reads hit in L2"), std::string::npos) << dram->explanation;
}

TEST(Roofline, MissingInputsAreAnError) {
  Counters k;
  const L2Result l2 = two_waves(1, 1);
  const L2Result no_waves;
  EXPECT_FALSE(roofline({RungId::BlockTile2D, {64, 64, 64}, nullptr, 1, &l2}, h100()).ok());
  EXPECT_FALSE(roofline({RungId::BlockTile2D, {64, 64, 64}, &k, 0, &l2}, h100()).ok());
  EXPECT_FALSE(roofline({RungId::BlockTile2D, {64, 64, 64}, &k, 1, nullptr}, h100()).ok());
  EXPECT_FALSE(roofline({RungId::BlockTile2D, {64, 64, 64}, &k, 1, &no_waves}, h100()).ok());
}

}  // namespace
}  // namespace gemmlab::sim
