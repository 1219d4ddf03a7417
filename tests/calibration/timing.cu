// Timing probes: the machine parameters of the time model (sim/include/gemmlab/sim/time_model.hpp), measured on the
// GPU, one small kernel per parameter. Throughputs are counted in the SM's own clock (clock64 around each block's
// work), so they hold at whatever clock the card runs; latencies are dependent-load chains of one thread.
//
//   latency_l1, latency_l2, latency_dram, latency_shared  a pointer chase: cycles per dependent load
//   global_lines_*    L1-resident loads whose lanes touch 32 (or 4) different 128-byte lines: lines per clock per SM
//   global_requests   L1-resident loads of one line per warp: requests per clock per SM
//   shared_wavefronts conflict-free 32-bit shared loads: wavefronts per clock per SM
//   l2_*              every SM reading an L2-resident buffer (ld.global.cg into registers, cp.async.cg into shared
//                     memory; 16 bytes a lane): sectors per SM clock and bytes per second
//   dram_bytes        every SM reading a buffer 16x the L2 once: bytes per second (events) and per SM clock
//   fma               independent FFMA chains: FMAs per clock per SM
//   mma_sync          mma.sync.m16n8k16 f16 -> f32, 16 warps of 4 independent accumulators: multiply-adds per clock per SM
//   barrier           __syncthreads in a loop, one block of 256 threads on an SM: cycles per barrier
//   sustained_clock_* the SM clock after about 2 s of FFMA or of mma.sync on every SM (the power limit's clock)
//   (launch_overhead  until 2026-11-27 also events around one launch of an empty kernel on an idle GPU; the recorded
//                     output, timing_h100.json, still holds it. launch_overhead.cu measures it now, as the benchmark
//                     times its runs.)
//
// Build: nvcc -arch=sm_90 -O3 -std=c++17 -o timing timing.cu      Run: ./timing  (prints one JSON object)
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <random>
#include <vector>

#include "cuda_check.hpp"

namespace {

__device__ __forceinline__ long long clock_now() {
  long long c;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(c));
  return c;
}

// ---- latency: one thread follows a chain of indices
template <int Level>  // 0: L1 (ld.ca), 1: L2 or DRAM (ld.cg)
__global__ void chase(const unsigned* next, int steps, long long* cycles, unsigned* sink) {
  unsigned p = 0;
  for (int i = 0; i < steps; ++i) {  // one pass to warm the caches and the TLB
    if (Level == 0) asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(p) : "l"(next + p));
    else asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(p) : "l"(next + p));
  }
  const long long t0 = clock_now();
  for (int i = 0; i < steps; ++i) {
    if (Level == 0) asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(p) : "l"(next + p));
    else asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(p) : "l"(next + p));
  }
  *cycles = clock_now() - t0;
  *sink = p;
}

__global__ void chase_shared(int steps, long long* cycles, unsigned* sink) {
  __shared__ unsigned next[1024];
  for (int i = 0; i < 1024; ++i) next[i] = (i * 33 + 1) % 1024;
  unsigned p = 0;
  const long long t0 = clock_now();
  for (int i = 0; i < steps; ++i) asm volatile("ld.shared.u32 %0, [%1];" : "=r"(p) : "r"(static_cast<unsigned>(__cvta_generic_to_shared(next + p))));
  *cycles = clock_now() - t0;
  *sink = p;
}

// Each block stores its cycles; the host divides the SM's work by the longest block of the SM.
struct BlockTime {
  long long start, end;
  unsigned sm;
};

__device__ __forceinline__ unsigned sm_id() {
  unsigned s;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
  return s;
}

__device__ __forceinline__ void record(BlockTime* t, long long start) {
  __syncthreads();
  if (threadIdx.x == 0) t[blockIdx.x] = {start, clock_now(), sm_id()};
}

// Keeps a probe's results live: a store the compiler cannot prove never happens, so it keeps the work behind them.
template <int N>
__device__ __forceinline__ void keep(const float (&values)[N], float* sink) {
  float s = 0;
  for (float v : values) s += v;
  if (s == 1.2345f) *sink = s;
}

