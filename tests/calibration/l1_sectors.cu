// L1 hit probe: what a global load that hits in L1 costs, by the sectors it returns. timing.cu measured loads whose
// lanes touch 32 or 4 lines at one line a clock per SM, the rate of the data pipe, but loads whose 32 lanes read one
// whole line at only 0.43 a clock, with the data pipe 43% busy (tests/calibration/ncu_global_loads.csv).
// naive-coalesced's loads are of that kind, and the time model, counting its data pipe and issue, predicted it at 0.8x
// of its measured time (docs/fidelity.md, before 2026-11-25). This probe asks what limits a request that hits: its
// lines, its sectors, or its width.
//
// Every warp of the SM issues L1-resident loads, eight independent ones per iteration, each a request of one pattern:
//
//   width     4, 8 or 16 bytes a lane (ld.global.f32, .v2.f32, .v4.f32)
//   share     how many neighbouring lanes read the same element: 32 (a broadcast), 4, 2 or 1
//   so        a request spans 32 / share x width bytes from an aligned start: 4 bytes (1 sector) to 512 (16 sectors in
//             4 lines)
//
// Each iteration's eight loads read eight 512-byte slots of one group of 4 KiB; warp w reads group (i + w) mod 16 in
// iteration i, so warps are out of step and 64 KiB stay in L1. The mask (15) is a kernel argument, so that ptxas
// cannot see that the addresses repeat (tests/calibration/ncu_global_loads_constant_mask.csv shows what it does
// then). Rates are counted in the SM's own clock (clock64 around each block's loop), with 1 and, where registers
// allow, 2 blocks of 1024 threads resident on every SM (the occupancy API says how many fit: the 8- and 16-byte
// patterns' registers allow one): if a rate does not move with the number of warps, it is a throughput, not a latency.
//
//   output   per pattern and blocks per SM: requests and sectors per clock per SM (one JSON object)
//
// Build: nvcc -arch=sm_90 -O3 -std=c++17 -o l1_sectors l1_sectors.cu
// Run:   ./l1_sectors              (prints one JSON object)
//        ./l1_sectors PATTERN      (one launch of that pattern, as many blocks per SM as fit up to 2, for ncu:
//                                   l1_sectors_ncu.sh)
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

#include "cuda_check.hpp"

namespace {

constexpr int kThreads = 1024, kIterations = 4096, kLoadsPerIteration = 8;
constexpr int kSlotBytes = 512, kGroupBytes = kLoadsPerIteration * kSlotBytes, kGroups = 16;

__device__ __forceinline__ long long clock_now() {
  long long c;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(c));
  return c;
}

// One load of Width bytes at p; the sum of what it read, so that every byte loaded is used.
template <int Width>
__device__ __forceinline__ float load(const unsigned char* p) {
  float a, b, c, d;
  if constexpr (Width == 4) {
    asm volatile("ld.global.f32 %0, [%1];" : "=f"(a) : "l"(p));
    return a;
  } else if constexpr (Width == 8) {
    asm volatile("ld.global.v2.f32 {%0, %1}, [%2];" : "=f"(a), "=f"(b) : "l"(p));
    return a + b;
  } else {
    asm volatile("ld.global.v4.f32 {%0, %1, %2, %3}, [%4];" : "=f"(a), "=f"(b), "=f"(c), "=f"(d) : "l"(p));
    return (a + b) + (c + d);
  }
}

template <int Width, int Share>
__global__ void hit_loads(const unsigned char* data, int iterations, int group_mask, long long* cycles, float* sink) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const unsigned char* mine = data + (lane / Share) * Width;
  float acc[kLoadsPerIteration] = {};
  __syncthreads();
  const long long start = clock_now();
  for (int i = 0; i < iterations; ++i) {
    const unsigned char* group = mine + ((i + warp) & group_mask) * kGroupBytes;
#pragma unroll
    for (int u = 0; u < kLoadsPerIteration; ++u) acc[u] += load<Width>(group + u * kSlotBytes);
  }
  __syncthreads();
  if (threadIdx.x == 0) cycles[blockIdx.x] = clock_now() - start;
  float s = 0;
  for (float v : acc) s += v;
  if (s == 1.2345f) *sink = s;
}

