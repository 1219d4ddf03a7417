// The autotuner's halves that need no GPU: ranking by the model, picking what to time, and scoring the model.
#include "gemmlab/gpu/tune.hpp"

#include <gtest/gtest.h>

#include "gemmlab/sim/rung_model.hpp"

namespace gemmlab::gpu {
namespace {

bool contains(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

TEST(Tune, TheModelRanksTheSpaceAndThePicksAreTheDefaultTheTopAndASample) {
  TuneOptions o;
  o.rung = RungId::BlockTile2D;
  o.shape = {1024, 1024, 1024};
  auto profile = sim::find_device(sim::kDefaultDevice);
  ASSERT_TRUE(profile);
  o.profile = *profile;
  o.budget = 12;
  o.top = 5;
  const auto ranking = rank_configurations(o);
  ASSERT_TRUE(ranking) << ranking.error().message;
  ASSERT_GE(ranking->ranked.size(), 12u);
  for (std::size_t i = 1; i < ranking->ranked.size(); ++i)
    EXPECT_LE(ranking->ranked[i - 1].predicted_seconds, ranking->ranked[i].predicted_seconds);
  const auto picks = pick_candidates(*ranking, o);
  ASSERT_EQ(picks.size(), 12u);
  int defaults = 0, top = 0, random = 0;
  for (const auto& [index, pick] : picks) {
    defaults += pick == TunePick::Default;
    top += pick == TunePick::ModelTop;
    random += pick == TunePick::Random;
    if (pick == TunePick::ModelTop) {
      EXPECT_LT(index, 6u);  // among the first five (and the default's place)
    }
  }
  EXPECT_EQ(defaults, 1);
  EXPECT_EQ(top + defaults + random, 12);
  EXPECT_GE(top, 4);
  EXPECT_EQ(pick_candidates(*ranking, o), picks);  // seeded: the same sample every time
}

TEST(Tune, ScoringRanksTheTimedAndNamesTheWorstMisses) {
  TuneReport r;
  r.options.rung = RungId::BlockTile2D;
  const double predicted[] = {1.0, 2.0, 3.0, 4.0};
  const double measured_ms[] = {1.0, 2.0, 4.0, 3.0};  // the model swapped the last two
  for (int i = 0; i < 4; ++i) {
    TuneMeasurement m;
    m.candidate.config = sim::rung_model(RungId::BlockTile2D).defaults;
    m.candidate.config.bk = 8 << i;
    m.candidate.predicted_seconds = predicted[i] * 1e-3;
    m.pick = i == 0 ? TunePick::Default : TunePick::ModelTop;
    BenchRow row;
    row.status = BenchStatus::Timed;
    row.median_ms = measured_ms[i];
    m.row = row;
    r.measured.push_back(m);
  }
  BenchRow refused;
  refused.status = BenchStatus::Refused;
  r.measured.push_back(r.measured.front());
  r.measured.back().row = refused;
  score_tune(r);
  EXPECT_EQ(r.timed, 4);
  EXPECT_NEAR(r.spearman, 0.8, 1e-12);
  ASSERT_TRUE(r.best);
  EXPECT_EQ(*r.best, 0u);
  ASSERT_TRUE(r.default_config);
  EXPECT_EQ(r.measured[2].measured_rank, 4);
  EXPECT_EQ(r.measured[4].measured_rank, 0);  // not timed
  ASSERT_EQ(r.misses.size(), 2u);
  EXPECT_TRUE(contains(r.misses[0].sentence, "the model ranked it 3rd of 4, the GPU 4th. Predicted 3.000 ms")) << r.misses[0].sentence;
}

}  // namespace
}  // namespace gemmlab::gpu
