#pragma once
// Launch orders as the user names them ("row", "col", "cutlass:4", "groupm:8"), their checks against a grid, and the
// sequence of tiles a grid launches. The mapping itself is kernel::tile_of_launch, shared with the GPU kernels.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gemmlab/kernel/block_order.hpp"
#include "gemmlab/result.hpp"

namespace gemmlab::sim {

// "row", "col", "cutlass", "groupm", "hilbert": the part of an order's name before the colon, and back.
std::string_view order_kind_name(kernel::OrderKind kind);
std::optional<kernel::OrderKind> find_order_kind(std::string_view name);

// "row", "col", "cutlass:N" (CUTLASS's GemmIdentityThreadblockSwizzle<N>: N a power of two, the swizzle width in
// tile columns), "groupm:N" (Triton's GROUP_M: N tile rows per group) or "hilbert". The size is checked against a grid
// by validate_order.
Result<kernel::BlockOrder> parse_order(std::string_view text);
// The orders parse_order reads, one line for a flag's help and its errors: "row, col, cutlass:N (...), ... or hilbert".
std::string_view order_names_help();

// ok, or why the order does not fit a grid of tiles_m x tiles_n tiles (a group or width that is larger than the grid).
// With clusters the order walks tiles_m / cluster rows of clusters.
Status validate_order(kernel::BlockOrder order, int tiles_m, int tiles_n, int cluster = 1);

// The name parse_order reads back: "row", "col", "cutlass:4", "groupm:8".
std::string order_name(kernel::BlockOrder order);
// One sentence for a learner: how the order walks the grid.
std::string order_description(kernel::BlockOrder order);

// The grid's tiles in launch order, without CUTLASS's idle slots (blocks outside the grid exit at once). With
// clusters of `cluster` blocks (tiles_m a multiple of it), the order walks clusters (kernel::tile_of_launch).
std::vector<kernel::TileCoord> launch_sequence(int tiles_m, int tiles_n, kernel::BlockOrder order, int cluster = 1);

// The grid's tiles in the order the GPU computes them, and how many at once: the L2 models' waves. One block per tile
// (persistent_blocks = 0): the launch sequence, `resident` blocks (SMs x blocks per SM) at a time. Persistent blocks
// (the `grid` knob) walk the tiles launch, launch + grid, ...: only `grid` tiles are in flight however many blocks
// would fit, and where the grid holds more blocks than fit, the blocks beyond the first `resident` start once those
// have walked all their tiles, so each batch's tiles come before the next batch's. Stream-K (rung 23) keeps the
// launch sequence: its units are all resident, and its shared part is walked by position in it. An order with idle
// launch slots (cutlass:N over a ragged band) leaves them out and cuts the rest into waves of `per_wave`, so a
// persistent grid's later waves may start a few tiles off its rounds of slots.
struct TilesInFlight {
  std::vector<kernel::TileCoord> sequence;
  int per_wave = 0;
};
TilesInFlight tiles_in_flight(int tiles_m, int tiles_n, kernel::BlockOrder order, int cluster, int resident,
                              int persistent_blocks, bool stream_k);

}  // namespace gemmlab::sim
