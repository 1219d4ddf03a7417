#include "gemmlab/gpu/device.hpp"

#include <gtest/gtest.h>

namespace gemmlab::gpu {
namespace {

TEST(Device, ListsDevicesWithTheirResources) {
  const auto devices = list_devices();
  ASSERT_TRUE(devices) << devices.error().message;
  ASSERT_FALSE(devices->empty());
  for (const auto& d : *devices) {
    EXPECT_FALSE(d.name.empty());
    EXPECT_GT(d.sm_count, 0);
    EXPECT_GT(d.l2_bytes, 0);
    EXPECT_GE(d.smem_per_block_optin_bytes, d.smem_per_block_bytes);
    EXPECT_GT(d.registers_per_sm, 0);
    EXPECT_GT(d.sm_clock_max_mhz, 0);
  }
}

TEST(Device, ReportsDriverRuntimeAndCublasVersions) {
  const auto versions = software_versions();
  ASSERT_TRUE(versions) << versions.error().message;
  EXPECT_GT(versions->driver_cuda_version, 0);
  EXPECT_GT(versions->runtime_version, 0);
  EXPECT_FALSE(versions->cublas.empty());
}

TEST(Device, KernelsOfThisBuildRun) {
  const auto devices = list_devices();
  ASSERT_TRUE(devices) << devices.error().message;
  for (const auto& d : *devices) {
    const auto status = launch_self_test(d.index);
    EXPECT_TRUE(status) << d.name << ": " << status.error().message;
  }
}

}  // namespace
}  // namespace gemmlab::gpu
