// The memory model's fast paths, per call. Target (the instruction-stream counters call them millions of times):
// shared_cost and global_cost under 100 ns each, with no heap allocation.
#include <benchmark/benchmark.h>

#include <string_view>

#include "gemmlab/memory_model.hpp"

namespace gemmlab::sim {
namespace {

WarpAccess pattern(std::string_view op, std::uint64_t stride, bool swizzle = false) {
  WarpAccess a = parse_op(op).value();
  for (int l = 0; l < 32; ++l) {
    const auto lane = static_cast<std::uint64_t>(l);
    a.address[lane] = lane * stride + (swizzle ? (lane % 8) * 16 : 0);
    a.shared_address[lane] = lane * 16;
  }
  return a;
}

// range(0) picks the pattern; the label says which. Best case (coalesced) to worst (32-way / 32 sectors).
WarpAccess shared_pattern(int which, std::string& label) {
  switch (which) {
    case 0: label = "lds.32 coalesced"; return pattern("lds.32", 4);
    case 1: label = "lds.32 32-way conflict"; return pattern("lds.32", 128);
    case 2: label = "lds.128 swizzled"; return pattern("lds.128", 128, true);
    case 3: label = "lds.128 uniform (pair merge)"; return pattern("lds.128", 0);
    case 4: label = "sts.64 stride 16"; return pattern("sts.64", 16);
    case 5: label = "ldsm.x4 8-way"; return pattern("ldsm.x4", 128);
    default: label = "cp.async.16 shared side"; return pattern("cp.async.16", 16);
  }
}

WarpAccess global_pattern(int which, std::string& label) {
  switch (which) {
    case 0: label = "ldg.32 coalesced"; return pattern("ldg.32", 4);
    case 1: label = "ldg.128 coalesced"; return pattern("ldg.128", 16);
    case 2: label = "ldg.32 column walk (32 sectors)"; return pattern("ldg.32", 16384);
    default: {
      label = "stg.32 reversed lanes";
      WarpAccess a = pattern("stg.32", 4);
      for (int l = 0; l < 32; ++l) a.address[static_cast<std::size_t>(l)] = static_cast<std::uint64_t>(31 - l) * 4;
      return a;
    }
  }
}

void SharedCostPerCall(benchmark::State& state) {
  std::string label;
  const WarpAccess a = shared_pattern(static_cast<int>(state.range(0)), label);
  for (auto _ : state) {
    auto cost = shared_cost(a);
    benchmark::DoNotOptimize(cost);
  }
  state.SetLabel(label);
}
BENCHMARK(SharedCostPerCall)->DenseRange(0, 6);

void GlobalCostPerCall(benchmark::State& state) {
  std::string label;
  const WarpAccess a = global_pattern(static_cast<int>(state.range(0)), label);
  for (auto _ : state) {
    auto cost = global_cost(a);
    benchmark::DoNotOptimize(cost);
  }
  state.SetLabel(label);
}
BENCHMARK(GlobalCostPerCall)->DenseRange(0, 3);

}  // namespace
}  // namespace gemmlab::sim
