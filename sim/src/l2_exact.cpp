// The sector-exact L2 simulation (l2_exact.hpp): the instruction stream, sector by sector, through an LRU cache.
#include "gemmlab/sim/l2_exact.hpp"

#include <list>
#include <unordered_map>
#include <unordered_set>

#include "gemmlab/sim/global_address.hpp"
#include "gemmlab/sim/launch_order.hpp"
#include "gemmlab/sim/simulate.hpp"
#include "gemmlab/sim/rung_model.hpp"
#include "l2_geometry.hpp"

namespace gemmlab::sim {
namespace {

// The most sectors a recording keeps (16 bytes each).
constexpr std::size_t kMaxTracedSectors = std::size_t{1} << 23;

enum class Access : std::uint8_t { ReadA, ReadB, ReadC, WriteC };

struct TracedSector {
  std::uint64_t sector = 0;
  std::int32_t tile = -1;  // ReadA: index into the A fetch map (row x k-step); ReadB: into B's; otherwise -1
  Access access = Access::ReadA;
};

class SectorLru {
 public:
  explicit SectorLru(std::int64_t capacity) : capacity_(static_cast<std::size_t>(capacity)) {}

  bool touch(std::uint64_t sector) {
    if (const auto it = where_.find(sector); it != where_.end()) {
      order_.splice(order_.begin(), order_, it->second);
      return true;
    }
    order_.push_front(sector);
    where_[sector] = order_.begin();
    if (order_.size() > capacity_) {
      where_.erase(order_.back());
      order_.pop_back();
    }
    return false;
  }

 private:
  std::size_t capacity_;
  std::list<std::uint64_t> order_;  // most recent first
  std::unordered_map<std::uint64_t, std::list<std::uint64_t>::iterator> where_;
};

}  // namespace

struct ExactL2Replay::Trace {
  RungId rung{};
  kernel::KernelConfig config;
  Problem problem;
  kernel::KernelConfig tiles;  // config with bk widened to a group of k-steps (l2::l2_tiles)
  int kgroup = 1;
  int tiles_m = 0, tiles_n = 0, ksteps = 0, cluster = 1;
  int persistent_blocks = 0;  // the persistent grid (0: a block a tile)
  bool stream_k = false;
  kernel::StreamKPlan plan;  // Stream-K's (rung 23), in units of whole clusters
  std::size_t phases = 0;
  l2::Units units;  // per tile, from l2::make_units: the fetch maps' denominators
  std::vector<TracedSector> sectors;
  std::vector<std::size_t> begin;  // (row * tiles_n + col) * phases + phase -> its first sector; one past the end last

