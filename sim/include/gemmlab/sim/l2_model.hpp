#pragma once
// The L2 model: which global reads of a whole kernel hit in L2 and which go to DRAM, for a launch order.
//
// The grid's blocks are taken in launch order and issued in waves of blocks_per_wave (the blocks that are resident
// together); the blocks of a wave advance over k together: at k-step t every block of the wave reads its tile of A
// (its bm rows, k-step t's bk columns) and of B (k-step t's bk rows, its bn columns), in launch order, then the wave
// writes C and the next wave starts. The L2 holds l2_bytes of 32-byte sectors and replaces the least recently used
// TILE (all the sectors one block reads of A or B at one k-step, or one C tile) when it is full. A read of a tile
// that is in L2 hits for all its sectors; otherwise its sectors come from DRAM, except the sectors it shares with the
// same rows' tile of the previous k-step (when a row of the tile does not start on a sector boundary), which that
// tile has just brought in. Within one block and k-step each sector is read once (L1 and the coalescer merge the
// rest). docs/scheduling.md explains the model and what it leaves out; simulate_l2_exact (l2_exact.hpp) replays the
// real instruction stream sector by sector and is the fast model's test oracle.
#include <cstdint>
#include <functional>
#include <vector>

#include "gemmlab/kernel/block_order.hpp"
#include "gemmlab/kernel/config.hpp"
#include "gemmlab/result.hpp"
#include "gemmlab/rungs.hpp"
#include "gemmlab/sim/occupancy.hpp"
#include "gemmlab/sim/problem.hpp"
#include "gemmlab/sim/progress.hpp"

namespace gemmlab::sim {

struct L2Options {
  kernel::BlockOrder order;
  int blocks_per_wave = 0;    // SMs x resident blocks per SM (occupancy.hpp)
  std::int64_t l2_bytes = 0;  // the device's L2 size
};

// Sector reads of one operand: how many reached L2 and how many of those hit.
struct SectorReads {
  std::int64_t sectors = 0, hits = 0;
  std::int64_t misses() const { return sectors - hits; }
  double hit_rate() const { return sectors ? double(hits) / double(sectors) : 0.0; }
  SectorReads& operator+=(const SectorReads& o) {
    sectors += o.sectors;
    hits += o.hits;
    return *this;
  }
};

// One wave's traffic, for a timeline.
struct WaveTraffic {
  int first_block = 0;  // the wave's first block, as a position in the launch sequence (idle slots left out)
  int blocks = 0;
  SectorReads a, b, c;  // c: reads of C (only when beta != 0)
  std::int64_t dram_read_bytes = 0, dram_write_bytes = 0;
};

// The L2's unit of data: what a miss fetches from DRAM.
inline constexpr int kL2SectorBytes = 32;

// A whole strip of tiles (a tile row of A over all k-steps, a tile column of B over all k-steps): the sectors it
// fetched from DRAM, and the sectors fetching each of its tiles once takes, a sector shared by two neighbouring
// tiles counted once, as the model fetches it.
struct StripFetches {
  std::int64_t fetched_sectors = 0, once_sectors = 0;
  double times() const { return once_sectors ? double(fetched_sectors) / double(once_sectors) : 0.0; }
  std::int64_t fetched_bytes() const { return fetched_sectors * kL2SectorBytes; }
  std::int64_t once_bytes() const { return once_sectors * kL2SectorBytes; }
};

// How much of each tile of A (tiles_m x ksteps: a block row's bm x bk piece at each k-step) or of B (ksteps x
// tiles_n) came from DRAM over the whole kernel, for heat maps.
struct TileFetches {
  int rows = 0, cols = 0;
  std::vector<std::int64_t> fetched_sectors;   // row-major, rows x cols; 64-bit, as a big grid reads a tile more than 2^32 sectors
  std::vector<std::uint16_t> tile_sectors;     // the sectors one read of the tile touches
  std::vector<std::uint16_t> new_sectors;      // of those, the ones it does not share with the tile before it
  // Fetches of the tile from DRAM: fetched sectors / the tile's sectors (0 for a tile whose sectors all belong to
  // its neighbour, as with bk = 1, where 8 k-steps share each sector).
  double times(int row, int col) const;
  double max_times() const;
  // A row (A: a tile row) or column (B: a tile column) of the map as one strip.
  StripFetches row_strip(int row) const;
  StripFetches column_strip(int col) const;
};

struct L2Result {
  int tiles_m = 0, tiles_n = 0, ksteps = 0;
  Waves waves;
  SectorReads a, b, c;
  std::int64_t c_sectors_written = 0;
  std::int64_t dram_read_bytes = 0, dram_write_bytes = 0;  // writes: every sector of C, written back eventually
  std::int64_t min_dram_read_bytes = 0;  // each distinct sector read once: the floor any launch order can reach
  std::vector<WaveTraffic> per_wave;
  TileFetches a_fetches, b_fetches;

  void add_wave(const WaveTraffic& wave);  // appends it to per_wave and adds it to the totals

  SectorReads reads() const {  // A, B and C together
    SectorReads all = a;
    all += b;
    all += c;
    return all;
  }
};

// The fast model: about 10 ns per tile read (blocks x k-steps x 2), so an 8192^3 problem in 128 x 128 tiles is well
// under a second (but the naive rungs' 32 x 32 x 1 tiles take seconds). Errors: an invalid configuration or order,
// a grid too large to model, or `progress` (told the fraction of waves done after each wave) returning false
// ("cancelled").
Result<L2Result> simulate_l2(RungId rung, const kernel::KernelConfig& config, const Problem& problem,
                             const L2Options& options, const Progress& progress = {});

}  // namespace gemmlab::sim
