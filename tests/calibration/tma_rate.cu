// TMA probe: how fast one SM's copy engine brings boxes into shared memory, for the time model's TMA term
// (sim/include/gemmlab/sim/time_model.hpp). Rung 17's swizzle modes copy the same bytes in boxes of 128-, 64- or
// 32-byte rows; the 32-byte mode takes four times the copies and ran at half the speed (docs/rungs/17-tma-wgmma.md).
// Whether a copy costs its bytes or its count is what this measures.
//
// One thread per block issues 2D tensor copies (cp.async.bulk.tensor, the swizzle mode of the box's row width) of
// an L2-resident BF16 matrix into a ring of 4 stages of 32 KiB, waiting on each stage's mbarrier before refilling
// it, so 4 stages are always in flight; its clock64 around the loop gives cycles per copy. Each shape runs on one SM
// alone (the engine's own rate) and on every SM at once (with the L2 shared). The thread steps from box to box with an
// add and a compare: the first version (2026-11-24) worked out each box's coordinates by integer division, and that
// chain of dependent instructions, not the engine, set its time (--patterns measures both).
//
//   shapes  rows of 32, 64 or 128 bytes x 16 to 256 rows: boxes of 0.5 to 32 KiB, each stage the same 32 KiB
//   output  per shape and SM count: boxes and bytes per SM clock, cycles per box, and the SM clock the cycles were
//           counted at (the slowest block's cycles over the run's time by events: a little low, by the launch)
//
//   --patterns  instead: the copies as a GEMM issues them, piece by piece: alternating between two tensor maps (A's and
//               B's), and every block on the same boxes (a wave's blocks reading one tile of B); and on one SM, the
//               first version's loop (coordinates by division) and two issuing threads instead of one
//
// Build: nvcc -arch=sm_90a -O3 -std=c++17 -o tma_rate tma_rate.cu     Run: ./tma_rate [--patterns]  (one JSON object)
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "tma_common.hpp"

