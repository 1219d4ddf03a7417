// Rung 12, mma-rowmajor: ldmatrix + mma.sync from row-major shared tiles (8-way ldmatrix conflicts).
//
// One description for rungs 12 to 15, kernel/rungs/mma_sync.hpp (which says what changed and why); each line of the
// instance list compiles twice, for FP16 and for BF16 inputs (FP32 accumulation and C).
//
// Docs: docs/rungs/12-mma-rowmajor.md. Compiled configurations: the MmaRowMajor lines of gpu/include/gemmlab/gpu/instances.def.
#include "rung_kernel.cuh"

namespace gemmlab::gpu {
GEMMLAB_GPU_RUNG_KERNELS(MmaRowMajor)
}  // namespace gemmlab::gpu
