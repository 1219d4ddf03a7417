// Launch probe: what the benchmark's CUDA events add to a kernel's time, the time model's launch_overhead_seconds
// (sim/include/gemmlab/sim/time_model.hpp). An empty kernel's time by events, two ways:
//
//   idle    events around one launch, then a wait for it: the GPU idle before each launch. Until 2026-11-27 the
//           profile took this figure (from timing.cu, which measured it so).
//   queued  events around an empty kernel queued behind a busy one, many in a row, with one wait at the end: as
//           gpu/src/bench.cpp times its runs (events and launches queued on one stream, alternating with cuBLAS's
//           runs), where the launch is already in the GPU's queue when the kernel before it ends.
//
// The median of 201 launches each. ncu's kernel durations against the benchmark's medians of the same kernels
// (tma_gemm_ncu_h100.csv, tma_gemm_bench_h100.json) put what the events add at a microsecond or more; docs/time-model.md
// quotes them.
//
// Build: nvcc -O3 -std=c++17 -o launch_overhead launch_overhead.cu     Run: ./launch_overhead  (one JSON object)
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#include "cuda_check.hpp"
#include "queued_launches.hpp"

namespace {

constexpr int kLaunches = 201;

__global__ void empty_kernel() {}

double idle_seconds() {
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  std::vector<float> ms;
  for (int i = 0; i < kLaunches; ++i) {
    CHECK(cudaEventRecord(e0));
    empty_kernel<<<132, 128>>>();
    CHECK(cudaEventRecord(e1));
    CHECK(cudaEventSynchronize(e1));
    float t = 0;
    CHECK(cudaEventElapsedTime(&t, e0, e1));
    ms.push_back(t);
  }
  CHECK(cudaEventDestroy(e0));
  CHECK(cudaEventDestroy(e1));
  return median_seconds(ms);
}

double queued_seconds() {
  // about 100 us of busy kernel at the card's clock: the host stays well ahead
  return queued_median_seconds(kLaunches, 200000, [] { empty_kernel<<<132, 128>>>(); });
}

}  // namespace

int main() {
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  empty_kernel<<<132, 128>>>();  // the first launch loads the module
  CHECK(cudaDeviceSynchronize());
  const double idle = idle_seconds(), queued = queued_seconds();
  std::printf("{\n  \"device\": \"%s\",\n  \"launches\": %d,\n  \"idle_seconds\": %.3g,\n  \"queued_seconds\": %.3g\n}\n",
              prop.name, kLaunches, idle, queued);
  return 0;
}
