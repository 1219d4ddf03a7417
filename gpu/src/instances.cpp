// The instance list's queries; compiled in the CUDA and the stub build alike.
#include "gemmlab/gpu/instances.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "gemmlab/sim/device_profile.hpp"
#include "gemmlab/sim/occupancy.hpp"
#include "gemmlab/sim/rung_model.hpp"
#include "recorded_kernels.hpp"

namespace gemmlab::gpu {

std::span<const GpuInstance> gpu_instances() { return kGpuInstances; }

bool same_config(const kernel::KernelConfig& a, const kernel::KernelConfig& b) {
  for (const auto& knob : sim::all_knobs())
    if (a.*knob.field != b.*knob.field) return false;
  return true;
}

bool GpuInstance::operator==(const GpuInstance& other) const {
  return rung == other.rung && same_config(config, other.config);
}

std::optional<std::size_t> find_gpu_instance(RungId rung, const kernel::KernelConfig& config) {
  for (std::size_t i = 0; i < std::size(kGpuInstances); ++i)
    if (kGpuInstances[i].rung == rung && same_config(kGpuInstances[i].config, config)) return i;
  return std::nullopt;
}

std::optional<int> compiled_registers(RungId rung, const kernel::KernelConfig& config,
                                      std::string_view compute_capability) {
  for (const RecordedKernel& r : recorded_kernels()) {
    if (find_rung(r.slug) != rung || !same_config(r.config, config)) continue;
    if (compute_capability.empty() || r.compute_capability == compute_capability) return r.registers;
  }
  return std::nullopt;
}

namespace {

// How far two configurations of a rung are apart: the knobs that differ, then how much they differ (in powers of 2).
std::pair<int, double> distance(const kernel::KernelConfig& a, const kernel::KernelConfig& b) {
  int knobs = 0;
  double ratio = 0;
  for (const auto& knob : sim::all_knobs()) {
    const int x = a.*knob.field, y = b.*knob.field;
    if (x == y) continue;
    ++knobs;
    ratio += std::abs(std::log2(double(std::max(x, 1))) - std::log2(double(std::max(y, 1))));
  }
  return {knobs, ratio};
}

// The recorded kernel of the rung for the device's compute capability that is nearest to `config` among those that
// `usable` accepts; nullptr if there is none.
template <class Usable>
const RecordedKernel* nearest_recorded(RungId rung, const kernel::KernelConfig& config, const sim::DeviceProfile& device,
                                       Usable usable) {
  const RecordedKernel* nearest = nullptr;
  for (const RecordedKernel& r : recorded_kernels())
    if (find_rung(r.slug) == rung && r.compute_capability == device.compute_capability && usable(r) &&
        (nearest == nullptr || distance(r.config, config) < distance(nearest->config, config)))
      nearest = &r;
  return nearest;
}

}  // namespace

std::optional<sim::RegisterCount> measured_registers(RungId rung, const kernel::KernelConfig& config,
                                                     const sim::DeviceProfile& device) {
  if (const auto registers = compiled_registers(rung, config, device.compute_capability))
    return sim::RegisterCount{*registers, sim::RegisterSource::Measured};
  // Not compiled: start from the nearest compiled configuration of the rung and add what the simulator's estimate
  // says the difference costs. A layout knob (padding, swizzle) then keeps the compiled count, as ptxas does.
  const RecordedKernel* nearest = nearest_recorded(rung, config, device, [](const RecordedKernel&) { return true; });
  if (nearest == nullptr) return std::nullopt;
  // A launch bound fixes the count: ptxas uses it whatever the tile (setmaxnreg).
  if (const auto fixed = sim::launch_registers(rung, config)) return sim::RegisterCount{*fixed, sim::RegisterSource::LaunchBound};
  const int change = sim::estimate_registers(rung, config).per_thread - sim::estimate_registers(rung, nearest->config).per_thread;
  // Not capped at the device's maximum, as estimate_registers is not: above it ptxas would spill, which occupancy()
  // reports instead of a count that looks like it fits.
  return sim::RegisterCount{std::max(nearest->registers + change, 16), sim::RegisterSource::NearestCompiled};
}

sim::CompiledFacts compiled_facts(RungId rung, const kernel::KernelConfig& config, const sim::DeviceProfile& device) {
  sim::CompiledFacts facts{measured_registers(rung, config, device), std::nullopt};
  const RecordedKernel* code =
      nearest_recorded(rung, config, device, [](const RecordedKernel& r) { return !r.regions.empty(); });
  if (code != nullptr)
    facts.code = sim::CompiledCode{{code->regions.begin(), code->regions.end()}, !same_config(code->config, config)};
  return facts;
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
