// Rung 18, tma-wgmma-specialized: a producer warp copying with TMA, consumer warpgroups multiplying with wgmma, full
// and empty mbarriers between them, no block-wide barrier in the main loop.
//
// Description: sim/include/gemmlab/kernel/rungs/tma_wgmma_specialized.hpp (what changed and why); each line of the
// instance list is compiled for FP16 and for BF16 inputs, for sm_90a only (its Arch in rungs.def). Docs:
// docs/rungs/18-tma-wgmma-specialized.md. Compiled configurations: the TmaWgmmaSpecialized lines of
// gpu/include/gemmlab/gpu/instances.def.
#include "rung_kernel.cuh"

namespace gemmlab::gpu {
GEMMLAB_GPU_RUNG_KERNELS(TmaWgmmaSpecialized)
}  // namespace gemmlab::gpu
