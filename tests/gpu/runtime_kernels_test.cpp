// Configurations the build did not compile, compiled at run time and checked on the GPU like the build's own (label
// "gpu"): an FP32 rung, a 16-bit mma.sync rung and a Hopper rung, each at sizes with partial tiles; and the build's
// own defaults compiled at run time (GEMMLAB_COMPILE_AT_RUN_TIME=1) pass the same checks.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>

#include "gemmlab/gpu/instances.hpp"
#include "gemmlab/gpu/runtime_compile.hpp"
#include "gemmlab/gpu/verify.hpp"
#include "gemmlab/sim/rung_model.hpp"
#include "gemmlab/sim/simulate.hpp"
#include "gemmlab/sim/tuning.hpp"

namespace gemmlab::gpu {
namespace {

// The kernel cache of this test run: a fresh folder, so that every configuration is compiled here at least once.
class FreshKernelCache : public testing::Test {
 protected:
  void SetUp() override {
    if (auto ok = runtime_compiler_available(); !ok) GTEST_SKIP() << ok.error().message;
    if (const char* old = std::getenv("GEMMLAB_KERNEL_CACHE")) old_cache_ = old;
    dir_ = std::filesystem::temp_directory_path() / ("gemmlab-runtime-kernels-" + std::to_string(::getpid()));
    setenv("GEMMLAB_KERNEL_CACHE", dir_.string().c_str(), 1);
  }
  void TearDown() override {
    if (old_cache_) setenv("GEMMLAB_KERNEL_CACHE", old_cache_->c_str(), 1);
    else unsetenv("GEMMLAB_KERNEL_CACHE");
    unsetenv("GEMMLAB_COMPILE_AT_RUN_TIME");
    std::filesystem::remove_all(dir_);
  }
  std::filesystem::path dir_;
  std::optional<std::string> old_cache_;
};

// The first configuration of the rung's tuning space that the build did not compile.
GpuInstance first_uncompiled(RungId rung) {
  for (const auto& config : sim::tuning_space(rung, {256, 256, 256}, {}))
    if (!find_gpu_instance(rung, config)) return {rung, config};
  ADD_FAILURE() << rung_info(rung).slug << " has no uncompiled configuration";
  return {rung, sim::rung_model(rung).defaults};
}

std::string failures(const VerifyReport& report) {
  std::string out;
  for (const auto& row : report.rows)
    if (row.result.status != CheckStatus::Passed)
      out += std::string(rung_info(row.kernel.rung).slug) + " (" + instance_label(row.kernel) + ") at " +
             to_string(row.shape) + ": " + row.result.message + "\n";
  return out;
}

void expect_all_pass(const VerifyOptions& options) {
  const auto report = verify(options);
  ASSERT_TRUE(report) << report.error().message;
  std::size_t expected = 0;
  for (const auto& kernel : options.kernels) expected += 2 * options.shapes.size() * sim::input_types(kernel.rung, kernel.config).size();
  EXPECT_EQ(report->rows.size(), expected);
  EXPECT_EQ(report->passed, static_cast<int>(expected)) << failures(*report);
}

TEST_F(FreshKernelCache, UncompiledConfigurationsPassAtEdgeSizes) {
  VerifyOptions options;
  for (const RungId rung : {RungId::WarpTile, RungId::MmaMultistage, RungId::TmaWgmmaSpecialized})
    options.kernels.push_back(first_uncompiled(rung));
  for (const auto& k : options.kernels) EXPECT_FALSE(find_gpu_instance(k.rung, k.config));
  options.shapes = {{67, 40, 72}, {256, 128, 64}, {200, 304, 24}};
  expect_all_pass(options);
  // Rows that do not start on 16-byte boundaries: the 16-bit rung's other variant, compiled at run time too.
  options.kernels = {first_uncompiled(RungId::MmaMultistage)};
  options.shapes = {{67, 45, 33}, {33, 129, 1000}};
  expect_all_pass(options);
}

TEST_F(FreshKernelCache, TheBuildsDefaultsPassWhenCompiledAtRunTime) {
  setenv("GEMMLAB_COMPILE_AT_RUN_TIME", "1", 1);
  ASSERT_TRUE(compile_everything_at_run_time());
  VerifyOptions options;
  for (const RungId rung : {RungId::SmemEpilogue, RungId::MmaStagedEpilogue, RungId::TmaWgmmaMulticast})
    options.kernels.push_back({rung, sim::rung_model(rung).defaults});
  options.shapes = {{67, 40, 72}, {256, 128, 64}};
  expect_all_pass(options);
  EXPECT_FALSE(std::filesystem::is_empty(dir_));  // they were compiled here, not taken from the build
}

}  // namespace
}  // namespace gemmlab::gpu
