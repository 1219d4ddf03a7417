// The L2 model's speed target (issue: scheduling): the whole-grid L2 simulation of an 8192^3 FP32 problem in
// 128 x 128 tiles (blocktile-2d's defaults, bk = 8: 4096 blocks x 1024 k-steps) in <= 1 s single-threaded.
// Run build/bin/gemmlab_sim_bench --benchmark_filter=L2 and read the time per iteration.
#include <benchmark/benchmark.h>

#include "gemmlab/sim/device_profile.hpp"
#include "gemmlab/sim/l2_model.hpp"
#include "gemmlab/sim/launch_order.hpp"
#include "gemmlab/sim/occupancy.hpp"
#include "gemmlab/sim/rung_model.hpp"

namespace gemmlab::sim {
namespace {

// range(0): the problem size; range(1): 0 for row-major, else the Triton GROUP_M group size.
void L2WholeGrid(benchmark::State& state) {
  const RungId rung = RungId::BlockTile2D;
  const auto config = rung_model(rung).defaults;
  const int size = static_cast<int>(state.range(0));
  const int group = static_cast<int>(state.range(1));
  const auto device = find_device(kDefaultDevice);
  if (!device) return state.SkipWithError(device.error().message.c_str());
  const auto occ = occupancy(*device, {threads_per_block(rung, config), smem_bytes(rung, config),
                                       estimate_registers(rung, config)});
  if (!occ) return state.SkipWithError(occ.error().message.c_str());
  const kernel::BlockOrder order = group ? kernel::BlockOrder{kernel::OrderKind::GroupM, group} : kernel::BlockOrder{};
  const L2Options options{order, blocks_per_wave(*device, *occ), device->l2_bytes};
  double hit_rate = 0, dram_gb = 0;
  for (auto _ : state) {
    auto l2 = simulate_l2(rung, config, {size, size, size}, options);
    if (!l2) return state.SkipWithError(l2.error().message.c_str());
    hit_rate = l2->reads().hit_rate();
    dram_gb = double(l2->dram_read_bytes) / 1e9;
    benchmark::DoNotOptimize(l2);
  }
  state.counters["l2_hit_rate"] = hit_rate;
  state.counters["dram_read_GB"] = dram_gb;
  state.SetLabel("blocktile-2d " + std::to_string(size) + "^3, " + order_name(order) + ", " +
                 std::to_string(options.blocks_per_wave) + " blocks per wave");
}
BENCHMARK(L2WholeGrid)->Args({8192, 0})->Args({8192, 8})->Args({4096, 0})->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace gemmlab::sim
