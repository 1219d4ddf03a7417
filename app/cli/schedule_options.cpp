#include "schedule_options.hpp"

#include <CLI/CLI.hpp>

#include "common/number_options.hpp"
#include "gemmlab/sim/launch_order.hpp"

namespace gemmlab::cli {

void add_schedule_options(CLI::App& app, const std::shared_ptr<ScheduleOptions>& options) {
  std::string devices;
  for (const auto id : sim::builtin_device_ids()) devices += (devices.empty() ? "" : ", ") + std::string(id);
  app.add_option("--profile", options->device,
                 "The GPU to model: " + devices + " (or h100, h200, a100, 4090, 1070), or a profile file ending in .json")
      ->capture_default_str();
  app.add_option("--device", options->cuda_device,
                 "Not here: --device is a CUDA device index (bench, tune, verify); the GPU to model is --profile");
  app.add_option("--clock-mhz", options->clock_mhz,
                 "The SM clock the time model assumes, in MHz (default: the one the profile measured the card to hold "
                 "under sustained FP32 or tensor-core load, or on a profile with a clock line, a wgmma kernel's clock at "
                 "its tensor cores' load; nvidia-smi's clocks.sm says what yours holds)")
      ->transform(common::whole_number(100, 5000));
  app.add_option("--order", options->order, "Block launch order: " + std::string(sim::order_names_help()))
      ->capture_default_str();
}

Result<sim::DeviceProfile> profile_flag(const std::string& name) {
  auto profile = sim::find_device(name);
  if (!profile) return Error{"--profile: " + profile.error().message};
  return profile;
}

Result<kernel::BlockOrder> order_flag(const std::string& text) {
  auto order = sim::parse_order(text);
  if (!order) return Error{"--order: " + order.error().message};
  return order;
}

Result<ScheduleOptions::Resolved> ScheduleOptions::resolve() const {
  if (!cuda_device.empty())
    return Error{"--device " + cuda_device + ": --device is a CUDA device index (bench, tune, verify); the GPU that "
                 "sim and schedule model is --profile (--profile " + cuda_device + ")"};
  auto profile = profile_flag(device);
  if (!profile) return profile.error();
  auto parsed = order_flag(order);
  if (!parsed) return parsed.error();
  if (clock_mhz > 0) {
    profile = sim::with_clock(std::move(*profile), clock_mhz);
    if (!profile) return Error{"--clock-mhz: " + profile.error().message};
  }
  return Resolved{std::move(*profile), *parsed};
}

Result<ScheduleRequest> resolve_request(const common::RungOptions& rung_options, const ScheduleOptions& schedule_options) {
  auto kernel = rung_options.resolve();
  if (!kernel) return kernel.error();
  auto target = schedule_options.resolve();
  if (!target) return target.error();
  return ScheduleRequest{std::move(*kernel), std::move(*target)};
}

}  // namespace gemmlab::cli
