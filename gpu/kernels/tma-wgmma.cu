// Rung 17, tma-wgmma: TMA copies into 128-byte-swizzled stages, mbarriers, warpgroup MMA from shared memory.
//
// Description: sim/include/gemmlab/kernel/rungs/tma_wgmma.hpp (what changed and why); each line of the instance list
// is compiled for FP16 and for BF16 inputs, for sm_90a only (its Arch in rungs.def). Docs: docs/rungs/17-tma-wgmma.md.
// Compiled configurations: the TmaWgmma lines of gpu/include/gemmlab/gpu/instances.def.
#include "rung_kernel.cuh"

namespace gemmlab::gpu {
GEMMLAB_GPU_RUNG_KERNELS(TmaWgmma)
}  // namespace gemmlab::gpu
