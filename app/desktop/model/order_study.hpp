#pragma once
// What the launch-order & L2 panel shows for one launch order of the current kernel: which tile each block computes
// and when (its place in the launch sequence, its wave), the L2 model's traffic and the roofline for that order, and
// how many times each tile row of A and tile column of B came from DRAM. study_order computes it on a worker.
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gemmlab/kernel/block_order.hpp"
#include "gemmlab/kernel/config.hpp"
#include "gemmlab/result.hpp"
#include "gemmlab/rungs.hpp"
#include "gemmlab/sim/problem.hpp"
#include "gemmlab/sim/schedule_prediction.hpp"

namespace gemmlab::desktop {

// One launch order as the user picks it: a kind and a group size. The size is kept while the kind is row or column
// (which have none), so switching back to a grouped order restores it.
struct OrderChoice {
  kernel::OrderKind kind = kernel::OrderKind::RowMajor;
  int group_size = 8;  // cutlass: the swizzle width in tile columns (a power of two); groupm: tile rows per group

  bool grouped() const { return kind == kernel::OrderKind::Cutlass || kind == kernel::OrderKind::GroupM; }
  // "row", "col", "cutlass:8", "groupm:8": what sim::parse_order and gemmlab-cli's --order read.
  std::string name() const;
  // The order, or parse_order's sentence (a swizzle width that is not a power of two, a size below 1).
  Result<kernel::BlockOrder> order() const;
  bool operator==(const OrderChoice&) const = default;
};

// A whole order name ("groupm:8", "row"); a row or column order keeps `group_size`. Errors are parse_order's.
Result<OrderChoice> parse_order_choice(std::string_view text, int group_size = 8);

// The tiles one wave's blocks compute.
struct WaveFootprint {
  int first_block = 0, blocks = 0;  // positions in the launch sequence
  // The distinct tile rows and columns among them, ascending: the A and B tiles the wave reads at each k-step.
  std::vector<int> rows, columns;
  int tile_rows() const { return static_cast<int>(rows.size()); }
  int tile_columns() const { return static_cast<int>(columns.size()); }
};

struct OrderStudy {
  sim::SchedulePrediction prediction;  // occupancy and waves, the L2 model's traffic, the roofline
  // tiles_m x tiles_n, row-major: the tile's place in the order the L2 model walks the tiles (sim::tiles_in_flight:
  // the launch sequence, but where a persistent grid has more blocks than fit at once)
  std::vector<int> launch_position;
  // The same tiles' launch indices, which count the idle slots an order may add (a Hilbert curve over a grid rounded
  // up to a power of two): what a persistent or Stream-K block's walk counts in.
  std::vector<int> launch_index;
  // The block row's whole bm x K strip of A (the block column's K x bn strip of B) over all k-steps: the sectors it
  // fetched from DRAM and the sectors one fetch of it takes (sim::StripFetches; times() >= 1 once everything was
  // read).
  std::vector<sim::StripFetches> a_row_fetches, b_column_fetches;
  std::vector<WaveFootprint> waves;

  int tiles_m() const { return prediction.l2.tiles_m; }
  int tiles_n() const { return prediction.l2.tiles_n; }
  int blocks_per_wave() const { return prediction.l2.waves.blocks_per_wave; }
  int position_of(int row, int column) const {
    return launch_position[static_cast<std::size_t>(row) * static_cast<std::size_t>(tiles_n()) +
                           static_cast<std::size_t>(column)];
  }
  int wave_of_position(int position) const { return position / blocks_per_wave(); }
  int wave_of(int row, int column) const { return wave_of_position(position_of(row, column)); }
  int launch_index_of(int row, int column) const {
    return launch_index[static_cast<std::size_t>(row) * static_cast<std::size_t>(tiles_n()) +
                        static_cast<std::size_t>(column)];
  }
};

// Simulates the kernel's counters, then the L2 model and the roofline for `order` on `device`. `progress` (told the
// fraction done, false to stop) follows both, which take seconds for big problems and the naive rungs' small tiles.
Result<std::shared_ptr<const OrderStudy>> study_order(RungId rung, const kernel::KernelConfig& config,
                                                      const sim::Problem& problem, kernel::BlockOrder order,
                                                      const sim::DeviceProfile& device,
                                                      const sim::Progress& progress = {});

}  // namespace gemmlab::desktop
