// DRAM writes: how fast every SM writing a buffer far larger than the L2 gets its bytes to DRAM, beside the same
// kernel reading it. The time model's DRAM term (sim/src/time_model.cpp) took C's writes at the bandwidth of reads
// (timing.cu's dram_bytes_per_second); a GEMM whose time is its writes (attention's scores, K = 128: 64 MiB of FP32 C
// for 2 MiB of A and B) ran slower than that predicts.
//
// Three kernels over a 1 GiB buffer, the blocks striding over the whole buffer once:
//   read       ld.global.cg.v4, 16 bytes a lane (L1 bypassed), as timing.cu's stream_loads
//   write      st.global.v4, 16 bytes a lane (write-back through the L2), the values from the thread's index
//   fragments  the stores the GEMMs' epilogues make: st.global.v2, 8 bytes a lane, four lanes covering 32 contiguous
//              bytes of a row and a warp eight rows 1 MiB apart (wgmma's accumulator layout, 256 Ki-float rows)
// Each runs 7 times after a warm-up; the L2 is flushed before each run (a 256 MiB memset); the median time by events.
//
//   output  bytes per second of each, and the median microseconds
//
// Build: nvcc -O3 -std=c++17 -o dram_write dram_write.cu     Run: ./dram_write  (one JSON object)
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <vector>

#include "cuda_check.hpp"

namespace {

constexpr std::size_t kBytes = std::size_t(1) << 30;  // 1 GiB, 17 times the H200's L2
constexpr std::size_t kFlushBytes = std::size_t(256) << 20;
constexpr int kRuns = 7, kThreads = 512;

__global__ void read_stream(const float4* data, std::size_t count, float* sink) {
  float acc = 0;
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
    float4 v;
    asm volatile("ld.global.cg.v4.f32 {%0,%1,%2,%3}, [%4];" : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(data + i));
    acc += v.x + v.y + v.z + v.w;
  }
  if (acc == 1.2345f) *sink = acc;
}

__global__ void write_stream(float4* data, std::size_t count) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
    const float v = float(threadIdx.x);
    asm volatile("st.global.v4.f32 [%0], {%1,%2,%3,%4};" ::"l"(data + i), "f"(v), "f"(v), "f"(v), "f"(v) : "memory");
  }
}

// The buffer as a matrix of 1024 rows by 256 Ki floats. A warp's store covers 8 rows x 8 floats (lane l: row l / 4,
// floats 2 (l % 4) and 2 (l % 4) + 1), as wgmma's accumulators of one 8-column group; the warp then moves along the
// row, so every sector of the matrix is written once.
__global__ void write_fragments(float* data, std::size_t row_floats, std::size_t rows) {
  const int lane = threadIdx.x % 32;
  const std::size_t warp = (std::size_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const std::size_t warps = std::size_t(gridDim.x) * blockDim.x / 32;
  const std::size_t groups = rows / 8 * (row_floats / 8);  // 8-row by 8-float pieces
  for (std::size_t g = warp; g < groups; g += warps) {
    const std::size_t row = g / (row_floats / 8) * 8 + lane / 4, col = g % (row_floats / 8) * 8 + 2 * (lane % 4);
    const float v = float(lane);
    asm volatile("st.global.v2.f32 [%0], {%1,%2};" ::"l"(data + row * row_floats + col), "f"(v), "f"(v) : "memory");
  }
}

template <class Launch>
double median_seconds(void* flush, Launch&& launch) {
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  launch();  // warm-up
  std::vector<float> ms;
  for (int r = 0; r < kRuns; ++r) {
    CHECK(cudaMemset(flush, r, kFlushBytes));
    CHECK(cudaEventRecord(e0));
    launch();
    CHECK(cudaEventRecord(e1));
    CHECK(cudaEventSynchronize(e1));
    float t = 0;
    CHECK(cudaEventElapsedTime(&t, e0, e1));
    ms.push_back(t);
  }
  CHECK(cudaGetLastError());
  CHECK(cudaEventDestroy(e0));
  CHECK(cudaEventDestroy(e1));
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2] * 1e-3;
}

}  // namespace

int main() {
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  float4* buffer = nullptr;
  void* flush = nullptr;
  float* sink = nullptr;
  CHECK(cudaMalloc(&buffer, kBytes));
  CHECK(cudaMalloc(&flush, kFlushBytes));
  CHECK(cudaMalloc(&sink, sizeof(float)));
  CHECK(cudaMemset(buffer, 0, kBytes));
  const int blocks = 4 * sms;  // four blocks of 512 threads an SM: every SM's warps full
  const std::size_t count = kBytes / sizeof(float4);
  const double read = median_seconds(flush, [&] { read_stream<<<blocks, kThreads>>>(buffer, count, sink); });
  const double write = median_seconds(flush, [&] { write_stream<<<blocks, kThreads>>>(buffer, count); });
  const std::size_t rows = 1024, row_floats = kBytes / sizeof(float) / rows;
  const double fragments = median_seconds(flush, [&] {
    write_fragments<<<blocks, kThreads>>>(reinterpret_cast<float*>(buffer), row_floats, rows);
  });
  std::printf("{\n  \"device\": \"%s\",\n  \"sms\": %d,\n  \"bytes\": %zu,\n  \"blocks\": %d,\n  \"threads\": %d,\n",
              prop.name, sms, kBytes, blocks, kThreads);
  std::printf("  \"read_microseconds\": %.2f,\n  \"write_microseconds\": %.2f,\n  \"fragment_write_microseconds\": %.2f,\n",
              read * 1e6, write * 1e6, fragments * 1e6);
  std::printf("  \"dram_read_bytes_per_second\": %.4g,\n", double(kBytes) / read);
  std::printf("  \"dram_write_bytes_per_second\": %.4g,\n", double(kBytes) / write);
  std::printf("  \"dram_fragment_write_bytes_per_second\": %.4g\n}\n", double(kBytes) / fragments);
  CHECK(cudaFree(buffer));
  CHECK(cudaFree(flush));
  CHECK(cudaFree(sink));
  return 0;
}
