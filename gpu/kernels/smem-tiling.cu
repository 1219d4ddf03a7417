// Rung 3, smem-tiling: the block stages 32 x 32 tiles of A and B in shared memory.
//
// What changed from rung 2: each k-step, every thread copies one float of A and one of B into shared memory, the
// block meets at a barrier, and every thread computes its dot product from shared memory. Each global element is
// read once per block instead of once per thread. Bottleneck removed: redundant global (L1/L2) traffic. What remains:
// two shared loads per FMA, and two barriers per 32 FMAs.
//
// Alternates compiled: conflicting = 1 (lanes on rows of C: a 32-way bank conflict on the A column read) and
// conflicting = 1 with a_pad = 1 (one float of padding per A row: the conflict disappears).
//
// Description: sim/include/gemmlab/kernel/rungs/smem_tiling.hpp. Docs: docs/rungs/03-smem-tiling.md.
// Compiled configurations: the SmemTiling lines of gpu/include/gemmlab/gpu/instances.def.
#include "rung_kernel.cuh"

namespace gemmlab::gpu {
GEMMLAB_GPU_RUNG_KERNELS(SmemTiling)
}  // namespace gemmlab::gpu
