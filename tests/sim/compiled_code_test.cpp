#include "gemmlab/sim/compiled_code.hpp"

#include <gtest/gtest.h>

namespace gemmlab::sim {
namespace {

constexpr std::size_t at(SassAnchor a) { return static_cast<std::size_t>(a); }

CodeRegion region(int parent, int instructions, std::initializer_list<std::pair<SassAnchor, int>> anchors) {
  CodeRegion r{parent, instructions, {}};
  for (const auto& [a, n] : anchors) r.anchors[at(a)] = n;
  return r;
}

TEST(CompiledCode, ALoopRunsAsOftenAsItsAnchorsNeed) {
  // 40 instructions outside the loop (2 of them the store of C); a loop of 10 with 4 FFMA and 1 LDG per pass.
  const CompiledCode code{{region(-1, 40, {{SassAnchor::Stg, 2}}),
                           region(0, 10, {{SassAnchor::Ffma, 4}, {SassAnchor::Ldg, 1}})}};
  AnchorCounts per_warp{};
  per_warp[at(SassAnchor::Ffma)] = 400;
  per_warp[at(SassAnchor::Ldg)] = 100;
  per_warp[at(SassAnchor::Stg)] = 2;
  const auto d = dynamic_instructions(code, per_warp);
  ASSERT_TRUE(d.ok()) << d.error().message;
  EXPECT_NEAR(d->executions[1], 100, 1e-6);
  // The description's 502, plus the compiler's: 38 outside the loop, 5 a pass.
  EXPECT_NEAR(d->overhead_per_warp, 38 + 5 * 100, 1e-4);
  EXPECT_NEAR(d->per_warp, 502 + 538, 1e-4);
}

TEST(CompiledCode, AnchorsTheDescriptionDoesNotCountDoNotPinALoop) {
  // The epilogue's FFMAs (alpha and beta) sit in a loop of their own; the description counts no FFMA at all.
  const CompiledCode code{{region(-1, 20, {}), region(0, 8, {{SassAnchor::Hmma, 2}}),
                           region(0, 6, {{SassAnchor::Ffma, 4}, {SassAnchor::Stg, 1}})}};
  AnchorCounts per_warp{};
  per_warp[at(SassAnchor::Hmma)] = 64;
  per_warp[at(SassAnchor::Stg)] = 8;
  const auto d = dynamic_instructions(code, per_warp);
  ASSERT_TRUE(d.ok());
  EXPECT_NEAR(d->executions[1], 32, 1e-6);
  EXPECT_NEAR(d->executions[2], 8, 1e-6);
  // The FFMAs count as the compiler's own: 5 of the epilogue loop's 6 instructions each pass.
  EXPECT_NEAR(d->overhead_per_warp, 20 + 6 * 32 + 5 * 8, 1e-4);
}

TEST(CompiledCode, ALoopWithoutAnchorsRunsWithTheLoopAroundIt) {
  const CompiledCode code{{region(-1, 10, {}), region(0, 30, {{SassAnchor::Lds, 2}}), region(1, 5, {})}};
  AnchorCounts per_warp{};
  per_warp[at(SassAnchor::Lds)] = 20;
  const auto d = dynamic_instructions(code, per_warp);
  ASSERT_TRUE(d.ok());
  EXPECT_NEAR(d->executions[1], 10, 1e-6);
  EXPECT_NEAR(d->executions[2], 10, 1e-6);
}

TEST(CompiledCode, TheMostFrequentAnchorsWinWhereTheyDisagree) {
  // A pass holds 64 FFMA and 6 LDG, of which the warp executes 2 (the others sit on branches it skips): the FFMAs,
  // far more of them, decide the loop's passes.
  const CompiledCode code{{region(-1, 0, {}), region(0, 100, {{SassAnchor::Ffma, 64}, {SassAnchor::Ldg, 6}})}};
  AnchorCounts per_warp{};
  per_warp[at(SassAnchor::Ffma)] = 64 * 512;
  per_warp[at(SassAnchor::Ldg)] = 2 * 512;
  const auto d = dynamic_instructions(code, per_warp);
  ASSERT_TRUE(d.ok());
  EXPECT_NEAR(d->executions[1], 512, 512 * 0.02);
}

TEST(CompiledCode, MalformedCodeIsAnError) {
  EXPECT_FALSE(dynamic_instructions(CompiledCode{}, AnchorCounts{}).ok());
  const CompiledCode forward{{region(-1, 1, {}), region(2, 1, {}), region(0, 1, {})}};
  EXPECT_FALSE(dynamic_instructions(forward, AnchorCounts{}).ok());
}

TEST(CompiledCode, DescriptionAnchorsComeFromTheCounters) {
  Counters c;
  c.fma = 32 * 100;
  c.mma = 7;
  c.wgmma = 3;
  c.tma_copies = 2;
  const auto a = description_anchors_per_warp(c, 1);
  EXPECT_EQ(a[at(SassAnchor::Ffma)], 100);
  EXPECT_EQ(a[at(SassAnchor::Hmma)], 7);
  EXPECT_EQ(a[at(SassAnchor::Hgmma)], 12);  // every warp of the warpgroup issues it
  EXPECT_EQ(a[at(SassAnchor::Tma)], 2);
  EXPECT_EQ(description_anchors_per_warp(c, 4)[at(SassAnchor::Ffma)], 25);
}

TEST(CompiledCode, APassOfTheMainLoopDoesAsManyKStepsAsItsMathHolds) {
  CompiledCode unrolled{{region(-1, 50, {}), region(0, 118, {{SassAnchor::Ffma, 16}, {SassAnchor::Ldg, 32}})}};
  unrolled.regions[1].load_waits = 4;
  AnchorCounts per_warp{};
  per_warp[at(SassAnchor::Ffma)] = 4096;  // one FFMA a k-step, 4096 k-steps
  EXPECT_EQ(main_loop(unrolled, per_warp, 4096).ksteps_per_pass, 16);
  EXPECT_EQ(main_loop(unrolled, per_warp, 4096).load_waits, 4);  // the main loop's, not region 0's
  // A loop over part of a k-step (bk = 8, tm x tn = 64 FFMA a k, the k loop not unrolled): at least one.
  const CompiledCode inner{{region(-1, 50, {}), region(0, 30, {{SassAnchor::Ldg, 2}}),
                            region(1, 80, {{SassAnchor::Ffma, 64}})}};
  per_warp[at(SassAnchor::Ffma)] = 512.0 * 128;
  EXPECT_EQ(main_loop(inner, per_warp, 128).ksteps_per_pass, 1);
  const CompiledCode straight{{region(-1, 10, {})}};
  EXPECT_EQ(main_loop(straight, per_warp, 128).ksteps_per_pass, 1);
  EXPECT_EQ(main_loop(straight, per_warp, 128).load_waits, 0);
}

}  // namespace
}  // namespace gemmlab::sim