struct Pattern {
  const char* name;
  int width, share;
  void (*kernel)(const unsigned char*, int, int, long long*, float*);
  int bytes() const { return 32 / share * width; }
  int sectors() const { return (bytes() + 31) / 32; }
  int lines() const { return (bytes() + 127) / 128; }
};

const Pattern kPatterns[] = {
    {"w4_broadcast", 4, 32, hit_loads<4, 32>}, {"w4_32B", 4, 4, hit_loads<4, 4>},
    {"w4_64B", 4, 2, hit_loads<4, 2>},         {"w4_128B", 4, 1, hit_loads<4, 1>},
    {"w8_128B", 8, 2, hit_loads<8, 2>},        {"w16_128B", 16, 4, hit_loads<16, 4>},
    {"w8_256B", 8, 1, hit_loads<8, 1>},        {"w16_512B", 16, 1, hit_loads<16, 1>},
};

// The busiest block's cycles of one launch with blocks_per_sm blocks on every SM.
long long run(const Pattern& p, int sms, int blocks_per_sm, const unsigned char* data, long long* cycles, float* sink) {
  const int blocks = sms * blocks_per_sm;
  p.kernel<<<blocks, kThreads>>>(data, kIterations, kGroups - 1, cycles, sink);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<long long> host(blocks);
  CHECK(cudaMemcpy(host.data(), cycles, blocks * sizeof(long long), cudaMemcpyDeviceToHost));
  return *std::max_element(host.begin(), host.end());
}

}  // namespace

int main(int argc, char** argv) {
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  unsigned char* data = nullptr;
  long long* cycles = nullptr;
  float* sink = nullptr;
  CHECK(cudaMalloc(&data, kGroups * kGroupBytes + 1024));
  CHECK(cudaMemset(data, 0, kGroups * kGroupBytes + 1024));
  CHECK(cudaMalloc(&cycles, 2 * sms * sizeof(long long)));
  CHECK(cudaMalloc(&sink, sizeof(float)));

  if (argc > 1) {  // one launch of one pattern, for ncu
    for (const Pattern& p : kPatterns)
      if (std::strcmp(argv[1], p.name) == 0) {
        int resident = 0;
        CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, p.kernel, kThreads, 0));
        run(p, sms, std::max(1, std::min(resident, 2)), data, cycles, sink);
        return 0;
      }
    std::fprintf(stderr, "l1_sectors: no pattern named %s\n", argv[1]);
    return 1;
  }

  std::printf("{\n  \"device\": \"%s\",\n  \"sms\": %d,\n  \"loads_per_warp\": %d,\n  \"patterns\": [\n", prop.name, sms,
              kIterations * kLoadsPerIteration);
  bool first = true;
  for (const Pattern& p : kPatterns) {
    int resident = 0;  // blocks of this kernel that fit on an SM together: the rate needs them all running at once
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, p.kernel, kThreads, 0));
    for (int blocks_per_sm = std::min(resident, 2); blocks_per_sm >= 1; --blocks_per_sm) {
      run(p, sms, blocks_per_sm, data, cycles, sink);  // warm L1 and the clock
      const long long c = run(p, sms, blocks_per_sm, data, cycles, sink);
      const double requests = double(blocks_per_sm) * (kThreads / 32) * kIterations * kLoadsPerIteration;
      std::printf("%s    {\"pattern\": \"%s\", \"width\": %d, \"bytes\": %d, \"sectors\": %d, \"lines\": %d, "
                  "\"blocks_per_sm\": %d, \"requests_per_clock_per_sm\": %.4f, \"sectors_per_clock_per_sm\": %.4f}",
                  first ? "" : ",\n", p.name, p.width, p.bytes(), p.sectors(), p.lines(), blocks_per_sm,
                  requests / double(c), requests * p.sectors() / double(c));
      first = false;
    }
  }
  std::printf("\n  ]\n}\n");
  return 0;
}
