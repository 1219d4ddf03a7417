// Rung 9, warptile: block -> warp -> lane tiling on rung 8's cp.async pipeline.
//
// What changed from rung 8: each warp owns a wm x wn sub-tile and lays its lanes as a 4 x 8 grid of 4 x 4 sub-tiles
// (lanes interleaved in pairs), so a quarter-warp's lds.128 of B covers 128 contiguous bytes and pairs of lanes share
// their A and B chunks; A is stored transposed again (cp.async.4 per float, padded rows), fragments are double-
// buffered in registers. Bottleneck removed: the 2-way bank conflicts of rung 8's B fragment reads, i.e. shared-
// memory wavefronts per FMA. What remains: C leaves straight from registers (rung 10).
//
// Alternates compiled: a_pad = 0 (the transposed copies conflict), stages = 2 and 4, and rung 8's 128 x 128 x 8 tile
// with 32 x 64 warp tiles. Configurations past 48 KB of shared memory are launched after cudaFuncSetAttribute raises
// the block's limit (rung_kernel.cuh).
//
// Description: sim/include/gemmlab/kernel/rungs/warptile.hpp. Docs: docs/rungs/09-warptile.md.
// Compiled configurations: the WarpTile lines of gpu/include/gemmlab/gpu/instances.def.
#include "rung_kernel.cuh"

namespace gemmlab::gpu {
GEMMLAB_GPU_RUNG_KERNELS(WarpTile)
}  // namespace gemmlab::gpu
