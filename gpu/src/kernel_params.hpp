#pragma once
// What every rung kernel is given: the GEMM's arguments and the launch's own (tile counts, the order's slots, the
// tensor maps). Shared by the host's launch (launch.cpp) and the device code (rung_block.cuh), and small on purpose:
// the run-time compiler parses it with every kernel.
#include <cuda.h>  // CUtensorMap (the type only: no driver call here)

#include "gemmlab/kernel/block_order.hpp"
#include "gemmlab/kernel/element.hpp"
#include "gemmlab/kernel/trace_record.hpp"

namespace gemmlab::gpu {

// C (m x n) = alpha * A (m x k) * B (k x n) + beta * C, row-major device pointers. A and B hold `input` elements
// (float, __half or __nv_bfloat16); C is FP32.
struct GemmArgs {
  const void* a = nullptr;
  const void* b = nullptr;
  float* c = nullptr;
  int m = 0, n = 0, k = 0;
  float alpha = 1.0f, beta = 0.0f;
  kernel::BlockOrder order{};
  kernel::InputType input = kernel::InputType::F32;
};

// The one parameter of every rung kernel (rung_block.cuh), filled on the host by launch_gemm.
struct KernelParams {
  GemmArgs g;
  int tiles_m, tiles_n;
  int slots;  // launch indices of the order (kernel::launch_slots): a persistent block walks them
  CUtensorMap a_map, b_map;  // TMA rungs only: read by the copy engine from the kernel's parameters
  CUtensorMap c_map;         // and C's, where the rung stores it with TMA (tma_store = 1)
  int* split_flags;          // split-K (rung 22): a flag per tile, zero between launches (launch.cpp's buffer)
  float* workspace;          // split-K with workspace = 1: `splits` FP32 slices of M x N (launch.cpp's buffer)
  kernel::TraceSink trace;   // a traced launch's buffers (traced_executor.cuh); empty otherwise
};

}  // namespace gemmlab::gpu
