#include "gemmlab/sim/tuning.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "gemmlab/sim/rung_model.hpp"

namespace gemmlab::sim {
namespace {

bool same(const kernel::KernelConfig& a, const kernel::KernelConfig& b) {
  for (const auto& knob : all_knobs())
    if (a.*knob.field != b.*knob.field) return false;
  return true;
}

TEST(Tuning, EveryKnobsCandidatesHoldTheDefaultWithinTheKnobsRange) {
  for (const auto& info : rungs()) {
    const RungModel& model = rung_model(info.id);
    for (const auto name : model.knobs) {
      const auto values = knob_candidates(info.id, name);
      const Knob& knob = *find_knob(name);
      EXPECT_NE(std::ranges::find(values, model.defaults.*knob.field), values.end()) << info.slug << " " << name;
      for (const int v : values) EXPECT_TRUE(v >= knob.min && v <= knob.max) << info.slug << " " << name << "=" << v;
      EXPECT_TRUE(std::ranges::is_sorted(values));
    }
  }
  EXPECT_EQ(knob_candidates(RungId::WarpTile, "bm"), (std::vector<int>{64, 128, 256}));
  EXPECT_EQ(knob_candidates(RungId::SmemTiling, "conflicting"), std::vector<int>{0});  // the teaching toggle stays
  // Stream-K: one block per SM, twice as many, and the power of two below (waves of whole tiles on LLM shapes'
  // grids); both ways of sharing the last waves.
  EXPECT_EQ(knob_candidates(RungId::TmaWgmmaStreamK, "grid"), (std::vector<int>{0, 128, 132, 264}));
  EXPECT_EQ(knob_candidates(RungId::TmaWgmmaStreamK, "shared_waves"), (std::vector<int>{1, 2}));
  EXPECT_EQ(knob_candidates(RungId::TmaWgmmaHilbert, "grid"), (std::vector<int>{0, 128, 256}));
  // Every wgmma width the Hopper rungs compile, whatever their default's: a decode step's 128 rows against 4096
  // columns are 32 tiles at 128 x 128, 128 at 64 x 64.
  for (const RungId rung : {RungId::TmaWgmma, RungId::TmaWgmmaSpecialized, RungId::TmaWgmmaMulticast,
                            RungId::TmaWgmmaPersistent, RungId::TmaWgmmaHilbert, RungId::TmaWgmmaSplitK,
                            RungId::TmaWgmmaStreamK, RungId::TmaWgmmaPingPong})
    EXPECT_EQ(knob_candidates(rung, "bn"), (std::vector<int>{64, 128, 256})) << int(rung);
}

TEST(Tuning, TheSpaceIsValidDistinctAndStartsWithTheDefault) {
  const Problem problem{4096, 4096, 4096};
  for (const RungId rung : {RungId::BlockTile2D, RungId::WarpTile, RungId::MmaMultistage, RungId::TmaWgmmaSpecialized}) {
    const auto space = tuning_space(rung, problem, {});
    // Enough to time 40 of them; the Hopper rung's few knobs and large tiles leave fewer, all of them valid.
    ASSERT_GT(space.size(), rung == RungId::TmaWgmmaSpecialized ? 10u : 40u) << rung_info(rung).slug;
    EXPECT_TRUE(same(space.front(), rung_model(rung).defaults)) << rung_info(rung).slug;
    for (std::size_t i = 0; i < space.size(); ++i) {
      EXPECT_TRUE(validate(rung, space[i], problem)) << rung_info(rung).slug;
      for (std::size_t j = i + 1; j < space.size(); ++j)
        ASSERT_FALSE(same(space[i], space[j])) << rung_info(rung).slug << " lists a configuration twice";
    }
  }
}

TEST(Tuning, TheSpaceHonoursTheDevicesLimits) {
  const Problem problem{4096, 4096, 4096};
  DeviceLimits small;
  small.max_smem_per_block_bytes = 48 * 1024;
  const auto all = tuning_space(RungId::WarpTile, problem, {});
  const auto fitting = tuning_space(RungId::WarpTile, problem, small);
  EXPECT_LT(fitting.size(), all.size());
  for (const auto& c : fitting) EXPECT_LE(smem_bytes(RungId::WarpTile, c), 48 * 1024);
}

TEST(Spearman, RanksNotValues) {
  const std::vector<double> a{1, 2, 3, 4, 5};
  EXPECT_DOUBLE_EQ(spearman(a, std::vector<double>{10, 20, 30, 40, 1000}), 1.0);  // monotone: 1
  EXPECT_DOUBLE_EQ(spearman(a, std::vector<double>{5, 4, 3, 2, 1}), -1.0);
  // One swap of neighbours among 5: 1 - 6 * 2 / (5 * 24) = 0.9.
  EXPECT_NEAR(spearman(a, std::vector<double>{1, 3, 2, 4, 5}), 0.9, 1e-12);
  // Ties share their average rank (Pearson's r of the ranks).
  EXPECT_NEAR(spearman(std::vector<double>{1, 2, 2, 3}, std::vector<double>{1, 2, 3, 4}), 0.9486832980505138, 1e-12);
  EXPECT_EQ(spearman(std::vector<double>{1}, std::vector<double>{1}), 0.0);         // too few points
  EXPECT_EQ(spearman(std::vector<double>{1, 1, 1}, std::vector<double>{1, 2, 3}), 0.0);  // no spread
  EXPECT_EQ(spearman(std::vector<double>{1, 2}, std::vector<double>{1, 2, 3}), 0.0);     // unequal lengths
}

}  // namespace
}  // namespace gemmlab::sim
