// The simulator's speed targets (issue: simulator):
//   - per-kernel counters of rung 5 (blocktile-2d) at 4096^3: <= 50 ms single-threaded; the same for the tensor-core
//     rungs (issue: tensor-core ladder), whose ids follow the FP32 rungs';
//   - one block's full instruction stream, as the desktop app needs it: <= 5 ms.
#include <benchmark/benchmark.h>

#include "gemmlab/sim/rung_model.hpp"
#include "gemmlab/sim/simulate.hpp"

namespace gemmlab::sim {
namespace {

void KernelCounters4096(benchmark::State& state) {
  const auto rung = static_cast<RungId>(state.range(0));
  const auto config = rung_model(rung).defaults;
  for (auto _ : state) {
    auto counters = simulate_kernel(rung, config, {4096, 4096, 4096});
    if (!counters) state.SkipWithError(counters.error().message.c_str());
    benchmark::DoNotOptimize(counters);
  }
  state.SetLabel(std::string(rung_info(rung).slug));
}
BENCHMARK(KernelCounters4096)
    ->DenseRange(0, 4)
    ->DenseRange(static_cast<int>(RungId::Wmma), static_cast<int>(RungId::MmaStagedEpilogue))
    ->Unit(benchmark::kMillisecond);

// Every warp instruction of every phase of one block, recorded and costed, at the problem size in range(1).
void BlockFullStream(benchmark::State& state) {
  const auto rung = static_cast<RungId>(state.range(0));
  const int size = static_cast<int>(state.range(1));
  auto stream = BlockStream::open(rung, rung_model(rung).defaults, {size, size, size}, {0, 0});
  if (!stream) return state.SkipWithError(stream.error().message.c_str());
  std::size_t instructions = 0;
  for (auto _ : state) {
    instructions = 0;
    for (std::size_t i = 0; i < stream->schedule().size(); ++i) instructions += (*stream->phase(i))->instructions.size();
  }
  state.counters["warp_instructions"] = static_cast<double>(instructions);
  state.SetLabel(std::string(rung_info(rung).slug) + " " + std::to_string(size) + "^3");
}
BENCHMARK(BlockFullStream)->Args({4, 256})->Args({4, 1024})->Unit(benchmark::kMillisecond);

// One k-step of one block (all its phases): what the tile stepper records per step.
void BlockOneKstep(benchmark::State& state) {
  const auto rung = static_cast<RungId>(state.range(0));
  const auto config = rung_model(rung).defaults;
  const Problem problem{4096, 4096, 4096};
  const auto shape = launch_shape(rung, config, problem);
  for (auto _ : state)
    for (const auto& ref : shape->schedule_of_one_kstep) {
      auto s = phase_stream(rung, config, problem, {3, 5}, {ref.section, 100, ref.phase});
      benchmark::DoNotOptimize(s);
    }
  state.SetLabel(std::string(rung_info(rung).slug) + " 4096^3");
}
BENCHMARK(BlockOneKstep)->DenseRange(0, 4)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace gemmlab::sim
