// Every compiled rung kernel against the FP64 reference on the GPU (label "gpu"): odd sizes in every dimension,
// beta = 0 with C poisoned and beta != 0 with C random (both cases run for every shape, see verify.hpp), and every
// block order. The CLI's `verify` runs the same checks over larger sizes.
#include <gtest/gtest.h>

#include <algorithm>

#include "gemmlab/gpu/instances.hpp"
#include "gemmlab/gpu/verify.hpp"
#include "gemmlab/sim/launch_order.hpp"
#include "gemmlab/sim/rung_model.hpp"
#include "gemmlab/sim/simulate.hpp"

namespace gemmlab::gpu {
namespace {

std::string failures(const VerifyReport& report) {
  std::string out;
  for (const auto& row : report.rows)
    if (row.result.status != CheckStatus::Passed)
      out += std::string(rung_info(row.kernel.rung).slug) + " " + instance_label(row.kernel) + " at " + to_string(row.shape) + " beta=" +
             std::to_string(row.beta) + ": " + row.result.message + "\n";
  return out;
}

// The rungs with a GPU kernel, by the sizes they take: any size (the FP32 rungs, and rungs 15 and 16); n and k
// multiples of 8 (rungs 12 to 14); m and n multiples of 16 as well (wmma, which stores whole 16 x 16 blocks).
enum class Sizes { Any, AlignedRows, WholeBlocks };
std::vector<RungId> rungs_taking(Sizes sizes) {
  std::vector<RungId> out;
  for (const auto& rung : rungs()) {
    const auto& defaults = sim::rung_model(rung.id).defaults;
    const auto takes = [&](const sim::Problem& p) { return static_cast<bool>(sim::validate(rung.id, defaults, p)); };
    const Sizes its = takes({67, 45, 33}) ? Sizes::Any : takes({67, 40, 72}) ? Sizes::AlignedRows : Sizes::WholeBlocks;
    if (its == sizes && find_gpu_instance(rung.id, defaults)) out.push_back(rung.id);
  }
  return out;
}

// Checks per shape: 2 scalar cases for every selected instance and every input type it takes (FP16 and BF16 for the
// tensor-core rungs).
std::size_t checks_per_shape(const VerifyOptions& options) {
  const auto selected = select_instances(options.rungs, options.all_instances);
  EXPECT_TRUE(selected);
  std::size_t runs = 0;
  if (selected)
    for (const GpuInstance& i : *selected) runs += sim::input_types(i.rung, i.config).size();
  return 2 * runs;
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
  options.rungs = rungs_taking(Sizes::Any);
  ASSERT_TRUE(std::find(options.rungs.begin(), options.rungs.end(), RungId::MmaStagedEpilogue) != options.rungs.end());
  options.shapes = {{1, 1, 1}, {7, 7, 7}, {67, 45, 33}, {130, 260, 36}, {33, 129, 1000}, {67, 40, 33}, {67, 45, 72}};
  expect_all_pass(options, options.shapes.size() * checks_per_shape(options));
  // Rows copied with cp.async.16 (the tensor-core rungs' kernel for n and k multiples of 8).
  options.rungs = rungs_taking(Sizes::AlignedRows);
  for (const RungId rung : {RungId::MmaMultistage, RungId::MmaStagedEpilogue}) options.rungs.push_back(rung);
  options.shapes = {{1, 8, 8}, {7, 8, 8}, {67, 40, 72}, {130, 264, 40}, {33, 136, 1000}};
  expect_all_pass(options, options.shapes.size() * checks_per_shape(options));
  options.rungs = rungs_taking(Sizes::WholeBlocks);
  ASSERT_FALSE(options.rungs.empty());
  options.shapes = {{16, 16, 8}, {80, 48, 72}, {144, 272, 40}, {48, 144, 1000}};
  expect_all_pass(options, options.shapes.size() * checks_per_shape(options));
}

TEST(Kernels, EveryCompiledConfigurationPasses) {
  VerifyOptions options;
  options.all_instances = true;
  options.rungs = rungs_taking(Sizes::Any);
  options.shapes = {{67, 45, 33}, {256, 128, 64}, {200, 300, 20}};
  expect_all_pass(options, options.shapes.size() * checks_per_shape(options));
  options.rungs = rungs_taking(Sizes::AlignedRows);
  options.shapes = {{67, 40, 72}, {256, 128, 64}, {200, 304, 24}};
  expect_all_pass(options, options.shapes.size() * checks_per_shape(options));
  options.rungs = rungs_taking(Sizes::WholeBlocks);
  options.shapes = {{80, 48, 72}, {256, 128, 64}, {208, 304, 24}};
  expect_all_pass(options, options.shapes.size() * checks_per_shape(options));
}

TEST(Kernels, EveryBlockOrderCoversEveryTile) {
  // An order that skipped or repeated a tile would leave NaN in C (or race on it).
  for (const char* text : {"col", "cutlass:2", "cutlass:8", "groupm:3"}) {
    VerifyOptions options;
    options.order = *sim::parse_order(text);
    options.shapes = {{304, 528, 24}};  // partial tiles in m and n, taken by every rung (wmma's 16 x 16 blocks too)
    SCOPED_TRACE(text);
    expect_all_pass(options, checks_per_shape(options));
  }
}

TEST(Kernels, InputTypesARungDoesNotTakeAreNotRun) {
  VerifyOptions options;
  options.rungs = {RungId::CpAsync};
  options.inputs = {kernel::InputType::F16};
  const auto report = verify(options);
  ASSERT_FALSE(report);  // cp-async takes FP32 only: nothing to run is an error, not an empty pass
  EXPECT_NE(report.error().message.find("input types"), std::string::npos) << report.error().message;
  options.rungs = {RungId::MmaSwizzled};
  options.shapes = {{67, 40, 72}};
  const auto fp16 = verify(options);
  ASSERT_TRUE(fp16) << fp16.error().message;
  EXPECT_EQ(fp16->rows.size(), 2u);
  for (const auto& row : fp16->rows) EXPECT_EQ(row.input, kernel::InputType::F16);
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
