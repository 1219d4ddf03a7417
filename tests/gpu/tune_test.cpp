// The autotuner's halves that need no GPU: ranking by the model, picking what to time, and scoring the model.
#include "gemmlab/gpu/tune.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "gemmlab/sim/launch_order.hpp"
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
  // Timed, fastest of all, but it spills: the best measured, and not scored (the model has no term for local memory).
  r.measured.push_back(r.measured.front());
  r.measured.back().spill_bytes = 64;
  r.measured.back().pick = TunePick::Random;
  r.measured.back().row->median_ms = 0.5;
  score_tune(r);
  EXPECT_EQ(r.timed, 5);
  EXPECT_EQ(r.scored, 4);
  ASSERT_TRUE(r.best);
  EXPECT_EQ(*r.best, 5u);
  EXPECT_EQ(r.measured[5].measured_rank, 0);
  r.measured.pop_back();
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

TEST(Tune, ProgressRunsFromZeroToOneAcrossTheStages) {
  double last = -1;
  for (const TuneStage stage : {TuneStage::Ranking, TuneStage::Compiling, TuneStage::Timing})
    for (const std::size_t done : {0u, 5u, 10u}) {
      const double f = fraction_done({stage, done, 10, ""});
      EXPECT_GE(f, last);
      last = f;
    }
  EXPECT_EQ(fraction_done({TuneStage::Ranking, 0, 10, ""}), 0.0);
  EXPECT_EQ(last, 1.0);
  EXPECT_EQ(fraction_done({TuneStage::Compiling, 0, 0, ""}), fraction_done({TuneStage::Ranking, 1, 1, ""}));
}

TEST(Tune, TiesAreNotMisses) {
  TuneReport r;
  r.options.rung = RungId::BlockTile2D;
  const double measured_ms[] = {1.0, 2.0, 3.0};  // the model cannot tell the three apart
  for (int i = 0; i < 3; ++i) {
    TuneMeasurement m;
    m.candidate.config = sim::rung_model(RungId::BlockTile2D).defaults;
    m.candidate.config.bk = 8 << i;
    m.candidate.predicted_seconds = 1e-3;
    BenchRow row;
    row.status = BenchStatus::Timed;
    row.median_ms = measured_ms[i];
    m.row = row;
    r.measured.push_back(m);
  }
  score_tune(r);
  EXPECT_EQ(r.spearman, 0.0);  // no spread in the predictions
  for (const auto& miss : r.misses) EXPECT_TRUE(contains(miss.sentence, "2nd (tied with 2 others)")) << miss.sentence;
  EXPECT_EQ(r.misses.size(), 2u);  // the first and the last measured, a rank from the tie's average, 2nd
}

TEST(Tune, AStudyReadsBackFromItsJson) {
  TuneReport r;
  r.options.rung = RungId::WarpTile;
  r.options.order = *sim::parse_order("groupm:8");
  r.bench.software.runtime_version = 13000;
  r.options.shape = {2048, 2048, 1024};
  r.input = kernel::InputType::F32;
  r.bench.device.name = "Test GPU";
  r.bench.date_utc = "2026-11-24T15:00:00Z";
  for (int i = 0; i < 3; ++i) {
    TuneMeasurement m;
    m.candidate.config = sim::rung_model(RungId::WarpTile).defaults;
    m.candidate.config.stages = 2 + i;
    m.candidate.predicted_seconds = (1.0 + i) * 1e-3;
    m.candidate.limit = sim::TimeTerm::Issue;
    m.candidate.model_rank = 1 + i;
    m.candidate.registers = 100 + i;
    m.spill_bytes = i == 2 ? 16 : 0;
    m.pick = i == 1 ? TunePick::Default : TunePick::ModelTop;
    m.device = i % 2;  // timed on two GPUs (TuneOptions::devices)
    BenchRow row;
    row.status = BenchStatus::Timed;
    row.median_ms = 3.0 - i;
    row.tflops = 10.0 * (1 + i);
    m.row = row;
    r.measured.push_back(m);
  }
  score_tune(r);
  const auto back = parse_tune_report_json(tune_report_json(r));
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->options.rung, RungId::WarpTile);
  EXPECT_EQ(back->options.shape, (Shape{2048, 2048, 1024}));
  EXPECT_EQ(sim::order_name(back->options.order), "groupm:8");
  EXPECT_EQ(back->bench.software.runtime_version, 13000);
  EXPECT_EQ(back->scored, r.scored);
  ASSERT_EQ(back->measured.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_TRUE(same_config(back->measured[i].candidate.config, r.measured[i].candidate.config));
    EXPECT_DOUBLE_EQ(back->measured[i].candidate.predicted_seconds, r.measured[i].candidate.predicted_seconds);
    EXPECT_EQ(back->measured[i].candidate.limit, sim::TimeTerm::Issue);
    EXPECT_EQ(back->measured[i].pick, r.measured[i].pick);
    EXPECT_EQ(back->measured[i].candidate.registers, r.measured[i].candidate.registers);
    EXPECT_EQ(back->measured[i].spill_bytes, r.measured[i].spill_bytes);
    EXPECT_EQ(back->measured[i].measured_rank, r.measured[i].measured_rank);
    EXPECT_EQ(back->measured[i].device, r.measured[i].device);
    ASSERT_TRUE(back->measured[i].row);
    EXPECT_DOUBLE_EQ(back->measured[i].row->median_ms, r.measured[i].row->median_ms);
  }
  EXPECT_DOUBLE_EQ(back->spearman, r.spearman);
  EXPECT_EQ(back->best, r.best);
  EXPECT_EQ(back->default_config, r.default_config);
  EXPECT_EQ(back->misses.size(), r.misses.size());
  EXPECT_EQ(back->bench.device.name, "Test GPU");
  const auto bad = parse_tune_report_json(R"({"rung": "warptile"})");
  ASSERT_FALSE(bad);
  EXPECT_TRUE(contains(bad.error().message, "missing a field")) << bad.error().message;
  EXPECT_FALSE(parse_tune_report_json("not json"));
}

TEST(Tune, EveryRecordedStudyReads) {
  const std::filesystem::path dir = std::filesystem::path(GEMMLAB_SOURCE_DIR) / "assets/tuning/h100";
  if (!std::filesystem::exists(dir)) GTEST_SKIP() << "no recorded studies in this checkout";
  int read = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    std::ifstream in(entry.path());
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto study = parse_tune_report_json(text);
    ASSERT_TRUE(study) << entry.path() << ": " << study.error().message;
    EXPECT_EQ(std::string(rung_info(study->options.rung).slug) + ".json", entry.path().filename().string());
    EXPECT_TRUE(study->best && study->default_config) << entry.path();
    ++read;
  }
  EXPECT_GE(read, 18);  // every rung with three knobs or more
}

}  // namespace
}  // namespace gemmlab::gpu
