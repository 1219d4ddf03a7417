// The time model's speed targets (issue 13): a rung's whole prediction - the kernel's counters, occupancy, the L2
// model and the time model, what `gemmlab-cli sim` and the desktop app compute - in <= 50 ms at 4096^3 and <= 1 s at
// 8192^3, single-threaded. Run build/bin/gemmlab_sim_bench --benchmark_filter=Predict and read the time per iteration.
#include <benchmark/benchmark.h>

#include "gemmlab/rungs.hpp"
#include "gemmlab/sim/device_profile.hpp"
#include "gemmlab/sim/rung_model.hpp"
#include "gemmlab/sim/schedule_prediction.hpp"

namespace gemmlab::sim {
namespace {

// range(0): the problem size; range(1): the rung's number.
void PredictRung(benchmark::State& state) {
  const int size = static_cast<int>(state.range(0));
  const RungId rung = rungs()[static_cast<std::size_t>(state.range(1) - 1)].id;
  const auto device = find_device(kDefaultDevice);
  if (!device) return state.SkipWithError(device.error().message.c_str());
  double tflops = 0;
  for (auto _ : state) {
    auto p = predict_schedule(rung, rung_model(rung).defaults, {size, size, size}, {}, *device);
    if (!p) return state.SkipWithError(p.error().message.c_str());
    if (p->time) tflops = p->time->tflops;
    benchmark::DoNotOptimize(p);
  }
  state.counters["predicted_TFLOPS"] = tflops;
  state.SetLabel(std::string(rung_info(rung).slug) + " " + std::to_string(size) + "^3");
}
BENCHMARK(PredictRung)
    ->ArgsProduct({{4096, 8192}, benchmark::CreateDenseRange(1, 20, 1)})
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace gemmlab::sim
