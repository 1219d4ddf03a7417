#pragma once
// The sectors of a tile of a row-major FP32 matrix: shared by the fast L2 model (which costs whole tiles) and the
// sector-exact one (which uses it only to normalise its per-tile fetch counts).
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "gemmlab/kernel/config.hpp"
#include "gemmlab/result.hpp"
#include "gemmlab/sim/l2_model.hpp"
#include "gemmlab/sim/problem.hpp"

namespace gemmlab::sim::l2 {

inline constexpr int kSectorBytes = kL2SectorBytes;
inline constexpr int kFloatsPerSector = kSectorBytes / 4;

// The sectors one read of a tile touches, and how many of them the tile just before it in the same rows (the columns
// to its left) touches too.
struct TileSectors {
  std::int64_t sectors = 0;
  std::int64_t shared_with_previous = 0;
};

// Rows [first_row, end_row) of a matrix with `ld` floats per row, grouped by where each row starts within a sector
// (row * ld mod 8): rows with the same start offset touch the same number of sectors for any column range.
class RowAlignments {
 public:
  RowAlignments(std::int64_t first_row, std::int64_t end_row, std::int64_t ld) {
    const std::int64_t rows = std::max<std::int64_t>(0, end_row - first_row);
    // row * ld mod 8 repeats every 8 rows: count whole periods, then the rest.
    for (std::int64_t r = 0; r < std::min<std::int64_t>(rows, kFloatsPerSector); ++r) {
      const std::int64_t per_period = (rows - r + kFloatsPerSector - 1) / kFloatsPerSector;
      count_[static_cast<std::size_t>((first_row + r) * ld % kFloatsPerSector)] += per_period;
    }
  }

  // The columns [col, col + width) of every row (width >= 1).
  TileSectors columns(std::int64_t col, std::int64_t width) const {
    TileSectors out;
    for (int offset = 0; offset < kFloatsPerSector; ++offset) {
      const std::int64_t rows = count_[static_cast<std::size_t>(offset)];
      if (rows == 0) continue;
      const std::int64_t start = (offset + col) % kFloatsPerSector;
      out.sectors += rows * ((start + width - 1) / kFloatsPerSector + 1);
      if (col > 0 && start != 0) out.shared_with_previous += rows;
    }
    return out;
  }

 private:
  std::array<std::int64_t, kFloatsPerSector> count_{};
};

// Every tile of a launch as a unit: tiles_m x ksteps of A, then ksteps x tiles_n of B, then tiles_m x tiles_n of C.
struct Units {
  std::vector<std::uint16_t> read_sectors;  // what one read of the unit touches
  // Of those, the ones not shared with the previous tile: one k-step earlier for A, one tile column to the left for B
  // and C (rows that do not start on a sector boundary share a sector with their neighbour).
  std::vector<std::uint16_t> new_sectors;
  std::size_t b_offset = 0, c_offset = 0;
};
// An error when a tile touches more sectors than 16 bits count.
Result<Units> make_units(const Problem& problem, const kernel::KernelConfig& config, int tiles_m, int tiles_n, int ksteps);

// An empty per-tile fetch map of rows x cols units starting at `offset`, with each tile's read and new sectors.
TileFetches fetch_map(int rows, int cols, const Units& units, std::size_t offset);

}  // namespace gemmlab::sim::l2
