// Rung 21, tma-wgmma-hilbert: rungs 18 to 20 in one kernel, its persistent clusters walking the tiles along a Hilbert
// curve.
//
// Description: sim/include/gemmlab/kernel/rungs/tma_wgmma_hilbert.hpp (what changed and why); each line of the
// instance list is compiled for FP16 and for BF16 inputs, for sm_90a only (its Arch in rungs.def). Docs:
// docs/rungs/21-tma-wgmma-hilbert.md. Compiled configurations: the TmaWgmmaHilbert lines of
// gpu/include/gemmlab/gpu/instances.def.
#include "rung_kernel.cuh"

namespace gemmlab::gpu {
GEMMLAB_GPU_RUNG_KERNELS(TmaWgmmaHilbert)
}  // namespace gemmlab::gpu
