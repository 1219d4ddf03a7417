#pragma once
// What the TMA probes share (tma_rate.cu, tma_dram.cu): a shared-memory address for PTX, and the driver's
// cuTensorMapEncodeTiled, found at run time so that the probes link against the runtime alone.
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "cuda_check.hpp"

__device__ __forceinline__ std::uint32_t shared_address(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

// The stage's mbarrier: armed for one arrival, its copies' bytes expected, and waited on until its phase completes.
__device__ __forceinline__ void init_barrier(std::uint32_t barrier) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(barrier) : "memory");
}
__device__ __forceinline__ void expect_bytes(std::uint32_t barrier, int bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(barrier), "r"(bytes) : "memory");
}
__device__ __forceinline__ void wait_phase(std::uint32_t barrier, int parity) {
  asm volatile(
      "{\n.reg .pred done;\nwait_again:\n"
      "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n@!done bra wait_again;\n}\n" ::"r"(barrier),
      "r"(parity)
      : "memory");
}

using EncodeTiled = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*,
                                 const cuuint64_t*, const cuuint32_t*, const cuuint32_t*, CUtensorMapInterleave,
                                 CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

inline EncodeTiled encode_tiled() {
  void* found = nullptr;
  cudaDriverEntryPointQueryResult query{};
  CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &found, 12000, cudaEnableDefault, &query));
  if (query != cudaDriverEntryPointSuccess) std::fprintf(stderr, "no cuTensorMapEncodeTiled\n"), std::exit(1);
  return reinterpret_cast<EncodeTiled>(found);
}
