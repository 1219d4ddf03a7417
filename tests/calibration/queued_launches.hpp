#pragma once
// The probes' timing of a launch as gpu/src/bench.cpp times its runs: events around the launch, queued on one stream
// behind a kernel that keeps every SM busy, so the launch is already in the GPU's queue when the kernel before it ends;
// many in a row, one wait at the end, the median.
#include <cuda_runtime.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "cuda_check.hpp"

// Keeps every SM busy for about this many cycles, so that the launches behind it wait in the queue.
__global__ void keep_busy(long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

// The median of event times in milliseconds, in seconds.
inline double median_seconds(std::vector<float> ms) {
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2] * 1e-3;
}

// The median seconds of `launches` launches of `launch` (a callable that launches the kernel timed), each queued
// behind `busy_cycles` of keep_busy.
template <class Launch>
double queued_median_seconds(int launches, long long busy_cycles, Launch launch) {
  std::vector<cudaEvent_t> events(2 * launches);
  for (cudaEvent_t& e : events) CHECK(cudaEventCreate(&e));
  for (int i = 0; i < launches; ++i) {
    keep_busy<<<132, 128>>>(busy_cycles);
    CHECK(cudaEventRecord(events[2 * i]));
    launch();
    CHECK(cudaEventRecord(events[2 * i + 1]));
  }
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<float> ms;
  for (int i = 0; i < launches; ++i) {
    float t = 0;
    CHECK(cudaEventElapsedTime(&t, events[2 * i], events[2 * i + 1]));
    ms.push_back(t);
  }
  for (cudaEvent_t e : events) CHECK(cudaEventDestroy(e));
  return median_seconds(std::move(ms));
}
