// TMA from DRAM: how fast blocks that stream a matrix too large for the L2 through a ring of TMA stages take it in,
// by how many SMs stream and how many bytes each keeps in flight. A decode GEMM (M = 16 tokens) is such a stream: each
// block walks down its strip of the weight matrix, a box of 64 rows a k-step, and the time model's DRAM term
// (sim/src/time_model.cpp) assumed the bandwidth of every SM reading at once (timing.cu's dram_bytes_per_second).
//
// One thread per block keeps `stages` boxes in flight (64 rows x `panels` panels of 128-byte rows, B's layout in rungs
// 17 to 22), refilling each stage as soon as its mbarrier says it landed; block b walks strip b of a 1 GiB BF16 matrix
// from the top, `rows` rows. The L2 is flushed before each launch (a 256 MiB memset). Each case runs three times; the
// median time by events (the launch included) gives the bytes per second; two strip lengths give the fixed part.
//
//   output  per SM count, panels, stages and rows: bytes, microseconds, TB/s, and GB/s per SM
//
// Build: nvcc -arch=sm_90a -O3 -std=c++17 -o tma_dram tma_dram.cu     Run: ./tma_dram  (one JSON object)
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "tma_common.hpp"

namespace {

constexpr int kRows = 8192, kCols = 65536;  // 1 GiB of BF16, 20 times the L2
constexpr int kBoxRows = 64, kPanelCols = 64;  // a panel: 64 BF16 = one 128-byte row, the 128-byte swizzle mode
constexpr int kMaxStages = 6;

__global__ void stream_strips(const __grid_constant__ CUtensorMap map, int panels, int stages, int rows) {
  extern __shared__ __align__(1024) unsigned char smem[];
  __shared__ __align__(8) std::uint64_t full[kMaxStages];
  unsigned char* base = smem + ((1024 - (shared_address(smem) & 1023)) & 1023);
  if (threadIdx.x != 0) return;
  for (int s = 0; s < stages; ++s)
    init_barrier(shared_address(&full[s]));
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  const int stage_bytes = kBoxRows * 128 * panels, steps = rows / kBoxRows;
  const int first_panel = static_cast<int>(blockIdx.x) * panels;
  for (int i = 0; i < steps + stages; ++i) {
    const int s = i % stages;
    const std::uint32_t barrier = shared_address(&full[s]);
    if (i >= stages)
      wait_phase(barrier, (i / stages - 1) & 1);
    if (i >= steps) continue;
    expect_bytes(barrier, stage_bytes);
    asm volatile(
        "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];\n"
        ::"r"(shared_address(base + s * stage_bytes)), "l"(&map), "r"(0), "r"(i * kBoxRows), "r"(first_panel),
        "r"(barrier) : "memory");
  }
}

// The matrix as panels of 64 columns ({column in the panel, row, panel}), a box `panels` of them side by side.
CUtensorMap make_map(void* matrix, int panels) {
  CUtensorMap map{};
  const cuuint64_t dims[3] = {kPanelCols, kRows, kCols / kPanelCols};
  const cuuint64_t strides[2] = {std::uint64_t{kCols} * 2, kPanelCols * 2};
  const cuuint32_t box[3] = {kPanelCols, kBoxRows, static_cast<cuuint32_t>(panels)}, step[3] = {1, 1, 1};
  const CUresult r = encode_tiled()(&map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 3, matrix, dims, strides, box, step,
                                    CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                    CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) std::fprintf(stderr, "tma_dram: cuTensorMapEncodeTiled: %d\n", int(r)), std::exit(1);
  return map;
}

}  // namespace

int main() {
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  if (prop.major < 9) std::fprintf(stderr, "tma_dram: needs a Hopper GPU (sm_90a)\n"), std::exit(1);
  void *matrix = nullptr, *flush = nullptr;
  const std::size_t matrix_bytes = std::size_t{kRows} * kCols * 2, flush_bytes = std::size_t{256} << 20;
  CHECK(cudaMalloc(&matrix, matrix_bytes));
  CHECK(cudaMemset(matrix, 0, matrix_bytes));
  CHECK(cudaMalloc(&flush, flush_bytes));
  const int smem = kMaxStages * kBoxRows * 128 * 4 + 1024;
  CHECK(cudaFuncSetAttribute(stream_strips, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  std::printf("{\n  \"device\": \"%s\",\n  \"sms\": %d,\n  \"box_rows\": %d,\n  \"rows\": [", prop.name,
              prop.multiProcessorCount, kBoxRows);
  const char* separator = "\n";
  const int all = prop.multiProcessorCount;
  for (const int sms : {8, 16, 32, 48, 64, 96, 112, all})
    for (const auto [panels, stages] : {std::pair{1, 4}, std::pair{2, 2}, std::pair{2, 4}, std::pair{4, 2},
                                        std::pair{4, 3}, std::pair{4, 4}, std::pair{4, 6}})
      for (const int rows : {1024, 8192}) {
        const CUtensorMap map = make_map(matrix, panels);
        std::vector<float> times;
        for (int run = 0; run < 3; ++run) {
          CHECK(cudaMemset(flush, run + 1, flush_bytes));
          CHECK(cudaEventRecord(start));
          stream_strips<<<sms, 32, smem>>>(map, panels, stages, rows);
          CHECK(cudaEventRecord(stop));
          CHECK(cudaEventSynchronize(stop));
          CHECK(cudaGetLastError());
          float ms = 0;
          CHECK(cudaEventElapsedTime(&ms, start, stop));
          times.push_back(ms);
        }
        std::sort(times.begin(), times.end());
        const double seconds = times[1] * 1e-3, bytes = double(sms) * rows * 128.0 * panels;
        std::printf("%s    {\"sms\": %d, \"panels\": %d, \"stages\": %d, \"in_flight_bytes\": %d, \"rows\": %d, "
                    "\"bytes\": %.0f, \"us\": %.2f, \"tb_per_s\": %.3f, \"gb_per_s_per_sm\": %.2f}",
                    separator, sms, panels, stages, stages * kBoxRows * 128 * panels, rows, bytes, seconds * 1e6,
                    bytes / seconds / 1e12, bytes / seconds / 1e9 / sms);
        separator = ",\n";
      }
  std::printf("\n  ]\n}\n");
  CHECK(cudaFree(matrix));
  CHECK(cudaFree(flush));
  return 0;
}
