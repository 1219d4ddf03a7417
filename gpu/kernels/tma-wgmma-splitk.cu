// Rung 22, tma-wgmma-splitk: rung 18's producer and consumers with each tile's k-steps cut into ranges, a block each,
// their parts added up in C one range after another (split-K with the serial reduction).
//
// Description: sim/include/gemmlab/kernel/rungs/tma_wgmma_splitk.hpp (what changed and why); each line of the
// instance list is compiled for FP16 and for BF16 inputs, for sm_90a only (its Arch in rungs.def). Docs:
// docs/rungs/22-tma-wgmma-splitk.md. Compiled configurations: the TmaWgmmaSplitK lines of
// gpu/include/gemmlab/gpu/instances.def.
#include "rung_kernel.cuh"

namespace gemmlab::gpu {
GEMMLAB_GPU_RUNG_KERNELS(TmaWgmmaSplitK)
}  // namespace gemmlab::gpu
