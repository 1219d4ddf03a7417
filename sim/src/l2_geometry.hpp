#pragma once
// The sectors of a tile of a row-major matrix: shared by the fast L2 model (which costs whole tiles) and the
// sector-exact one (which uses it only to normalise its per-tile fetch counts). And the order in which Stream-K's units
// walk its shared part, which both models replay.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "gemmlab/kernel/config.hpp"
#include "gemmlab/kernel/stream_k.hpp"
#include "gemmlab/result.hpp"
#include "gemmlab/sim/global_address.hpp"
#include "gemmlab/sim/l2_model.hpp"
#include "gemmlab/sim/problem.hpp"

namespace gemmlab::sim::l2 {

inline constexpr int kSectorBytes = kL2SectorBytes;
inline constexpr int kMaxElementsPerSector = kSectorBytes / 2;  // 16-bit elements

// The sectors one read of a tile touches, and how many of them the tile just before it in the same rows (the columns
// to its left) touches too.
struct TileSectors {
  std::int64_t sectors = 0;
  std::int64_t shared_with_previous = 0;
};

// Rows [first_row, end_row) of a matrix with `ld` elements per row, `per_sector` of them in a sector (8 floats or
// 16 halves), grouped by where each row starts within a sector (row * ld mod per_sector): rows with the same start
// offset touch the same number of sectors for any column range.
class RowAlignments {
 public:
  RowAlignments(std::int64_t first_row, std::int64_t end_row, std::int64_t ld, int per_sector)
      : per_sector_(per_sector) {
    const std::int64_t rows = std::max<std::int64_t>(0, end_row - first_row);
    // row * ld mod per_sector repeats every per_sector rows: count whole periods, then the rest.
    for (std::int64_t r = 0; r < std::min<std::int64_t>(rows, per_sector); ++r) {
      const std::int64_t per_period = (rows - r + per_sector - 1) / per_sector;
      count_[static_cast<std::size_t>((first_row + r) * ld % per_sector)] += per_period;
    }
  }

  // The columns [col, col + width) of every row (width >= 1).
  TileSectors columns(std::int64_t col, std::int64_t width) const {
    TileSectors out;
    for (int offset = 0; offset < per_sector_; ++offset) {
      const std::int64_t rows = count_[static_cast<std::size_t>(offset)];
      if (rows == 0) continue;
      const std::int64_t start = (offset + col) % per_sector_;
      out.sectors += rows * ((start + width - 1) / per_sector_ + 1);
      if (col > 0 && start != 0) out.shared_with_previous += rows;
    }
    return out;
  }

 private:
  int per_sector_;
  std::array<std::int64_t, kMaxElementsPerSector> count_{};
};

// The L2 models' k-step. Where the rung's k-step spans less than a 32-byte sector of A's rows (the naive rungs': one
// float), consecutive k-steps read the same sectors and L1 serves the repeats: the models group k-steps to span a
// 128-byte line and count each sector once per block and group, which keeps their work in proportion to the lines
// read (32 times less for the naive rungs). 1 for every rung whose k-step spans a sector or more.
inline int kstep_group(const kernel::KernelConfig& config, const OperandBytes& bytes) {
  const int span = config.bk * bytes[static_cast<std::size_t>(kernel::Operand::A)];
  return span >= 32 ? 1 : std::max(1, 128 / span);
}

// The tiles the L2 models cost: the configuration's, with bk widened to a group of k-steps (kstep_group).
inline kernel::KernelConfig l2_tiles(const kernel::KernelConfig& config, const OperandBytes& bytes) {
  kernel::KernelConfig tiles = config;
  tiles.bk = config.bk * kstep_group(config, bytes);
  return tiles;
}

// Every tile of a launch as a unit: tiles_m x ksteps of A, then ksteps x tiles_n of B, then tiles_m x tiles_n of C,
// then, for split-K through a workspace (workspace = 1), `slices` times tiles_m x tiles_n of it, C's tiles in each.
struct Units {
  std::vector<std::uint16_t> read_sectors;  // what one read of the unit touches
  // Of those, the ones not shared with the previous tile: one k-step earlier for A, one tile column to the left for B
  // and C (rows that do not start on a sector boundary share a sector with their neighbour).
  std::vector<std::uint16_t> new_sectors;
  std::size_t b_offset = 0, c_offset = 0, w_offset = 0;
};
// An error when a tile touches more sectors than 16 bits count.
Result<Units> make_units(const Problem& problem, const kernel::KernelConfig& config, int tiles_m, int tiles_n, int ksteps,
                         const OperandBytes& bytes, int slices = 0);

// An empty per-tile fetch map of rows x cols units starting at `offset`, with each tile's read and new sectors.
TileFetches fetch_map(int rows, int cols, const Units& units, std::size_t offset);

// Each wave's traffic, none counted yet: its first block's place in the walk and its blocks (the last wave's fewer).
inline std::vector<WaveTraffic> empty_waves(const Waves& waves) {
  std::vector<WaveTraffic> out(static_cast<std::size_t>(waves.waves));
  for (int w = 0; w < waves.waves; ++w) {
    WaveTraffic& wave = out[static_cast<std::size_t>(w)];
    wave.first_block = w * waves.blocks_per_wave;
    wave.blocks = w + 1 == waves.waves ? waves.last_wave_blocks : waves.blocks_per_wave;
  }
  return out;
}

// Stream-K's shared part (rung 23) in the order its units walk it: `resident_units` units at once (what a wave
// holds), each one iteration of its range a step; the next units after those have walked their whole ranges. For each
// iteration: visit(cluster_tile, kstep, starts, ends): the cluster tile in launch order (whole ones first), the rung's
// k-step of it, whether a segment of the tile starts there (its range's first iteration or the tile's first k-step),
// and whether one ends (its turn at C follows).
template <class Visit>
void walk_stream_k_shared(const kernel::StreamKPlan& plan, int resident_units, Visit&& visit) {
  const kernel::Index longest = (plan.shared_iterations() + plan.units - 1) / plan.units;
  for (int group = 0; group < plan.units; group += resident_units)
    for (kernel::Index step = 0; step < longest; ++step)
      for (int unit = group; unit < std::min(plan.units, group + resident_units); ++unit) {
        const int range = plan.range_of_unit(unit);
        const kernel::Index i = plan.begin(range) + step;
        if (i >= plan.begin(range + 1)) continue;
        const int kstep = static_cast<int>(i % plan.ksteps);
        visit(plan.whole_tiles() + static_cast<int>(i / plan.ksteps), kstep, kstep == 0 || i == plan.begin(range),
              kstep + 1 == plan.ksteps || i + 1 == plan.begin(range + 1));
      }
}

}  // namespace gemmlab::sim::l2
