#pragma once
// The launch path's door to run-time compilation (gemmlab/gpu/runtime_compile.hpp): the loaded kernel of a
// configuration the build did not compile. CUDA-internal.
#include "gemmlab/gpu/instances.hpp"
#include "gemmlab/result.hpp"
#include "launch.hpp"

namespace gemmlab::gpu {

// The kernel for the current device, compiled or found in the cache and loaded once per process: a cudaKernel_t, which
// cudaLaunchKernelExC and cudaFuncSetAttribute take where they take a kernel's address.
Result<const void*> runtime_kernel(const GpuInstance& kernel, KernelVariant variant);

}  // namespace gemmlab::gpu
