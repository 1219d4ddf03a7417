// Rung 22 (kernel/rungs/tma_wgmma_splitk.hpp): exact GEMMs with each tile's k-steps cut into ranges that add up in C
// one after another, or through a workspace (the functional executor runs the blocks in launch order and checks every
// flag's wait, arrival, release and reset, and that each element of C is written once per range), and the counters of
// the ranges against rung 18's whole tiles.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gemmlab/kernel/context.hpp"
#include "gemmlab/kernel/rungs/tma_wgmma_splitk.hpp"
#include "gemmlab/sim/rung_model.hpp"
#include "rung_test_support.hpp"

namespace gemmlab::sim {
namespace {

using kernel::KernelConfig;

TEST(TmaWgmmaSplitK, RangesCoverTheKStepsWithNoneEmpty) {
  EXPECT_EQ(kernel::split_ksteps(16, 4), 4);
  EXPECT_EQ(kernel::split_count(16, 4), 4);
  EXPECT_EQ(kernel::split_ksteps(10, 4), 3);  // 3, 3, 3 and 1
  EXPECT_EQ(kernel::split_count(10, 4), 4);
  EXPECT_EQ(kernel::split_count(9, 4), 3);  // ranges of 3 cover 9 k-steps in 3: no fourth, empty one
  EXPECT_EQ(kernel::split_count(2, 8), 2);
  EXPECT_EQ(kernel::split_count(7, 1), 1);
  for (int ksteps = 1; ksteps <= 40; ++ksteps)
    for (int splits = 1; splits <= 12; ++splits) {
      const int q = kernel::split_ksteps(ksteps, splits), n = kernel::split_count(ksteps, splits);
      EXPECT_LE(n, splits);
      EXPECT_GE(q * n, ksteps);        // every k-step in a range
      EXPECT_LT(q * (n - 1), ksteps);  // and the last range not empty
    }
  const kernel::SplitLaunch at = kernel::split_of_launch(13, 4);
  EXPECT_EQ(at.tile_launch, 3);
  EXPECT_EQ(at.split, 1);
}

// The ranges of each reduction (`workspace` 0: in C in turn; 1: through the workspace) at skinny and odd sizes.
void expect_exact_gemms_of_the_ranges(int workspace) {
  KernelConfig d = rung_model(RungId::TmaWgmmaSplitK).defaults;
  ASSERT_EQ(d.splits, 4);
  d.workspace = workspace;
  const std::string reduction = workspace ? " workspace=1" : "";
  // k = 488: 8 k-steps in 4 ranges of 2, the last partial; k = 320: 5 k-steps in ranges of 2, 2 and 1 (three: the
  // fourth would be empty); k = 72: 2 k-steps, 2 ranges; k = 8: one range (no flags); skinny m and odd edges.
  test_support::expect_exact_gemm(RungId::TmaWgmmaSplitK, d, {{16, 136, 488}, {67, 40, 320}, {130, 264, 72}, {1, 8, 8}},
                                  "default" + reduction);
  for (const int splits : {2, 3, 8}) {
    KernelConfig c = d;
    c.bm = 128, c.splits = splits;
    test_support::expect_exact_gemm(RungId::TmaWgmmaSplitK, c, {{70, 200, 512}},
                                    "bm=128 splits=" + std::to_string(splits) + reduction);
  }
  KernelConfig narrow = d;
  narrow.bn = 64, narrow.stages = 2, narrow.splits = 5;  // 7 k-steps: ranges of 2, 2, 2 and 1
  test_support::expect_exact_gemm(RungId::TmaWgmmaSplitK, narrow, {{9, 72, 440}},
                                  "bn=64 stages=2 splits=5" + reduction);
  KernelConfig moving = d;
  moving.bm = 128, moving.bn = 256, moving.setmaxnreg = 1;  // two consumer warpgroups and a producer warpgroup
  test_support::expect_exact_gemm(RungId::TmaWgmmaSplitK, moving, {{16, 128, 512}}, "setmaxnreg=1" + reduction);
}

TEST(TmaWgmmaSplitK, ComputesTheExactGemm) { expect_exact_gemms_of_the_ranges(0); }

// The ranges do rung 18's work of the same tiles, plus the reduction: every range after the first reads the tile of
// C and writes it again, each range waits (but the first) and releases its tile's flag once.
TEST(TmaWgmmaSplitK, CountsTheRangesWorkAndTheReduction) {
  const Problem p{128, 1024, 4096};  // 64 k-steps: 4 ranges of 16
  KernelConfig split = rung_model(RungId::TmaWgmmaSplitK).defaults;
  KernelConfig whole = split;
  whole.splits = 1;
  const auto ranges = simulate_kernel(RungId::TmaWgmmaSplitK, split, p);
  const auto tiles = simulate_kernel(RungId::TmaWgmmaSplitK, whole, p);
  ASSERT_TRUE(ranges && tiles);
  const int tile_count = (128 / split.bm) * (1024 / split.bn);  // 2 x 8 tiles of 64 x 128
  EXPECT_EQ(ranges->shape.splits, 4);
  EXPECT_EQ(ranges->shape.blocks, 4 * tile_count);
  EXPECT_EQ(ranges->shape.ksteps, 16);
  EXPECT_EQ(ranges->total.wgmma, tiles->total.wgmma);
  EXPECT_EQ(ranges->total.tma_copies, tiles->total.tma_copies);
  EXPECT_EQ(ranges->total.tma_sectors, tiles->total.tma_sectors);
  EXPECT_EQ(ranges->total.split_waits, 3 * tile_count);
  EXPECT_EQ(ranges->total.split_releases, 4 * tile_count);
  EXPECT_EQ(tiles->total.split_waits, 0);
  EXPECT_EQ(tiles->total.global_loads().instructions, 0);  // beta = 0: the whole tile only stores
  EXPECT_EQ(ranges->total.global_stores().sectors, 4 * tiles->total.global_stores().sectors);
  EXPECT_EQ(ranges->total.global_loads().sectors, 3 * tiles->total.global_stores().sectors);
}

// A last range partly past k: 163 k-steps cut 6 ways are ranges of 28, the last with 23 inside k and 5 zero-filled
// k-steps, whose copies (issued stages - 1 k-steps ahead) read nothing. Counting remembers a phase's counters by a key;
// the key must tell such a copy from one inside k, or the range's copies count sectors they never read.
TEST(TmaWgmmaSplitK, ARangePartlyPastKReadsOnlyTheSectorsInsideIt) {
  const Problem p{64, 128, 10432};
  KernelConfig c = rung_model(RungId::TmaWgmmaSplitK).defaults;
  c.splits = 1;
  const auto whole = simulate_kernel(RungId::TmaWgmmaSplitK, c, p);
  ASSERT_TRUE(whole);
  for (const int splits : {6, 8}) {
    c.splits = splits;
    const auto ranges = simulate_kernel(RungId::TmaWgmmaSplitK, c, p);
    ASSERT_TRUE(ranges);
    EXPECT_EQ(ranges->total.tma_sectors, whole->total.tma_sectors) << "splits=" << splits;
    EXPECT_GT(ranges->total.tma_copies, whole->total.tma_copies) << "splits=" << splits;  // the zero-filled ones
  }
}

// The second reduction (workspace = 1): the same sizes and ranges, the ranges but the last leaving their sums in the
// workspace and the last adding them into C (the functional executor checks that the last range reads the workspace
// only after its wait, that each arrival follows the stores it orders, and that the flags end at 0).
TEST(TmaWgmmaSplitK, ComputesTheExactGemmThroughTheWorkspace) { expect_exact_gemms_of_the_ranges(1); }

// Through the workspace each range but the last writes its slice of the tile and arrives once, and the last waits
// once, reads those slices and writes C: the same stores as the serial reduction, the waits once per tile.
TEST(TmaWgmmaSplitK, CountsTheWorkspacesWritesAndReads) {
  const Problem p{128, 1024, 4096};  // 64 k-steps: 4 ranges of 16
  KernelConfig serial = rung_model(RungId::TmaWgmmaSplitK).defaults;
  KernelConfig workspace = serial;
  workspace.workspace = 1;
  const auto through = simulate_kernel(RungId::TmaWgmmaSplitK, workspace, p);
  const auto turns = simulate_kernel(RungId::TmaWgmmaSplitK, serial, p);
  ASSERT_TRUE(through && turns);
  const int tile_count = (128 / serial.bm) * (1024 / serial.bn);
  EXPECT_EQ(through->total.wgmma, turns->total.wgmma);
  EXPECT_EQ(through->total.split_waits, tile_count);
  EXPECT_EQ(through->total.split_releases, 4 * tile_count);  // three arrivals and the last range's reset
  EXPECT_EQ(through->total.global_stores().sectors, turns->total.global_stores().sectors);
  EXPECT_EQ(through->total.global_loads().sectors, turns->total.global_loads().sectors);
  EXPECT_NE(test_support::validate_message(RungId::TmaWgmmaSplitK,
                                           [&] {
                                             KernelConfig one = workspace;
                                             one.splits = 1;
                                             return one;
                                           }(),
                                           {256, 256, 256})
                .find("needs splits of 2 or more"),
            std::string::npos);
}

TEST(TmaWgmmaSplitK, OnlyThisRungSplitsK) {
  for (const RungId other : {RungId::TmaWgmmaSpecialized, RungId::TmaWgmmaPersistent, RungId::TmaWgmmaHilbert}) {
    KernelConfig c = rung_model(other).defaults;
    c.splits = 2;
    EXPECT_NE(test_support::validate_message(other, c, {256, 256, 256}).find("has no knob 'splits'"),
              std::string::npos);
  }
}

}  // namespace
}  // namespace gemmlab::sim
