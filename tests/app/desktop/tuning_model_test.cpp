// The tuning panel's studies and the model's ranking: the recorded study of the selected rung, and a ranking shown
// only at the size it was made for.
#include "model/app_model.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include "app_model_support.hpp"

namespace gemmlab::desktop {
namespace {

using test_support::model_with_recorded_data;
using test_support::options;
using test_support::settle;

TEST(TuningModel, TheRecordedTuningStudyOfTheRungIsShown) {
  AppModel model = model_with_recorded_data("warptile");
  TuningModel& tuning = model.tuning();
  tuning.request_study();
  const ShownStudy* study = tuning.study();
  if (study == nullptr && !std::filesystem::exists(std::filesystem::path(GEMMLAB_SOURCE_DIR) / "assets/tuning/h100"))
    GTEST_SKIP() << "no recorded studies in this checkout";
  ASSERT_NE(study, nullptr) << tuning.message();
  EXPECT_EQ(study->report.options.rung, RungId::WarpTile);
  EXPECT_NE(study->source.find("assets/tuning/h100/warptile.json"), std::string::npos) << study->source;
  model.select_rung(RungId::NaiveUncoalesced);  // no study recorded for a rung of two knobs
  tuning.request_study();
  EXPECT_EQ(tuning.study(), nullptr);
  EXPECT_NE(tuning.message().find("no recorded study"), std::string::npos) << tuning.message();
}

TEST(TuningModel, RanksTheRungByTheModelWithoutAGpuAtTheSizeTyped) {
  Settings s;
  s.rung = "tma-wgmma";
  AppModel model(options(s));
  TuningModel& tuning = model.tuning();
  settle(model);
  EXPECT_EQ(tuning.ranking(), nullptr);
  tuning.rank_by_model();
  settle(model);
  const TuningModel::Ranking* ranking = tuning.ranking();
  ASSERT_NE(ranking, nullptr);
  ASSERT_FALSE(ranking->best.empty());
  EXPECT_LE(ranking->best.size(), TuningModel::kRankingShown);
  EXPECT_EQ(ranking->best.front().model_rank, 1);
  EXPECT_GE(ranking->space, ranking->ranked);
  for (std::size_t i = 1; i < ranking->best.size(); ++i)
    EXPECT_LE(ranking->best[i - 1].predicted_seconds, ranking->best[i].predicted_seconds);
  // Another size: the ranking is of the old one, so it is not shown.
  model.set_problem(512, 256, 256);
  settle(model);
  EXPECT_EQ(tuning.ranking(), nullptr);
}

}  // namespace
}  // namespace gemmlab::desktop
