// The fast L2 model: LRU over whole tiles, waves of blocks advancing over k together (see l2_model.hpp).
#include "gemmlab/sim/l2_model.hpp"

#include <algorithm>
#include <deque>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <tuple>

#include "gemmlab/sim/launch_order.hpp"
#include "gemmlab/sim/simulate.hpp"
#include "gemmlab/sim/rung_model.hpp"
#include "l2_geometry.hpp"

namespace gemmlab::sim {
namespace {

// The most tiles (units of l2_geometry.hpp) the model tracks (about 16 bytes each).
constexpr std::int64_t kMaxUnits = std::int64_t{1} << 24;

// A least-recently-used list of units, intrusive in index arrays: a hit and an insertion are O(1), no allocation.
class UnitLru {
 public:
  UnitLru(std::size_t units, std::int64_t capacity_sectors, const std::vector<std::uint16_t>& size)
      : prev_(units, kNone), next_(units, kNone), resident_(units, 0), size_(size), capacity_(capacity_sectors) {}

  // Uses `unit`: true when it was resident (a hit); otherwise it is brought in, evicting the least recently used.
  bool touch(std::int32_t unit) {
    const auto u = static_cast<std::size_t>(unit);
    if (resident_[u]) {
      if (head_ != unit) {
        unlink(unit);
        push_front(unit);
      }
      return true;
    }
    resident_[u] = 1;
    used_ += size_[u];
    push_front(unit);
    while (used_ > capacity_ && tail_ != kNone) evict(tail_);
    return false;
  }
  bool resident(std::size_t unit) const { return resident_[unit] != 0; }

 private:
  static constexpr std::int32_t kNone = -1;

  void unlink(std::int32_t unit) {
    const auto u = static_cast<std::size_t>(unit);
    const std::int32_t p = prev_[u], n = next_[u];
    (p == kNone ? head_ : next_[static_cast<std::size_t>(p)]) = n;
    (n == kNone ? tail_ : prev_[static_cast<std::size_t>(n)]) = p;
  }
  void push_front(std::int32_t unit) {
    const auto u = static_cast<std::size_t>(unit);
    prev_[u] = kNone;
    next_[u] = head_;
    if (head_ != kNone) prev_[static_cast<std::size_t>(head_)] = unit;
    head_ = unit;
    if (tail_ == kNone) tail_ = unit;
  }
  void evict(std::int32_t unit) {
    unlink(unit);
    resident_[static_cast<std::size_t>(unit)] = 0;
    used_ -= size_[static_cast<std::size_t>(unit)];
  }

