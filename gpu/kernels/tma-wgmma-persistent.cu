// Rung 20, tma-wgmma-persistent: rung 18's producer and consumers in `grid` persistent blocks, each walking the tiles
// of every grid-th launch index, its ring of stages running on from one tile to the next.
//
// Description: sim/include/gemmlab/kernel/rungs/tma_wgmma_persistent.hpp (what changed and why); each line of the
// instance list is compiled for FP16 and for BF16 inputs, for sm_90a only (its Arch in rungs.def). Docs:
// docs/rungs/20-tma-wgmma-persistent.md. Compiled configurations: the TmaWgmmaPersistent lines of
// gpu/include/gemmlab/gpu/instances.def.
#include "rung_kernel.cuh"

namespace gemmlab::gpu {
GEMMLAB_GPU_RUNG_KERNELS(TmaWgmmaPersistent)
}  // namespace gemmlab::gpu
