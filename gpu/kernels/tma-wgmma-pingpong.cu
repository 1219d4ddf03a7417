// Rung 24, tma-wgmma-pingpong: rung 21's persistent clusters with 64 x 256 tiles that the two consumer warpgroups take
// in turn, one storing its tile while the other multiplies the next.
//
// Description: sim/include/gemmlab/kernel/rungs/tma_wgmma_pingpong.hpp (what changed and why); each line of the
// instance list is compiled for FP16 and for BF16 inputs, for sm_90a only (its Arch in rungs.def). Docs:
// docs/rungs/24-tma-wgmma-pingpong.md. Compiled configurations: the TmaWgmmaPingPong lines of
// gpu/include/gemmlab/gpu/instances.def.
#include "rung_kernel.cuh"

namespace gemmlab::gpu {
GEMMLAB_GPU_RUNG_KERNELS(TmaWgmmaPingPong)
}  // namespace gemmlab::gpu