  std::vector<std::int32_t> prev_, next_;
  std::vector<std::uint8_t> resident_;
  const std::vector<std::uint16_t>& size_;
  std::int64_t capacity_ = 0, used_ = 0;
  std::int32_t head_ = kNone, tail_ = kNone;
};

template <class T>
Status store(std::vector<std::uint16_t>& into, std::size_t at, T value) {
  if (value > std::numeric_limits<std::uint16_t>::max())
    return Error{"a tile touches " + std::to_string(value) + " sectors, more than the L2 model's 65535"};
  into[at] = static_cast<std::uint16_t>(value);
  return Ok{};
}

}  // namespace

namespace l2 {

Result<Units> make_units(const Problem& p, const kernel::KernelConfig& c, int tiles_m, int tiles_n, int ksteps,
                         const OperandBytes& bytes, int slices) {
  Units u;
  u.b_offset = std::size_t(tiles_m) * std::size_t(ksteps);
  u.c_offset = u.b_offset + std::size_t(ksteps) * std::size_t(tiles_n);
  u.w_offset = u.c_offset + std::size_t(tiles_m) * std::size_t(tiles_n);
  const std::size_t total = u.w_offset + std::size_t(slices) * std::size_t(tiles_m) * std::size_t(tiles_n);
  u.read_sectors.assign(total, 0);
  u.new_sectors.assign(total, 0);
  // The grid_rows x grid_cols tiles (tile_rows x tile_cols each, clipped at the edges) of a rows x cols matrix, as
  // the units from `offset` on, row-major.
  const auto tiles = [&](std::size_t offset, int grid_rows, int grid_cols, int tile_rows, int tile_cols,
                         std::int64_t rows, std::int64_t cols, kernel::Operand operand) -> Status {
    const int per_sector = kSectorBytes / bytes[static_cast<std::size_t>(operand)];
    for (int r = 0; r < grid_rows; ++r) {
      const std::int64_t row0 = std::int64_t(r) * tile_rows;
      const RowAlignments alignments(row0, std::min(rows, row0 + tile_rows), cols, per_sector);
      for (int q = 0; q < grid_cols; ++q) {
        const std::int64_t col0 = std::int64_t(q) * tile_cols;
        const TileSectors s = alignments.columns(col0, std::min<std::int64_t>(tile_cols, cols - col0));
        const std::size_t at = offset + std::size_t(r) * std::size_t(grid_cols) + std::size_t(q);
        if (auto ok = store(u.read_sectors, at, s.sectors); !ok) return ok;
        if (auto ok = store(u.new_sectors, at, s.sectors - s.shared_with_previous); !ok) return ok;
      }
    }
    return Ok{};
  };
  if (auto ok = tiles(0, tiles_m, ksteps, c.bm, c.bk, p.m, p.k, kernel::Operand::A); !ok) return ok.error();
  if (auto ok = tiles(u.b_offset, ksteps, tiles_n, c.bk, c.bn, p.k, p.n, kernel::Operand::B); !ok) return ok.error();
  if (auto ok = tiles(u.c_offset, tiles_m, tiles_n, c.bm, c.bn, p.m, p.n, kernel::Operand::C); !ok) return ok.error();
  for (int slice = 0; slice < slices; ++slice) {
    const std::size_t offset = u.w_offset + std::size_t(slice) * std::size_t(tiles_m) * std::size_t(tiles_n);
    if (auto ok = tiles(offset, tiles_m, tiles_n, c.bm, c.bn, p.m, p.n, kernel::Operand::W); !ok) return ok.error();
  }
  return u;
}

TileFetches fetch_map(int rows, int cols, const Units& units, std::size_t offset) {
  TileFetches f;
  f.rows = rows;
  f.cols = cols;
  const std::size_t n = std::size_t(rows) * std::size_t(cols);
  const auto slice = [&](const std::vector<std::uint16_t>& all) {
    return std::vector<std::uint16_t>(all.begin() + std::ptrdiff_t(offset), all.begin() + std::ptrdiff_t(offset + n));
  };
  f.fetched_sectors.assign(n, 0);
  f.tile_sectors = slice(units.read_sectors);
  f.new_sectors = slice(units.new_sectors);
  return f;
}

}  // namespace l2

void L2Result::add_wave(const WaveTraffic& wave) {
  a += wave.a;
  b += wave.b;
  c += wave.c;
  dram_read_bytes += wave.dram_read_bytes;
  dram_write_bytes += wave.dram_write_bytes;
  per_wave.push_back(wave);
}

double TileFetches::times(int row, int col) const {
  const std::size_t at = std::size_t(row) * std::size_t(cols) + std::size_t(col);
  return tile_sectors[at] ? double(fetched_sectors[at]) / tile_sectors[at] : 0.0;
}

// A strip's first tile along the sharing direction (the first k-step of A, the first tile column of B) shares nothing
// with a tile before it; the others are fetched once by their new sectors, their neighbour bringing in the rest.
StripFetches TileFetches::row_strip(int row) const {
  StripFetches s;
  for (int c = 0; c < cols; ++c) {
    const std::size_t at = std::size_t(row) * std::size_t(cols) + std::size_t(c);
    s.fetched_sectors += fetched_sectors[at];
    s.once_sectors += c == 0 ? tile_sectors[at] : new_sectors[at];
  }
  return s;
}

StripFetches TileFetches::column_strip(int col) const {
  StripFetches s;
  for (int r = 0; r < rows; ++r) {
    const std::size_t at = std::size_t(r) * std::size_t(cols) + std::size_t(col);
    s.fetched_sectors += fetched_sectors[at];
    s.once_sectors += new_sectors[at];
  }
  return s;
}

double TileFetches::max_times() const {
  double most = 0;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) most = std::max(most, times(r, c));
  return most;
}

