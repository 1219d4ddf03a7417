#pragma once
// The launch order: which C tile the block launched at position `launch` computes. The GPU kernels call this
// with blockIdx.x + blockIdx.y * gridDim.x; the simulator calls it with the same index, so the order it models is
// the order that runs. Blocks are dispatched roughly in increasing launch index (NVIDIA does not specify it).
#include "gemmlab/hd.hpp"

namespace gemmlab::kernel {

enum class OrderKind { RowMajor = 0, ColumnMajor = 1, Cutlass = 2, GroupM = 3, Hilbert = 4 };

struct BlockOrder {
  OrderKind kind = OrderKind::RowMajor;
  int param = 0;  // Cutlass: log2 of the swizzle width; GroupM: the group size in tile rows
};
GEMMLAB_HD constexpr bool operator==(BlockOrder a, BlockOrder b) { return a.kind == b.kind && a.param == b.param; }

struct TileCoord {
  int row = 0, col = 0;  // tile indices (multiply by bm, bn for element offsets)
};

// The `index`-th cell, along a Hilbert curve, of a grid of `rows` x `cols` cells: the curve of the smallest
// power-of-two square that covers the grid, with the cells outside the grid skipped. Consecutive cells are always
// neighbours on the square, and any run of cells stays in a compact patch, so blocks that run together share rows of A
// and columns of B in both directions (the curve fast.cu's persistent kernel walks). It is found from the top down in
// O(log side) steps: at each level, the four quadrants in the curve's order, each one's cells inside the grid counted,
// until the quadrant that holds the index; no table, so the GPU computes it per tile as the simulator does. Once the
// square being descended lies wholly inside the grid (at once, for a grid that is a power-of-two square), no cell is
// skipped below it, and the rest is the plain curve's, found bottom up (hilbert_square_cell): far fewer instructions.
//
// The canonical curve on a whole square of `side` cells (a power of two): cell `index`'s (u, v), level by level from
// the smallest, each level's quadrant turned as the curve turns it.
GEMMLAB_HD void hilbert_square_cell(int index, int side, int& u, int& v) {
  u = 0, v = 0;
  for (int s = 1; s < side; s *= 2) {
    const int qu = 1 & (index / 2), qv = 1 & (index ^ qu);
    if (qv == 0) {  // quadrants 0 and 3: transposed (3: across the other diagonal)
      if (qu == 1) u = s - 1 - u, v = s - 1 - v;
      const int w = u;
      u = v, v = w;
    }
    u += s * qu, v += s * qv;
    index /= 4;
  }
}
GEMMLAB_HD TileCoord hilbert_cell_inlined(int index, int rows, int cols) {
  int side = 1;
  while (side < rows || side < cols) side *= 2;
  // The square being descended, as a map from the canonical curve's coordinates (u, v) to the grid's:
  // row = r0 + ru u + rv v, col = c0 + cu u + cv v, a translation and a signed permutation (the turns and flips of
  // the sub-curves).
  int r0 = 0, c0 = 0, ru = 1, rv = 0, cu = 0, cv = 1;
  for (int half = side / 2; half >= 1; half /= 2) {
    // The square being descended, 2 half on a side, from its lowest corner: wholly inside the grid, the plain curve.
    const int span = 2 * half - 1;
    const int square_r = r0 + span * ((ru < 0 ? ru : 0) + (rv < 0 ? rv : 0));
    const int square_c = c0 + span * ((cu < 0 ? cu : 0) + (cv < 0 ? cv : 0));
    if (square_r >= 0 && square_r + 2 * half <= rows && square_c >= 0 && square_c + 2 * half <= cols) {
      int u = 0, v = 0;
      hilbert_square_cell(index, 2 * half, u, v);
      return {r0 + ru * u + rv * v, c0 + cu * u + cv * v};
    }
    for (int q = 0; q < 4; ++q) {
      // Quadrant q of the canonical curve lies at (qu, qv) half-sides: (0,0), (0,1), (1,1), (1,0). Its sub-curve is
      // the canonical one transposed (q = 0), as it is (q = 1, 2), or transposed across the other diagonal (q = 3):
      // local (u, v) = (ou + uu a + uv b, ov + vu a + vv b) for the sub-curve's (a, b).
      const int qu = q >> 1, qv = (q ^ qu) & 1;
      int ou = qu * half, ov = qv * half, uu = 1, uv = 0, vu = 0, vv = 1;
      if (q == 0) uu = 0, uv = 1, vu = 1, vv = 0;
      if (q == 3) ou = 2 * half - 1, ov = half - 1, uu = 0, uv = -1, vu = -1, vv = 0;
      const int nr0 = r0 + ru * ou + rv * ov, nru = ru * uu + rv * vu, nrv = ru * uv + rv * vv;
      const int nc0 = c0 + cu * ou + cv * ov, ncu = cu * uu + cv * vu, ncv = cu * uv + cv * vv;
      // The quadrant's cells in the grid: its square, half on a side, from its lowest corner.
      const int low_r = nr0 + (half - 1) * ((nru < 0 ? nru : 0) + (nrv < 0 ? nrv : 0));
      const int low_c = nc0 + (half - 1) * ((ncu < 0 ? ncu : 0) + (ncv < 0 ? ncv : 0));
      const int in_r = (low_r + half < rows ? low_r + half : rows) - (low_r > 0 ? low_r : 0);
      const int in_c = (low_c + half < cols ? low_c + half : cols) - (low_c > 0 ? low_c : 0);
      const int cells = in_r > 0 && in_c > 0 ? in_r * in_c : 0;
      if (index < cells || q == 3) {
        r0 = nr0, ru = nru, rv = nrv, c0 = nc0, cu = ncu, cv = ncv;
        break;
      }
      index -= cells;
    }
  }
  return {r0, c0};
}

// The same, as a call on the GPU, for the launch's first tile: code every kernel carries and few run (the order is
// chosen at run time), kept out of every kernel's prologue.
GEMMLAB_HD_CALL TileCoord hilbert_cell(int index, int rows, int cols) { return hilbert_cell_inlined(index, rows, cols); }

// How tile_of_launch reaches the Hilbert curve: by the call above, or inlined. A persistent block finds its later tiles
// after setmaxnreg has moved its registers, and a call there makes ptxas ignore setmaxnreg ("C7507: 'setmaxnreg'
// ignored to maintain minimum register requirements"; CUDA 13.0). Stream-K's walk inlines it (stream_k_tile): with
// the call, ptxas also spilled there. Whole-tile walks keep the call (ThreadContext::tile): inlined, they measured
// slower (docs/rungs/23-tma-wgmma-streamk.md, "The walk's call").
enum class HilbertCode { Called, Inlined };

// tiles_m x tiles_n output tiles; launch in [0, tiles_m * tiles_n).
template <HilbertCode Code = HilbertCode::Called>
GEMMLAB_HD TileCoord tile_of_launch(int launch, int tiles_m, int tiles_n, BlockOrder order) {
  switch (order.kind) {
    case OrderKind::RowMajor:  // blockIdx.x (columns of C) fastest
      return {launch / tiles_n, launch % tiles_n};
    case OrderKind::ColumnMajor:
      return {launch % tiles_m, launch / tiles_m};
    case OrderKind::Cutlass: {
      // CUTLASS's identity swizzle with width 2^log: the grid is laid out (tiles_m * 2^log) x ceil(tiles_n / 2^log)
      // and launch x (fastest) walks 2^log tile columns of one band before moving down a tile row.
      const int log = order.param;
      const int width = 1 << log;
      const int grid_x = tiles_m * width;
      const int bx = launch % grid_x, by = launch / grid_x;
      return {bx >> log, (by << log) + (bx & (width - 1))};
    }
    case OrderKind::GroupM: {
      // Triton's grouped order: GROUP_M tile rows are walked column by column, so a wave reuses a few B columns.
      const int group = order.param;
      const int tiles_per_group = group * tiles_n;
      const int group_id = launch / tiles_per_group;
      const int first_row = group_id * group;
      const int rows_here = (tiles_m - first_row) < group ? (tiles_m - first_row) : group;
      const int in_group = launch % tiles_per_group;
      return {first_row + in_group % rows_here, in_group / rows_here};
    }
    case OrderKind::Hilbert:
      if constexpr (Code == HilbertCode::Inlined) return hilbert_cell_inlined(launch, tiles_m, tiles_n);
      else return hilbert_cell(launch, tiles_m, tiles_n);
  }
  return {0, 0};
}

// Number of launch slots an order needs: CUTLASS's grid rounds the column bands up, leaving idle slots.
GEMMLAB_HD int launch_slots(int tiles_m, int tiles_n, BlockOrder order) {
  if (order.kind == OrderKind::Cutlass) {
    const int width = 1 << order.param;
    return tiles_m * width * ((tiles_n + width - 1) / width);
  }
  return tiles_m * tiles_n;
}

// Thread-block clusters of `cluster` blocks along M (rung 19): consecutive launch indices form a cluster, which
// computes `cluster` vertically adjacent tiles of one tile column (rank r takes the r-th); the clusters follow the
// order over the grid of cluster rows. The grid's tile rows are rounded up to whole clusters: a block whose rows lie
// past the matrix still runs, because its partner waits for the copies it shares.
GEMMLAB_HD int cluster_tile_rows(int tiles_m, int cluster) { return (tiles_m + cluster - 1) / cluster * cluster; }

// The cluster that launch index `launch` belongs to: consecutive launches, `cluster` at a time.
GEMMLAB_HD int cluster_of_launch(int launch, int cluster) { return launch / cluster; }

// The persistent block (KernelConfig::grid > 0, `blocks` launched) that computes launch index `launch`: block b walks
// the launches b, b + blocks, ... (walk_launches in kernel/context.hpp).
GEMMLAB_HD int persistent_block_of_launch(int launch, int blocks) { return launch % blocks; }

template <HilbertCode Code = HilbertCode::Called>
GEMMLAB_HD TileCoord tile_of_launch(int launch, int tiles_m, int tiles_n, BlockOrder order, int cluster) {
  if (cluster == 1) return tile_of_launch<Code>(launch, tiles_m, tiles_n, order);
  const TileCoord group = tile_of_launch<Code>(cluster_of_launch(launch, cluster), tiles_m / cluster, tiles_n, order);
  return {group.row * cluster + launch % cluster, group.col};
}

GEMMLAB_HD int launch_slots(int tiles_m, int tiles_n, BlockOrder order, int cluster) {
  return launch_slots(tiles_m / cluster, tiles_n, order) * cluster;
}

}  // namespace gemmlab::kernel
