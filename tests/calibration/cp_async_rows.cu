// cp.async probe: what a shared-memory layout costs the copies that fill it. Rungs 13 and 14 remove the same
// ldmatrix bank conflicts, by padding each shared row 16 bytes (13) or by permuting its 16-byte chunks (14), and
// rung 13 runs about a fifth slower at 4096^3 (docs/rungs/13-mma-padded.md). The copies are the only instructions
// whose cost the two layouts could change: a padded row no longer starts on a 128-byte boundary, so the 128 bytes a
// quarter-warp copies from one global line land across two 128-byte lines of shared memory.
//
// Every SM runs two blocks of 128 threads (rung 13's block), each copying rung 13's stage over and over with
// cp.async.cg.shared.global (16 bytes a copy): A's 128 x 64 halves (rows of 128 bytes) and B's 64 x 128 halves (rows
// of 256 bytes), both from rows 8192 bytes apart (a 4096-wide matrix), all of it resident in L2, two stages in
// flight. Nothing reads the tiles: the kernel does the copies and nothing else.
//
//   layouts  aligned (rows of 128 and 256 bytes), padded (rows of 144 and 272 bytes: rung 13) and swizzled (chunk c of
//            row r at c XOR (r mod 8) within each 128 bytes: rung 14)
//   output   per layout: bytes copied per second, over the last of three runs (the first brings the source into L2)
//
// Build: nvcc -arch=sm_90 -O3 -std=c++17 -o cp_async_rows cp_async_rows.cu
// Run:   ./cp_async_rows            (prints one JSON object)
//        ./cp_async_rows LAYOUT     (one run of that layout only, for ncu: tests/calibration/cp_async_rows_ncu.sh)
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>

#include "cuda_check.hpp"

namespace {

constexpr int kThreads = 128, kBlocksPerSm = 2, kStages = 2, kIterations = 2000;
constexpr int kPitchBytes = 8192, kSourceRows = 2048;  // 16 MiB of source: L2-resident after the first run
constexpr int kARows = 128, kARowBytes = 128, kBRows = 64, kBRowBytes = 256;

enum Layout { kAligned, kPadded, kSwizzled };
const char* const kLayoutNames[] = {"aligned", "padded", "swizzled"};

// Where chunk c (16 bytes) of row r of a tile with rows of row_bytes lands in shared memory.
__host__ __device__ int shared_offset(Layout layout, int r, int c, int row_bytes) {
  switch (layout) {
    case kPadded: return r * (row_bytes + 16) + c * 16;
    case kSwizzled: return r * row_bytes + ((c & ~7) | ((c & 7) ^ (r & 7))) * 16;
    default: return r * row_bytes + c * 16;
  }
}

__host__ __device__ int tile_bytes(Layout layout, int rows, int row_bytes) {
  return rows * (row_bytes + (layout == kPadded ? 16 : 0));
}

__host__ __device__ int stage_bytes(Layout layout) {
  return tile_bytes(layout, kARows, kARowBytes) + tile_bytes(layout, kBRows, kBRowBytes);
}

// This thread's copies of one tile: consecutive threads take consecutive chunks of a row, as rung 13's copy_tile does.
__device__ void copy_tile(Layout layout, const unsigned char* source, std::uint32_t to, int rows, int row_bytes) {
  const int chunks_per_row = row_bytes / 16;
  for (int chunk = threadIdx.x; chunk < rows * chunks_per_row; chunk += kThreads) {
    const int r = chunk / chunks_per_row, c = chunk % chunks_per_row;
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(to + shared_offset(layout, r, c, row_bytes)),
                 "l"(source + static_cast<std::size_t>(r) * kPitchBytes + c * 16)
                 : "memory");
  }
}

__global__ void copy_stages(Layout layout, const unsigned char* source) {
  extern __shared__ __align__(128) unsigned char smem[];
  const std::uint32_t base = static_cast<std::uint32_t>(__cvta_generic_to_shared(smem));
  const int a_tiles = kSourceRows / kARows, b_tiles = kSourceRows / kBRows, columns = kPitchBytes / kBRowBytes;
  for (int i = 0; i < kIterations; ++i) {
    const std::uint32_t stage = base + (i % kStages) * stage_bytes(layout);
    const int t = static_cast<int>(blockIdx.x) * 7 + i;  // blocks start at different tiles
    copy_tile(layout, source + static_cast<std::size_t>(t % a_tiles) * kARows * kPitchBytes + (t / a_tiles) % 64 * kARowBytes,
              stage, kARows, kARowBytes);
    copy_tile(layout, source + static_cast<std::size_t>(t % b_tiles) * kBRows * kPitchBytes + (t / b_tiles) % columns * kBRowBytes,
              stage + tile_bytes(layout, kARows, kARowBytes), kBRows, kBRowBytes);
    asm volatile("cp.async.commit_group;\n" ::: "memory");
    asm volatile("cp.async.wait_group %0;\n" ::"n"(kStages - 1) : "memory");
    __syncthreads();
  }
  asm volatile("cp.async.wait_group 0;\n" ::: "memory");
}

// Bytes a second over the last of `runs` runs.
double measure(Layout layout, const unsigned char* source, int sms, int runs) {
  const int smem = kStages * stage_bytes(layout);
  CHECK(cudaFuncSetAttribute(copy_stages, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  for (int run = 0; run < runs; ++run) {
    CHECK(cudaEventRecord(start));
    copy_stages<<<sms * kBlocksPerSm, kThreads, smem>>>(layout, source);
    CHECK(cudaEventRecord(stop));
  }
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  const double bytes = double(sms) * kBlocksPerSm * kIterations *
                       (kARows * kARowBytes + kBRows * kBRowBytes);
  return bytes / (ms * 1e-3);
}

}  // namespace

int main(int argc, char** argv) {
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  if (prop.major < 8) std::fprintf(stderr, "cp_async_rows: needs cp.async (compute capability 8.0 or later)\n"), std::exit(1);
  unsigned char* source = nullptr;
  CHECK(cudaMalloc(&source, std::size_t{kPitchBytes} * kSourceRows));
  CHECK(cudaMemset(source, 1, std::size_t{kPitchBytes} * kSourceRows));
  if (argc == 2) {  // one layout, one run (after a warm-up run), for ncu
    for (int l = kAligned; l <= kSwizzled; ++l)
      if (std::strcmp(argv[1], kLayoutNames[l]) == 0) {
        measure(Layout(l), source, prop.multiProcessorCount, 2);
        CHECK(cudaFree(source));
        return 0;
      }
    std::fprintf(stderr, "cp_async_rows: the layout is aligned, padded or swizzled, not %s\n", argv[1]);
    return 1;
  }
  std::printf("{\n  \"device\": \"%s\",\n  \"sms\": %d,\n  \"blocks_per_sm\": %d,\n  \"threads\": %d,\n  \"layouts\": [",
              prop.name, prop.multiProcessorCount, kBlocksPerSm, kThreads);
  for (int l = kAligned; l <= kSwizzled; ++l)
    std::printf("%s\n    {\"layout\": \"%s\", \"stage_bytes\": %d, \"bytes_per_second\": %.4g}", l ? "," : "",
                kLayoutNames[l], stage_bytes(Layout(l)), measure(Layout(l), source, prop.multiProcessorCount, 3));
  std::printf("\n  ]\n}\n");
  CHECK(cudaFree(source));
  return 0;
}
