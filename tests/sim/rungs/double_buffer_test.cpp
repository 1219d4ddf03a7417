// Rung 7 (double-buffer): rung 6's loads, layouts and multiply, with two shared buffers and the next tile carried in
// registers across the multiply, so each k-step is one phase and one barrier.
#include "gemmlab/kernel/rungs/double_buffer.hpp"

#include <gtest/gtest.h>

#include "gemmlab/sim/rung_model.hpp"
#include "rung_test_support.hpp"

namespace gemmlab::sim {
namespace {

using namespace test_support;
using kernel::KernelConfig;

constexpr RungId kRung = RungId::DoubleBuffer;
// A function, not a global: the rung models are themselves built during static initialisation.
KernelConfig default_config() { return rung_model(kRung).defaults; }
const Problem kAligned{256, 256, 256};  // 32 k-steps
constexpr int kWarp = 5;
constexpr std::uint64_t kBufferBytes = (128 * 8 + 8 * 128) * 4;  // one A tile and one B tile

// Whether every lane of every instruction of class `op` in the phase addresses shared buffer `buffer`.
bool all_in_buffer(const PhaseStream& s, std::string_view op, int buffer) {
  bool any = false;
  for (const auto& w : s.instructions) {
    if (op_class_name(op_class(w.access)) != op) continue;
    any = true;
    for (int lane = 0; lane < 32; ++lane)
      if (w.access.address[std::size_t(lane)] / kBufferBytes != std::uint64_t(buffer)) return false;
  }
  return any;
}

TEST(DoubleBufferRung, PrologueFillsBufferZero) {
  const auto pro = record(kRung, default_config(), kAligned, {0, 0}, prologue(0));
  EXPECT_TRUE(pro.barrier_after);
  // Rung 6's load phase, for tile 0: per warp 2 ldg.128, 4 sts.32 (A transposed) and 1 sts.128 (B).
  EXPECT_EQ(warp_ops(pro, kWarp, "ldg.128").instructions, 2);
  EXPECT_EQ(warp_ops(pro, kWarp, "sts.32").instructions, 4);
  EXPECT_EQ(warp_ops(pro, kWarp, "sts.128").instructions, 1);
  EXPECT_TRUE(all_in_buffer(pro, "sts.32", 0));
  EXPECT_TRUE(all_in_buffer(pro, "sts.128", 0));
}

TEST(DoubleBufferRung, OneKstepLoadsTheNextTileWhileMultiplyingThisOne) {
  for (int kstep : {0, 1}) {
    const auto step = record(kRung, default_config(), kAligned, {0, 0}, mainloop(kstep, 0));
    EXPECT_TRUE(step.barrier_after);  // one barrier per k-step: rung 6 needed two
    // (a) tile kstep + 1 from global: the same 2 ldg.128 per warp as rung 6, 32 sectors.
    const WarpOps ldg = warp_ops(step, kWarp, "ldg.128");
    EXPECT_EQ(ldg.instructions, 2);
    EXPECT_EQ(ldg.sectors, 32);
    // (b) the multiply of tile kstep from buffer kstep % 2: rung 6's 32 lds.128 with their 160 wavefronts.
    const WarpOps lds = warp_ops(step, kWarp, "lds.128");
    EXPECT_EQ(lds.instructions, 32);
    EXPECT_EQ(lds.wavefronts, 160);
    EXPECT_TRUE(all_in_buffer(step, "lds.128", kstep % 2)) << kstep;
    // (c) the registers into the other buffer, which nobody reads during this k-step.
    EXPECT_EQ(warp_ops(step, kWarp, "sts.32").instructions, 4);
    EXPECT_EQ(warp_ops(step, kWarp, "sts.128").instructions, 1);
    EXPECT_TRUE(all_in_buffer(step, "sts.32", (kstep + 1) % 2)) << kstep;
    EXPECT_TRUE(all_in_buffer(step, "sts.128", (kstep + 1) % 2)) << kstep;
    EXPECT_EQ(step.fma, 256 * 8 * 64);
  }
}

TEST(DoubleBufferRung, LastKstepIssuesItsLoadsWithEveryLaneOff) {
  // There is no tile 32: the loads are still issued (every k-step runs the same instructions) but read nothing.
  const auto last = record(kRung, default_config(), kAligned, {0, 0}, mainloop(31, 0));
  const WarpOps ldg = warp_ops(last, kWarp, "ldg.128");
  EXPECT_EQ(ldg.instructions, 2);
  EXPECT_EQ(ldg.requests, 0);
  EXPECT_EQ(ldg.sectors, 0);
}

TEST(DoubleBufferRung, ComputesTheExactGemmAtOddSizes) {
  const std::vector<Problem> sizes = {{1, 1, 1}, {127, 127, 127}, {1, 260, 5}, {129, 4, 33}};
  KernelConfig padded = default_config();
  padded.a_pad = 4;
  expect_exact_gemm(kRung, default_config(), sizes, "double-buffer");
  expect_exact_gemm(kRung, padded, sizes, "double-buffer+a_pad4");
}

}  // namespace
}  // namespace gemmlab::sim
