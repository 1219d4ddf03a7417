#include "gpu_options.hpp"

#include <algorithm>
#include <CLI/CLI.hpp>

#include "common/number_options.hpp"
#include "gemmlab/comma_items.hpp"
#include "gemmlab/gpu/device.hpp"
#include "gemmlab/gpu/runtime_compile.hpp"
#include "gemmlab/gpu/verify.hpp"
#include "gemmlab/sim/launch_order.hpp"
#include "gemmlab/sim/rung_model.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <optional>

namespace gemmlab::cli {

CLI::Validator non_empty_list() {
  return common::non_empty_text("a comma-separated list, or leave the flag out for the defaults");
}

Result<std::vector<RungId>> parse_rung_list(const std::string& text) {
  std::vector<RungId> out;
  if (text.empty()) return out;
  // Every item between commas is read, an empty one too: "1," names an empty rung, as "64," names an empty size.
  for (const std::string_view item : comma_items(text)) {
    const std::optional<RungId> rung = find_rung(item);
    if (!rung) {
      std::string message = "unknown rung '";
      message.append(item).append("' (give slugs or ladder numbers; gemmlab-cli list shows them)");
      return Error{message};
    }
    out.push_back(*rung);
  }
  return out;
}

Result<GpuSelection> parse_gpu_selection(const std::string& rungs, const std::string& sizes, const std::string& order,
                                         std::vector<gpu::Shape> fallback_shapes, const std::string& inputs) {
  GpuSelection out;
  for (std::size_t start = 0; !inputs.empty() && start <= inputs.size();) {  // "fp32," ends in an empty item
    const std::size_t comma = std::min(inputs.find(',', start), inputs.size());
    const std::string name = inputs.substr(start, comma - start);
    const auto type = kernel::find_input(name);
    if (!type) return Error{"--inputs: '" + name + "' is not an input type (fp32, fp16, bf16)"};
    out.inputs.push_back(*type);
    start = comma + 1;
  }
  auto rung_list = parse_rung_list(rungs);
  if (!rung_list) return rung_list.error();
  out.rungs = std::move(*rung_list);
  if (sizes.empty()) {
    out.shapes = std::move(fallback_shapes);
  } else {
    auto shapes = gpu::parse_shapes(sizes);
    if (!shapes) return shapes.error();
    out.shapes = std::move(*shapes);
  }
  auto block_order = sim::parse_order(order);
  if (!block_order) return block_order.error();
  out.order = *block_order;
  return out;
}

Result<std::vector<gpu::GpuInstance>> parse_configs(const std::vector<RungId>& rungs,
                                                    const std::vector<std::string>& configs) {
  std::vector<gpu::GpuInstance> out;
  if (configs.empty()) return out;
  if (rungs.size() != 1)
    return Error{"--config takes a configuration of one rung: name exactly one with --rungs (e.g. --rungs warptile)"};
  for (const std::string& text : configs) {
    auto config = sim::apply_knob_text(rungs.front(), sim::rung_model(rungs.front()).defaults, text);
    if (!config) return Error{"--config \"" + text + "\": " + config.error().message};
    out.push_back({rungs.front(), *config});
  }
  return out;
}

Result<sim::DeviceProfile> timing_profile_flag(const std::string& name, int device, bool timing,
                                               const std::string& recorded_gpu) {
  if (name != kAutoProfile) {
    auto profile = sim::find_device(name);
    if (!profile) return Error{"--profile: " + profile.error().message};
    return profile;
  }
  std::string gpu = recorded_gpu;
  if (gpu.empty() && timing)
    if (auto devices = gpu::list_devices(); devices && device >= 0 && device < static_cast<int>(devices->size()))
      gpu = (*devices)[static_cast<std::size_t>(device)].name;
  if (gpu.empty()) return sim::find_device(sim::kDefaultDevice);
  if (auto own = sim::find_device_for_gpu(gpu)) return own;
  // A GPU no profile is of (an H100 PCIe, say): the default's, and a line that says so, as before there was an "auto".
  auto fallback = sim::find_device(sim::kDefaultDevice);
  if (fallback)
    std::fprintf(stderr, "gemmlab-cli: no shipped profile is of the %s: the model predicts with the %s's (--profile "
                 "names another, or a measured one: tests/calibration/profile_probes.sh)\n", gpu.c_str(),
                 fallback->name.c_str());
  return fallback;
}

Status prepare_configs(const std::vector<gpu::GpuInstance>& kernels, const std::vector<kernel::InputType>& inputs,
                       const std::vector<gpu::Shape>& shapes, int device) {
  for (const gpu::GpuInstance& kernel : kernels) {
    if (!gpu::compiled_at_run_time(kernel)) continue;
    // A configuration the rung's rules refuse at any size is refused by verify and bench with its sentence: nothing
    // to compile. (4096^3 takes every tile; sizes a configuration refuses are refused per shape.)
    if (!sim::validate(kernel.rung, kernel.config, {4096, 4096, 4096})) continue;
    if (auto devices = gpu::list_devices(); !devices) return devices.error();
    // Every variant the shapes need (16-bit rungs compile rows of any alignment apart), once.
    std::vector<std::pair<kernel::InputType, bool>> variants;
    for (const kernel::InputType type : gpu::inputs_for(kernel, inputs))
      for (const gpu::Shape& shape : shapes.empty() ? std::vector<gpu::Shape>{{4096, 4096, 4096}} : shapes)
        if (auto v = gpu::kernel_variant(kernel, type, shape.n, shape.k);
            v && std::ranges::find(variants, std::pair{v->input, v->aligned_rows}) == variants.end())
          variants.emplace_back(v->input, v->aligned_rows);
    for (const auto& [type, aligned] : variants) {
      const std::string what = std::string(rung_info(kernel.rung).slug) + " (" + gpu::instance_label(kernel) + ", " +
                               std::string(kernel::input_name(type)) + (aligned ? "" : ", rows of any alignment") + ")";
      std::fprintf(stderr, "compiling %s at run time ...", what.c_str());
      std::fflush(stderr);
      auto compiled = gpu::prepare_runtime_kernel(kernel, {type, aligned}, device);
      if (!compiled) {
        std::fprintf(stderr, " failed\n");
        return compiled.error();
      }
      if (compiled->from_cache)
        std::fprintf(stderr, " found in the kernel cache (%s), ready in %.1f ms\n",
                     compiled->cubin.parent_path().c_str(), compiled->ready_seconds * 1e3);
      else
        std::fprintf(stderr, " compiled in %.2f s, ready in %.2f s, %d registers per thread\n", compiled->compile_seconds,
                     compiled->ready_seconds, compiled->registers);
    }
  }
  return Ok{};
}

Result<std::vector<int>> timing_devices(const std::string& devices, int device, bool timing) {
  if (devices.empty() || !timing) return std::vector<int>{device};
  auto list = parse_device_list(devices);
  if (!list) return Error{"--devices: " + list.error().message};
  return list;
}

// "all" or "0,1": CUDA device indices, each one this machine has.
Result<std::vector<int>> parse_device_list(const std::string& text) {
  const auto present = gpu::list_devices();
  if (!present) return present.error();
  const int count = static_cast<int>(present->size());
  std::vector<int> devices;
  if (text == "all") {
    for (int d = 0; d < count; ++d) devices.push_back(d);
    return devices;
  }
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, comma - start);
    int d = -1;
    const auto [end, code] = std::from_chars(item.data(), item.data() + item.size(), d);
    if (code != std::errc{} || end != item.data() + item.size() || d < 0)
      return Error{"not a device index: '" + item + "' (write all, or indices like 0,1)"};
    if (d >= count)
      return Error{"no CUDA device " + item + ": this machine has " + std::to_string(count) + " (0 to " +
                   std::to_string(count - 1) + ")"};
    if (std::ranges::find(devices, d) != devices.end()) return Error{"device " + item + " is given twice"};
    devices.push_back(d);
    start = comma + 1;
  }
  return devices;
}

}  // namespace gemmlab::cli
