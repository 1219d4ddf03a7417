#pragma once
// Launching a rung kernel: the arguments every rung kernel takes, the kernel's parameter block, and the one launch
// path for every configuration, whether the build compiled it (gemmlab/gpu/instances.def) or it is compiled at run
// time (runtime_compile.hpp). CUDA-internal: not part of the public API.
#include <cuda.h>  // CUtensorMap (the type only: no driver call here)
#include <cuda_runtime.h>

#include <cstddef>

#include "gemmlab/gpu/instances.hpp"
#include "gemmlab/gpu/runtime_compile.hpp"
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

// The one parameter of every rung kernel (rung_kernel.cuh), filled on the host by launch_gemm.
struct KernelParams {
  GemmArgs g;
  int tiles_m, tiles_n;
  int slots;  // launch indices of the order (kernel::launch_slots): a persistent block walks them
  CUtensorMap a_map, b_map;  // TMA rungs only: read by the copy engine from the kernel's parameters
};

// The build's compiled kernel of instance `index` of gpu_instances() for a variant: the address of its __global__
// function, or nullptr where the instance has no such variant. Defined in gpu/kernels/<slug>.cu (through
// launcher_for) for every rung that has instances.
using CompiledKernelFn = const void* (*)(KernelVariant);
template <RungId Rung>
CompiledKernelFn launcher_for(std::size_t index);
const void* compiled_kernel(std::size_t index, KernelVariant variant);

// The kernel a launch of `kernel`'s variant runs: the build's where it compiled the configuration (and
// compile_everything_at_run_time() does not say otherwise), else the run-time compiled one, compiled now or found in
// the cache. An error here means the configuration cannot run (no compiler, nvcc's error, a block the SM's registers
// cannot hold), before anything was launched.
Result<const void*> kernel_function(const GpuInstance& kernel, KernelVariant variant);

// Enqueues `kernel` on `stream`: its compiled kernel where the build has one, else the run-time compiled one
// (compiled now, or found in the cache). An error names the failed compile or launch.
Status launch_gemm(const GpuInstance& kernel, const GemmArgs& args, cudaStream_t stream);

}  // namespace gemmlab::gpu