// ---- the L1 load path: `Lines` distinct 128-byte lines per warp request, `Stride` lines apart, all L1-resident
template <int Lines, int Stride>
__global__ void global_loads(const float* data, int iterations, int group_mask, BlockTime* t, float* sink) {
  // Lane l reads line (l mod Lines) x Stride + g of the request's group g (0..15), at word (l / Lines): one request,
  // Lines lines. Every warp reads the same 16 x Lines lines, so all loads hit in L1 after the first pass.
  const int lane = threadIdx.x & 31, line = (lane % Lines) * Stride, word = lane / Lines, warp = threadIdx.x >> 5;
  float acc[8] = {};
  __syncthreads();
  const long long start = clock_now();
  for (int i = 0; i < iterations; ++i) {
#pragma unroll
    for (int u = 0; u < 8; ++u) {
      // Warps out of step: no two read the same lines together. The mask (15) is an argument: with a constant one,
      // ptxas sees only 16 addresses and keeps the loaded values in registers instead of loading again.
      const int group = (i * 8 + u + warp) & group_mask;
      float v;
      asm volatile("ld.global.f32 %0, [%1];" : "=f"(v) : "l"(data + (line + group) * 32 + word));
      acc[u] += v;
    }
  }
  record(t, start);
  keep(acc, sink);
}

// ---- shared wavefronts: conflict-free 32-bit loads
__global__ void shared_loads(int iterations, BlockTime* t, float* sink) {
  __shared__ float tile[8][1024];
  for (int i = threadIdx.x; i < 8 * 1024; i += blockDim.x) tile[i / 1024][i % 1024] = float(i);
  float acc[8] = {};
  __syncthreads();
  const long long start = clock_now();
  for (int i = 0; i < iterations; ++i) {
#pragma unroll
    for (int u = 0; u < 8; ++u) {
      float v;
      asm volatile("ld.shared.f32 %0, [%1];"
                   : "=f"(v)
                   : "r"(static_cast<unsigned>(__cvta_generic_to_shared(&tile[u][(threadIdx.x + i * 32) & 1023]))));
      acc[u] += v;
    }
  }
  record(t, start);
  keep(acc, sink);
}

// ---- L2 and DRAM: 16-byte loads that bypass L1, each block striding over `bytes`
__global__ void stream_loads(const float4* data, std::size_t count, int passes, BlockTime* t, float* sink) {
  float acc = 0;
  __syncthreads();
  const long long start = clock_now();
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (int p = 0; p < passes; ++p)
    for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
      float4 v;
      asm volatile("ld.global.cg.v4.f32 {%0,%1,%2,%3}, [%4];" : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(data + i));
      acc += v.x + v.y + v.z + v.w;
    }
  record(t, start);
  if (acc == 1.2345f) *sink = acc;
}

// ---- L2 by cp.async.cg (16 bytes a lane, L1 bypassed, into shared memory): the path the tiled rungs copy tiles by
__global__ void stream_copies(const float4* data, std::size_t count, int passes, BlockTime* t, float* sink) {
  __shared__ float4 landing[4][512];
  __syncthreads();
  const long long start = clock_now();
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  int slot = 0;
  for (int p = 0; p < passes; ++p)
    for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
      const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(&landing[slot][threadIdx.x]));
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(data + i));
      asm volatile("cp.async.commit_group;");
      asm volatile("cp.async.wait_group 3;");  // up to 4 copies in flight a thread
      slot = (slot + 1) & 3;
    }
  asm volatile("cp.async.wait_all;");
  record(t, start);
  if (landing[0][threadIdx.x].x == 1.2345f) *sink = 1;
}

// ---- FP32 FMA: 16 independent chains a thread
__global__ void fma_chains(int iterations, BlockTime* t, float* sink) {
  float a[16];
  for (int i = 0; i < 16; ++i) a[i] = float(threadIdx.x + i);
  const float x = 1.0001f, y = 0.9999f;
  __syncthreads();
  const long long start = clock_now();
  for (int i = 0; i < iterations; ++i) {
#pragma unroll
    for (int u = 0; u < 16; ++u) a[u] = fmaf(a[u], x, y);
  }
  record(t, start);
  keep(a, sink);
}

