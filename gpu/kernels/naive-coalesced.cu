// Rung 2, naive-coalesced: the same one-thread-per-element kernel with threadIdx.x walking COLUMNS of C.
//
// What changed from rung 1: only the mapping of threads to the block's tile. A warp now reads 32 neighbouring floats
// of B (4 sectors) and one float of A that every lane shares (one sector, broadcast), and stores 128 contiguous
// bytes of C. Bottleneck removed: uncoalesced access. What remains: every thread reads all of K from global
// memory (through L1/L2), 2 loads per FMA.
//
// Description: sim/include/gemmlab/kernel/rungs/naive.hpp (Naive<false>). Docs: docs/rungs/02-naive-coalesced.md.
// Compiled configurations: the NaiveCoalesced lines of gpu/include/gemmlab/gpu/instances.def.
#include "rung_kernel.cuh"

namespace gemmlab::gpu {
GEMMLAB_GPU_RUNG_KERNELS(NaiveCoalesced)
}  // namespace gemmlab::gpu
