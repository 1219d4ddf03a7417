// The benchmark library on the GPU (label "gpu"): it verifies, times and compares with cuBLAS, reports its
// progress, and stops when asked. Speed itself is not asserted here (timed numbers belong to `gemmlab-cli bench`).
#include <gtest/gtest.h>

#include "gemmlab/gpu/bench.hpp"

namespace gemmlab::gpu {
namespace {

BenchOptions small_options() {
  BenchOptions options;
  options.rungs = {RungId::BlockTile2D, RungId::CpAsync};
  options.shapes = {{512, 512, 512}, {300, 200, 100}};
  options.runs = 5;
  return options;
}

TEST(Bench, TimesCublasAndEveryRungAfterVerifyingThem) {
  std::size_t calls = 0, last_total = 0;
  const auto report = run_bench(small_options(), [&](const BenchProgress& p) {
    ++calls;
    last_total = p.total;
  });
  ASSERT_TRUE(report) << report.error().message;
  ASSERT_EQ(report->rows.size(), 6u);  // (cuBLAS + 2 rungs) x 2 shapes
  EXPECT_EQ(report->rows[0].name, "cublas");
  for (const auto& row : report->rows) {
    EXPECT_EQ(row.status, BenchStatus::Timed) << row.name << ": " << row.message;
    // cuBLAS's row: its runs beside the two rungs' (5 each).
    EXPECT_EQ(row.runs, row.name == "cublas" ? 10 : 5);
    EXPECT_GT(row.tflops, 0.0);
    EXPECT_GT(row.ratio_to_cublas, 0.0);
    EXPECT_LE(row.min_ms, row.median_ms);
    EXPECT_LE(row.median_ms, row.max_ms);
  }
  EXPECT_DOUBLE_EQ(report->rows[0].ratio_to_cublas, 1.0);
  EXPECT_FALSE(report->device.name.empty());
  EXPECT_FALSE(report->software.cublas.empty());
  EXPECT_EQ(report->date_utc.size(), 20u);  // 2026-01-02T03:04:05Z
  EXPECT_GE(report->buffer_sets_max, 2);    // 512^3 inputs are far smaller than L2: rotated
  EXPECT_EQ(last_total, 6u);
  EXPECT_GE(calls, 6u);
  EXPECT_TRUE(report->queued);  // the runs went behind the stream's gate
}

TEST(Bench, HeldKernelsRunAloneAndCompareWithCublasOwnRow) {
  BenchOptions options = small_options();
  options.shapes = {{512, 512, 512}};
  options.hold_seconds = 0.2;
  const auto report = run_bench(options);
  ASSERT_TRUE(report) << report.error().message;
  EXPECT_DOUBLE_EQ(report->hold_seconds, 0.2);
  ASSERT_EQ(report->rows.size(), 3u);
  const BenchRow& cublas = report->rows[0];
  ASSERT_EQ(cublas.status, BenchStatus::Timed) << cublas.message;
  EXPECT_EQ(cublas.runs, 5);  // its own runs: none alternated with a kernel's
  for (std::size_t i = 1; i < report->rows.size(); ++i) {
    const BenchRow& row = report->rows[i];
    ASSERT_EQ(row.status, BenchStatus::Timed) << row.message;
    EXPECT_EQ(row.cublas_paired_ms, 0.0);
    EXPECT_NEAR(row.ratio_to_cublas, cublas.median_ms / row.median_ms, 1e-12);
  }
  const auto again = parse_bench_report_json(bench_report_json(*report));
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_DOUBLE_EQ(again->hold_seconds, 0.2);
  EXPECT_TRUE(again->queued);
  options.hold_seconds = -1;
  EXPECT_FALSE(run_bench(options));
}

TEST(Bench, UnqueuedRunsAreTimedAsTheHostSubmitsThemAndSaySo) {
  BenchOptions options = small_options();
  options.shapes = {{512, 512, 512}};
  options.runs = 3;
  options.queued = false;
  const auto report = run_bench(options);
  ASSERT_TRUE(report) << report.error().message;
  EXPECT_FALSE(report->queued);
  for (const auto& row : report->rows) EXPECT_EQ(row.status, BenchStatus::Timed) << row.name << ": " << row.message;
  const auto again = parse_bench_report_json(bench_report_json(*report));
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_FALSE(again->queued);
}

TEST(Bench, TensorCoreRungsAreComparedWithCublasOnTheirOwnInputType) {
  BenchOptions options;
  options.rungs = {RungId::MmaSwizzled};
  options.shapes = {{512, 512, 512}};
  options.runs = 3;
  const auto report = run_bench(options);
  ASSERT_TRUE(report) << report.error().message;
  ASSERT_EQ(report->rows.size(), 4u);  // per input type (FP16, then BF16): cuBLAS, then the rung
  EXPECT_EQ(report->rows[0].input, kernel::InputType::F16);
  EXPECT_EQ(report->rows[2].input, kernel::InputType::BF16);
  for (std::size_t i = 0; i < 4; i += 2) {
    const BenchRow& cublas = report->rows[i];
    const BenchRow& rung = report->rows[i + 1];
    EXPECT_EQ(cublas.name, "cublas");
    EXPECT_EQ(cublas.config, cublas_label(cublas.input));
    EXPECT_EQ(rung.input, cublas.input);
    ASSERT_EQ(rung.status, BenchStatus::Timed) << rung.message;
    ASSERT_EQ(cublas.status, BenchStatus::Timed) << cublas.message;
    EXPECT_DOUBLE_EQ(cublas.ratio_to_cublas, 1.0);
    EXPECT_EQ(cublas.cublas_paired_ms, 0.0);
    // The ratio is to the cuBLAS runs that alternated with the rung's.
    ASSERT_GT(rung.cublas_paired_ms, 0.0);
    EXPECT_NEAR(rung.ratio_to_cublas, rung.cublas_paired_ms / rung.median_ms, 1e-12);
    EXPECT_DOUBLE_EQ(rung.cublas_paired_ms, cublas.median_ms);  // cuBLAS's row: its runs beside the one rung
  }
}

TEST(Bench, StopsWhenCancelled) {
  std::atomic<bool> cancel{false};
  const auto report = run_bench(small_options(), [&](const BenchProgress& p) {
    if (p.done >= 2) cancel = true;
  }, &cancel);
  ASSERT_TRUE(report) << report.error().message;
  EXPECT_TRUE(report->cancelled);
  EXPECT_EQ(report->rows.size(), 2u);
}

TEST(Bench, AProblemLargerThanTheGpuIsAClearErrorAndTheGpuStaysUsable) {
  // 120000^3 (inside gemmlab's 2^34 elements per matrix): A, B, two Cs and the FP64 reference are 288 GB, more than
  // any single GPU of today holds; the first allocation that fails names itself, and the next run on the same device
  // works.
  BenchOptions huge = small_options();
  huge.shapes = {{120000, 120000, 120000}};
  const auto failed = run_bench(huge);
  ASSERT_FALSE(failed);
  EXPECT_NE(failed.error().message.find("out of GPU memory"), std::string::npos) << failed.error().message;
  const auto after = run_bench(small_options());
  ASSERT_TRUE(after) << after.error().message;
  EXPECT_EQ(after->rows.size(), 6u);
}

}  // namespace
}  // namespace gemmlab::gpu
