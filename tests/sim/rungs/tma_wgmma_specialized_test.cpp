// Rung 18 (kernel/rungs/tma_wgmma_specialized.hpp): exact GEMMs with the producer warp and the consumer warpgroups
// ordered only by their mbarriers (the functional executor checks every copy against the wgmma reads it overwrites),
// the same copies and wgmma as rung 17, and no block-wide barrier after the prologue.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include <tuple>

#include "gemmlab/kernel/rungs/tma_wgmma_specialized.hpp"
#include "gemmlab/sim/device_profile.hpp"
#include "gemmlab/sim/occupancy.hpp"
#include "gemmlab/sim/rung_model.hpp"
#include "rung_test_support.hpp"

namespace gemmlab::sim {
namespace {

using kernel::KernelConfig;

TEST(TmaWgmmaSpecialized, ComputesTheExactGemm) {
  const KernelConfig d = rung_model(RungId::TmaWgmmaSpecialized).defaults;
  test_support::expect_exact_gemm(RungId::TmaWgmmaSpecialized, d, {{67, 40, 72}, {130, 264, 456}, {1, 8, 8}},
                                  "default");
  for (const auto& [bm, bn, bk, stages] : {std::tuple{64, 128, 64, 2}, std::tuple{128, 64, 64, 3},
                                           std::tuple{64, 256, 128, 2}}) {
    KernelConfig c = d;
    c.bm = bm, c.bn = bn, c.bk = bk, c.stages = stages;
    test_support::expect_exact_gemm(RungId::TmaWgmmaSpecialized, c, {{200, 136, 456}},
                                    "bm=" + std::to_string(bm) + " stages=" + std::to_string(stages));
  }
  KernelConfig moving = d;
  moving.setmaxnreg = 1;
  test_support::expect_exact_gemm(RungId::TmaWgmmaSpecialized, moving, {{200, 136, 456}}, "setmaxnreg=1");
}

// setmaxnreg = 1: a producer warpgroup, and registers moved within what the block launched with.
TEST(TmaWgmmaSpecialized, MovesRegistersWithinTheBlocksOwn) {
  using K = kernel::rungs::TmaWgmmaSpecialized;
  KernelConfig c = rung_model(RungId::TmaWgmmaSpecialized).defaults;
  c.setmaxnreg = 1;
  EXPECT_EQ(K::threads(c), 384);
  const auto moves = K::register_moves(c);
  EXPECT_EQ(moves.launch, 168);
  EXPECT_EQ(moves.producer, 40);
  EXPECT_EQ(moves.consumer, 232);
  for (const int consumers : {2, 3}) {  // counts setmaxnreg takes; the consumers take what the producer gave back
    c.bm = 64 * consumers;
    const auto m = K::register_moves(c);
    EXPECT_TRUE(m.valid(consumers)) << consumers;
    EXPECT_LE(m.launch * K::threads(c), K::register_file);
  }
  // A pool the consumers overdraw, and a count setmaxnreg does not take, are refused.
  EXPECT_FALSE((kernel::RegisterMoves{168, 40, 240}.valid(2)));
  EXPECT_FALSE((kernel::RegisterMoves{168, 20, 232}.valid(2)));
  // The description's compile-time register file is the H100 profile's.
  const DeviceProfile h100 = *find_device("h100");
  EXPECT_EQ(K::register_file, h100.registers_per_sm);
  EXPECT_EQ(K::max_thread_registers, h100.max_registers_per_thread);
  const auto roles = warp_roles(RungId::TmaWgmmaSpecialized, [&] {
    KernelConfig d = rung_model(RungId::TmaWgmmaSpecialized).defaults;
    d.setmaxnreg = 1;
    return d;
  }());
  ASSERT_TRUE(roles.has_value());
  EXPECT_EQ(roles->producer_threads(), 128);
  EXPECT_EQ(roles->consumer_registers, 232);
  EXPECT_EQ(warp_roles(RungId::TmaWgmmaSpecialized, rung_model(RungId::TmaWgmmaSpecialized).defaults)->consumer_registers,
            0);
  // The launch bound fixes the count ptxas uses, for any tile: occupancy counts 168 registers, not an estimate.
  KernelConfig narrow = rung_model(RungId::TmaWgmmaSpecialized).defaults;
  narrow.bn = 128, narrow.setmaxnreg = 1;
  const RegisterCount fixed = estimate_registers(RungId::TmaWgmmaSpecialized, narrow);
  EXPECT_EQ(fixed.per_thread, 168);
  EXPECT_EQ(fixed.source, RegisterSource::LaunchBound);
  narrow.setmaxnreg = 0;
  EXPECT_EQ(estimate_registers(RungId::TmaWgmmaSpecialized, narrow).source, RegisterSource::Estimated);
}

TEST(TmaWgmmaSpecialized, CopiesAndMultipliesAsRung17WithoutItsBarriers) {
  KernelConfig c = rung_model(RungId::TmaWgmmaSpecialized).defaults;
  KernelConfig c17 = rung_model(RungId::TmaWgmma).defaults;
  c17.bm = c.bm;
  const Problem p{1024, 1024, 1024};
  const auto specialized = simulate_kernel(RungId::TmaWgmmaSpecialized, c, p);
  const auto barriers = simulate_kernel(RungId::TmaWgmma, c17, p);
  ASSERT_TRUE(specialized && barriers);
  EXPECT_EQ(specialized->total.tma_copies, barriers->total.tma_copies);
  EXPECT_EQ(specialized->total.tma_sectors, barriers->total.tma_sectors);
  EXPECT_EQ(specialized->total.wgmma, barriers->total.wgmma);
  EXPECT_EQ(specialized->shape.threads_per_block, barriers->shape.threads_per_block + 32);  // the producer warp
  // One block-wide barrier (after the mbarriers' initialisation), against rung 17's one per k-step.
  auto stream = BlockStream::open(RungId::TmaWgmmaSpecialized, c, p, {0, 0});
  ASSERT_TRUE(stream) << stream.error().message;
  int block_barriers = 0;
  for (const auto& ref : stream->schedule())
    block_barriers += kernel::rungs::TmaWgmmaSpecialized::barrier_after(ref.section, ref.phase);
  EXPECT_EQ(block_barriers, 1);
}

// The roles the app's pipeline view names: 2 consumer warpgroups, then the producer warp; rung 17 has none.
TEST(TmaWgmmaSpecialized, EachStageHoldsTheTileTheRingSays) {
  // At every step the consumers read their step's tile, the released stage is refilled with the tile stages - 1 ahead,
  // and the stages between hold the tiles in flight, each once (the tile stepper draws this ring).
  for (int stages = 2; stages <= 4; ++stages)
    for (int step = 0; step < 12; ++step) {
      const kernel::RingStep ring = kernel::RingStep::at(step, stages);
      EXPECT_EQ(kernel::RingStep::tile_in(step, ring.stage, stages), step);
      EXPECT_EQ(kernel::RingStep::tile_in(step, ring.released, stages), ring.refill);
      std::vector<int> held;
      for (int s = 0; s < stages; ++s) held.push_back(kernel::RingStep::tile_in(step, s, stages) - step);
      std::sort(held.begin(), held.end());
      for (int i = 0; i < stages; ++i) EXPECT_EQ(held[static_cast<std::size_t>(i)], i) << stages << " " << step;
    }
}

TEST(TmaWgmmaSpecialized, NamesItsThreadsRoles) {
  const auto roles = warp_roles(RungId::TmaWgmmaSpecialized, rung_model(RungId::TmaWgmmaSpecialized).defaults);
  ASSERT_TRUE(roles.has_value());
  EXPECT_EQ(roles->consumer_threads, 256);
  EXPECT_EQ(roles->producer_thread, 256);
  EXPECT_EQ(roles->threads, 288);
  EXPECT_EQ(roles->stages, 4);
  EXPECT_EQ(warp_roles(RungId::TmaWgmmaMulticast, rung_model(RungId::TmaWgmmaMulticast).defaults)->cluster, 2);
  EXPECT_EQ(warp_roles(RungId::TmaWgmmaPersistent, rung_model(RungId::TmaWgmmaPersistent).defaults)->grid, 132);
  EXPECT_FALSE(warp_roles(RungId::TmaWgmma, rung_model(RungId::TmaWgmma).defaults).has_value());
}

TEST(TmaWgmmaSpecialized, ValidateSaysWhatDoesNotFit) {
  KernelConfig c = rung_model(RungId::TmaWgmmaSpecialized).defaults;
  c.bm = 192;
  EXPECT_NE(test_support::validate_message(RungId::TmaWgmmaSpecialized, c, {64, 64, 64}).find("65,536"),
            std::string::npos);
  c.setmaxnreg = 1;  // allowed by the register file, refused by ptxas
  EXPECT_NE(test_support::validate_message(RungId::TmaWgmmaSpecialized, c, {64, 64, 64}).find("Insufficient registers"),
            std::string::npos);
  c.bm = 64;
  EXPECT_NE(test_support::validate_message(RungId::TmaWgmmaSpecialized, c, {64, 64, 64}).find("none to move"),
            std::string::npos);
  c.bm = 128, c.setmaxnreg = 2;  // the knob table's range: on or off
  EXPECT_NE(test_support::validate_message(RungId::TmaWgmmaSpecialized, c, {64, 64, 64}).find("setmaxnreg"),
            std::string::npos);
  EXPECT_EQ(test_support::validate_message(RungId::TmaWgmmaSpecialized, rung_model(RungId::TmaWgmmaSpecialized).defaults,
                                           {67, 40, 72}),
            "ok");
}

}  // namespace
}  // namespace gemmlab::sim
