// L2 sharing probe: does the L2 deliver more when several SMs read the same bytes at once? timing.cu measures the
// L2's delivery into the SMs with every block reading bytes no other block reads at the same time: 7.44 TB/s on the
// H100. GEMM blocks of one wave read the same tiles of A and B at about the same time, and some rungs take their
// tiles in faster than that (rung 17's bm=128 bn=128 at 8.69 TB/s, docs/time-model.md). This probe reads an
// L2-resident buffer of 16 KiB tiles with 16-byte ld.global.cg loads (L1 bypassed), 3 blocks of 512 threads on every
// SM, each block one tile an iteration:
//
//   group G   block b reads tile (b / G + i) mod 512 in iteration i: G blocks read each tile at once, the others
//             other tiles (G = 1: every block its own tile)
//   output    per G: bytes delivered into the SMs per second (events around the last of three launches: the first
//             brings the buffer into L2) and per SM clock (the busiest block's clock64); one JSON object
//
// Build: nvcc -arch=sm_90 -O3 -std=c++17 -o l2_sharing l2_sharing.cu
// Run:   ./l2_sharing            (prints one JSON object)
//        ./l2_sharing G          (three launches of that group size, for ncu: l2_sharing_ncu.sh)
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "cuda_check.hpp"

namespace {

constexpr int kThreads = 512, kBlocksPerSm = 3, kTiles = 512, kIterations = 4096;
constexpr int kTileVectors = 1024;  // 16 KiB of float4: 8 MiB in all, resident in the 50 MiB L2
constexpr int kGroups[] = {1, 2, 4, 8, 16, 66, 396};

__device__ __forceinline__ long long clock_now() {
  long long c;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(c));
  return c;
}

__global__ void read_tiles(const float4* data, int group, int iterations, long long* cycles, float* sink) {
  float acc = 0;
  __syncthreads();
  const long long start = clock_now();
  for (int i = 0; i < iterations; ++i) {
    const float4* tile = data + std::size_t((int(blockIdx.x) / group + i) % kTiles) * kTileVectors;
#pragma unroll
    for (int v = 0; v < kTileVectors / kThreads; ++v) {
      float4 x;
      asm volatile("ld.global.cg.v4.f32 {%0,%1,%2,%3}, [%4];"
                   : "=f"(x.x), "=f"(x.y), "=f"(x.z), "=f"(x.w)
                   : "l"(tile + v * kThreads + threadIdx.x));
      acc += (x.x + x.y) + (x.z + x.w);
    }
  }
  __syncthreads();
  if (threadIdx.x == 0) cycles[blockIdx.x] = clock_now() - start;
  if (acc == 1.2345f) *sink = acc;
}

struct Run {
  double seconds;
  long long cycles;  // the busiest block's
};

Run run(int group, int blocks, const float4* data, long long* cycles, float* sink) {
  cudaEvent_t begin, end;
  CHECK(cudaEventCreate(&begin));
  CHECK(cudaEventCreate(&end));
  for (int launch = 0; launch < 3; ++launch) {  // the last one is timed
    CHECK(cudaEventRecord(begin));
    read_tiles<<<blocks, kThreads>>>(data, group, kIterations, cycles, sink);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(end));
    CHECK(cudaEventSynchronize(end));
  }
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, begin, end));
  std::vector<long long> host(blocks);
  CHECK(cudaMemcpy(host.data(), cycles, blocks * sizeof(long long), cudaMemcpyDeviceToHost));
  CHECK(cudaEventDestroy(begin));
  CHECK(cudaEventDestroy(end));
  return {ms * 1e-3, *std::max_element(host.begin(), host.end())};
}

}  // namespace

int main(int argc, char** argv) {
  int sms = 0, resident = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, read_tiles, kThreads, 0));
  if (resident < kBlocksPerSm) {
    std::fprintf(stderr, "l2_sharing: %d blocks of %d threads fit on an SM, not %d\n", resident, kThreads, kBlocksPerSm);
    return 1;
  }
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  const int blocks = sms * kBlocksPerSm;
  float4* data = nullptr;
  long long* cycles = nullptr;
  float* sink = nullptr;
  CHECK(cudaMalloc(&data, std::size_t(kTiles) * kTileVectors * sizeof(float4)));
  CHECK(cudaMemset(data, 0, std::size_t(kTiles) * kTileVectors * sizeof(float4)));
  CHECK(cudaMalloc(&cycles, blocks * sizeof(long long)));
  CHECK(cudaMalloc(&sink, sizeof(float)));
  if (argc > 1) {  // one group size, for ncu
    run(std::atoi(argv[1]) > 0 ? std::atoi(argv[1]) : 1, blocks, data, cycles, sink);
    return 0;
  }
  const double bytes = double(blocks) * kIterations * kTileVectors * sizeof(float4);
  std::printf("{\n  \"device\": \"%s\",\n  \"sms\": %d,\n  \"blocks\": %d,\n  \"bytes_per_launch\": %.0f,\n  \"groups\": [\n",
              prop.name, sms, blocks, bytes);
  bool first = true;
  for (const int group : kGroups) {
    const Run r = run(group, blocks, data, cycles, sink);
    std::printf("%s    {\"group\": %d, \"bytes_per_second\": %.4g, \"bytes_per_clock_per_sm\": %.2f}", first ? "" : ",\n",
                group, bytes / r.seconds, bytes / sms / double(r.cycles));
    first = false;
  }
  std::printf("\n  ]\n}\n");
  return 0;
}
