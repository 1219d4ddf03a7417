#pragma once
// Everything the scheduling side predicts for one kernel launch on one device: occupancy and waves, the L2 model's
// traffic for a launch order, the roofline (a bound) and the time model (a prediction). What `gemmlab-cli schedule`
// prints and the desktop app shows.
#include <optional>
#include <string>

#include "gemmlab/kernel/block_order.hpp"
#include "gemmlab/sim/compiled_code.hpp"
#include "gemmlab/sim/device_profile.hpp"
#include "gemmlab/sim/l2_model.hpp"
#include "gemmlab/sim/launch_order.hpp"
#include "gemmlab/sim/occupancy.hpp"
#include "gemmlab/sim/roofline.hpp"
#include "gemmlab/sim/simulate.hpp"
#include "gemmlab/sim/time_model.hpp"

namespace gemmlab::sim {

struct SchedulePrediction {
  DeviceProfile device;
  kernel::BlockOrder order;
  LaunchShape shape;
  Occupancy occupancy;
  L2Result l2;
  Roofline roofline;
  std::optional<TimePrediction> time;  // absent where the profile has no measured timing: time_note says why
  std::string time_note;
};

// The speed a face shows for a prediction: the time model's where the device profile has measured timing, else the
// roofline's bound; with what limits it and what DRAM alone takes.
struct PredictedSpeed {
  double tflops = 0, seconds = 0, dram_seconds = 0;
  std::string limit;
  bool dram_limited = false;
  bool from_time_model = false;
};
PredictedSpeed predicted_speed(const SchedulePrediction& p);

// The tiles whose blocks fit on the SMs at once: SMs x resident blocks per SM, under split-K (rung 22) as many times
// fewer tiles as a tile has ranges, each a block of its own. A persistent grid smaller than that has fewer in flight
// (tiles_in_flight's per_wave).
int resident_tiles(const SchedulePrediction& p);

// The tiles as the L2 model walked them: in the order the GPU computes them, `per_wave` at once (sim::tiles_in_flight
// with this launch's resident blocks and persistent grid).
TilesInFlight tiles_in_flight(const SchedulePrediction& p);

// `compiled`: what the build's compile of this configuration gave (gpu::compiled_facts): ptxas's registers, else
// estimate_registers; the SASS regions the time model's issue term counts, else the description's instructions. The
// configuration is validated against the device's limits; errors say what to change.
Result<SchedulePrediction> predict_schedule(RungId rung, const kernel::KernelConfig& config, const Problem& problem,
                                            kernel::BlockOrder order, const DeviceProfile& device,
                                            const CompiledFacts& compiled = {}, const Progress& progress = {});

// The same from counters already simulated (simulate_kernel with the same rung, configuration and problem).
// `progress` follows the L2 model, the part that can take seconds, and can stop it (simulate_l2).
Result<SchedulePrediction> predict_schedule(RungId rung, const kernel::KernelConfig& config, const Problem& problem,
                                            const KernelCounters& counters, kernel::BlockOrder order,
                                            const DeviceProfile& device, const CompiledFacts& compiled = {},
                                            const Progress& progress = {});

}  // namespace gemmlab::sim
