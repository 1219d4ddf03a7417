// Rung 6, vectorized: 128-bit global loads, A stored transposed in shared memory, 128-bit fragment reads.
//
// What changed from rung 5: the same thread tiling, but every memory instruction moves 16 bytes where it can
// (LDG.E.128 for A and B, LDS.128 for both fragments, STG.E.128 for C): a thread issues 4 shared loads per k index
// instead of 16. Bottleneck removed: instruction count in the LSU pipe. The price: the transposed stores of A are
// 2-way bank conflicts, which the alternates cure.
//
// Alternates compiled: a_pad = 4 (padded A rows) and swizzle = 1 (XOR-swizzled A rows, no wasted shared memory).
//
// Description: sim/include/gemmlab/kernel/rungs/vectorized.hpp. Docs: docs/rungs/06-vectorized.md.
// Compiled configurations: the Vectorized lines of gpu/include/gemmlab/gpu/instances.def.
#include "rung_kernel.cuh"

namespace gemmlab::gpu {
GEMMLAB_GPU_RUNG_KERNELS(Vectorized)
}  // namespace gemmlab::gpu