// ---- mma.sync m16n8k16, FP16 in, FP32 accumulate: 4 independent accumulators a warp
__global__ void mma_chains(int iterations, BlockTime* t, float* sink) {
  unsigned a[4], b[2];
  for (int i = 0; i < 4; ++i) a[i] = 0x3c003c00u ^ threadIdx.x;
  for (int i = 0; i < 2; ++i) b[i] = 0x3c003c00u ^ (threadIdx.x * 3);
  float d[4][4] = {};
  __syncthreads();
  const long long start = clock_now();
  for (int i = 0; i < iterations; ++i) {
#pragma unroll
    for (int u = 0; u < 4; ++u)
      asm volatile(
          "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
          : "+f"(d[u][0]), "+f"(d[u][1]), "+f"(d[u][2]), "+f"(d[u][3])
          : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  }
  record(t, start);
  keep(reinterpret_cast<const float(&)[16]>(d), sink);
}

__global__ void barriers(int iterations, long long* cycles) {
  __syncthreads();
  const long long start = clock_now();
  for (int i = 0; i < iterations; ++i) __syncthreads();
  if (threadIdx.x == 0) *cycles = clock_now() - start;
}

int sm_count() {
  int device = 0, sms = 0;
  CHECK(cudaGetDevice(&device));
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  return sms;
}

// Work per clock of each SM: its blocks' work over the span from its first block's start to its last block's end
// (blocks resident together or one after another alike), averaged over the SMs.
double per_sm_clock(const std::vector<BlockTime>& t, double work_per_block) {
  std::vector<long long> first(1024, -1), last(1024, 0);
  std::vector<int> blocks(1024, 0);
  for (const BlockTime& b : t) {
    first[b.sm] = first[b.sm] < 0 ? b.start : std::min(first[b.sm], b.start);
    last[b.sm] = std::max(last[b.sm], b.end);
    ++blocks[b.sm];
  }
  double sum = 0;
  int sms = 0;
  for (std::size_t s = 0; s < blocks.size(); ++s)
    if (blocks[s] > 0) {
      sum += blocks[s] * work_per_block / double(last[s] - first[s]);
      ++sms;
    }
  return sms ? sum / sms : 0.0;
}

struct Timed {
  std::vector<BlockTime> blocks;
  double seconds = 0;  // the measured launch, by events
};

template <class Launch>
Timed timed_blocks(int blocks, Launch launch) {
  BlockTime* t = nullptr;
  CHECK(cudaMalloc(&t, sizeof(BlockTime) * blocks));
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  launch(t);  // warm-up
  CHECK(cudaGetLastError());
  CHECK(cudaEventRecord(e0));
  launch(t);
  CHECK(cudaEventRecord(e1));
  CHECK(cudaDeviceSynchronize());
  Timed out;
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, e0, e1));
  out.seconds = ms * 1e-3;
  out.blocks.resize(static_cast<std::size_t>(blocks));
  CHECK(cudaMemcpy(out.blocks.data(), t, sizeof(BlockTime) * blocks, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(t));
  CHECK(cudaEventDestroy(e0));
  CHECK(cudaEventDestroy(e1));
  return out;
}

// One throughput: per SM clock (clock64 spans) and, as a check, per clock of the wall time at the SM's
// maximum clock; "blocks_per_sm" as the occupancy calculator gives it.
template <class Kernel>
void print_rate(const char* name, const Timed& t, double work_per_block, Kernel kernel, int threads, int sms,
                int clock_mhz) {
  int resident = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, kernel, threads, 0));
  const double wall = work_per_block * double(t.blocks.size()) / sms / (t.seconds * clock_mhz * 1e6);
  std::printf("  \"%s\": {\"per_clock_per_sm\": %.3f, \"per_max_clock_per_sm_by_wall_time\": %.3f, "
              "\"blocks_per_sm\": %d, \"threads\": %d},\n",
              name, per_sm_clock(t.blocks, work_per_block), wall, resident, threads);
}

