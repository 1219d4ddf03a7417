#pragma once
// Launching a rung kernel: the arguments every rung kernel takes, the kernel's parameter block, and the one launch
// path for every configuration, whether the build compiled it (gemmlab/gpu/instances.def) or it is compiled at run
// time (runtime_compile.hpp). CUDA-internal: not part of the public API.
#include <cuda_runtime.h>

#include <cstddef>

#include "gemmlab/gpu/instances.hpp"
#include "gemmlab/gpu/runtime_compile.hpp"
#include "gemmlab/kernel/block_order.hpp"
#include "gemmlab/kernel/element.hpp"
#include "gemmlab/result.hpp"
#include "gemmlab/rungs.hpp"
#include "kernel_params.hpp"

namespace gemmlab::gpu {

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

// The blocks a launch of `kernel` on these arguments runs: a persistent configuration's grid, else a block per launch
// slot of the order (a tile, or under split-K each of its k-ranges).
int launched_blocks(const GpuInstance& kernel, const GemmArgs& args);

// A launch that asks for a trace: the buffers the tracing build writes into, and how many tiles (segments) of a
// sampled block it stamps, its first ones (0: every tile). That count is compiled into the tracing build
// (KernelVariant::stamped_tiles, run_block's StampedTiles); the device never reads it.
struct TraceRequest {
  kernel::TraceSink sink;
  int stamped_tiles = 0;
};

// Enqueues `kernel` on `stream`: its compiled kernel where the build has one, else the run-time compiled one
// (compiled now, or found in the cache). An error names the failed compile or launch. With `trace`, the tracing build
// of the configuration (always compiled at run time) runs instead and writes into the sink's buffers.
Status launch_gemm(const GpuInstance& kernel, const GemmArgs& args, cudaStream_t stream,
                   const TraceRequest* trace = nullptr);

}  // namespace gemmlab::gpu