  // Every global sector the tile's block reads or writes, phase by phase, each read once per phase. Under split-K the
  // tile's blocks, one per range of its k-steps, one after another: the tile's phases are theirs in turn (the fast
  // model walks tiles, each reading all of its k).
  Status record_block(kernel::TileCoord tile, int splits) {
    for (int split = 0; split < splits; ++split)
      if (auto ok = record_range(tile, split, splits); !ok) return ok;
    return Ok{};
  }
  Status record_range(kernel::TileCoord tile, int split, int splits) {
    auto stream = BlockStream::open(rung, config, problem, tile, split);
    if (!stream) return stream.error();
    if (phases == 0) phases = stream->schedule().size() * static_cast<std::size_t>(splits);
    if (stream->schedule().size() * static_cast<std::size_t>(splits) != phases)
      return Error{"block (" + std::to_string(tile.row) + ", " + std::to_string(tile.col) +
                   ") has a schedule of a different length from block (0, 0)'s: a kernel description error"};
    const OperandBytes bytes = operand_bytes(rung);
    std::unordered_set<std::uint64_t> seen;
    for (std::size_t p = 0; p < stream->schedule().size(); ++p) {
      begin.push_back(sectors.size());
      auto phase = stream->phase(p);
      if (!phase) return phase.error();
      // Reads are counted once per phase; where the rung's k-step spans less than a sector, once per block and tile
      // of the grouped k-steps (trace: the key holds the tile), as the fast model counts them.
      if (kgroup == 1) seen.clear();
      for (const WarpInstruction& instruction : (*phase)->instructions) {
        const MemOp op = instruction.access.op;
        if (op != MemOp::LoadGlobal && op != MemOp::StoreGlobal && op != MemOp::CpAsync) continue;
        for (int lane = 0; lane < 32; ++lane) {
          if (!(instruction.global_mask >> lane & 1u)) continue;
          // A lane's 2, 4, 8 or 16 aligned bytes: one sector.
          if (auto ok = trace(instruction.access.address[static_cast<std::size_t>(lane)], op == MemOp::StoreGlobal,
                              tile, bytes, seen);
              !ok)
            return ok;
        }
      }
      // TMA copies: every sector of the part of each box inside its matrix.
      for (const kernel::TmaBox& box : (*phase)->copies) {
        const auto o = static_cast<std::size_t>(box.operand);
        const std::uint64_t element = static_cast<std::uint64_t>(bytes[o]);
        const int cols = std::min(box.cols, box.cols_total - box.col0);
        for (int r = 0; r < box.rows && box.row0 + r < box.rows_total && cols > 0; ++r) {
          const std::uint64_t first =
              kOperandBase[o] + (std::uint64_t(box.row0 + r) * std::uint64_t(box.cols_total) + std::uint64_t(box.col0)) * element;
          for (std::uint64_t s = first / l2::kSectorBytes; s <= (first + std::uint64_t(cols) * element - 1) / l2::kSectorBytes; ++s)
            if (auto ok = trace(std::max(first, s * l2::kSectorBytes), false, tile, bytes, seen); !ok) return ok;
        }
      }
      if (sectors.size() > kMaxTracedSectors)
        return Error{"the sector-exact L2 simulation would record more than " + std::to_string(kMaxTracedSectors) +
                     " sectors: use a smaller problem or larger tiles"};
    }
    return Ok{};
  }

