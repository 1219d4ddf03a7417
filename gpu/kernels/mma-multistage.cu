// Rung 15, mma-multistage: a 128 x 256 block tile and 3 cp.async stages.
//
// One description for rungs 12 to 15, kernel/rungs/mma_sync.hpp (which says what changed and why); each line of the
// instance list compiles twice, for FP16 and for BF16 inputs (FP32 accumulation and C).
//
// Docs: docs/rungs/15-mma-multistage.md. Compiled configurations: the MmaMultistage lines of gpu/include/gemmlab/gpu/instances.def.
#include "rung_kernel.cuh"

namespace gemmlab::gpu {
GEMMLAB_GPU_RUNG_KERNELS(MmaMultistage)
}  // namespace gemmlab::gpu
