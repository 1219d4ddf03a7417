// Every compiled rung kernel against the FP64 reference on the GPU (label "gpu"): odd sizes in every dimension,
// beta = 0 with C poisoned and beta != 0 with C random (both cases run for every shape, see verify.hpp), and every
// block order. The CLI's `verify` runs the same checks over larger sizes.
#include <gtest/gtest.h>

#include "gemmlab/gpu/instances.hpp"
#include "gemmlab/gpu/verify.hpp"
#include "gemmlab/sim/launch_order.hpp"

namespace gemmlab::gpu {
namespace {

std::string failures(const VerifyReport& report) {
  std::string out;
  for (const auto& row : report.rows)
    if (row.result.status != CheckStatus::Passed)
      out += std::string(rung_info(gpu_instances()[row.instance].rung).slug) + " " +
             instance_label(gpu_instances()[row.instance]) + " at " + to_string(row.shape) + " beta=" +
             std::to_string(row.beta) + ": " + row.result.message + "\n";
  return out;
}

void expect_all_pass(const VerifyOptions& options, std::size_t expected_rows) {
  const auto report = verify(options);
  ASSERT_TRUE(report) << report.error().message;
  EXPECT_EQ(report->rows.size(), expected_rows);
  EXPECT_EQ(report->failed, 0) << failures(*report);
  EXPECT_EQ(report->refused, 0) << failures(*report);
  EXPECT_EQ(report->passed, static_cast<int>(expected_rows));
}

TEST(Kernels, EveryDefaultPassesAtEdgeSizes) {
  VerifyOptions options;
  options.shapes = {{1, 1, 1}, {7, 7, 7}, {67, 45, 33}, {130, 260, 36}, {33, 129, 1000}};
  const auto defaults = select_instances({}, false);
  ASSERT_TRUE(defaults);
  expect_all_pass(options, options.shapes.size() * 2 * defaults->size());
}

TEST(Kernels, EveryCompiledConfigurationPasses) {
  VerifyOptions options;
  options.all_instances = true;
  options.shapes = {{67, 45, 33}, {256, 128, 64}, {200, 300, 20}};
  expect_all_pass(options, options.shapes.size() * 2 * gpu_instances().size());
}

TEST(Kernels, EveryBlockOrderCoversEveryTile) {
  // An order that skipped or repeated a tile would leave NaN in C (or race on it).
  for (const char* text : {"col", "cutlass:2", "cutlass:8", "groupm:3"}) {
    VerifyOptions options;
    options.order = *sim::parse_order(text);
    options.shapes = {{300, 500, 24}};
    const auto defaults = select_instances({}, false);
    ASSERT_TRUE(defaults);
    SCOPED_TRACE(text);
    expect_all_pass(options, 2 * defaults->size());
  }
}

TEST(Kernels, FreshInputsAreDrawnForEverySeed) {
  // The same check with two seeds: both pass, so a kernel is not right only for one set of numbers.
  for (const std::uint64_t seed : {1u, 99u}) {
    VerifyOptions options;
    options.seed = seed;
    options.rungs = {RungId::CpAsync};
    options.shapes = {{129, 131, 77}};
    expect_all_pass(options, 2);
  }
}

}  // namespace
}  // namespace gemmlab::gpu