  // One global access's sector, with the tile of A or B it belongs to (reads of one phase counted once).
  Status trace(std::uint64_t address, bool store, kernel::TileCoord tile, const OperandBytes& bytes,
               std::unordered_set<std::uint64_t>& seen) {
    const std::uint64_t sector = address / l2::kSectorBytes;
    const auto element = global_element(address, bytes);
    if (!element && !is_workspace_address(address))
      return Error{"the stream of block (" + std::to_string(tile.row) + ", " + std::to_string(tile.col) +
                   ") touched global address " + std::to_string(address) + ", outside A, B, C and the workspace"};
    TracedSector t{sector, -1, store ? Access::WriteC : Access::ReadC};  // C, or split-K's workspace counted with it
    if (element && element->operand == kernel::Operand::A) {
      t.access = Access::ReadA;
      t.tile = static_cast<std::int32_t>(element->index / problem.k / config.bm * ksteps +
                                         element->index % problem.k / tiles.bk);
    } else if (element && element->operand == kernel::Operand::B) {
      t.access = Access::ReadB;
      t.tile = static_cast<std::int32_t>(element->index / problem.n / tiles.bk * tiles_n +
                                         element->index % problem.n / config.bn);
    }
    // Sectors (below 2^37) with the tile they are read for (below 2^24 at the sizes this replay takes).
    const std::uint64_t key = kgroup == 1 ? sector : sector << 24 | (static_cast<std::uint64_t>(t.tile) & 0xFFFFFF);
    if (!store && !seen.insert(key).second) return Ok{};
    sectors.push_back(t);
    return Ok{};
  }
};

ExactL2Replay::ExactL2Replay(std::unique_ptr<Trace> trace) : trace_(std::move(trace)) {}
ExactL2Replay::ExactL2Replay(ExactL2Replay&&) noexcept = default;
ExactL2Replay& ExactL2Replay::operator=(ExactL2Replay&&) noexcept = default;
ExactL2Replay::~ExactL2Replay() = default;

Result<ExactL2Replay> ExactL2Replay::record(RungId rung, const kernel::KernelConfig& config, const Problem& problem) {
  if (problem.m > kMaxExactDimension || problem.n > kMaxExactDimension || problem.k > kMaxExactDimension)
    return Error{"the sector-exact L2 simulation replays every warp instruction; it takes sizes up to " +
                 std::to_string(kMaxExactDimension) + " (use the fast model for larger problems)"};
  auto shape = launch_shape(rung, config, problem);
  if (!shape) return shape.error();
  auto trace = std::make_unique<Trace>();
  trace->rung = rung, trace->config = config, trace->problem = problem;
  trace->kgroup = l2::kstep_group(config, operand_bytes(rung));
  trace->tiles = l2::l2_tiles(config, operand_bytes(rung));
  const int ksteps = kernel::ceil_div(problem.k, trace->tiles.bk);
  trace->tiles_m = shape->tiles_m, trace->tiles_n = shape->tiles_n, trace->ksteps = ksteps;
  trace->cluster = shape->cluster;
  trace->persistent_blocks = shape->persistent_blocks;
  trace->stream_k = shape->stream_k, trace->plan = shape->plan;
  auto units = l2::make_units(problem, trace->tiles, shape->tiles_m, shape->tiles_n, ksteps, operand_bytes(rung));
  if (!units) return units.error();
  trace->units = std::move(*units);
  for (int row = 0; row < shape->tiles_m; ++row)
    for (int col = 0; col < shape->tiles_n; ++col)
      if (auto ok = trace->record_block({row, col}, shape->splits); !ok) return ok.error();
  trace->begin.push_back(trace->sectors.size());
  return ExactL2Replay(std::move(trace));
}

Result<L2Result> ExactL2Replay::run(const L2Options& options) const {
  const Trace& t = *trace_;
  if (auto ok = validate_order(options.order, t.tiles_m, t.tiles_n, t.cluster); !ok) return ok.error();
  if (options.blocks_per_wave < 1 || options.l2_bytes < l2::kSectorBytes)
    return Error{"the L2 simulation needs at least one block per wave and one sector of L2"};
  L2Result r;
  r.tiles_m = t.tiles_m, r.tiles_n = t.tiles_n, r.ksteps = t.ksteps;
  r.a_fetches = l2::fetch_map(t.tiles_m, t.ksteps, t.units, 0);
  r.b_fetches = l2::fetch_map(t.ksteps, t.tiles_n, t.units, t.units.b_offset);
  const TilesInFlight in_flight = tiles_in_flight(t.tiles_m, t.tiles_n, options.order, t.cluster,
                                                  options.blocks_per_wave, t.persistent_blocks, t.stream_k);
  const auto& sequence = in_flight.sequence;
  const int per_wave = in_flight.per_wave;
  r.waves = waves_of(static_cast<int>(sequence.size()), per_wave);

  SectorLru lru(options.l2_bytes / l2::kSectorBytes);
  std::unordered_set<std::uint64_t> written, distinct_reads;
  const auto replay = [&](const TracedSector& traced, WaveTraffic& wave) {
    if (traced.access == Access::WriteC) {
      lru.touch(traced.sector);
      if (written.insert(traced.sector).second) wave.dram_write_bytes += l2::kSectorBytes;
      return;
    }
    // The least DRAM can serve: each sector read once, but none the kernel wrote before it read it (split-K's
    // later ranges read the sum the earlier ones stored).
    if (!written.contains(traced.sector)) distinct_reads.insert(traced.sector);
    SectorReads& reads = traced.access == Access::ReadA ? wave.a : traced.access == Access::ReadB ? wave.b : wave.c;
    ++reads.sectors;
    if (lru.touch(traced.sector)) {
      ++reads.hits;
      return;
    }
    wave.dram_read_bytes += l2::kSectorBytes;
    if (traced.access == Access::ReadA) ++r.a_fetches.fetched_sectors[static_cast<std::size_t>(traced.tile)];
    if (traced.access == Access::ReadB) ++r.b_fetches.fetched_sectors[static_cast<std::size_t>(traced.tile)];
  };
  const auto slot_of = [&](kernel::TileCoord tile) {
    return std::size_t(tile.row) * std::size_t(t.tiles_n) + std::size_t(tile.col);
  };
  // Each wave's traffic, of its tiles' reads and writes. Stream-K: the whole tiles' waves, then its shared part (below).
  std::vector<WaveTraffic> traffic = l2::empty_waves(r.waves);
  const auto wave_of = [&](int block) -> WaveTraffic& {
    return traffic[static_cast<std::size_t>(block / per_wave)];
  };
  const int all_blocks = static_cast<int>(sequence.size());
  const int whole_blocks = t.stream_k ? t.plan.whole_tiles() * t.cluster : all_blocks;
  for (int first = 0; first < whole_blocks; first += per_wave) {
    WaveTraffic& wave = wave_of(first);
    const int blocks = std::min(per_wave, whole_blocks - first);
    for (std::size_t p = 0; p < t.phases; ++p)
      for (int i = 0; i < blocks; ++i) {
        const std::size_t slot = slot_of(sequence[static_cast<std::size_t>(first + i)]) * t.phases + p;
        for (std::size_t s = t.begin[slot]; s < t.begin[slot + 1]; ++s) replay(t.sectors[s], wave);
      }
  }
  if (whole_blocks < all_blocks) {
    // Stream-K's shared part, walked as its units walk it (l2::walk_stream_k_shared, as the fast model): each block's
    // recorded reads of A and B sorted by the k-step they are for, replayed a unit's iteration at a time; at the end of
    // each segment the tile's C, read where an earlier segment (or beta != 0) left a sum there, and written.
    std::vector<std::vector<std::vector<std::size_t>>> by_kstep(static_cast<std::size_t>(t.tiles_m * t.tiles_n));
    std::vector<std::vector<std::size_t>> c_sectors(by_kstep.size());  // each sector of the tile's C once
    for (int b = whole_blocks; b < all_blocks; ++b) {
      const std::size_t tile = slot_of(sequence[static_cast<std::size_t>(b)]);
      by_kstep[tile].resize(static_cast<std::size_t>(t.ksteps));
      std::unordered_set<std::uint64_t> stored;
      for (std::size_t s = t.begin[tile * t.phases]; s < t.begin[(tile + 1) * t.phases]; ++s) {
        const TracedSector& traced = t.sectors[s];
        if (traced.access == Access::ReadA)
          by_kstep[tile][static_cast<std::size_t>(traced.tile % t.ksteps)].push_back(s);
        else if (traced.access == Access::ReadB)
          by_kstep[tile][static_cast<std::size_t>(traced.tile / t.tiles_n)].push_back(s);
        else if (traced.access == Access::WriteC && stored.insert(traced.sector).second)
          c_sectors[tile].push_back(s);
      }
    }
    const bool reads_c = t.problem.beta != 0.0f;
    std::vector<char> c_written(static_cast<std::size_t>(t.plan.tiles), 0);
    l2::walk_stream_k_shared(t.plan, std::max(1, per_wave / t.cluster), [&](int cluster_tile,
                                                                                         int rung_kstep, bool starts,
                                                                                         bool ends) {
      const int kstep = rung_kstep / t.kgroup;  // the replay's k-steps: groups of the rung's
      const bool reads = starts || rung_kstep % t.kgroup == 0;
      for (int c = 0; c < t.cluster; ++c) {
        const std::size_t tile = slot_of(sequence[static_cast<std::size_t>(cluster_tile * t.cluster + c)]);
        WaveTraffic& wave = wave_of(cluster_tile * t.cluster + c);
        if (reads)
          for (const std::size_t s : by_kstep[tile][static_cast<std::size_t>(kstep)]) replay(t.sectors[s], wave);
        if (!ends) continue;
        for (const std::size_t s : c_sectors[tile]) {
          if (reads_c || c_written[static_cast<std::size_t>(cluster_tile)])
            replay({t.sectors[s].sector, -1, Access::ReadC}, wave);
          replay(t.sectors[s], wave);
        }
      }
      if (ends) c_written[static_cast<std::size_t>(cluster_tile)] = 1;
    });
  }
  for (const WaveTraffic& wave : traffic) r.add_wave(wave);
  r.c_sectors_written = static_cast<std::int64_t>(written.size());
  r.min_dram_read_bytes = static_cast<std::int64_t>(distinct_reads.size()) * l2::kSectorBytes;
  return r;
}

Result<L2Result> simulate_l2_exact(RungId rung, const kernel::KernelConfig& config, const Problem& problem,
                                   const L2Options& options) {
  auto replay = ExactL2Replay::record(rung, config, problem);
  if (!replay) return replay.error();
  return replay->run(options);
}

}  // namespace gemmlab::sim
