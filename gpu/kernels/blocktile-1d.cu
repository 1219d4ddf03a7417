// Rung 4, blocktile-1d: each thread computes tm = 8 results down one column of C (a 64 x 64 tile, 512 threads).
//
// What changed from rung 3: in the inner loop a thread reads one B value into a register and reuses it against tm
// A values, so it issues tm + 1 shared loads for tm FMAs instead of 2 per FMA. Bottleneck removed: shared-memory
// bandwidth per FMA (the LSU pipe). What remains: the A values are still read one float at a time.
//
// Description: sim/include/gemmlab/kernel/rungs/blocktile_1d.hpp. Docs: docs/rungs/04-blocktile-1d.md.
// Compiled configurations: the BlockTile1D lines of gpu/include/gemmlab/gpu/instances.def (default, a_pad = 1).
#include "rung_kernel.cuh"

namespace gemmlab::gpu {
GEMMLAB_GPU_RUNG_KERNELS(BlockTile1D)
}  // namespace gemmlab::gpu
