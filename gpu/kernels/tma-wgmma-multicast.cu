// Rung 19, tma-wgmma-multicast: rung 18 with its blocks paired into clusters of 2 that share the B tile through TMA
// multicast; mbarrier arrivals reach the partner's shared memory, the schedule's barriers become cluster barriers.
//
// Description: sim/include/gemmlab/kernel/rungs/tma_wgmma_multicast.hpp (what changed and why); each line of the
// instance list is compiled for FP16 and for BF16 inputs, for sm_90a only (its Arch in rungs.def). Docs:
// docs/rungs/19-tma-wgmma-multicast.md. Compiled configurations: the TmaWgmmaMulticast lines of
// gpu/include/gemmlab/gpu/instances.def.
#include "rung_kernel.cuh"

namespace gemmlab::gpu {
GEMMLAB_GPU_RUNG_KERNELS(TmaWgmmaMulticast)
}  // namespace gemmlab::gpu