namespace {

// What the fast model's answer depends on: the tile grid and each tile's extent (bm, bn and the grouped k-step), the
// cluster, the problem, the bytes of each operand, the order, the wave, the L2's size, split-K's ranges and
// reduction, Stream-K's units (0 for a rung that walks whole tiles) and the persistent grid (0: a block a tile), which
// sets the tiles in flight. Configurations that differ
// in anything else (thread tiles, padding, stages: most of what the tuner searches) get the same answer, so it is
// kept: the tuner asks for hundreds of them, each a second or more on a large problem.
using L2Key = std::tuple<int, int, int, int, int, int, int, int, int, bool, int, int, int, std::int64_t, int, int, int,
                         int, bool, int, int>;

class L2Cache {
 public:
  std::optional<L2Result> find(const L2Key& key) {
    const std::lock_guard lock(mutex_);
    const auto it = results_.find(key);
    if (it == results_.end()) return std::nullopt;
    return it->second;
  }
  void store(const L2Key& key, const L2Result& result) {
    const std::lock_guard lock(mutex_);
    if (!results_.emplace(key, result).second) return;
    order_.push_back(key);
    if (order_.size() > kKept) results_.erase(order_.front()), order_.pop_front();
  }

 private:
  static constexpr std::size_t kKept = 64;
  std::mutex mutex_;
  std::map<L2Key, L2Result> results_;
  std::deque<L2Key> order_;  // oldest first
};

L2Cache& l2_cache() {
  static L2Cache cache;
  return cache;
}

}  // namespace

