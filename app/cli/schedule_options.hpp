#pragma once
// The flags that choose the modelled GPU, its clock and the launch order (--profile, --clock-mhz, --order), shared by
// `sim` and `schedule`. The GPU's profile is --profile, as in `tune`: --device is a CUDA device index wherever a
// command runs kernels (bench, tune, verify), and here it is refused with that sentence.
#include <memory>
#include <string>

#include "gemmlab/kernel/block_order.hpp"
#include "gemmlab/result.hpp"
#include "gemmlab/sim/device_profile.hpp"
#include "common/rung_options.hpp"

namespace CLI {
class App;
}

namespace gemmlab::cli {

struct ScheduleOptions {
  std::string device{sim::kDefaultDevice};  // --profile
  std::string cuda_device;                   // --device, refused: it means a CUDA device index elsewhere
  std::string order = "row";
  int clock_mhz = 0;  // --clock-mhz: above 0, the SM clock the time model assumes instead of the profile's sustained one

  struct Resolved {
    sim::DeviceProfile device;
    kernel::BlockOrder order;
  };
  // Errors name the flag: "--profile: unknown device 'v100'; known devices: ...".
  Result<Resolved> resolve() const;
};

void add_schedule_options(CLI::App& app, const std::shared_ptr<ScheduleOptions>& options);

// The values of --profile and --order, read once for every command that takes them (sim, schedule, tune, sweep); an
// error names its flag ("--profile: unknown device 'v100'; ...").
Result<sim::DeviceProfile> profile_flag(const std::string& name);
Result<kernel::BlockOrder> order_flag(const std::string& text);

// Everything a schedule prediction needs, from the rung flags and the schedule flags together.
struct ScheduleRequest {
  common::RungOptions::Resolved kernel;
  ScheduleOptions::Resolved target;
};
Result<ScheduleRequest> resolve_request(const common::RungOptions& rung_options, const ScheduleOptions& schedule_options);

}  // namespace gemmlab::cli
