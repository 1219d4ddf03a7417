#pragma once
// The launch order: which C tile the block launched at position `launch` computes. The GPU kernels call this
// with blockIdx.x + blockIdx.y * gridDim.x; the simulator calls it with the same index, so the order it models is
// the order that runs. Blocks are dispatched roughly in increasing launch index (NVIDIA does not specify it).
#include "gemmlab/hd.hpp"

namespace gemmlab::kernel {

enum class OrderKind { RowMajor = 0, ColumnMajor = 1, Cutlass = 2, GroupM = 3 };

struct BlockOrder {
  OrderKind kind = OrderKind::RowMajor;
  int param = 0;  // Cutlass: log2 of the swizzle width; GroupM: the group size in tile rows
};

struct TileCoord {
  int row = 0, col = 0;  // tile indices (multiply by bm, bn for element offsets)
};

// tiles_m x tiles_n output tiles; launch in [0, tiles_m * tiles_n).
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

GEMMLAB_HD TileCoord tile_of_launch(int launch, int tiles_m, int tiles_n, BlockOrder order, int cluster) {
  if (cluster == 1) return tile_of_launch(launch, tiles_m, tiles_n, order);
  const TileCoord group = tile_of_launch(cluster_of_launch(launch, cluster), tiles_m / cluster, tiles_n, order);
  return {group.row * cluster + launch % cluster, group.col};
}

GEMMLAB_HD int launch_slots(int tiles_m, int tiles_n, BlockOrder order, int cluster) {
  return launch_slots(tiles_m / cluster, tiles_n, order) * cluster;
}

}  // namespace gemmlab::kernel
