// Rung 8 (cp-async): global -> shared copies without registers, stages (default 3) buffers deep, A row-major in
// shared memory and read 4 k at a time.
#include "gemmlab/kernel/rungs/cp_async.hpp"

#include <gtest/gtest.h>

#include "gemmlab/sim/rung_model.hpp"
#include "rung_test_support.hpp"

namespace gemmlab::sim {
namespace {

using namespace test_support;
using kernel::KernelConfig;

constexpr RungId kRung = RungId::CpAsync;
// A function, not a global: the rung models are themselves built during static initialisation.
KernelConfig default_config() { return rung_model(kRung).defaults; }
const Problem kAligned{256, 256, 256};  // 32 k-steps; rows of A 1 KB apart (a multiple of 128 bytes)
constexpr int kWarp = 6;

TEST(CpAsyncRung, PrologueIssuesStagesMinusOneTiles) {
  const auto pro = record(kRung, default_config(), kAligned, {0, 0}, prologue(0));
  EXPECT_FALSE(pro.barrier_after);  // the first k-step waits and synchronises
  // Tiles 0 and 1: each is 256 16-byte chunks of A and 256 of B, one cp.async.16 of each per thread.
  EXPECT_EQ(warp_ops(pro, kWarp, "cp.async.16").instructions, 2 * 2);
  EXPECT_EQ(warp_instructions(pro, kWarp), 4);
}

TEST(CpAsyncRung, KstepWaitsThenCopiesAheadAndMultiplies) {
  const auto wait = record(kRung, default_config(), kAligned, {0, 0}, mainloop(4, 0));
  EXPECT_TRUE(wait.barrier_after);
  EXPECT_EQ(wait.instructions.size(), 0u);  // cp.async.wait_group and the barrier only

  const auto step = record(kRung, default_config(), kAligned, {0, 0}, mainloop(4, 1));
  EXPECT_FALSE(step.barrier_after);
  EXPECT_EQ(step.fma, 256 * 8 * 64);
  // Tile 4 + 2 = 6: one cp.async.16 of A and one of B per thread.
  // A: a row of the tile is 8 floats, 2 chunks: the warp copies 16 rows, each 1 KB after the previous one in global
  // memory. A copy reads its source through L1's banks (rule C1), and those 16 rows sit in the same bank groups: in a
  // quarter-warp, 4 lanes use each of 2 groups - 4 wavefronts per quarter, 16 per instruction (ideal 4). The shared
  // side is 512 contiguous bytes and would take 4.
  // B: 512 contiguous bytes on both sides: 4 wavefronts.
  // Global side: A 16 rows x 32 bytes = 16 sectors, B 512 bytes = 16 sectors.
  const WarpOps copies = warp_ops(step, kWarp, "cp.async.16");
  EXPECT_EQ(copies.instructions, 2);
  EXPECT_EQ(copies.wavefronts, 16 + 4);
  EXPECT_EQ(copies.ideal_wavefronts, 4 + 4);
  EXPECT_EQ(copies.sectors, 16 + 16);
  // The multiply: per 4 k indices tm = 8 lds.128 of A (a row of the thread, 4 consecutive k), and per k index
  // tn / 4 = 2 lds.128 of B. 16 + 16 per k-step.
  // A: lanes 0-15 share a thread row (one address), lanes 16-31 the next; pairs agree, so 2 wavefronts (ideal 2).
  // B: as in rung 6, 8 thread columns 32 bytes apart per quarter-warp: 8 wavefronts, ideal 4.
  const WarpOps lds = warp_ops(step, kWarp, "lds.128");
  EXPECT_EQ(lds.instructions, 32);
  EXPECT_EQ(lds.wavefronts, 16 * 2 + 16 * 8);
  EXPECT_EQ(lds.bank_conflicts(), 16 * 4);
}

TEST(CpAsyncRung, NoCopiesPastTheLastTile) {
  // k-steps 30 and 31 would copy tiles 32 and 33: nothing is issued (the commit groups stay, empty).
  const auto copies_at = [](int kstep) {
    return warp_ops(record(kRung, default_config(), kAligned, {0, 0}, mainloop(kstep, 1)), kWarp, "cp.async.16");
  };
  EXPECT_EQ(copies_at(30).instructions, 0);
  EXPECT_EQ(copies_at(31).instructions, 0);
  EXPECT_EQ(copies_at(29).instructions, 2);
}

TEST(CpAsyncRung, UnalignedRowsAreCopiedOneFloatAtATime) {
  // k % 4 != 0: A's rows are not 16-byte aligned; its 128 x 8 tile is copied with 4 cp.async.4 per thread.
  const auto step = record(kRung, default_config(), {130, 256, 37}, {0, 0}, prologue(0));
  EXPECT_EQ(warp_ops(step, kWarp, "cp.async.4").instructions, 2 * 4);
  EXPECT_EQ(warp_ops(step, kWarp, "cp.async.16").instructions, 2 * 1);
}

TEST(CpAsyncRung, ComputesTheExactGemmAtOddSizesAndEveryDepth) {
  const std::vector<Problem> sizes = {{1, 1, 1}, {127, 127, 127}, {1, 260, 5}, {129, 4, 33}};
  for (int stages = 2; stages <= 4; ++stages) {
    KernelConfig c = default_config();
    c.stages = stages;
    expect_exact_gemm(kRung, c, sizes, "cp-async stages=" + std::to_string(stages));
  }
}

}  // namespace
}  // namespace gemmlab::sim
