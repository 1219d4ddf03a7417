// Verification and the benchmark where they cannot run: an error that says why, never a crash. A device index that
// does not exist gives the same answer on every machine (no toolkit, no driver, or no such device).
#include <gtest/gtest.h>

#include "gemmlab/gpu/bench.hpp"
#include "gemmlab/gpu/device.hpp"
#include "gemmlab/gpu/verify.hpp"

namespace gemmlab::gpu {
namespace {

void expect_no_device_reason(const Error& error) {
  const std::string& m = error.message;
  if (!built_with_cuda()) {
    EXPECT_EQ(m.rfind("no CUDA toolkit in this build", 0), 0u) << m;
  } else {
    const bool explained = m.rfind("no CUDA device", 0) == 0 || m.rfind("there is no CUDA device 99", 0) == 0;
    EXPECT_TRUE(explained) << m;
  }
}

TEST(NoDevice, VerifyOnAMissingDeviceIsAnError) {
  VerifyOptions options;
  options.device = 99;
  options.shapes = {{8, 8, 8}};
  const auto report = verify(options);
  ASSERT_FALSE(report);
  expect_no_device_reason(report.error());
}

TEST(NoDevice, BenchOnAMissingDeviceIsAnError) {
  BenchOptions options;
  options.device = 99;
  options.shapes = {{64, 64, 64}};
  const auto report = run_bench(options);
  ASSERT_FALSE(report);
  expect_no_device_reason(report.error());
}

}  // namespace
}  // namespace gemmlab::gpu
