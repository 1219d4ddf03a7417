// Rung 14, mma-swizzled: the same, XOR-swizzled shared tiles (conflict-free, no padding).
//
// One description for rungs 12 to 15, kernel/rungs/mma_sync.hpp (which says what changed and why); each line of the
// instance list compiles twice, for FP16 and for BF16 inputs (FP32 accumulation and C).
//
// Docs: docs/rungs/14-mma-swizzled.md. Compiled configurations: the MmaSwizzled lines of gpu/include/gemmlab/gpu/instances.def.
#include "rung_kernel.cuh"

namespace gemmlab::gpu {
GEMMLAB_GPU_RUNG_KERNELS(MmaSwizzled)
}  // namespace gemmlab::gpu