// A chain over `bytes` of memory: one index per 128-byte line, the lines in a random cycle.
double chase_latency(std::size_t bytes, bool l1, unsigned* sink) {
  const std::size_t words = bytes / 4, lines = bytes / 128;
  std::vector<unsigned> order(lines);
  std::iota(order.begin(), order.end(), 0u);
  std::shuffle(order.begin() + 1, order.end(), std::mt19937(7));
  std::vector<unsigned> next(words, 0);
  for (std::size_t i = 0; i < lines; ++i) next[order[i] * 32] = order[(i + 1) % lines] * 32;
  unsigned* d = nullptr;
  long long* cycles = nullptr;
  CHECK(cudaMalloc(&d, words * 4));
  CHECK(cudaMalloc(&cycles, sizeof(long long)));
  CHECK(cudaMemcpy(d, next.data(), words * 4, cudaMemcpyHostToDevice));
  const int steps = static_cast<int>(std::min<std::size_t>(lines, 1 << 15));
  if (l1) chase<0><<<1, 1>>>(d, steps, cycles, sink);
  else chase<1><<<1, 1>>>(d, steps, cycles, sink);
  CHECK(cudaGetLastError());
  long long host = 0;
  CHECK(cudaMemcpy(&host, cycles, sizeof host, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d));
  CHECK(cudaFree(cycles));
  return double(host) / steps;
}

}  // namespace

