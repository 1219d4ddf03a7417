// The instance list's queries; compiled in the CUDA and the stub build alike.
#include "gemmlab/gpu/instances.hpp"

#include "gemmlab/sim/rung_model.hpp"

namespace gemmlab::gpu {

std::span<const GpuInstance> gpu_instances() { return kGpuInstances; }

bool same_config(const kernel::KernelConfig& a, const kernel::KernelConfig& b) {
  for (const auto& knob : sim::all_knobs())
    if (a.*knob.field != b.*knob.field) return false;
  return true;
}

std::optional<std::size_t> find_gpu_instance(RungId rung, const kernel::KernelConfig& config) {
  for (std::size_t i = 0; i < std::size(kGpuInstances); ++i)
    if (kGpuInstances[i].rung == rung && same_config(kGpuInstances[i].config, config)) return i;
  return std::nullopt;
}

bool is_default_instance(const GpuInstance& instance) {
  return same_config(instance.config, sim::rung_model(instance.rung).defaults);
}

std::string instance_label(const GpuInstance& instance) {
  const kernel::KernelConfig& defaults = sim::rung_model(instance.rung).defaults;
  std::string label;
  for (const auto& knob : sim::all_knobs())
    if (instance.config.*knob.field != defaults.*knob.field) {
      if (!label.empty()) label += ' ';
      label.append(knob.name).append("=").append(std::to_string(instance.config.*knob.field));
    }
  return label.empty() ? "default" : label;
}

}  // namespace gemmlab::gpu
