// Measured results as the ladder and the charts use them: the recorded file loads, rows are matched to exactly the
// configuration that was compiled and timed, and a damaged file is an error, not a crash.
#include "model/bench_results.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "gemmlab/gpu/instances.hpp"
#include "gemmlab/sim/rung_model.hpp"

namespace gemmlab::desktop {
namespace {

gpu::BenchReport report_with(RungId rung, const kernel::KernelConfig& config, gpu::Shape shape, double tflops) {
  gpu::BenchReport report;
  gpu::BenchRow row;
  row.name = std::string(rung_info(rung).slug);
  row.kernel = gpu::GpuInstance{rung, config};
  row.config = gpu::instance_label(*row.kernel);
  row.shape = shape;
  row.tflops = tflops;
  report.rows.push_back(row);
  gpu::BenchRow cublas;
  cublas.name = "cublas";
  cublas.config = "CUBLAS_COMPUTE_32F";
  cublas.shape = shape;
  cublas.tflops = 40.0;
  report.rows.push_back(cublas);
  return report;
}

TEST(BenchResults, MatchesTheConfigurationAtTheShape) {
  const auto config = sim::rung_model(RungId::Vectorized).defaults;
  const auto report = report_with(RungId::Vectorized, config, {1024, 1024, 1024}, 9.5);
  const gpu::BenchRow* row = find_measured(report, RungId::Vectorized, config, {1024, 1024, 1024});
  ASSERT_NE(row, nullptr);
  EXPECT_DOUBLE_EQ(row->tflops, 9.5);
  EXPECT_EQ(find_measured(report, RungId::Vectorized, config, {2048, 2048, 2048}), nullptr);  // other size
  EXPECT_EQ(find_measured(report, RungId::DoubleBuffer, config, {1024, 1024, 1024}), nullptr);  // other rung
  auto padded = config;
  padded.a_pad = 4;  // compiled too, but not in this report
  EXPECT_EQ(find_measured(report, RungId::Vectorized, padded, {1024, 1024, 1024}), nullptr);
  auto odd = config;
  odd.bm = 64;  // not in this report
  EXPECT_EQ(find_measured(report, RungId::Vectorized, odd, {1024, 1024, 1024}), nullptr);
  // A configuration the build does not compile, timed after a run-time compile, is found like any other.
  const auto compiled_at_run_time = report_with(RungId::Vectorized, odd, {1024, 1024, 1024}, 7.0);
  ASSERT_NE(find_measured(compiled_at_run_time, RungId::Vectorized, odd, {1024, 1024, 1024}), nullptr);
  ASSERT_NE(find_cublas(report, {1024, 1024, 1024}), nullptr);
  EXPECT_EQ(find_cublas(report, {4096, 4096, 4096}), nullptr);
}

TEST(BenchResults, TheRecordedFileLoadsFromTheSourceTree) {
  auto recorded = load_recorded_results({GEMMLAB_SOURCE_DIR});
  if (!recorded && !std::filesystem::exists(std::filesystem::path(GEMMLAB_SOURCE_DIR) / "assets/results/h100.json"))
    GTEST_SKIP() << "no recorded results in this checkout";
  ASSERT_TRUE(recorded.ok()) << recorded.error().message;
  EXPECT_FALSE(recorded->report.rows.empty());
  EXPECT_NE(recorded->source.find("h100.json"), std::string::npos);
}

TEST(BenchResults, MissingRecordedResultsSayWhereTheyWereLookedFor) {
  auto recorded = load_recorded_results({"/nonexistent/gemmlab"});
  ASSERT_FALSE(recorded.ok());
  EXPECT_NE(recorded.error().message.find("assets/results/h100.json"), std::string::npos);
}

TEST(BenchResults, SaveThenLoadAndADamagedFileIsAnError) {
  const auto dir = std::filesystem::temp_directory_path() / ("gemmlab-results-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto config = sim::rung_model(RungId::CpAsync).defaults;
  const auto report = report_with(RungId::CpAsync, config, {2048, 2048, 2048}, 12.25);
  ASSERT_TRUE(save_results_file(dir / "r.json", report).ok());
  auto loaded = load_results_file(dir / "r.json");
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  const gpu::BenchRow* row = find_measured(loaded->report, RungId::CpAsync, config, {2048, 2048, 2048});
  ASSERT_NE(row, nullptr);
  EXPECT_DOUBLE_EQ(row->tflops, 12.25);
  {
    std::ofstream out(dir / "bad.json");
    out << "{\"rows\": [1, 2";
  }
  auto bad = load_results_file(dir / "bad.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("bad.json"), std::string::npos);
}

}  // namespace
}  // namespace gemmlab::desktop
