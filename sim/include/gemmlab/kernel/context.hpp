#pragma once
// What one thread of a rung's kernel knows: its index in the block, the C tile its block owns, the problem.
// The same struct is filled by the CUDA kernel (from threadIdx/blockIdx and the launch order) and by the simulator.
#include <cstdint>

#include "gemmlab/hd.hpp"
#include "gemmlab/kernel/block_order.hpp"

namespace gemmlab::kernel {

using Index = std::int64_t;  // global element indices: 8192 x 8192 fits int32, but M x K products need not

struct ThreadContext {
  int tid = 0;             // thread index in the block (threadIdx.x: every rung launches 1-D blocks)
  int warpgroup = 0;       // tid / 128, which the GPU kernel computes so the compiler knows it is the same in a warp
  int row0 = 0, col0 = 0;  // the block's (first) C tile: rows [row0, row0 + bm), columns [col0, col0 + bn)
  int m = 0, n = 0, k = 0;
  int ksteps = 0;          // the k-steps of one tile: ceil(k / bk), or of one of its ranges under split-K
  // Split-K (KernelConfig::splits > 1): the block computes k-steps [first_kstep, first_kstep + ksteps) of its tile,
  // range `split` of the tile's `splits`, and adds its part into C after range split - 1's.
  int split = 0, splits = 1, first_kstep = 0;
  float alpha = 1.0f, beta = 0.0f;

  // A persistent block (KernelConfig::grid > 0) computes `tiles` tiles: those of the launch indices first_launch,
  // first_launch + launch_stride, ... of the launch order, in that order. Every other block computes one.
  int tiles = 1;
  TileCoord first_tile{};
  int first_launch = 0, launch_stride = 1;
  int tiles_m = 1, tiles_n = 1;
  BlockOrder order{};
  int cluster = 1;  // blocks per cluster: the order walks clusters (tile_of_launch)
  // Stream-K (rung 23, kernel/stream_k.hpp): the block's unit (its cluster) of `units` sharing `cluster_tiles` tiles;
  // its `tiles` segments are `whole_tiles` whole tiles, then the pieces of tiles in its range of the shared k-steps,
  // [first_iteration, first_iteration + iterations).
  int units = 0, unit = 0, cluster_tiles = 0, whole_tiles = 0, first_iteration = 0, iterations = 0;
  int shared_waves = 2;  // the plan's (KernelConfig::shared_waves)

  // The block's j-th tile (tile indices: multiply by bm and bn).
  GEMMLAB_HD TileCoord tile(int j) const {
    return j == 0 ? first_tile : tile_of_launch(first_launch + j * launch_stride, tiles_m, tiles_n, order, cluster);
  }
};

// A kernel runs as phases separated (where the rung says so) by a block-wide barrier: the prologue, then each
// k-step's phases, then the epilogue. Writing the schedule down, rather than as a loop inside the kernel, lets the
// simulator run every thread of a block up to the same barrier, one phase at a time.
enum class Section { Prologue, Mainloop, Epilogue };

GEMMLAB_HD int ceil_div(int a, int b) { return (a + b - 1) / b; }

// Split-K: a tile's kt k-steps cut into ranges of ceil(kt / splits) k-steps (the last may be shorter: its k-steps past
// k are TMA's zero fill). Fewer ranges than asked where the ranges' length covers kt sooner: kt = 9, splits = 4 gives
// three ranges of 3, never an empty one.
GEMMLAB_HD int split_ksteps(int ksteps, int splits) { return ceil_div(ksteps, splits); }
GEMMLAB_HD int split_count(int ksteps, int splits) { return ceil_div(ksteps, split_ksteps(ksteps, splits)); }
// A configuration's ranges of each tile's k-steps at depth k (1 where it does not split k).
template <class C>
GEMMLAB_HD int ranges_of(const C& c, int k) {
  return split_count(ceil_div(k, c.bk), c.splits);
}

// The block launched at `launch` under split-K computes range launch % splits of the tile the launch order puts at
// launch / splits: a tile's ranges are consecutive launches, so they run side by side.
struct SplitLaunch {
  int tile_launch = 0, split = 0;
};
GEMMLAB_HD SplitLaunch split_of_launch(int launch, int splits) { return {launch / splits, launch % splits}; }
// The block's range: the k-steps it walks and where they start.
GEMMLAB_HD void take_split(ThreadContext& t, int split) {
  t.split = split, t.first_kstep = split * t.ksteps;
}

// A block's context, filled the same way by the GPU kernel and the simulator: the tile it computes (its first, for a
// persistent block) and the problem. The thread's own fields (tid, warpgroup) are the caller's.
template <class C>
GEMMLAB_HD ThreadContext tile_context(const C& c, TileCoord tile, int m, int n, int k, float alpha, float beta) {
  ThreadContext t;
  t.row0 = tile.row * c.bm, t.col0 = tile.col * c.bn;
  t.m = m, t.n = n, t.k = k;
  t.ksteps = ceil_div(k, c.bk);
  if (c.splits > 1) t.splits = ranges_of(c, k), t.ksteps = split_ksteps(t.ksteps, c.splits);
  t.alpha = alpha, t.beta = beta;
  t.first_tile = tile;
  return t;
}

// A persistent block (KernelConfig::grid > 0): launch index `launch` of `blocks` launched walks the launches launch,
// launch + blocks, ... below `slots` of the order over tiles_m x tiles_n tiles. In clusters (blocks a multiple of
// `cluster`), the blocks of one cluster walk the launches of one cluster at each turn, so they stay partners.
GEMMLAB_HD void walk_launches(ThreadContext& t, int launch, int blocks, int slots, int tiles_m, int tiles_n,
                              BlockOrder order, int cluster = 1) {
  t.first_launch = launch, t.launch_stride = blocks;
  t.tiles = ceil_div(slots - launch, blocks);
  t.tiles_m = tiles_m, t.tiles_n = tiles_n, t.order = order, t.cluster = cluster;
}

}  // namespace gemmlab::kernel
