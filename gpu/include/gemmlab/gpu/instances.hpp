#pragma once
// The configurations that exist as compiled GPU kernels, expanded from instances.def. Plain C++: the stub build and
// the desktop app read the same list as the CUDA build, so every face can say "this configuration also runs on the
// GPU" without a toolkit.
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "gemmlab/kernel/config.hpp"
#include "gemmlab/kernel/rung_kernels.hpp"
#include "gemmlab/rungs.hpp"

// Declared only (gemmlab/sim/occupancy.hpp, device_profile.hpp), so that the kernels' compiles do not depend on them.
namespace gemmlab::sim {
struct RegisterCount;
struct DeviceProfile;
struct CompiledFacts;
}  // namespace gemmlab::sim

namespace gemmlab::gpu {

// A rung and a configuration of it: an instance of the list below, or any configuration to compile at run time.
struct GpuInstance {
  RungId rung;
  kernel::KernelConfig config;
  bool operator==(const GpuInstance& other) const;  // the same rung and every knob the same
};

inline constexpr GpuInstance kGpuInstances[] = {
#define GEMMLAB_GPU_INSTANCE(rung, ...) \
  {RungId::rung, kernel::with_overrides(kernel::KernelOf<RungId::rung>::type::defaults(), kernel::KnobOverrides __VA_ARGS__)},
#include "gemmlab/gpu/instances.def"
#undef GEMMLAB_GPU_INSTANCE
};

// Every compiled instance, in instances.def order (the index is the instance's identity in this build).
std::span<const GpuInstance> gpu_instances();

// The index of the instance with this rung and configuration, if there is one.
std::optional<std::size_t> find_gpu_instance(RungId rung, const kernel::KernelConfig& config);

// True where the instance's configuration is the rung's default (sim::rung_model(rung).defaults).
bool is_default_instance(const GpuInstance& instance);

// "default", or the knobs that differ from the rung's defaults: "stages=2", "conflicting=1 a_pad=1".
std::string instance_label(const GpuInstance& instance);

// The registers per thread that ptxas gave the compiled instance with this rung and configuration when this build
// compiled it for `compute_capability` ("9.0", as device profiles write it; empty: any architecture it compiled),
// recorded at build time, never typed by hand. std::nullopt for a configuration that is not compiled or not for that
// architecture, and everywhere in a build without CUDA.
std::optional<int> compiled_registers(RungId rung, const kernel::KernelConfig& config,
                                      std::string_view compute_capability = {});

// For sim::predict_schedule on `device`: compiled_registers for the device's compute capability (measured); for a
// configuration that is not compiled, the nearest compiled configuration of the same rung plus the difference the
// simulator's estimate sees between the two (estimated, and said so). std::nullopt where the rung has no compiled
// configuration for the device (and in a build without CUDA), where the simulator estimates alone.
std::optional<sim::RegisterCount> measured_registers(RungId rung, const kernel::KernelConfig& config,
                                                     const sim::DeviceProfile& device);

// Everything sim::predict_schedule takes from the build's compile for `device`: measured_registers, and the SASS
// regions of the configuration's kernel for the device's compute capability, or those of the nearest compiled
// configuration of the rung (CompiledCode::estimated). No code where the build recorded no SASS (no cuobjdump, the
// stub build) or compiled nothing for the device.
sim::CompiledFacts compiled_facts(RungId rung, const kernel::KernelConfig& config, const sim::DeviceProfile& device);

// Field-by-field equality over every knob of KernelConfig.
bool same_config(const kernel::KernelConfig& a, const kernel::KernelConfig& b);

}  // namespace gemmlab::gpu
