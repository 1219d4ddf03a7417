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

}  // namespace
}  // namespace gemmlab::sim
