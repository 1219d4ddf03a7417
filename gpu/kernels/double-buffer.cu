// Rung 7, double-buffer: two shared buffers and a register prefetch of the next tile.
//
// What changed from rung 6: the next k-step's tiles are loaded into registers while the current tiles are
// multiplied, then stored into the other buffer; one barrier per k-step instead of two. Bottleneck removed: the FMA
// units idling while the block waits for global memory. What remains: data still passes through registers (an LDG
// and an STS per float) and only one tile of look-ahead fits.
//
// Alternates compiled: a_pad = 4 and swizzle = 1, as in rung 6.
//
// Description: sim/include/gemmlab/kernel/rungs/double_buffer.hpp. Docs: docs/rungs/07-double-buffer.md.
// Compiled configurations: the DoubleBuffer lines of gpu/include/gemmlab/gpu/instances.def.
#include "rung_kernel.cuh"

namespace gemmlab::gpu {
GEMMLAB_GPU_RUNG_KERNELS(DoubleBuffer)
}  // namespace gemmlab::gpu
