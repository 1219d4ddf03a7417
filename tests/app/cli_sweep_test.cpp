// gemmlab-cli sweep as a user meets it without a GPU: presets predicted, files written whole, bad shapes named.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "run_process.hpp"

namespace gemmlab {
namespace {

using test::run_cli;

TEST(CliSweep, ModelOnlyPresetWritesJsonAndCsvAndATablePerShape) {
  const auto dir = std::filesystem::temp_directory_path() / "gemmlab_cli_sweep_test";
  std::filesystem::create_directories(dir);
  const std::string json = (dir / "sweep.json").string(), csv = (dir / "sweep.csv").string();
  const auto r = run_cli(
      {"sweep", "--shapes", "llama3-8b-decode", "--rungs", "17,21", "--model-only", "--json", json, "--csv", csv});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("llama3-8b-decode down: 16 x 4096 x 14336"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("last wave"), std::string::npos);
  std::ifstream in(json);
  std::stringstream text;
  text << in.rdbuf();
  const auto report = nlohmann::json::parse(text.str());
  EXPECT_EQ(report["shapes"].size(), 8u);
  EXPECT_EQ(report["shapes"][0]["entries"].size(), 2u);
  EXPECT_TRUE(report["model_only"].get<bool>());
  std::ifstream lines(csv);
  int count = 0;
  for (std::string line; std::getline(lines, line);) ++count;
  EXPECT_EQ(count, 1 + 8 * 2);
  std::filesystem::remove_all(dir);
}

TEST(CliSweep, TunedListsTheModelsPicksUnderEachDefaultWithTheirRank) {
  const auto r = run_cli(
      {"sweep", "--shapes", "16x4096x14336", "--rungs", "22", "--tuned", "2", "--model-only", "--profile", "h200"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("default (model's "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(model's 1)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(model's 2)"), std::string::npos) << r.out;
  const auto negative = run_cli({"sweep", "--shapes", "64", "--tuned", "-1", "--model-only"});
  EXPECT_EQ(negative.exit_code, 2);
  const auto jobs_alone = run_cli({"sweep", "--shapes", "64", "--jobs", "4", "--model-only"});
  EXPECT_EQ(jobs_alone.exit_code, 2);
  EXPECT_NE(jobs_alone.err.find("--tuned"), std::string::npos) << jobs_alone.err;
  const auto rescore = run_cli({"sweep", "--rescore", "x.json", "--tuned", "2"});
  EXPECT_EQ(rescore.exit_code, 2);
  EXPECT_NE(rescore.err.find("excludes"), std::string::npos) << rescore.err;
}

// --order with several orders: each configuration's row says its order, and a shape whose grid refuses one of them
// (a single row of tiles and groupm:8) runs in the others; an order listed twice is a sentence, and nothing is written.
TEST(CliSweep, SeveralOrdersNameEachRowsOrder) {
  const auto r = run_cli({"sweep", "--shapes", "4096x6144x4096,16x4096x4096", "--rungs", "21", "--order",
                          "preferred,groupm:8", "--model-only", "--profile", "h200"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("block order preferred,groupm:8"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("default in hilbert"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("default in groupm:8"), std::string::npos) << r.out;
  const auto decode = r.out.find("16 x 4096 x 4096");
  ASSERT_NE(decode, std::string::npos);
  EXPECT_EQ(r.out.find("groupm:8", decode), std::string::npos) << r.out;
  const auto twice = run_cli({"sweep", "--shapes", "64", "--order", "row,hilbert,row", "--model-only"});
  EXPECT_EQ(twice.exit_code, 2);
  EXPECT_NE(twice.err.find("'row' is listed twice"), std::string::npos) << twice.err;
}

// --rescore predicts for the profile of the GPU the sweep was measured on unless --profile names another.
TEST(CliSweep, RescoreDefaultsToTheRecordedGpusProfile) {
  const std::string recorded = std::string(GEMMLAB_SOURCE_DIR) + "/docs/results-data/sweep/sweep-llm-bf16.json";
  const auto own = run_cli({"sweep", "--rescore", recorded});
  ASSERT_EQ(own.exit_code, 0) << own.err;
  EXPECT_EQ(nlohmann::json::parse(own.out)["profile"]["id"], "h200-sxm");
  const auto named = run_cli({"sweep", "--rescore", recorded, "--profile", "h100"});
  ASSERT_EQ(named.exit_code, 0) << named.err;
  EXPECT_EQ(nlohmann::json::parse(named.out)["profile"]["id"], "h100-sxm");
}

TEST(CliSweep, BadShapesAreUsageErrorsThatSayWhat) {
  const auto preset = run_cli({"sweep", "--shapes", "llama9", "--model-only"});
  EXPECT_EQ(preset.exit_code, 2);
  EXPECT_NE(preset.err.find("unknown shape preset 'llama9'"), std::string::npos) << preset.err;
  const auto none = run_cli({"sweep", "--model-only"});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("give --shapes"), std::string::npos) << none.err;
  const auto missing = run_cli({"sweep", "--shapes-file", "/nonexistent/shapes.txt", "--model-only"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("--shapes-file"), std::string::npos) << missing.err;
}

TEST(CliCublas, Fp32IsAUsageErrorAndNoGpuASentence) {
  const auto fp32 = run_cli({"cublas", "--input", "fp32"});
  EXPECT_EQ(fp32.exit_code, 2);
  EXPECT_NE(fp32.err.find("fp16 or bf16"), std::string::npos) << fp32.err;
  const auto r = run_cli({"cublas", "--m", "16", "--n", "4096", "--k", "14336"});
  if (r.exit_code == 0) GTEST_SKIP() << "a GPU is present: the GPU tests check the decoding";
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("gemmlab-cli: cublas: "), std::string::npos) << r.err;
}

}  // namespace
}  // namespace gemmlab
