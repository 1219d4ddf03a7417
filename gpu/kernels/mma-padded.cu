// Rung 13, mma-padded: the same, each shared row padded by 8 halves (conflict-free).
//
// One description for rungs 12 to 15, kernel/rungs/mma_sync.hpp (which says what changed and why); each line of the
// instance list compiles twice, for FP16 and for BF16 inputs (FP32 accumulation and C).
//
// Docs: docs/rungs/13-mma-padded.md. Compiled configurations: the MmaPadded lines of gpu/include/gemmlab/gpu/instances.def.
#include "rung_kernel.cuh"

namespace gemmlab::gpu {
GEMMLAB_GPU_RUNG_KERNELS(MmaPadded)
}  // namespace gemmlab::gpu
