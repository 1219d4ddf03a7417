#include "gemmlab/sim/schedule_prediction.hpp"

#include <algorithm>

#include "gemmlab/sim/launch_order.hpp"
#include "gemmlab/sim/rung_model.hpp"

namespace gemmlab::sim {
namespace {

int resident_tiles(const DeviceProfile& device, const Occupancy& occupancy, const LaunchShape& shape) {
  return std::max(1, blocks_per_wave(device, occupancy) / shape.splits);
}

}  // namespace

Result<SchedulePrediction> predict_schedule(RungId rung, const kernel::KernelConfig& config, const Problem& problem,
                                            kernel::BlockOrder order, const DeviceProfile& device,
                                            const CompiledFacts& compiled, const Progress& progress) {
  if (auto valid = validate(rung, config, problem, device_limits(device)); !valid) return valid.error();
  // The kernel's counters, then the L2 model: each may take a while on a big problem.
  auto counters = simulate_kernel(rung, config, problem, part_of(progress, 0.0, 0.5));
  if (!counters) return counters.error();
  return predict_schedule(rung, config, problem, *counters, order, device, compiled, part_of(progress, 0.5, 1.0));
}

Result<SchedulePrediction> predict_schedule(RungId rung, const kernel::KernelConfig& config, const Problem& problem,
                                            const KernelCounters& counters, kernel::BlockOrder order,
                                            const DeviceProfile& device, const CompiledFacts& compiled,
                                            const Progress& progress) {
  if (auto valid = validate(rung, config, problem, device_limits(device)); !valid) return valid.error();
  SchedulePrediction out;
  out.device = device;
  out.order = order;
  out.shape = counters.shape;
  if (auto ok = validate_order(order, out.shape.tiles_m, out.shape.tiles_n, out.shape.cluster); !ok) return ok.error();
  auto occ = occupancy(device, {out.shape.threads_per_block, out.shape.smem_bytes,
                                compiled.registers ? *compiled.registers : estimate_registers(rung, config)});
  if (!occ) return occ.error();
  out.occupancy = *occ;
  auto l2 = simulate_l2(rung, config, problem,
                        {order, resident_tiles(device, out.occupancy, out.shape), l2_held_bytes(device)}, progress);
  if (!l2) return l2.error();
  out.l2 = std::move(*l2);
  auto roof = roofline({rung, problem, &counters.total, out.shape.blocks, &out.l2}, device);
  if (!roof) return roof.error();
  out.roofline = std::move(*roof);
  auto time = predict_time(
      {rung, config, problem, &counters, &out.occupancy, &out.l2, compiled.code ? &*compiled.code : nullptr}, device);
  if (time) out.time = std::move(*time);
  else out.time_note = time.error().message;
  return out;
}

int resident_tiles(const SchedulePrediction& p) { return resident_tiles(p.device, p.occupancy, p.shape); }

TilesInFlight tiles_in_flight(const SchedulePrediction& p) {
  return tiles_in_flight(p.l2.tiles_m, p.l2.tiles_n, p.order, p.shape.cluster, resident_tiles(p), p.shape.persistent_blocks,
                         p.shape.stream_k);
}

PredictedSpeed predicted_speed(const SchedulePrediction& p) {
  if (p.time)
    return {p.time->tflops, p.time->seconds, p.time->term(TimeTerm::Dram).seconds,
            std::string(to_string(p.time->limit)), p.time->limit == TimeTerm::Dram, true};
  const Roofline& r = p.roofline;
  return {r.predicted_tflops, r.predicted_seconds, r.limit(Limiter::Dram).seconds, std::string(to_string(r.bottleneck)),
          r.bottleneck == Limiter::Dram, false};
}

}  // namespace gemmlab::sim