namespace {

constexpr int kStages = 4, kStageBytes = 32768;
constexpr int kRows = 8192, kCols = 1024;  // a matrix: 16 MiB of BF16; both (--patterns) stay in the 50 MiB L2

// maps = 2: the boxes alternate between two tensor maps of two matrices, as a GEMM's copies of A and B do. shared:
// every block walks the same boxes in the same order, as the blocks of a GEMM's wave read the same tiles of B.
// issuers: lane 0 of that many warps issues copies, each into its own share of the stages (1: one thread, as the
// GEMMs issue theirs). kDivide: each box's coordinates from its index by integer division, the first version's loop.
// Both are compile-time, so that the issuing loop holds no division of its own.
template <bool kDivide, int kIssuers>
__global__ void copy_boxes(const __grid_constant__ CUtensorMap map, const __grid_constant__ CUtensorMap second_map,
                           int maps, bool shared, int box_rows, int box_cols, int panels, bool prefetch, int iterations,
                           long long* cycles) {
  extern __shared__ __align__(1024) unsigned char smem[];
  __shared__ __align__(8) std::uint64_t full[kStages];
  // The swizzled modes want 1024-byte-aligned destinations.
  unsigned char* base = smem + ((1024 - (shared_address(smem) & 1023)) & 1023);
  if (threadIdx.x == 0) {
    for (int s = 0; s < kStages; ++s)
      init_barrier(shared_address(&full[s]));
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
  __syncthreads();
  if (threadIdx.x % 32 != 0) return;
  constexpr int owned = kStages / kIssuers;
  const int issuer = static_cast<int>(threadIdx.x) / 32, my_iterations = iterations / kIssuers;
  if (prefetch) asm volatile("prefetch.tensormap [%0];\n" ::"l"(&map) : "memory");

  const int box_bytes = box_rows * box_cols * 2 * panels, boxes = kStageBytes / box_bytes;
  const int row_steps = kRows / box_rows, col_steps = kCols / (box_cols * panels);
  // SMs start at different places of the matrix, and so do a block's issuers.
  int box_index = (shared ? 0 : static_cast<int>(blockIdx.x) * 977) + issuer * 4099;
  int col_step = box_index % col_steps, row_step = box_index / col_steps % row_steps;
  const long long start = clock64();
  for (int i = 0; i < my_iterations + owned; ++i) {
    const int s = i % owned * kIssuers + issuer;
    const std::uint32_t barrier = shared_address(&full[s]);
    if (i >= owned)  // the copies issued into this stage last time have landed
      wait_phase(barrier, (i / owned - 1) & 1);
    if (i >= my_iterations) continue;
    expect_bytes(barrier, kStageBytes);
    for (int b = 0; b < boxes; ++b, ++box_index) {
      int col, row;
      if constexpr (kDivide) {
        col = box_index % col_steps * box_cols * panels, row = box_index / col_steps % row_steps * box_rows;
      } else {
        col = col_step * box_cols * panels, row = row_step * box_rows;
        if (++col_step == col_steps) col_step = 0, row_step = row_step + 1 == row_steps ? 0 : row_step + 1;
      }
      const std::uint32_t to = shared_address(base + s * kStageBytes + b * box_bytes);
      const CUtensorMap* source = maps == 2 && (b & 1) ? &second_map : &map;
      if (panels == 1)
        asm volatile(
            "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n"
            ::"r"(to), "l"(source), "r"(col), "r"(row), "r"(barrier) : "memory");
      else  // the 3D view: {column in the panel, row, panel}
        asm volatile(
            "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];\n"
            ::"r"(to), "l"(source), "r"(0), "r"(row), "r"(col / box_cols), "r"(barrier) : "memory");
    }
  }
  if (issuer == 0) cycles[blockIdx.x] = clock64() - start;
}

// panels > 1: the matrix seen as panels of row_bytes-wide columns (B's layout in rungs 17 to 20), a box taking
// `panels` of them side by side in one copy.
CUtensorMap make_map(void* matrix, int box_rows, int row_bytes, int panels) {
  CUtensorMap map{};
  const cuuint32_t rank = panels == 1 ? 2 : 3, cols = static_cast<cuuint32_t>(row_bytes / 2);
  const cuuint64_t dims[3] = {panels == 1 ? kCols : cols, kRows, static_cast<cuuint64_t>(kCols / cols)};
  const cuuint64_t strides[2] = {kCols * 2, static_cast<cuuint64_t>(row_bytes)};
  const cuuint32_t box[3] = {cols, static_cast<cuuint32_t>(box_rows), static_cast<cuuint32_t>(panels)}, step[3] = {1, 1, 1};
  const CUtensorMapSwizzle swizzle = row_bytes == 128  ? CU_TENSOR_MAP_SWIZZLE_128B
                                     : row_bytes == 64 ? CU_TENSOR_MAP_SWIZZLE_64B
                                                       : CU_TENSOR_MAP_SWIZZLE_32B;
  const CUresult r = encode_tiled()(&map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, rank, matrix, dims, strides, box, step,
                                    CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                                    CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) std::fprintf(stderr, "tma_rate: cuTensorMapEncodeTiled: %d\n", int(r)), std::exit(1);
  return map;
}

struct Rate {
  double cycles_per_box, boxes_per_clock, bytes_per_clock, clock_mhz;
};

// How the copies are issued: from one tensor map or alternating between two (two matrices), each block on boxes of
// its own or every block on the same boxes.
// divide: each box's coordinates from its index by integer division, as the first version of this probe did; a
// division is a long chain of dependent instructions for the one issuing thread, and that chain, not the engine, set
// the first version's time per box. The default steps from box to box with an add and a compare. issuers: how many
// threads (one per warp) issue copies.
struct Pattern {
  int maps = 1;
  bool shared = false;
  bool divide = false;
  int issuers = 1;
};

// The median over the blocks of one run (after a warm-up run that brings the matrices into L2).
Rate measure(void* const matrices[2], long long* cycles_d, int sms, int box_rows, int row_bytes, int panels, bool prefetch,
             Pattern pattern = {}) {
  const CUtensorMap map = make_map(matrices[0], box_rows, row_bytes, panels),
                    second_map = make_map(matrices[1], box_rows, row_bytes, panels);
  const int box_bytes = box_rows * row_bytes * panels, boxes = kStageBytes / box_bytes, iterations = 2000;
  const int smem = kStages * kStageBytes + 1024;
  const auto kernel = pattern.divide         ? copy_boxes<true, 1>
                      : pattern.issuers == 2 ? copy_boxes<false, 2>
                                             : copy_boxes<false, 1>;
  CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  for (int run = 0; run < 2; ++run) {
    CHECK(cudaEventRecord(start));
    kernel<<<sms, 32 * pattern.issuers, smem>>>(map, second_map, pattern.maps, pattern.shared, box_rows, row_bytes / 2,
                                                panels, prefetch, iterations, cycles_d);
    CHECK(cudaEventRecord(stop));
  }
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, start, stop));  // the second run's: its clock is the SM clock the cycles count
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  std::vector<long long> cycles(static_cast<std::size_t>(sms));
  CHECK(cudaMemcpy(cycles.data(), cycles_d, cycles.size() * sizeof(long long), cudaMemcpyDeviceToHost));
  std::nth_element(cycles.begin(), cycles.begin() + sms / 2, cycles.end());
  const double per_block = static_cast<double>(cycles[static_cast<std::size_t>(sms / 2)]);
  const double copies = static_cast<double>(iterations) * boxes;
  const double slowest = static_cast<double>(*std::max_element(cycles.begin(), cycles.end()));
  return {per_block / copies, copies / per_block, copies * box_bytes / per_block, slowest / (ms * 1e-3) / 1e6};
}

}  // namespace

