// The registers of compiled instances come from the build (ptxas's report, recorded by scripts/kernel_resources.py):
// every instance has a count in a CUDA build, a configuration that is not compiled has none, and a build without
// CUDA has none at all.
#include <gtest/gtest.h>

#include "gemmlab/gpu/device.hpp"
#include "gemmlab/gpu/instances.hpp"
#include "gemmlab/sim/device_profile.hpp"
#include "gemmlab/sim/occupancy.hpp"
#include "gemmlab/sim/rung_model.hpp"

namespace gemmlab::gpu {
namespace {

TEST(CompiledRegisters, EveryInstanceHasItsCountInACudaBuild) {
  for (const auto& instance : gpu_instances()) {
    const auto registers = compiled_registers(instance.rung, instance.config);
    const std::string name = std::string(rung_info(instance.rung).slug) + " " + instance_label(instance);
    if (!built_with_cuda()) {
      EXPECT_FALSE(registers.has_value()) << name << ": a build without CUDA compiled nothing";
      continue;
    }
    ASSERT_TRUE(registers.has_value()) << name << ": no count recorded from ptxas";
    EXPECT_GT(*registers, 0) << name;
    EXPECT_LE(*registers, 255) << name << ": more than a thread can have";
  }
}

TEST(CompiledRegisters, ConfigurationsThatAreNotCompiledHaveNone) {
  kernel::KernelConfig padded = sim::rung_model(RungId::BlockTile2D).defaults;
  padded.a_pad = 2;
  ASSERT_FALSE(find_gpu_instance(RungId::BlockTile2D, padded).has_value());
  EXPECT_FALSE(compiled_registers(RungId::BlockTile2D, padded).has_value());
  // The same configuration under another rung is another kernel.
  EXPECT_FALSE(compiled_registers(RungId::Vectorized, sim::rung_model(RungId::WarpTile).defaults).has_value());
  // Compiled, but not for this architecture: no one ran ptxas for a compute capability 1.0 device.
  EXPECT_FALSE(compiled_registers(RungId::BlockTile2D, sim::rung_model(RungId::BlockTile2D).defaults, "1.0"));
}

TEST(CompiledRegisters, MeasuredRegistersAreTheCountForTheDevicesArchitecture) {
  for (const auto id : sim::builtin_device_ids()) {
    const auto device = sim::find_device(id);
    ASSERT_TRUE(device) << id;
    for (const auto& instance : gpu_instances()) {
      const auto recorded = compiled_registers(instance.rung, instance.config, device->compute_capability);
      const auto measured = measured_registers(instance.rung, instance.config, *device);
      ASSERT_EQ(measured.has_value(), recorded.has_value()) << id;
      if (!measured) continue;
      EXPECT_EQ(measured->per_thread, *recorded);
      EXPECT_EQ(measured->source, sim::RegisterSource::Measured);
    }
  }
}

}  // namespace
}  // namespace gemmlab::gpu
