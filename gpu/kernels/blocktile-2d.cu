// Rung 5, blocktile-2d: each thread computes an 8 x 8 tile of C as outer products (128 x 128 tile, 256 threads).
//
// What changed from rung 4: per k index a thread loads tm A values and tn B values into registers and does
// tm * tn FMAs with them: 64 FMAs for 16 shared loads. Bottleneck removed: shared loads per FMA again, now 1:4.
// What remains: every shared and global access is 32 bits wide, and the B fragment reads conflict.
//
// Description: sim/include/gemmlab/kernel/rungs/blocktile_2d.hpp. Docs: docs/rungs/05-blocktile-2d.md.
// Compiled configurations: the BlockTile2D lines of gpu/include/gemmlab/gpu/instances.def (default, a_pad = 1).
#include "rung_kernel.cuh"

namespace gemmlab::gpu {
GEMMLAB_GPU_RUNG_KERNELS(BlockTile2D)
}  // namespace gemmlab::gpu