int main(int argc, char** argv) {
  const bool patterns = argc > 1 && std::string(argv[1]) == "--patterns";
  if (argc > 2 || (argc == 2 && !patterns)) std::fprintf(stderr, "usage: tma_rate [--patterns]\n"), std::exit(2);
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  if (prop.major < 9) std::fprintf(stderr, "tma_rate: needs a Hopper GPU (sm_90a)\n"), std::exit(1);
  void* matrices[2] = {nullptr, nullptr};
  long long* cycles = nullptr;
  for (void*& matrix : matrices) {
    CHECK(cudaMalloc(&matrix, std::size_t{kRows} * kCols * 2));
    CHECK(cudaMemset(matrix, 0, std::size_t{kRows} * kCols * 2));
  }
  CHECK(cudaMalloc(&cycles, sizeof(long long) * static_cast<std::size_t>(prop.multiProcessorCount)));
  std::printf("{\n  \"device\": \"%s\",\n  \"sms\": %d,\n  \"stages\": %d,\n  \"stage_bytes\": %d,\n  \"%s\": [",
              prop.name, prop.multiProcessorCount, kStages, kStageBytes, patterns ? "patterns" : "shapes");
  const char* separator = "\n";
  const auto report = [&](int row_bytes, int box_rows, int panels, bool prefetch, int sms, Pattern pattern = {}) {
    const Rate r = measure(matrices, cycles, sms, box_rows, row_bytes, panels, prefetch, pattern);
    std::printf("%s    {\"row_bytes\": %d, \"box_rows\": %d, \"panels\": %d, \"prefetch\": %s, \"box_bytes\": %d, "
                "\"sms\": %d, ",
                separator, row_bytes, box_rows, panels, prefetch ? "true" : "false", row_bytes * box_rows * panels, sms);
    if (patterns)
      std::printf("\"walk\": \"%s\", \"maps\": %d, \"shared\": %s, \"issuers\": %d, ", pattern.divide ? "divide" : "step",
                  pattern.maps, pattern.shared ? "true" : "false", pattern.issuers);
    std::printf("\"cycles_per_box\": %.2f, \"boxes_per_clock_per_sm\": %.4f, \"bytes_per_clock_per_sm\": %.2f, "
                "\"clock_mhz\": %.0f}",
                r.cycles_per_box, r.boxes_per_clock, r.bytes_per_clock, r.clock_mhz);
    separator = ",\n";
  };
  if (patterns) {
    // The GEMMs' copy pattern, piece by piece: boxes of rung 18's 8 KiB (128-byte rows), rung 17's 32-byte mode
    // (4 KiB) and 2 KiB, from one map or alternating between A's and B's, on boxes of each block's own or of all; on
    // one SM also the first version's loop (coordinates by division), and two issuing threads.
    for (const auto& [row_bytes, box_rows] : {std::pair{128, 64}, std::pair{32, 128}, std::pair{128, 16}})
      for (const int sms : {1, prop.multiProcessorCount}) {
        if (sms == 1) {
          report(row_bytes, box_rows, 1, false, sms, Pattern{1, false, true, 1});
          report(row_bytes, box_rows, 1, false, sms, Pattern{1, false, false, 2});
        }
        for (const int maps : {1, 2})
          for (const bool shared : {false, true})
            if (!shared || sms > 1) report(row_bytes, box_rows, 1, false, sms, Pattern{maps, shared});
      }
  } else {
    for (const int row_bytes : {128, 64, 32})
      for (const int box_rows : {16, 32, 64, 128, 256})
        for (const int sms : {1, prop.multiProcessorCount}) report(row_bytes, box_rows, 1, false, sms);
    // B's panels in one copy (rows of 128 bytes, 64 rows: rung 18's B panel), and the descriptor prefetched.
    for (const int panels : {2, 4})
      for (const int sms : {1, prop.multiProcessorCount}) report(128, 64, panels, false, sms);
    for (const int sms : {1, prop.multiProcessorCount}) report(128, 64, 1, true, sms);
  }
  std::printf("\n  ]\n}\n");
  for (void* matrix : matrices) CHECK(cudaFree(matrix));
  CHECK(cudaFree(cycles));
  return 0;
}
