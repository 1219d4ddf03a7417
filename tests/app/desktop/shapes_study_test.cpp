// The Shapes panel's model (app/desktop/model/shapes_study.cpp): a sweep predicted here, the recorded one read back,
// and bad input that changes nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "model/shapes_study.hpp"

namespace gemmlab::desktop {
namespace {

TEST(ShapesStudy, PredictsTheShapesTypedWithoutAGpu) {
  ShapesStudy study;
  study.set_shapes_text("16x4096x14336,llama3-8b-prefill");
  ASSERT_TRUE(study.predict(*sim::find_device("h100")));
  ASSERT_EQ(study.rows().size(), 1u + 4u);
  const ShapeRow& decode = study.rows()[0];
  EXPECT_EQ(decode.m, 16);
  EXPECT_FALSE(decode.best_rung.empty());
  EXPECT_GT(decode.predicted_tflops, 0.0);
  EXPECT_FALSE(decode.measured_tflops);
  EXPECT_LT(decode.last_wave_tiles, decode.concurrent_blocks);  // a few tiles on 132 SMs
  EXPECT_FALSE(study.measured());
  EXPECT_NE(study.source().find("predicted by the model"), std::string::npos);
}

// With picks (gemmlab-cli sweep --tuned): the model's best configuration of each shape may be another than a default,
// and the row names it; the count is kept in its range.
TEST(ShapesStudy, ThePicksOfTheModelNameTheConfigurationThatWins) {
  ShapesStudy study;
  study.set_tuned(99);
  EXPECT_EQ(study.tuned(), ShapesStudy::kMaxTuned);
  study.set_tuned(-1);
  EXPECT_EQ(study.tuned(), 0);
  study.set_tuned(2);
  study.set_shapes_text("16x4096x14336");
  ASSERT_TRUE(study.predict(*sim::find_device("h200")));
  ASSERT_EQ(study.rows().size(), 1u);
  EXPECT_NE(study.source().find("2 configurations of each the model ranks fastest"), std::string::npos)
      << study.source();
  const auto predicted = ShapesStudy::predict_report("16x4096x14336", 0, *sim::find_device("h200"));
  ASSERT_TRUE(predicted);
  const auto defaults_only = ShapesStudy::rows_of(predicted->json);
  ASSERT_TRUE(defaults_only);
  EXPECT_EQ(defaults_only->front().best_config, "default");
  // The picks include the Hopper rungs' defaults, the fastest predicted here, so the best of them is predicted at
  // least as fast.
  EXPECT_GE(study.rows().front().predicted_tflops, defaults_only->front().predicted_tflops);
}

TEST(ShapesStudy, ReadsTheRecordedSweepWithItsMeasurements) {
  ShapesStudy study;
  ASSERT_TRUE(study.load_report(std::filesystem::path(GEMMLAB_SOURCE_DIR) / kRecordedSweep)) << study.error();
  EXPECT_EQ(study.rows().size(), 38u);
  EXPECT_TRUE(study.measured());
  for (const ShapeRow& row : study.rows()) {
    ASSERT_TRUE(row.measured_tflops) << row.label;
    EXPECT_TRUE(row.cublas_tflops) << row.label;
    EXPECT_FALSE(row.cublas_runs.empty()) << row.label;
  }
  EXPECT_NE(study.source().find("NVIDIA H200"), std::string::npos) << study.source();
  // The recorded sweep timed the model's picks beside the defaults (--tuned): where one won, the row names it.
  EXPECT_TRUE(std::ranges::any_of(study.rows(), [](const ShapeRow& row) { return row.best_config != "default"; }));
}

// A sweep of several launch orders (sweep --order preferred,groupm:8): the row names the order its best ran in; a
// sweep of one order does not.
TEST(ShapesStudy, TheBestOfSeveralOrdersNamesItsOrder) {
  const auto report = [](const char* orders) {
    return std::string(R"({"schema": "gemmlab-sweep-1", "order": ")") + orders + R"(", "shapes": [{"label": "s",
      "m": 4096, "n": 4096, "k": 4096, "entries": [
      {"rung": "tma-wgmma-hilbert", "config": "default", "order": "hilbert", "predicted_tflops": 700,
       "measured": {"status": "timed", "tflops": 740, "ratio_to_cublas": 0.98}},
      {"rung": "tma-wgmma-hilbert", "config": "default", "order": "groupm:8", "predicted_tflops": 700,
       "measured": {"status": "timed", "tflops": 760, "ratio_to_cublas": 1.01}}]}]})";
  };
  const auto several = ShapesStudy::rows_of(report("preferred,groupm:8"));
  ASSERT_TRUE(several) << several.error().message;
  EXPECT_EQ(several->front().best_config, "default in groupm:8");
  EXPECT_EQ(several->front().ratio_to_cublas, 1.01);
  const auto one = ShapesStudy::rows_of(report("groupm:8"));
  ASSERT_TRUE(one) << one.error().message;
  EXPECT_EQ(one->front().best_config, "default");
}

TEST(ShapesStudy, BadInputSaysWhyAndKeepsWhatWasShown) {
  ShapesStudy study;
  ASSERT_TRUE(study.predict(*sim::find_device("h100")));
  const std::size_t shown = study.rows().size();
  study.set_shapes_text("llama9");
  EXPECT_FALSE(study.predict(*sim::find_device("h100")));
  EXPECT_NE(study.error().find("unknown shape preset"), std::string::npos);
  EXPECT_EQ(study.rows().size(), shown);
  const auto path = std::filesystem::temp_directory_path() / "gemmlab_not_a_sweep.json";
  std::ofstream(path) << "{\"schema\": \"gemmlab-bench-1\"}";
  EXPECT_FALSE(study.load_report(path));
  EXPECT_NE(study.error().find("not a sweep's report"), std::string::npos);
  EXPECT_EQ(study.rows().size(), shown);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace gemmlab::desktop
