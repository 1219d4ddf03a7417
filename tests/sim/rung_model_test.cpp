#include "gemmlab/sim/rung_model.hpp"

#include <gtest/gtest.h>

namespace gemmlab::sim {
namespace {

TEST(RungModel, OneModelPerRungInListOrder) {
  for (const auto& info : rungs()) EXPECT_EQ(rung_model(info.id).id, info.id) << info.slug;
}

TEST(RungModel, DefaultsOfDescribedRungsAreValid) {
  for (const auto& info : rungs()) {
    const RungModel& model = rung_model(info.id);
    if (!model.described) continue;
    const auto ok = validate(info.id, model.defaults, {1024, 1024, 1024});
    EXPECT_TRUE(ok) << info.slug << ": " << ok.error().message;
  }
}

TEST(RungModel, EveryKnobNameIsKnown) {
  for (const auto& info : rungs())
    for (const auto name : rung_model(info.id).knobs) EXPECT_NE(find_knob(name), nullptr) << info.slug << " " << name;
}

TEST(RungModel, ValidationSentencesSayWhatToChange) {
  auto c = rung_model(RungId::BlockTile2D).defaults;
  c.tm = 16;
  c.tn = 1;  // 8 x 128 = 1024 threads: allowed
  EXPECT_TRUE(validate(RungId::BlockTile2D, c, {64, 64, 64}));
  c.tm = 1;  // 128 x 128 threads
  const auto too_many = validate(RungId::BlockTile2D, c, {64, 64, 64});
  ASSERT_FALSE(too_many);
  EXPECT_NE(too_many.error().message.find("16384 threads"), std::string::npos) << too_many.error().message;

  auto s = rung_model(RungId::SmemTiling).defaults;
  s.bk = 16;
  const auto unequal = validate(RungId::SmemTiling, s, {64, 64, 64});
  ASSERT_FALSE(unequal);
  EXPECT_NE(unequal.error().message.find("must be equal"), std::string::npos);

  auto n = rung_model(RungId::NaiveCoalesced).defaults;
  n.stages = 3;
  const auto foreign = validate(RungId::NaiveCoalesced, n, {64, 64, 64});
  ASSERT_FALSE(foreign);
  EXPECT_NE(foreign.error().message.find("no knob 'stages'"), std::string::npos);

  auto big = rung_model(RungId::BlockTile2D).defaults;
  big.bk = 128;
  big.bm = big.bn = 512;
  big.tm = big.tn = 16;
  const auto smem = validate(RungId::BlockTile2D, big, {64, 64, 64});
  ASSERT_FALSE(smem);
  EXPECT_NE(smem.error().message.find("shared memory"), std::string::npos) << smem.error().message;
}

// One meaning of `swizzle` on the TMA rungs: TMA's mode in bytes, 128 for the 128-byte mode (issue 32). Files written
// before that (0 for the 128-byte mode) are read in today's meaning.
TEST(RungModel, ATmaRungsSwizzleIsItsModeInBytes) {
  const RungModel& tma = rung_model(RungId::TmaWgmma);
  EXPECT_EQ(tma.defaults.swizzle, 128);
  EXPECT_EQ(rung_model(RungId::TmaWgmmaHilbert).defaults.swizzle, 128);
  for (const int mode : {32, 64, 128}) {
    const auto c = apply_knob_text(RungId::TmaWgmma, tma.defaults, "swizzle=" + std::to_string(mode));
    ASSERT_TRUE(c) << c.error().message;
    EXPECT_EQ(c->swizzle, mode);
  }
  kernel::KernelConfig none = tma.defaults;
  none.swizzle = 0;
  const Status refused = validate(RungId::TmaWgmma, none, {256, 256, 256});
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("128"), std::string::npos) << refused.error().message;
  EXPECT_EQ(recorded_knob_value(RungId::TmaWgmma, "swizzle", 0), 128);
  EXPECT_EQ(recorded_knob_value(RungId::TmaWgmmaSplitK, "swizzle", 0), 128);
  EXPECT_EQ(recorded_knob_value(RungId::TmaWgmma, "swizzle", 64), 64);
  EXPECT_EQ(recorded_knob_value(RungId::MmaSwizzled, "swizzle", 0), 0);  // on/off there
  EXPECT_EQ(recorded_knob_value(RungId::TmaWgmma, "stages", 0), 0);
}

TEST(RungModel, AGridThatCannotLaunchIsRefusedAtOnce) {
  auto c = rung_model(RungId::NaiveCoalesced).defaults;
  c.bm = c.bn = 1;
  // 65536 x 65536 blocks of one thread: 2^32, which overflows an int (the count was once computed in one).
  const auto refused = validate(RungId::NaiveCoalesced, c, {65536, 65536, 1});
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("needs 4294967296 blocks of 1 x 1"), std::string::npos)
      << refused.error().message;
  EXPECT_TRUE(validate(RungId::NaiveCoalesced, c, {32768, 65535, 1}));  // 2^31 - 32768 blocks: allowed
}


