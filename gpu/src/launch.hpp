#pragma once
// Launching one compiled rung instantiation: the arguments every rung kernel takes, and the table from an instance
// of the instance list (gemmlab/gpu/instances.def) to its launch function. CUDA-internal: not part of the public API.
#include <cuda_runtime.h>

#include <cstddef>

#include "gemmlab/kernel/block_order.hpp"
#include "gemmlab/kernel/element.hpp"
#include "gemmlab/result.hpp"
#include "gemmlab/rungs.hpp"

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

// Enqueues the kernel on `stream`; an error names the failed launch.
using LaunchFn = Status (*)(const GemmArgs&, cudaStream_t);

// Defined in gpu/kernels/<slug>.cu for every rung that has instances: the launch function of instance `index` of
// gpu_instances(), which must be one of that rung's.
template <RungId Rung>
LaunchFn launcher_for(std::size_t index);

// The launch function of instance `index` (nullptr for an index out of range).
LaunchFn launcher(std::size_t index);

}  // namespace gemmlab::gpu
