// Store patterns of a 128 x 256 FP32 tile by 256 threads (two warpgroups' wgmma accumulators), timed.
#include <cstdio>
#include <cuda_runtime.h>
constexpr int N = 4096, TILE_M = 128, TILE_N = 256, TILES_PER_BLOCK = 4;
template <int P>
__global__ void __launch_bounds__(256, 1) store_tiles(float* c, float seed, int blocks, int spread) {
  float acc[128];
  #pragma unroll
  for (int v = 0; v < 128; ++v) acc[v] = seed * (threadIdx.x + v);
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  for (int t = 0; t < TILES_PER_BLOCK; ++t) {
    const int tile = blockIdx.x + (spread ? t * blocks : 0);  // spread: a new tile each time, else the block's own again
    const int tr = tile / (N / TILE_N), tc = tile % (N / TILE_N);
    float* base = c + (size_t)tr * TILE_M * N + (size_t)tc * TILE_N;
    if (P == 0) {  // wgmma accumulator layout, 64-bit stores: 8 rows x 32 bytes per warp instruction
      const int row0 = 64 * (warp / 4) + 16 * (warp % 4) + lane / 4, col0 = 2 * (lane % 4);
      #pragma unroll
      for (int i = 0; i < 64; ++i) {
        const int j = i / 2, p = i % 2;
        *reinterpret_cast<float2*>(base + (size_t)(row0 + 8 * p) * N + col0 + 8 * j) = make_float2(acc[2 * i], acc[2 * i + 1]);
      }
    } else if (P == 1) {  // the same bytes, each warp instruction 256 contiguous bytes
      const int row0 = 16 * warp;
      #pragma unroll
      for (int i = 0; i < 64; ++i)
        *reinterpret_cast<float2*>(base + (size_t)(row0 + i / 4) * N + (i % 4) * 64 + 2 * lane) = make_float2(acc[2 * i], acc[2 * i + 1]);
    } else {  // 128-bit stores, each warp instruction 512 contiguous bytes
      const int row0 = 16 * warp;
      #pragma unroll
      for (int i = 0; i < 32; ++i)
        *reinterpret_cast<float4*>(base + (size_t)(row0 + i / 2) * N + (i % 2) * 128 + 4 * lane) =
            make_float4(acc[4 * i], acc[4 * i + 1], acc[4 * i + 2], acc[4 * i + 3]);
    }
    #pragma unroll
    for (int v = 0; v < 128; ++v) acc[v] += 1.0f;
  }
}
template <int P> float time_it(float* c, int blocks, int spread) {
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  for (int w = 0; w < 5; ++w) store_tiles<P><<<blocks, 256>>>(c, 1.0f, blocks, spread);
  const int reps = 200;
  cudaEventRecord(a);
  for (int r = 0; r < reps; ++r) store_tiles<P><<<blocks, 256>>>(c, 1.0f + r, blocks, spread);
  cudaEventRecord(b); cudaEventSynchronize(b);
  float ms; cudaEventElapsedTime(&ms, a, b); return ms * 1000 / reps;
}
int main() {
  float* c; cudaMalloc(&c, (size_t)N * N * 4);
  for (int round = 0; round < 2; ++round)
    for (int blocks : {8, 32, 128})
      for (int spread : {0, 1})
        printf("round %d, %3d blocks, %s: accumulator layout %7.2f us, contiguous 64-bit %7.2f us, contiguous 128-bit %7.2f us\n",
               round, blocks, spread ? "4 new tiles " : "own tile 4x", time_it<0>(c, blocks, spread), time_it<1>(c, blocks, spread),
               time_it<2>(c, blocks, spread));
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
}