// A Hopper rung is not modelled on a GPU without TMA and wgmma: the sentence says why (issue 32, item 4).
TEST(RungModel, HopperRungsNeedAHopperDevice) {
  DeviceLimits ada;
  ada.compute_capability_major = 8;
  ada.compute_capability_minor = 9;
  ada.name = "NVIDIA GeForce RTX 4090";
  const Problem problem{4096, 4096, 4096, 1.0f, 0.0f};
  const auto refused = validate(RungId::TmaWgmma, rung_model(RungId::TmaWgmma).defaults, problem, ada);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("needs a Hopper GPU (sm_90a"), std::string::npos) << refused.error().message;
  EXPECT_NE(refused.error().message.find("compute capability 8.9"), std::string::npos);
  EXPECT_TRUE(validate(RungId::MmaSwizzled, rung_model(RungId::MmaSwizzled).defaults, problem, ada).ok());
  EXPECT_TRUE(validate(RungId::TmaWgmma, rung_model(RungId::TmaWgmma).defaults, problem, DeviceLimits{}).ok());
}

TEST(KnobText, SetsTheNamedKnobsOnTheBase) {
  const auto base = rung_model(RungId::WarpTile).defaults;
  const auto c = apply_knob_text(RungId::WarpTile, base, "bm=64,bn=128, bk=16 stages=4");
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->bm, 64);
  EXPECT_EQ(c->bn, 128);
  EXPECT_EQ(c->bk, 16);
  EXPECT_EQ(c->stages, 4);
  EXPECT_EQ(c->tm, base.tm);  // not named: the base's
}

TEST(KnobText, BadTextIsASentenceNamingTheProblem) {
  const auto base = rung_model(RungId::WarpTile).defaults;
  const auto says = [&](std::string_view text, std::string_view words) {
    const auto c = apply_knob_text(RungId::WarpTile, base, text);
    ASSERT_FALSE(c) << text;
    EXPECT_NE(c.error().message.find(words), std::string::npos) << c.error().message;
  };
  says("bm=64,cluster=2", "has no knob 'cluster'");
  says("bogus=1", "has no knob 'bogus'");
  says("bm=64,bm=32", "given twice");
  says("bm=sixty", "whole number from 1 to 512");
  says("bm=64x", "whole number");
  says("bm=0", "whole number from 1 to 512");
  says("stages", "is not knob=value");
  says("", "no knob given");
  says(" , ", "no knob given");
}

TEST(RungModel, TakesAnySizeAndTmaBoxesComeFromTheDescriptions) {
  EXPECT_TRUE(takes_any_size(RungId::WarpTile));       // FP32
  EXPECT_FALSE(takes_any_size(RungId::MmaRowMajor));   // 16-bit, n and k multiples of 8
  EXPECT_TRUE(takes_any_size(RungId::MmaMultistage));  // 16-bit with the element-wise copy
  EXPECT_FALSE(tma_box_shapes(RungId::WarpTile, rung_model(RungId::WarpTile).defaults, {4096, 4096, 4096}));
  const auto c = rung_model(RungId::TmaWgmma).defaults;
  const auto boxes = tma_box_shapes(RungId::TmaWgmma, c, {4096, 4096, 4096});
  ASSERT_TRUE(boxes);
  EXPECT_EQ(boxes->a_rows, c.bm);  // a box of A is bm rows of 64 halves: one 128-byte swizzle row each
  EXPECT_EQ(boxes->a_cols, 64);
  // A matrix shorter than the block: the box is as tall as the matrix, in whole groups of 8 rows, and no taller.
  const auto splitk = rung_model(RungId::TmaWgmmaSplitK).defaults;
  EXPECT_EQ(tma_box_shapes(RungId::TmaWgmmaSplitK, splitk, {16, 4096, 4096})->a_rows, 16);
  EXPECT_EQ(tma_box_shapes(RungId::TmaWgmmaSplitK, splitk, {13, 4096, 4096})->a_rows, 16);
  EXPECT_EQ(tma_box_shapes(RungId::TmaWgmma, c, {c.bm + 1, 4096, 4096})->a_rows, c.bm);
}

}  // namespace
}  // namespace gemmlab::sim