Result<L2Result> simulate_l2(RungId rung, const kernel::KernelConfig& config, const Problem& problem,
                             const L2Options& options, const Progress& progress) {
  auto shape = launch_shape(rung, config, problem);
  if (!shape) return shape.error();
  if (auto ok = validate_order(options.order, shape->tiles_m, shape->tiles_n, shape->cluster); !ok) return ok.error();
  if (options.blocks_per_wave < 1)
    return Error{"the L2 model needs at least one block per wave (got " + std::to_string(options.blocks_per_wave) + ")"};
  if (options.l2_bytes < l2::kSectorBytes)
    return Error{"the L2 model needs an L2 of at least one 32-byte sector (got " + std::to_string(options.l2_bytes) +
                 " bytes)"};
  // The models' k-steps: groups of the rung's (l2_geometry.hpp), each spanning at least a line of A.
  const kernel::KernelConfig tiles = l2::l2_tiles(config, operand_bytes(rung));
  const int tiles_m = shape->tiles_m, tiles_n = shape->tiles_n, ksteps = kernel::ceil_div(problem.k, tiles.bk);
  // Split-K through a workspace: a slice per range but the last.
  const int slices = config.workspace ? shape->splits - 1 : 0;
  const std::int64_t units = std::int64_t(tiles_m) * ksteps + std::int64_t(ksteps) * tiles_n +
                             std::int64_t(tiles_m) * tiles_n * (1 + slices);
  if (units > kMaxUnits)
    return Error{"the L2 model would track " + std::to_string(units) + " tiles, more than its " +
                 std::to_string(kMaxUnits) + ": use larger tiles (bm, bn, bk) or a smaller problem"};
  const OperandBytes bytes = operand_bytes(rung);
  const L2Key key{tiles.bm,  tiles.bn,  tiles.bk,  shape->cluster,  tiles_m, tiles_n,
                  problem.m, problem.n, problem.k, problem.beta != 0.0f, static_cast<int>(options.order.kind),
                  options.order.param, options.blocks_per_wave, options.l2_bytes, bytes[0], bytes[1], bytes[2],
                  shape->splits, slices > 0, shape->stream_k ? shape->plan.units : 0, shape->persistent_blocks};
  if (auto kept = l2_cache().find(key)) {
    if (progress) progress(1.0);
    return *kept;
  }
  auto made = l2::make_units(problem, tiles, tiles_m, tiles_n, ksteps, bytes, slices);
  if (!made) return made.error();
  const l2::Units& u = *made;

  L2Result r;
  r.tiles_m = tiles_m, r.tiles_n = tiles_n, r.ksteps = ksteps;
  r.a_fetches = l2::fetch_map(tiles_m, ksteps, u, 0);
  r.b_fetches = l2::fetch_map(ksteps, tiles_n, u, u.b_offset);
  const bool reads_c = problem.beta != 0.0f;
  // Split-K (rung 22): a tile's blocks, one per range of its k-steps, walked as the tile's k-steps range by range, each
  // range's epilogue after its k-steps: the first range writes C (reading it first where beta != 0), every later one
  // reads what the range before wrote and writes it again. Through a workspace instead, each range but the last writes
  // its slice, and the last reads the slices, then C where beta != 0, and writes C. The ranges' ends in this model's k-steps (groups of the
  // rung's: where a range ends inside a group, the group is counted in the range it ends).
  const int splits = shape->splits;
  const int range_ksteps = kernel::split_ksteps(kernel::ceil_div(problem.k, config.bk), config.splits);
  const auto range_end = [&](int range) {
    return range + 1 == splits ? ksteps
                               : std::min(ksteps, kernel::ceil_div((range + 1) * range_ksteps * config.bk, tiles.bk));
  };

  // The tiles as the GPU computes them, and how many at once (a persistent grid's blocks, where it has fewer than fit).
  const TilesInFlight in_flight = tiles_in_flight(tiles_m, tiles_n, options.order, shape->cluster,
                                                  options.blocks_per_wave, shape->persistent_blocks, shape->stream_k);
  const auto& sequence = in_flight.sequence;
  const int per_wave = in_flight.per_wave;
  r.waves = waves_of(static_cast<int>(sequence.size()), per_wave);
  // Stream-K (rung 23): its data-parallel waves of whole tiles are waves like any rung's; the tiles after them are the
  // shared part, walked below as its units walk it.
  const kernel::StreamKPlan& plan = shape->plan;
  const int cluster = shape->cluster;
  const int whole_blocks = shape->stream_k ? plan.whole_tiles() * cluster : static_cast<int>(sequence.size());
  UnitLru lru(u.read_sectors.size(), options.l2_bytes / l2::kSectorBytes, u.new_sectors);

  // One read of a unit. If it is resident, all its sectors hit. Otherwise the sectors it shares with a neighbour
  // (the tile one k-step earlier or later for A, one tile column to the left or right for B and C) hit when that
  // neighbour is resident, and the rest come from DRAM. A tile is charged to the L2 for the sectors it does not share
  // with its earlier neighbour, so a shared sector takes room once.
  const auto shared = [&](std::size_t unit) { return std::int64_t(u.read_sectors[unit]) - u.new_sectors[unit]; };
  const auto read = [&](std::size_t unit, bool has_prev, bool has_next, SectorReads& reads, WaveTraffic& wave,
                        std::int64_t* fetched) {
    const std::int64_t sectors = u.read_sectors[unit];
    std::int64_t misses = sectors;
    if (has_prev && lru.resident(unit - 1)) misses -= shared(unit);
    if (has_next && lru.resident(unit + 1)) misses -= shared(unit + 1);
    reads.sectors += sectors;
    if (lru.touch(static_cast<std::int32_t>(unit))) misses = 0;
    misses = std::max<std::int64_t>(misses, 0);  // bk < 8: one sector is shared by more than two tiles
    reads.hits += sectors - misses;
    wave.dram_read_bytes += misses * l2::kSectorBytes;
    if (fetched) *fetched += misses;
  };

  // Each wave's traffic: of its tiles' reads and writes (a Stream-K tile's, whichever unit computes it).
  std::vector<WaveTraffic> traffic = l2::empty_waves(r.waves);
  const auto wave_of = [&](int block) -> WaveTraffic& {
    return traffic[static_cast<std::size_t>(block / per_wave)];
  };
  std::vector<std::size_t> a_base, b_base;  // per block of the wave: its A row's first unit, its B column's
  for (int w = 0; w * per_wave < whole_blocks; ++w) {
    WaveTraffic& wave = traffic[static_cast<std::size_t>(w)];
    const int blocks = std::min(wave.blocks, whole_blocks - wave.first_block);
    const auto first = sequence.begin() + wave.first_block;
    a_base.clear();
    b_base.clear();
    for (auto it = first; it != first + blocks; ++it) {
      a_base.push_back(std::size_t(it->row) * std::size_t(ksteps));
      b_base.push_back(u.b_offset + std::size_t(it->col));
    }
    for (int range = 0, t = 0; range < splits; ++range) {
      for (; t < range_end(range); ++t) {
        const std::size_t b_row = std::size_t(t) * std::size_t(tiles_n);
        for (std::size_t i = 0; i < a_base.size(); ++i) {
          const std::size_t a_unit = a_base[i] + std::size_t(t), b_unit = b_base[i] + b_row;
          read(a_unit, t > 0, t + 1 < ksteps, wave.a, wave, &r.a_fetches.fetched_sectors[a_unit]);
          // A cluster reads its B tile once: each block copies 1 / cluster of it, multicast to all (rung 19).
          if ((first + static_cast<std::ptrdiff_t>(i))->row % shape->cluster != 0) continue;
          const std::size_t col = b_base[i] - u.b_offset;
          read(b_unit, col > 0, col + 1 < std::size_t(tiles_n), wave.b, wave,
               &r.b_fetches.fetched_sectors[b_unit - u.b_offset]);
        }
      }
      for (auto it = first; it != first + blocks; ++it) {
        const std::size_t tile = std::size_t(it->row) * std::size_t(tiles_n) + std::size_t(it->col);
        const std::size_t c_unit = u.c_offset + tile;
        const auto slice_unit = [&](int slice) {
          return u.w_offset + std::size_t(slice) * std::size_t(tiles_m) * std::size_t(tiles_n) + tile;
        };
        if (slices > 0 && range + 1 < splits) {  // a range's slice: allocated in L2, written back once
          lru.touch(static_cast<std::int32_t>(slice_unit(range)));
          wave.dram_write_bytes += std::int64_t(u.new_sectors[slice_unit(range)]) * l2::kSectorBytes;
          continue;
        }
        // The last range: the slices, then C. The kernel interleaves them a batch of pairs at a time, so in an L2 of a
        // few tiles its C evicts some of the next tiles' slices first: the replay's reads miss up to a tenth more.
        for (int slice = 0; slice < slices; ++slice)
          read(slice_unit(slice), it->col > 0, it->col + 1 < tiles_n, wave.c, wave, nullptr);
        if (reads_c || (range > 0 && slices == 0)) read(c_unit, it->col > 0, it->col + 1 < tiles_n, wave.c, wave, nullptr);
        else lru.touch(static_cast<std::int32_t>(c_unit));  // the write allocates its sectors in L2
        if (range + 1 < splits) continue;
        // Every sector of C is written back once; a sector shared with the left neighbour is counted there.
        wave.dram_write_bytes += std::int64_t(u.new_sectors[c_unit]) * l2::kSectorBytes;
        r.c_sectors_written += u.new_sectors[c_unit];
      }
    }
    if (progress && !progress(double(w + 1) / double(r.waves.waves))) return Error{"the L2 model was cancelled"};
  }
  if (whole_blocks < static_cast<int>(sequence.size())) {
    // Stream-K's shared part: each unit (a cluster of blocks) walks its range of the shared k-steps, every unit one
    // k-step a step, as many units at once as the wave holds (l2::walk_stream_k_shared). So the units read tiles far
    // apart in the order, each at its own k-step, where a wave of whole
    // tiles reads neighbours at the same k-step: little of what one unit brings into L2 is read by another before it
    // is evicted. A segment ends with its turn at C: it reads the sum the tile's earlier segments left there (or C,
    // where beta != 0) and writes it back.
    std::vector<char> c_written(static_cast<std::size_t>(plan.tiles), 0);
    l2::walk_stream_k_shared(plan, std::max(1, per_wave / cluster), [&](int cluster_tile, int kstep,
                                                                                      bool starts, bool ends) {
      const int t = static_cast<int>(std::int64_t(kstep) * config.bk / tiles.bk);  // this model's k-step
      // A grouped k-step (tiles.bk > bk) is read at its segment's first rung k-step in the group only.
      const bool reads = starts || std::int64_t(kstep - 1) * config.bk / tiles.bk != t;
      for (int c = 0; c < cluster; ++c) {
        const kernel::TileCoord tile = sequence[static_cast<std::size_t>(cluster_tile * cluster + c)];
        WaveTraffic& wave = wave_of(cluster_tile * cluster + c);
        if (reads) {
          const std::size_t a_unit = std::size_t(tile.row) * std::size_t(ksteps) + std::size_t(t);
          read(a_unit, t > 0, t + 1 < ksteps, wave.a, wave, &r.a_fetches.fetched_sectors[a_unit]);
          if (c == 0) {  // the cluster reads its B tile once (multicast)
            const std::size_t b_unit = u.b_offset + std::size_t(t) * std::size_t(tiles_n) + std::size_t(tile.col);
            read(b_unit, tile.col > 0, tile.col + 1 < tiles_n, wave.b, wave,
                 &r.b_fetches.fetched_sectors[b_unit - u.b_offset]);
          }
        }
        if (!ends) continue;
        const std::size_t c_unit = u.c_offset + std::size_t(tile.row) * std::size_t(tiles_n) + std::size_t(tile.col);
        if (reads_c || c_written[static_cast<std::size_t>(cluster_tile)])
          read(c_unit, tile.col > 0, tile.col + 1 < tiles_n, wave.c, wave, nullptr);
        else
          lru.touch(static_cast<std::int32_t>(c_unit));  // the write allocates its sectors in L2
      }
      if (ends) c_written[static_cast<std::size_t>(cluster_tile)] = 1;
    });
    // Every sector of C is written back once; a sector shared with the left neighbour is counted there.
    for (int b = whole_blocks; b < static_cast<int>(sequence.size()); ++b) {
      const kernel::TileCoord tile = sequence[static_cast<std::size_t>(b)];
      const std::size_t c_unit = u.c_offset + std::size_t(tile.row) * std::size_t(tiles_n) + std::size_t(tile.col);
      wave_of(b).dram_write_bytes += std::int64_t(u.new_sectors[c_unit]) * l2::kSectorBytes;
      r.c_sectors_written += u.new_sectors[c_unit];
    }
    if (progress && !progress(1.0)) return Error{"the L2 model was cancelled"};
  }
  for (const WaveTraffic& wave : traffic) r.add_wave(wave);
  std::int64_t distinct = 0;
  for (std::size_t unit = 0; unit < u.c_offset; ++unit) distinct += u.new_sectors[unit];
  if (reads_c) distinct += r.c_sectors_written;  // split-K's later ranges read only what the kernel wrote
  r.min_dram_read_bytes = distinct * l2::kSectorBytes;
  l2_cache().store(key, r);
  return r;
}

}  // namespace gemmlab::sim
