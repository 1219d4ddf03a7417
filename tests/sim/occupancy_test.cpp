#include "gemmlab/sim/occupancy.hpp"

#include <gtest/gtest.h>

#include "gemmlab/sim/rung_model.hpp"

namespace gemmlab::sim {
namespace {

DeviceProfile device(std::string_view name) {
  auto d = find_device(name);
  EXPECT_TRUE(d.ok()) << d.error().message;
  return *d;
}

RegisterCount measured(int registers) { return {registers, RegisterSource::Measured}; }

bool limited_by(const Occupancy& o, OccupancyLimit limit) {
  return std::find(o.limited_by.begin(), o.limited_by.end(), limit) != o.limited_by.end();
}

TEST(Occupancy, RegistersLimitABlockTile2DBlockOnTheH100) {
  // 256 threads x 128 registers: 4096 registers per warp, 4 warps per 16384-register partition, 16 warps per SM.
  const auto o = occupancy(device("h100"), {256, 8192, measured(128)});
  ASSERT_TRUE(o.ok()) << o.error().message;
  EXPECT_EQ(o->warps_per_block, 8);
  EXPECT_EQ(o->blocks_by_registers, 2);
  EXPECT_EQ(o->blocks_by_threads, 8);
  EXPECT_EQ(o->blocks_by_smem, 233472 / (8192 + 1024));
  EXPECT_EQ(o->blocks_by_slots, 32);
  EXPECT_EQ(o->blocks_per_sm, 2);
  EXPECT_EQ(o->limited_by, std::vector{OccupancyLimit::Registers});
  EXPECT_EQ(o->warps_per_sm, 16);
  EXPECT_DOUBLE_EQ(o->occupancy, 0.25);
  EXPECT_NE(o->limit_sentence().find("registers (128 per thread, measured)"), std::string::npos);
}

TEST(Occupancy, RegistersAreAllocatedPerWarpInUnitsAndPerPartition) {
  // 129 x 32 = 4128 registers per warp, allocated as 4352 (units of 256): 3 warps fit a partition, 12 an SM: 1 block.
  const auto o = occupancy(device("h100"), {256, 0, measured(129)});
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o->registers_per_warp_allocated, 4352);
  EXPECT_EQ(o->blocks_by_registers, 1);
  // 64 registers, 128 threads: 2048 per warp, 8 per partition, 32 warps: 8 blocks.
  EXPECT_EQ(occupancy(device("a100"), {128, 0, measured(64)})->blocks_by_registers, 8);
}

TEST(Occupancy, SharedMemoryThreadsAndSlotsEachLimit) {
  const auto smem = occupancy(device("h100"), {128, 100 * 1024, measured(32)});
  ASSERT_TRUE(smem.ok());
  EXPECT_EQ(smem->smem_per_block_allocated, 100 * 1024 + 1024) << "the system reserves 1 KiB per block";
  EXPECT_EQ(smem->blocks_per_sm, 2);
  EXPECT_TRUE(limited_by(*smem, OccupancyLimit::SharedMemory));

  const auto threads = occupancy(device("h100"), {1024, 0, measured(32)});
  ASSERT_TRUE(threads.ok());
  EXPECT_EQ(threads->blocks_per_sm, 2);
  EXPECT_TRUE(limited_by(*threads, OccupancyLimit::Threads));
  EXPECT_TRUE(limited_by(*threads, OccupancyLimit::Registers)) << "32 x 1024 x 2 is the whole register file too";
  EXPECT_DOUBLE_EQ(threads->occupancy, 1.0);

  const auto slots = occupancy(device("h100"), {32, 0, measured(32)});
  ASSERT_TRUE(slots.ok());
  EXPECT_EQ(slots->blocks_per_sm, 32);
  EXPECT_EQ(slots->limited_by, std::vector{OccupancyLimit::BlockSlots});
  EXPECT_DOUBLE_EQ(slots->occupancy, 0.5);

  // The RTX 4090 holds 1536 threads and 24 blocks per SM.
  EXPECT_EQ(occupancy(device("4090"), {32, 0, measured(32)})->blocks_per_sm, 24);
  EXPECT_EQ(occupancy(device("4090"), {512, 0, measured(32)})->blocks_per_sm, 3);
}

TEST(Occupancy, BlocksThatCannotRunAreErrors) {
  const auto expect_error = [](const Result<Occupancy>& r, std::string_view says) {
    ASSERT_FALSE(r.ok()) << says;
    EXPECT_NE(r.error().message.find(says), std::string::npos) << r.error().message;
  };
  expect_error(occupancy(device("h100"), {2048, 0, measured(32)}), "1 to 1024 threads per block");
  expect_error(occupancy(device("h100"), {256, 0, measured(300)}), "300 registers per thread (measured) is more than");
  expect_error(occupancy(device("h100"), {256, 240 * 1024, measured(32)}), "the most one block may have is 232448");
  expect_error(occupancy(device("1070"), {256, 64 * 1024, measured(32)}), "the most one block may have is 49152");
  expect_error(occupancy(device("h100"), {1024, 0, measured(255)}), "needs more registers than an SM");
}

TEST(Occupancy, EstimatesSayTheyAreEstimatesAndGrowWithTheRegisterTile) {
  for (const auto& info : rungs()) {
    const auto& defaults = rung_model(info.id).defaults;
    const auto estimate = estimate_registers(info.id, defaults);
    // A block that moves registers (rung 21's default) launches with its bound's count, which is known, not guessed.
    EXPECT_EQ(estimate.source, defaults.setmaxnreg ? RegisterSource::LaunchBound : RegisterSource::Estimated)
        << info.slug;
    EXPECT_GT(estimate.per_thread, 0) << info.slug;
    EXPECT_EQ(estimate.per_thread % 8, 0) << info.slug;
  }
  auto small = rung_model(RungId::BlockTile2D).defaults;
  small.tm = small.tn = 4;
  EXPECT_LT(estimate_registers(RungId::BlockTile2D, small).per_thread,
            estimate_registers(RungId::BlockTile2D, rung_model(RungId::BlockTile2D).defaults).per_thread);
  // Double buffering holds the next tile in registers across the multiply: more than rung 6 with the same tiles.
  EXPECT_GT(estimate_registers(RungId::DoubleBuffer, rung_model(RungId::DoubleBuffer).defaults).per_thread,
            estimate_registers(RungId::Vectorized, rung_model(RungId::Vectorized).defaults).per_thread);
  EXPECT_EQ(to_string(RegisterSource::Estimated), "estimated");
}

TEST(Occupancy, WavesRoundUp) {
  const Waves w = waves_of(4096, 264);
  EXPECT_EQ(w.waves, 16);
  EXPECT_EQ(w.last_wave_blocks, 4096 - 15 * 264);
  EXPECT_NEAR(w.fractional(), 15.515, 1e-3);
  EXPECT_EQ(waves_of(264, 264).waves, 1);
  EXPECT_EQ(waves_of(264, 264).last_wave_blocks, 264);
  EXPECT_EQ(waves_of(1, 264).last_wave_blocks, 1);
}

}  // namespace
}  // namespace gemmlab::sim
