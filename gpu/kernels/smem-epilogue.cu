// Rung 10, smem-epilogue: rung 9 with C staged through shared memory on its way out.
//
// What changed from rung 9: only the epilogue. Each result row of the thread tile is written into a shared slab,
// then read back along block-tile rows so that every warp store covers whole 128-byte lines (and, when n % 4 != 0,
// 32 consecutive floats rather than lanes 16 bytes apart). Bottleneck removed: partial-line C stores (and beta reads)
// whatever the warp shape. At the default shape rung 9 already writes whole lines, so little speed is expected here.
//
// Alternates compiled: stages = 4, and rung 8's 128 x 128 x 8 tile with 32 x 64 warp tiles.
//
// Description: sim/include/gemmlab/kernel/rungs/smem_epilogue.hpp. Docs: docs/rungs/10-smem-epilogue.md.
// Compiled configurations: the SmemEpilogue lines of gpu/include/gemmlab/gpu/instances.def.
#include "rung_kernel.cuh"

namespace gemmlab::gpu {
GEMMLAB_GPU_RUNG_KERNELS(SmemEpilogue)
}  // namespace gemmlab::gpu
