// ThunderKittens H100 BF16 GEMM vs cuBLAS, same process, alternating timed launches.
//
// Kernel source: kernels/gemm/bf16_h100/bf16_h100_gemm.cu of HazyResearch/ThunderKittens, included
// VERBATIM below (its main() is renamed by a macro so this harness can provide its own). The
// kernel is launched exactly as the author's run_benchmark() does: via the file's own
// inner_run<mmt>() with mmt = matmul_template<2,4,8> (128x256 tiles, SUPER_M=8, the config used in
// the file's main), a persistent grid of mmt::grid() = 132 blocks, NUM_THREADS_v<mmt> threads and
// MAX_SHARED_MEMORY-1024 bytes of dynamic shared memory.
//
// Operand layout (as in the author's benchmark): A row-major MxK, B row-major KxN, C row-major MxN
// (BF16 out, FP32 accumulate). cuBLAS (column-major) computes the same product as
// C^T = B^T * A^T: cublasGemmEx(OP_N, OP_N, m=N, n=M, k=K, B, ldb=N, A, lda=K, C, ldc=N).
//
// Env: BENCH_ROUNDS (default 20), BENCH_WARMUP (default 5), BENCH_SPIN_CYCLES (default 200000).
// Args: optional list of square sizes (default 4096 8192); sizes must be multiples of 256.

#include "bench_common.cuh"

// Pre-include everything the kernel file includes (all #pragma once), so that the `main` macro
// below only affects the kernel file's own body.
#include <iostream>
#include "kernels/gemm/common.cuh"
#include "kittens.cuh"
#include "prototype.cuh"

#define main thunderkittens_bf16_h100_gemm_original_main
#include "kernels/gemm/bf16_h100/bf16_h100_gemm.cu"
#undef main

using tk_mmt = matmul_template<2, 4, 8>;  // as in bf16_h100_gemm.cu main()

static int bench_main(int argc, char** argv) {
  const BenchStart start = bench_start(argc, argv,
                                       "HazyResearch/ThunderKittens@0b55588d2769dde0c7a9a606ffc015b0ca7a9551 "
                                       "kernels/gemm/bf16_h100/bf16_h100_gemm.cu (blob d45cfe2e)",
                                       "ThunderKittens H100 BF16 GEMM (kernels/gemm/bf16_h100) vs cuBLAS");
  const int rounds = start.rounds, warmup = start.warmup;
  const long long spin = start.spin;
  const cublasHandle_t handle = start.handle;
  printf(
      "Config: matmul_template<2,4,8> (block %dx%d), grid %d (persistent), %d threads, %d B dynamic smem; "
      "%d warm-up rounds, %d timed rounds (alternating kernel / cuBLAS fp32C / cuBLAS bf16C, rotated), "
      "spin %lld cycles before each timed launch; inputs uniform [-1,1) BF16, seeds A=42 B=4242\n",
      tk_mmt::M_BLOCK * 64, tk_mmt::N_BLOCK * 64, tk_mmt::grid(4096, 4096, 4096).x,
      kittens::prototype::detail::NUM_THREADS_v<tk_mmt>, (int)(kittens::MAX_SHARED_MEMORY - 1024), warmup, rounds,
      spin);

  bench_phase = "cudaFuncSetAttribute";
  // Same as the author's run_benchmark().
  unsigned long mem_size = kittens::MAX_SHARED_MEMORY - 1024;
  BENCH_CK(cudaFuncSetAttribute(kittens::prototype::lcf::kernel<tk_mmt>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                mem_size));

  const char* layout = "A row-major MxK, B row-major KxN, C row-major MxN (cuBLAS OP_N/OP_N on C^T=B^T*A^T)";
  return bench_all_sizes(start.sizes, handle, [&](int size, const BenchBuffers& buffers) {
    const int M = size, N = size, K = size;
    const dim3 grid(tk_mmt::grid(M, N, K));
    const dim3 block(kittens::prototype::detail::NUM_THREADS_v<tk_mmt>);
    auto kernel_launch = [&] {
      // The author's launcher: builds the gl<> globals (TMA descriptors) and launches
      // prototype::lcf::kernel<mmt><<<grid, block, MAX_SHARED_MEMORY-1024>>>(G).
      inner_run<tk_mmt>(buffers.a, buffers.b, buffers.c_kernel, (size_t)M, (size_t)N, (size_t)K, grid, block);
      BENCH_CK_LAUNCH("ThunderKittens prototype::lcf::kernel<matmul_template<2,4,8>>");
    };
    auto cublas_call = [&](void* C, cudaDataType ctype) {
      const float alpha = 1.0f, beta = 0.0f;
      // Row-major C(MxN) = A(MxK) * B(KxN)  <=>  column-major C^T(NxM) = B^T(NxK) * A^T(KxM)
      BENCH_CKB(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha, buffers.b, CUDA_R_16BF, N, buffers.a,
                             CUDA_R_16BF, K, &beta, C, ctype, N, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    };
    return bench_run_size("ThunderKittens H100 GEMM", layout, M, N, K, buffers.c_kernel, buffers.c_bf16, buffers.c_fp32,
                          kernel_launch, cublas_call, warmup, rounds, spin);
  });
}

int main(int argc, char** argv) { return bench_guarded_main(argc, argv, bench_main); }
