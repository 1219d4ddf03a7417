// Without a GPU (or without CUDA in the build) the GPU library answers with an error that says why, never a crash.
#include <gtest/gtest.h>

#include <string>

#include "gemmlab/gpu/device.hpp"

namespace gemmlab::gpu {
namespace {

bool starts_with(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }

TEST(DeviceAbsent, ListDevicesSucceedsOrSaysWhy) {
  const auto devices = list_devices();
  if (devices) {
    EXPECT_FALSE(devices->empty());
  } else if (built_with_cuda()) {
    EXPECT_TRUE(starts_with(devices.error().message, "no CUDA device")) << devices.error().message;
  } else {
    EXPECT_TRUE(starts_with(devices.error().message, "no CUDA toolkit in this build")) << devices.error().message;
  }
}

TEST(DeviceAbsent, SelfTestOnAMissingDeviceIsAnError) {
  const auto devices = list_devices();
  const int missing = devices ? static_cast<int>(devices->size()) : 0;
  const auto status = launch_self_test(missing);
  ASSERT_FALSE(status);
  EXPECT_FALSE(status.error().message.empty());
}

TEST(DeviceAbsent, FormatsCudaVersions) {
  EXPECT_EQ(format_cuda_version(13000), "13.0");
  EXPECT_EQ(format_cuda_version(12080), "12.8");
}

}  // namespace
}  // namespace gemmlab::gpu
