// The layout lab's speed: a query fast enough for the panel to redraw as a number changes, and --suggest on a large
// tile. The targets (issue 30) are in docs/architecture.md ("Simulator speed"). Run
// build/bin/gemmlab_sim_bench --benchmark_filter=Lab, which prints the figures.
#include <benchmark/benchmark.h>

#include "gemmlab/lab/analysis.hpp"
#include "gemmlab/lab/query.hpp"
#include "gemmlab/lab/suggest.hpp"

namespace gemmlab::lab {
namespace {

Query query(const char* layout, const char* op) {
  QueryText t;
  t.layout = layout;
  t.op = op;
  return parse_query(t).value();
}

// A whole 64x64 fp16 tile read by ldmatrix.x4 (16 instructions), parsed and answered phase by phase.
void BM_LabQuery(benchmark::State& state) {
  QueryText t;
  t.layout = "(64,64):(64,1)";
  for (auto _ : state) {
    auto q = parse_query(t);
    auto r = analyse(q->tile, q->access);
    benchmark::DoNotOptimize(r);
  }
  state.SetLabel("64x64 fp16, ldmatrix.x4, parse + analyse");
}
BENCHMARK(BM_LabQuery)->Unit(benchmark::kMicrosecond);

// The copy side of a 128x128 tile: 64 cp.async.16 instructions with their global side.
void BM_LabCopyQuery(benchmark::State& state) {
  const Query q = query("(128,128):(128,1)", "cp.async.16");
  for (auto _ : state) benchmark::DoNotOptimize(analyse(q.tile, q.access));
  state.SetLabel("128x128 fp16, cp.async.16 by 128 threads");
}
BENCHMARK(BM_LabCopyQuery)->Unit(benchmark::kMicrosecond);

void BM_LabSuggest128(benchmark::State& state) {
  const Query q = query("(128,128):(128,1)", "ldmatrix.x4");
  for (auto _ : state) benchmark::DoNotOptimize(suggest(q.tile, q.access, std::nullopt));
  state.SetLabel("--suggest, 128x128 fp16, ldmatrix.x4 against cp.async.16");
}
BENCHMARK(BM_LabSuggest128)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace gemmlab::lab