int main() {
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  const int sms = sm_count();
  float* sink = nullptr;
  unsigned* usink = nullptr;
  long long* cycles = nullptr;
  CHECK(cudaMalloc(&sink, 4));
  CHECK(cudaMalloc(&usink, 4));
  CHECK(cudaMalloc(&cycles, sizeof(long long)));

  std::printf("{\n  \"device\": \"%s\",\n  \"sms\": %d,\n", prop.name, sms);
  // Latencies. L1: 16 KiB; L2: 8 MiB (past L1, inside L2); DRAM: 1 GiB (20x the L2; TLB misses included).
  std::printf("  \"latency_l1_cycles\": %.1f,\n", chase_latency(16 << 10, true, usink));
  std::printf("  \"latency_l2_cycles\": %.1f,\n", chase_latency(8 << 20, false, usink));
  std::printf("  \"latency_dram_cycles\": %.1f,\n", chase_latency(std::size_t(1) << 30, false, usink));
  chase_shared<<<1, 1>>>(1 << 14, cycles, usink);
  CHECK(cudaGetLastError());
  long long shared_cycles = 0;
  CHECK(cudaMemcpy(&shared_cycles, cycles, sizeof shared_cycles, cudaMemcpyDeviceToHost));
  std::printf("  \"latency_shared_cycles\": %.1f,\n", double(shared_cycles) / (1 << 14));

  int clock_khz = 0;
  CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
  const int mhz = clock_khz / 1000;

  // The L1 load path, L1-resident: 2 blocks of 1024 threads per SM where registers allow.
  float* window = nullptr;
  CHECK(cudaMalloc(&window, 1 << 20));
  CHECK(cudaMemset(window, 0, 1 << 20));
  const int iters = 2048, blocks = 2 * sms;
  const double requests_per_block = 32.0 * iters * 8;
  const auto lines = [&](const char* name, auto kernel, int lines_per_request) {
    print_rate(name, timed_blocks(blocks, [&](BlockTime* t) { kernel<<<blocks, 1024>>>(window, iters, 15, t, sink); }),
               requests_per_block * lines_per_request, kernel, 1024, sms, mhz);
  };
  // Lines per clock: 32 lines a request, neighbouring lines and lines 16 KiB apart (a row-major 4096-float matrix's
  // column, as the naive rung reads A); 4 lines a request; requests per clock, 1 line a request.
  lines("global_lines_32_a_request_adjacent", global_loads<32, 1>, 32);
  lines("global_lines_32_a_request_16k_apart", global_loads<32, 128>, 32);
  lines("global_lines_4_a_request", global_loads<4, 1>, 4);
  lines("global_requests_1_line", global_loads<1, 1>, 1);
  print_rate("shared_wavefronts",
             timed_blocks(blocks, [&](BlockTime* t) { shared_loads<<<blocks, 1024>>>(iters, t, sink); }),
             requests_per_block, shared_loads, 1024, sms, mhz);

  // L2: 24 MiB (inside the 50 MiB L2), read 64 times by every SM (4 blocks of 512 threads, 16-byte loads), by
  // ld.global.cg into registers and by cp.async.cg into shared memory. The L2 runs on its own clock: its bandwidth is
  // given in bytes per second (events), beside sectors per SM clock.
  const std::size_t l2_bytes = std::size_t(24) << 20;
  float4* l2_buffer = nullptr;
  CHECK(cudaMalloc(&l2_buffer, l2_bytes));
  CHECK(cudaMemset(l2_buffer, 0, l2_bytes));
  const int passes = 64, stream_blocks = 4 * sms;
  const Timed l2 = timed_blocks(stream_blocks, [&](BlockTime* t) {
    stream_loads<<<stream_blocks, 512>>>(l2_buffer, l2_bytes / 16, passes, t, sink);
  });
  print_rate("l2_sectors", l2, double(l2_bytes) * passes / 32 / stream_blocks, stream_loads, 512, sms, mhz);
  std::printf("  \"l2_bytes_per_second\": %.4g,\n", double(l2_bytes) * passes / l2.seconds);
  const Timed l2_copies = timed_blocks(stream_blocks, [&](BlockTime* t) {
    stream_copies<<<stream_blocks, 512>>>(l2_buffer, l2_bytes / 16, passes, t, sink);
  });
  print_rate("l2_sectors_cp_async", l2_copies, double(l2_bytes) * passes / 32 / stream_blocks, stream_copies, 512, sms,
             mhz);
  std::printf("  \"l2_bytes_per_second_cp_async\": %.4g,\n", double(l2_bytes) * passes / l2_copies.seconds);
  CHECK(cudaFree(l2_buffer));

  // DRAM: 1 GiB read once.
  const std::size_t dram_bytes = std::size_t(1) << 30;
  float4* big = nullptr;
  CHECK(cudaMalloc(&big, dram_bytes));
  CHECK(cudaMemset(big, 0, dram_bytes));
  const Timed dram = timed_blocks(stream_blocks, [&](BlockTime* t) {
    stream_loads<<<stream_blocks, 512>>>(big, dram_bytes / 16, 1, t, sink);
  });
  print_rate("dram_sectors", dram, double(dram_bytes) / 32 / stream_blocks, stream_loads, 512, sms, mhz);
  std::printf("  \"dram_bytes_per_second\": %.4g,\n", double(dram_bytes) / dram.seconds);
  CHECK(cudaFree(big));

  // Math: 2 blocks of 1024 threads per SM (FFMA); 16 warps per SM (mma.sync).
  print_rate("fma", timed_blocks(blocks, [&](BlockTime* t) { fma_chains<<<blocks, 1024>>>(iters, t, sink); }),
             1024.0 * iters * 16, fma_chains, 1024, sms, mhz);
  print_rate("mma_sync_multiply_adds",
             timed_blocks(sms, [&](BlockTime* t) { mma_chains<<<sms, 512>>>(iters, t, sink); }),
             16.0 * iters * 4 * 16 * 8 * 16, mma_chains, 512, sms, mhz);

  // Sustained clocks: the SM clock (clock64 spans over wall time) after about 2 s of each kind of math, as a long
  // kernel at 8192^3 runs: the card lowers its clock to stay within its power limit.
  const auto sustained_mhz = [&](const Timed& t) {
    long long span = 0;
    for (const BlockTime& b : t.blocks) span = std::max(span, b.end - b.start);
    return double(span) / t.seconds * 1e-6;
  };
  const int long_iters = 16 << 20;  // about 2.4 s of FFMA, 2 s of mma.sync
  std::printf("  \"sustained_clock_mhz_fma\": %.0f,\n",
              sustained_mhz(timed_blocks(blocks, [&](BlockTime* t) { fma_chains<<<blocks, 1024>>>(long_iters, t, sink); })));
  std::printf("  \"sustained_clock_mhz_mma_sync\": %.0f,\n",
              sustained_mhz(timed_blocks(sms, [&](BlockTime* t) { mma_chains<<<sms, 512>>>(long_iters * 2, t, sink); })));

  const int barrier_iters = 1 << 14;
  barriers<<<1, 256>>>(barrier_iters, cycles);
  CHECK(cudaGetLastError());
  long long barrier_cycles = 0;
  CHECK(cudaMemcpy(&barrier_cycles, cycles, sizeof barrier_cycles, cudaMemcpyDeviceToHost));
  std::printf("  \"barrier_cycles\": %.1f,\n", double(barrier_cycles) / barrier_iters);
  std::printf("  \"sm_clock_max_mhz\": %d\n}\n", mhz);
  return 0;
}
