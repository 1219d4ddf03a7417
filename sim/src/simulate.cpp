// The simulator's engine: runs a rung's kernel description with the recording executor (to cost its stream) or
// the functional executor (to produce C), following the same phase schedule as the GPU kernel.
#include "gemmlab/sim/simulate.hpp"

#include <algorithm>
#include <map>
#include <unordered_map>
#include <utility>

#include "dispatch.hpp"
#include "functional.hpp"
#include "gemmlab/kernel/element.hpp"
#include "gemmlab/kernel/schedule.hpp"
#include "gemmlab/kernel/stream_k.hpp"
#include "gemmlab/sim/rung_model.hpp"
#include "recorder.hpp"

namespace gemmlab::sim {
namespace {

using kernel::KernelConfig;
using kernel::Section;
using kernel::ThreadContext;
using kernel::TileCoord;

template <class K>
class Engine {
 public:
  using State = typename K::template State<KernelConfig>;
  static constexpr int a_bytes = kernel::operand_bytes<K>(kernel::Operand::A);
  static constexpr int b_bytes = kernel::operand_bytes<K>(kernel::Operand::B);
  // Rungs with warp-wide operations (an MMA atom, or __syncwarp) run the lanes of a warp in lockstep when executed.
  static constexpr bool kWarpWide = [] {
    if constexpr (requires { typename K::Atom; }) return true;
    else if constexpr (requires { K::syncs_warps; }) return K::syncs_warps;
    else return false;
  }();

  Engine(const KernelConfig& c, const Problem& p) : c_(c), p_(p) {
    recorder_.set_operand_bytes(a_bytes, b_bytes, kernel::operand_bytes<K>(kernel::Operand::C));
    earlier_phases_.set_operand_bytes(a_bytes, b_bytes, kernel::operand_bytes<K>(kernel::Operand::C));
  }

  LaunchShape shape() const {
    LaunchShape s;
    s.cluster = c_.cluster;
    s.tiles_m = tiles_m();
    s.tiles_n = tiles_n();
    s.splits = splits();
    s.blocks = s.tiles_m * s.tiles_n * s.splits;
    s.threads_per_block = K::threads(c_);
    s.warps_per_block = kernel::ceil_div(s.threads_per_block, 32);
    s.smem_bytes = K::smem_floats(c_) * 4;
    s.ksteps = block_ksteps();
    for (int ph = 0; ph < K::mainloop_phases(c_); ++ph) s.schedule_of_one_kstep.push_back({Section::Mainloop, 0, ph});
    if (c_.grid > 0) {
      s.persistent_blocks = launched();
      s.stream_k = kernel::WalksSegments<K>;
      s.plan = kernel::StreamKPlan::of(s.persistent_blocks / s.cluster, s.blocks / s.cluster, std::max(s.ksteps, 1),
                                       c_.shared_waves);
    }
    return s;
  }

  // The grid of tiles (its rows rounded up to whole clusters).
  int tiles_m() const { return kernel::cluster_tile_rows(kernel::ceil_div(p_.m, c_.bm), c_.cluster); }
  int tiles_n() const { return kernel::ceil_div(p_.n, c_.bn); }
  // Split-K (KernelConfig::splits): the tile's ranges, and the k-steps of one (of the whole tile without it).
  int splits() const { return kernel::ranges_of(c_, p_.k); }
  int block_ksteps() const { return kernel::split_ksteps(kernel::ceil_div(p_.k, c_.bk), c_.splits); }

  ThreadContext context(TileCoord tile, int tid, int split = 0) const {
    ThreadContext t = kernel::tile_context(c_, tile, p_.m, p_.n, p_.k, p_.alpha, p_.beta);
    kernel::take_split(t, split);
    t.tid = tid;
    t.warpgroup = tid / 128;
    return t;
  }

  // The context of a counted block: the tile's (its k-range's under split-K), or under Stream-K (rung 23) the context
  // whose one segment is counted segment `split` (segments_).
  ThreadContext counted_context(TileCoord tile, int tid, int split) const {
    if constexpr (kernel::WalksSegments<K>) {
      ThreadContext t = segments_[static_cast<std::size_t>(split)];
      t.tid = tid, t.warpgroup = tid / 128;
      return t;
    } else {
      return context(tile, tid, split);
    }
  }
  // The k-steps a counted block walks, and the first of them in its tile.
  int counted_ksteps(int split) const {
    if constexpr (kernel::WalksSegments<K>) return K::segment_ksteps(segments_[static_cast<std::size_t>(split)], 0);
    else return block_ksteps();
  }
  int counted_first_kstep(int split) const {
    if constexpr (kernel::WalksSegments<K>) return kernel::stream_k_ksteps(segments_[static_cast<std::size_t>(split)], 0).first;
    else return split * block_ksteps();
  }
  // Its turn at C among the blocks that compute its tile: 0 the only one; 1 the first, which stores; 2 the last, which
  // releases the flag to 0; 3 one between.
  std::uint64_t counted_turn(int split) const {
    int turn = split, turns = splits();
    if constexpr (kernel::WalksSegments<K>) {
      const kernel::StreamKTurn t = kernel::stream_k_turn(segments_[static_cast<std::size_t>(split)], 0);
      turn = t.turn, turns = t.turns;
    }
    return turns == 1 ? 0 : turn == 0 ? 1 : turn + 1 == turns ? 2 : 3;
  }
  // The counted block's phases: a tile's (one, and its k-steps), or a Stream-K segment's.
  template <class F>
  void for_each_counted_phase(int split, F&& f) const {
    if constexpr (kernel::WalksSegments<K>)
      kernel::for_each_block_phase<K>(c_, segments_[static_cast<std::size_t>(split)],
                                      [&](Section s, int kstep, int phase) { f(PhaseRef{s, kstep, phase}); });
    else
      for_each_phase(f);
  }
  // The blocks the launch has (kernel::launched_blocks) over the rung's own order's slots.
  int launched() const {
    return kernel::launched_blocks<K>(c_, tiles_m() * tiles_n(), splits());
  }
  // The block the simulator steps through and replays for `tile` (its k-range `split` under split-K); under Stream-K,
  // the tile computed whole, as its data-parallel waves compute a tile, kept in segments_ (-1: no launch index of the
  // order computes the tile).
  int counted_block(TileCoord tile, int split) {
    if constexpr (kernel::WalksSegments<K>) {
      const int rows = tiles_m(), cols = tiles_n();
      const int blocks = launched();
      constexpr kernel::BlockOrder order = kernel::preferred_order<K>();
      for (int launch = 0; launch < rows * cols; ++launch) {
        const TileCoord at = kernel::tile_of_launch(launch, rows, cols, order, c_.cluster);
        if (at.row != tile.row || at.col != tile.col) continue;
        // The context of the block launched there (its place in the cluster is its tile row's), walking that tile.
        segments_.push_back(kernel::stream_k_whole_tile(persistent_context(launch, blocks, 0), launch));
        return static_cast<int>(segments_.size()) - 1;
      }
      return -1;
    } else {
      return split;
    }
  }

  // Stream-K: every segment of the launch, block by block in launch order, as the context whose one segment it is.
  template <class F>
  void for_each_segment(F&& f) const {
    const int blocks = launched();
    for (int launch = 0; launch < blocks; ++launch) {
      const ThreadContext t = persistent_context(launch, blocks, 0);
      for (int j = 0; j < t.tiles; ++j) f(kernel::stream_k_segment(t, j));
    }
  }

  // A persistent rung's block `launch` (KernelConfig::grid > 0) in the rung's launch order: it computes the tiles
  // of launches launch, launch + grid, ... Counting runs each tile as a block of its own (the same copies, wgmma and
  // stores per tile: a persistent block's counters are its tiles'); executing runs the blocks as they are.
  ThreadContext persistent_context(int launch, int blocks, int tid) const {
    const int rows = tiles_m(), cols = tiles_n();
    constexpr kernel::BlockOrder order = kernel::preferred_order<K>();
    ThreadContext t = context(kernel::tile_of_launch(launch, rows, cols, order, c_.cluster), tid);
    if constexpr (kernel::WalksSegments<K>)  // Stream-K (rung 23): its share of the k-steps
      kernel::walk_stream_k(t, launch, blocks, rows * cols, rows, cols, order, c_.cluster, c_.shared_waves);
    else
      kernel::walk_launches(t, launch, blocks, rows * cols, rows, cols, order, c_.cluster);
    return t;
  }

  template <class F>
  void for_each_phase(F&& f, int tiles = 1) const {
    kernel::for_each_phase<K>(c_, block_ksteps(), tiles,
                              [&](Section s, int kstep, int phase) { f(PhaseRef{s, kstep, phase}); });
  }

  Result<PhaseStream> record(TileCoord tile, PhaseRef ref, bool keep_instructions, int split = 0) {
    PhaseStream out;
    if (auto ok = record_into(tile, ref, keep_instructions, out, split); !ok) return ok.error();
    return out;
  }

  // Records one phase of one block and costs its warp instructions, reusing `out`'s storage.
  Status record_into(TileCoord tile, PhaseRef ref, bool keep_instructions, PhaseStream& out, int split = 0) {
    const int threads = K::threads(c_);
    out.ref = ref;
    out.counters = Counters{};
    out.barrier_after = kernel::takes_barrier<K>(c_, counted_context(tile, 0, split), ref.section, ref.kstep, ref.phase);
    out.barrier_threads = kernel::barrier_threads<K>(c_, ref.section, ref.phase);
    // Kept instructions are recorded straight into the phase's list; for counters alone, one warp's at a time into
    // scratch storage. Either way the storage of earlier calls is reused.
    InstructionBuffer kept{&out.instructions, 0}, scratch{&scratch_instructions_, 0};
    InstructionBuffer& buffer = keep_instructions ? kept : scratch;
    Recorder& x = recorder_;
    x.begin_phase();
    Status status = Ok{};
    for (int warp = 0; warp * 32 < threads && status; ++warp) {
      const int first = warp * 32, lanes = std::min(threads - first, 32);
      if (!keep_instructions) scratch.size = 0;
      const std::size_t begin = buffer.size;
      x.begin_warp(&buffer, warp, lanes);
      for (int lane = 0; lane < lanes; ++lane) {
        x.begin_lane(lane);
        const ThreadContext t = counted_context(tile, first + lane, split);
        if (kernel::runs_phase<K>(c_, t, ref.section, ref.kstep)) {
          run_earlier_epilogue_phases(t, ref);
          kernel::run_phase<K>(x, c_, t, scratch_, ref.section, ref.kstep, ref.phase);
        }
        x.end_lane();
      }
      if (!x.error().empty()) status = Error{x.error()};
      else x.end_warp();
      for (std::size_t i = begin; i < buffer.size && status; ++i) {
        WarpInstruction& w = (*buffer.items)[i];
        w.global_mask = w.access.active_mask & ~w.access.zero_fill_mask;
        // The memory model is a function of the active lanes' addresses: an instruction recorded exactly as the one
        // it replaces keeps that one's cost (Recorder::unchanged).
        if (!x.unchanged(i - begin)) status = cost_of(w);
        count(out.counters, w.access, w.access.active_mask && touches_shared(w.access.op) ? &w.shared : nullptr,
              touches_global(w.access.op) && w.global_mask ? &w.global : nullptr);
      }
      // A warp that failed leaves instructions whose cost is not their own: drop them, so none is reused.
      if (!status) buffer.items->resize(begin);
    }
    out.instructions.resize(status ? kept.size : 0);  // drops what earlier, longer phases left
    out.counters += x.counted();
    out.fma = out.counters.fma;
    if (keep_instructions) out.copies = x.copies();
    else out.copies.clear();
    return status;
  }

  // A tile's later epilogue phases may read what its first one kept in the State (the tile it stores, found once: rungs
  // 20 and 23). Phases are recorded one at a time and some are taken from the memo, so the thread's earlier phases of
  // the tile run first, into a recorder whose instructions are dropped, as the GPU ran them before.
  void run_earlier_epilogue_phases(const ThreadContext& t, PhaseRef ref) {
    if (ref.section != Section::Epilogue || ref.phase == 0) return;
    earlier_phases_.begin_phase();
    InstructionBuffer dropped{&earlier_instructions_, 0};
    earlier_phases_.begin_warp(&dropped, 0, 1);
    earlier_phases_.begin_lane(0);
    for (int phase = 0; phase < ref.phase; ++phase)
      kernel::run_phase<K>(earlier_phases_, c_, t, scratch_, ref.section, ref.kstep, phase);
    earlier_phases_.end_lane();
  }

  // A key equal for phases whose counters are equal: the same phase of the schedule, the same clipping at the
  // matrix edges, the same alignment (mod 128 bytes) of the tiles' global addresses, the same shared buffer.
  std::uint64_t phase_key(TileCoord tile, PhaseRef ref, int split = 0) const {
    const std::int64_t row0 = std::int64_t{tile.row} * c_.bm, col0 = std::int64_t{tile.col} * c_.bn;
    const int ksteps = counted_ksteps(split), first_kstep = counted_first_kstep(split);
    const std::int64_t k0 = std::int64_t{first_kstep + (ref.section == Section::Mainloop ? ref.kstep : 0)} * c_.bk;
    // A and B in 2-byte units (6 bits: 16-bit elements start on any even byte), C in 4-byte units (5 bits).
    const std::uint64_t a_mod = static_cast<std::uint64_t>((row0 * p_.k + k0) * a_bytes % 128) / 2;
    const std::uint64_t b_mod = static_cast<std::uint64_t>((k0 * p_.n + col0) * b_bytes % 128) / 2;
    const std::uint64_t c_mod = static_cast<std::uint64_t>((row0 * p_.n + col0) * 4 % 128) / 4;
    const int kstep = ref.section == Section::Mainloop ? ref.kstep : 0;
    const std::uint64_t stage = static_cast<std::uint64_t>(kstep % 12);
    // The first and last k-steps of a pipeline differ from the middle ones (what is issued ahead, what is released).
    const std::uint64_t from_start = static_cast<std::uint64_t>(std::min(kstep, 8));
    const std::uint64_t to_end = static_cast<std::uint64_t>(std::min(ksteps - kstep, 8));
    // Rows past the matrix: 0 (a cluster's idle partner). The cluster rank: which part of the shared copies it issues.
    const std::uint64_t rows = static_cast<std::uint64_t>(std::clamp<std::int64_t>(p_.m - row0, 0, c_.bm));
    const std::uint64_t cols = static_cast<std::uint64_t>(std::min<std::int64_t>(c_.bn, p_.n - col0));
    const std::uint64_t rank = static_cast<std::uint64_t>(tile.row % c_.cluster);
    // Split-K: the first range stores C, the others add to it and wait; the last releases the flag to 0. The k-steps
    // of k left from this one (0: past k): under split-K the last range's k-steps, and the copies the producer issues
    // a few k-steps ahead of them, may lie partly or wholly past k (TMA's zero fill), which the block's own distance
    // to its end does not say. Where k does not split it is that distance.
    const std::uint64_t range = counted_turn(split);
    const int real_kstep = first_kstep + kstep, real_ksteps = kernel::ceil_div(p_.k, c_.bk);
    const std::uint64_t k_left =
        ref.section != Section::Mainloop ? 0 : static_cast<std::uint64_t>(std::clamp(real_ksteps - real_kstep, 0, 8));
    std::uint64_t key = static_cast<std::uint64_t>(ref.section);  // 2 bits: 62 to 63
    key = key << 5 | static_cast<std::uint64_t>(ref.phase);         // phases: up to 12 a section
    key = key << 2 | rank;
    key = key << 2 | range;
    key = key << 4 | k_left;
    key = key << 6 | a_mod;
    key = key << 6 | b_mod;
    key = key << 5 | c_mod;
    key = key << 4 | stage;
    key = key << 4 | from_start;
    key = key << 4 | to_end;
    key = key << 10 | rows;
    key = key << 10 | (cols - 1);
    return key;
  }
  static constexpr int kBlockKeyBits = 57;  // the key's bits below the phase: rank, range, alignments and clipping

  Result<Counters> phase_counters(TileCoord tile, PhaseRef ref, int split) {
    const std::uint64_t key = phase_key(tile, ref, split);
    if (const auto it = memo_.find(key); it != memo_.end()) return it->second;
    auto stream = record(tile, ref, false, split);
    if (!stream) return stream.error();
    memo_.emplace(key, stream->counters);
    return stream->counters;
  }

  Result<BlockCounters> block(TileCoord tile, int split = 0) {
    BlockCounters out;
    out.tile = tile;
    out.per_kstep.assign(static_cast<std::size_t>(counted_ksteps(split)), Counters{});
    Status status = Ok{};
    for_each_counted_phase(split, [&](PhaseRef ref) {
      if (!status) return;
      if (on_phase_ && !on_phase_()) {
        status = cancelled();
        return;
      }
      auto counters = phase_counters(tile, ref, split);
      if (!counters) {
        status = counters.error();
        return;
      }
      out.total += *counters;
      if (ref.section == Section::Prologue) out.prologue += *counters;
      else if (ref.section == Section::Epilogue) out.epilogue += *counters;
      else out.per_kstep[static_cast<std::size_t>(ref.kstep)] += *counters;
    });
    if (!status) return status.error();
    return out;
  }

  // Blocks with the same clipping and the same address alignments have equal counters at every phase.
  std::uint64_t block_key(TileCoord tile, int split) const {
    // A phase key without the phase: the rank, range, alignments and clipping (the epilogue's k-step fields are
    // constant; its k0 is the range's first, from which every k-step's alignment in the range follows).
    return phase_key(tile, PhaseRef{Section::Epilogue, 0, 0}, split) & ((std::uint64_t{1} << kBlockKeyBits) - 1);
  }

  Result<KernelCounters> kernel(const Progress& progress) {
    KernelCounters out;
    out.shape = shape();
    if constexpr (kernel::WalksSegments<K>) {
      // Stream-K: each segment a block of its own; segments of one class also walk as many k-steps.
      std::map<std::pair<std::uint64_t, int>, std::size_t> segment_class;
      segments_.clear();
      for_each_segment([&](const ThreadContext& segment) {
        segments_.push_back(segment);
        const int index = static_cast<int>(segments_.size()) - 1;
        const auto [it, added] = segment_class.emplace(
            std::pair{block_key(segment.first_tile, index), counted_ksteps(index)}, out.classes.size());
        if (added) out.classes.push_back({segment.first_tile, index, 0, {}});
        else segments_.pop_back();
        ++out.classes[it->second].count;
      });
    } else {
      std::unordered_map<std::uint64_t, std::size_t> class_of;
      for (int tr = 0; tr < out.shape.tiles_m; ++tr) {
        if (progress && !progress(0.0)) return cancelled();  // a grid of 2^30 blocks takes a while to sort
        for (int tc = 0; tc < out.shape.tiles_n; ++tc)
          for (int split = 0; split < out.shape.splits; ++split) {
            const TileCoord tile{tr, tc};
            const auto [it, added] = class_of.emplace(block_key(tile, split), out.classes.size());
            if (added) out.classes.push_back({tile, split, 0, {}});
            ++out.classes[it->second].count;
          }
      }
    }
    // Progress is counted in phases: every class costs its whole schedule.
    std::int64_t phases_per_block = 0, done = 0;
    for_each_phase([&](PhaseRef) { ++phases_per_block; });
    const double total = double(phases_per_block) * double(out.classes.size());
    if (progress) on_phase_ = [&] { return ++done % kPhasesPerReport != 0 || progress(double(done) / total); };
    for (auto& cls : out.classes) {
      auto counters = block(cls.example, cls.split);
      if (!counters) return counters.error();
      cls.per_block = counters->total;
      out.total += cls.per_block.scaled(cls.count);
    }
    on_phase_ = nullptr;  // it refers to this call's locals
    return out;
  }

  Result<std::vector<float>> execute(const std::vector<float>& a, const std::vector<float>& b, std::vector<float> c,
                                     kernel::InputType input) {
    const LaunchShape s = shape();
    std::vector<int> writes(c.size(), 0);
    FunctionalExecutor x(a, b, c, writes, K::smem_floats(c_), input);
    if constexpr (kWarpWide) x.set_lockstep(&lockstep_);
    x.set_split_flags(s.tiles_m * s.tiles_n);
    if (c_.workspace) x.set_workspace(std::size_t(s.splits) * std::size_t(p_.m) * std::size_t(p_.n));
    std::vector<State> states(static_cast<std::size_t>(s.threads_per_block));
    // The blocks as launched, in launch order: one per tile (per range of a tile under split-K: consecutive blocks,
    // kernel::split_of_launch), or a persistent rung's `grid` blocks walking the tiles (Stream-K's, their k-steps).
    const int blocks = launched();
    const bool persistent = c_.grid > 0;
    for (int block = 0; block < blocks; ++block) {
      const kernel::SplitLaunch at = kernel::split_of_launch(block, s.splits);
      const TileCoord tile{at.tile_launch / s.tiles_n, at.tile_launch % s.tiles_n};
      const int tr = tile.row, tc = tile.col;
      const auto thread_context = [&](int tid) {
        return persistent ? persistent_context(block, blocks, tid) : context(tile, tid, at.split);
      };
      x.new_block();
      std::fill(states.begin(), states.end(), State{});  // fresh registers, as a new block gets
      Status status = Ok{};
      kernel::for_each_block_phase<K>(c_, thread_context(0), [&](Section section, int kstep, int phase) {
        const PhaseRef ref{section, kstep, phase};
        if (x.failed() || !status) return;
        const auto run_thread = [&](int tid) {
          const ThreadContext t = thread_context(tid);
          if (kernel::runs_phase<K>(c_, t, ref.section, ref.kstep))
            kernel::run_phase<K>(x, c_, t, states[static_cast<std::size_t>(tid)], ref.section, ref.kstep, ref.phase);
        };
        if constexpr (kWarpWide) {
          // The lanes of each warp in lockstep at ldmatrix and mma (lockstep.hpp).
          for (int first = 0; first < s.threads_per_block && status; first += 32)
            status = lockstep_.run(
                std::min(32, s.threads_per_block - first), [&](int lane) { run_thread(first + lane); },
                [&](int lane) { x.set_thread(first + lane); }, [&] { x.complete_warp_operation(); });
        } else {
          for (int tid = 0; tid < s.threads_per_block; ++tid) {
            x.set_thread(tid);
            run_thread(tid);
          }
        }
        if (kernel::takes_barrier<K>(c_, thread_context(0), ref.section, ref.kstep, ref.phase))
          x.barrier(kernel::barrier_threads<K>(c_, ref.section, ref.phase));
      });
      x.end_block();
      const std::string range = s.splits > 1 ? ", k-range " + std::to_string(at.split) : std::string{};
      const std::string where =
          persistent ? "persistent block " + std::to_string(block)
                         : "block (" + std::to_string(tr) + ", " + std::to_string(tc) + ")" + range;
      if (!status) return Error{where + ", " + status.error().message};
      if (x.failed()) return Error{where + ", " + x.error()};
    }
    if (const std::string left = x.flags_left_set(); !left.empty()) return Error{left};
    // Once by each block that computes it: by every range of its tile under split-K, by every segment of its tile under
    // Stream-K.
    std::vector<int> segments_of_tile;
    if constexpr (kernel::WalksSegments<K>) {
      segments_of_tile.assign(static_cast<std::size_t>(s.tiles_m) * static_cast<std::size_t>(s.tiles_n), 0);
      for_each_segment([&](const ThreadContext& segment) {
        ++segments_of_tile[static_cast<std::size_t>(segment.first_tile.row * s.tiles_n + segment.first_tile.col)];
      });
    }
    for (std::size_t i = 0; i < writes.size(); ++i) {
      const int row = static_cast<int>(i / static_cast<std::size_t>(p_.n)), col = static_cast<int>(i % static_cast<std::size_t>(p_.n));
      // Split-K's ranges write C once each, or through the workspace once in all (the last range).
      const int ranges_writing = c_.workspace ? 1 : s.splits;
      const int times = segments_of_tile.empty()
                            ? ranges_writing
                            : segments_of_tile[static_cast<std::size_t>(row / c_.bm * s.tiles_n + col / c_.bn)];
      if (writes[i] != times)
        return Error{"element (" + std::to_string(row) + ", " + std::to_string(col) + ") of C was written " +
                     std::to_string(writes[i]) + " times, not " +
                     (!segments_of_tile.empty() ? "once per segment of its tile (" + std::to_string(times) + ")"
                      : ranges_writing == 1 ? std::string("once")
                                            : "once per k-range (" + std::to_string(s.splits) + ")")};
    }
    return c;
  }

 private:
  Status cost_of(WarpInstruction& w) {
    w.shared = {};
    w.global = {};
    if (w.access.active_mask == 0) return Ok{};
    if (touches_shared(w.access.op)) {
      auto shared = shared_cost(w.access);
      if (!shared) return shared.error();
      w.shared = *shared;
    }
    if (touches_global(w.access.op) && w.global_mask) {
      auto global = global_cost(w.access);
      if (!global) return global.error();
      w.global = *global;
    }
    return Ok{};
  }

  static Error cancelled() { return Error{"the simulation was cancelled"}; }
  static constexpr std::int64_t kPhasesPerReport = 64;  // often enough to stop within milliseconds

  KernelConfig c_;
  Problem p_;
  std::function<bool()> on_phase_;  // set by kernel(): counts phases for its progress; false stops block()
  State scratch_{};
  std::vector<WarpInstruction> scratch_instructions_;
  Recorder recorder_;
  Recorder earlier_phases_;  // run_earlier_epilogue_phases: what it records is dropped
  std::vector<WarpInstruction> earlier_instructions_;
  WarpLockstep lockstep_;
  std::unordered_map<std::uint64_t, Counters> memo_;
  std::vector<ThreadContext> segments_;  // Stream-K: the counted segments (a class's example each)
};

// Validates, then runs f(engine) with the rung's engine.
template <class T, class F>
Result<T> with_engine(RungId rung, const KernelConfig& config, const Problem& problem, F&& f) {
  if (auto valid = validate(rung, config, problem); !valid) return valid.error();
  return with_kernel<Result<T>>(rung, [&]<class K>() -> Result<T> {
    Engine<K> engine(config, problem);
    return f(engine);
  });
}

Status check_tile(const LaunchShape& s, TileCoord tile) {
  if (tile.row < 0 || tile.row >= s.tiles_m || tile.col < 0 || tile.col >= s.tiles_n)
    return Error{"tile (" + std::to_string(tile.row) + ", " + std::to_string(tile.col) + ") is outside the " +
                 std::to_string(s.tiles_m) + " x " + std::to_string(s.tiles_n) + " grid of tiles"};
  return Ok{};
}

}  // namespace

class BlockStream::Impl {
 public:
  virtual ~Impl() = default;
  LaunchShape shape;
  std::vector<PhaseRef> schedule;
  // One stream per (section, phase) of the schedule, reused at every k-step: the same phase has the same number of
  // instructions each time, so their storage is overwritten in place instead of rebuilt.
  std::vector<std::pair<PhaseRef, PhaseStream>> streams;
  PhaseStream& stream_for(PhaseRef ref) {
    for (auto& [key, stream] : streams)
      if (key.section == ref.section && key.phase == ref.phase) return stream;
    return streams.emplace_back(ref, PhaseStream{}).second;
  }
  virtual Status record(PhaseRef ref, PhaseStream& into) = 0;
};

namespace {

template <class K>
class BlockStreamImpl final : public BlockStream::Impl {
 public:
  BlockStreamImpl(const KernelConfig& c, const Problem& p, TileCoord tile, int split)
      : engine_(c, p), tile_(tile), split_(split) {
    shape = engine_.shape();
  }
  // The block's schedule, once the tile is known to be in the grid.
  Status open() {
    split_ = engine_.counted_block(tile_, split_);
    if (split_ < 0) return Error{"no block computes this tile"};
    engine_.for_each_counted_phase(split_, [&](PhaseRef ref) { schedule.push_back(ref); });
    return Ok{};
  }
  Status record(PhaseRef ref, PhaseStream& into) override {
    return engine_.record_into(tile_, ref, true, into, split_);
  }

 private:
  Engine<K> engine_;
  TileCoord tile_;
  int split_;
};

}  // namespace

BlockStream::BlockStream(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
BlockStream::BlockStream(BlockStream&&) noexcept = default;
BlockStream& BlockStream::operator=(BlockStream&&) noexcept = default;
BlockStream::~BlockStream() = default;

Result<BlockStream> BlockStream::open(RungId rung, const KernelConfig& config, const Problem& problem,
                                      TileCoord tile, int split) {
  if (auto valid = validate(rung, config, problem); !valid) return valid.error();
  return with_kernel<Result<BlockStream>>(rung, [&]<class K>() -> Result<BlockStream> {
    auto impl = std::make_unique<BlockStreamImpl<K>>(config, problem, tile, split);
    if (auto ok = check_tile(impl->shape, tile); !ok) return ok.error();
    if (split < 0 || split >= impl->shape.splits)
      return Error{"k-range " + std::to_string(split) + " of a tile cut into " + std::to_string(impl->shape.splits)};
    if (auto opened = impl->open(); !opened) return opened.error();
    return BlockStream(std::move(impl));
  });
}

const LaunchShape& BlockStream::shape() const { return impl_->shape; }
const std::vector<PhaseRef>& BlockStream::schedule() const { return impl_->schedule; }

Result<const PhaseStream*> BlockStream::phase(std::size_t index) {
  if (index >= impl_->schedule.size())
    return Error{"phase " + std::to_string(index) + " is past the end of the block's schedule (" +
                 std::to_string(impl_->schedule.size()) + " phases)"};
  const PhaseRef ref = impl_->schedule[index];
  PhaseStream& stream = impl_->stream_for(ref);
  if (auto ok = impl_->record(ref, stream); !ok) return ok.error();
  return &stream;
}

std::string blocks_text(const LaunchShape& s) {
  const std::string grid = std::to_string(s.tiles_m) + " x " + std::to_string(s.tiles_n);
  if (s.persistent_blocks > 0 && s.stream_k) {
    const kernel::StreamKPlan& p = s.plan;
    const std::string unit = s.cluster > 1 ? "clusters of " + std::to_string(s.cluster) : "blocks";
    const std::string tile = s.cluster > 1 ? " cluster tiles" : " tiles";
    std::string text = grid + " = " + std::to_string(s.blocks) + " tiles shared by " +
                       std::to_string(s.persistent_blocks) + " persistent blocks (Stream-K, " +
                       std::to_string(p.units) + " " + unit + ": ";
    if (p.whole_waves() > 0)
      text += std::to_string(p.whole_waves()) + (p.whole_waves() == 1 ? " wave" : " waves") + " of whole tiles, then ";
    const long long shared = p.shared_iterations();
    if (shared == 0) return text + "no tile cut)";
    const long long shortest = shared / p.units, longest = (shared + p.units - 1) / p.units;
    return text + std::to_string(p.tiles - p.whole_tiles()) + tile + " cut into " + std::to_string(p.units) +
           " ranges of " + std::to_string(shortest) +
           (longest != shortest ? " to " + std::to_string(longest) : std::string{}) + " k-steps)";
  }
  if (s.persistent_blocks > 0) {
    const int fewest = s.blocks / s.persistent_blocks, most = kernel::ceil_div(s.blocks, s.persistent_blocks);
    return grid + " = " + std::to_string(s.blocks) + " tiles walked by " + std::to_string(s.persistent_blocks) +
           " persistent blocks (" + (fewest == most ? std::to_string(most) : std::to_string(fewest) + " or " +
                                                                             std::to_string(most)) +
           " each)";
  }
  if (s.splits == 1) return grid + " = " + std::to_string(s.blocks) + " blocks";
  return grid + " tiles x " + std::to_string(s.splits) + " k-ranges = " + std::to_string(s.blocks) + " blocks";
}

std::string ksteps_text(const LaunchShape& s, int k, int bk) {
  if (s.splits == 1) return std::to_string(s.ksteps) + " k-steps";
  return std::to_string(s.ksteps) + " k-steps each (a range of a tile's " + std::to_string(kernel::ceil_div(k, bk)) + ")";
}

Result<LaunchShape> launch_shape(RungId rung, const KernelConfig& config, const Problem& problem) {
  return with_engine<LaunchShape>(rung, config, problem, [](auto& e) -> Result<LaunchShape> { return e.shape(); });
}

Result<PhaseStream> phase_stream(RungId rung, const KernelConfig& config, const Problem& problem, TileCoord tile,
                                 PhaseRef phase) {
  return with_engine<PhaseStream>(rung, config, problem, [&](auto& e) -> Result<PhaseStream> {
    const LaunchShape s = e.shape();
    if (auto ok = check_tile(s, tile); !ok) return ok.error();
    const int block = e.counted_block(tile, 0);
    bool exists = false;
    if (block >= 0)
      e.for_each_counted_phase(block, [&](PhaseRef ref) {
        exists = exists || (ref.section == phase.section && ref.kstep == phase.kstep && ref.phase == phase.phase);
      });
    if (!exists) return Error{"this block's schedule has no such phase (k-step " + std::to_string(phase.kstep) + ")"};
    return e.record(tile, phase, true, block);
  });
}

Result<BlockCounters> simulate_block(RungId rung, const KernelConfig& config, const Problem& problem, TileCoord tile) {
  return with_engine<BlockCounters>(rung, config, problem, [&](auto& e) -> Result<BlockCounters> {
    if (auto ok = check_tile(e.shape(), tile); !ok) return ok.error();
    const int block = e.counted_block(tile, 0);
    if (block < 0) return Error{"no block computes this tile"};
    return e.block(tile, block);
  });
}

Result<KernelCounters> simulate_kernel(RungId rung, const KernelConfig& config, const Problem& problem,
                                       const Progress& progress) {
  return with_engine<KernelCounters>(rung, config, problem, [&](auto& e) { return e.kernel(progress); });
}

std::vector<kernel::InputType> input_types(RungId rung) {
  if (rung_info(rung).precision == Precision::FP16BF16) return {kernel::InputType::F16, kernel::InputType::BF16};
  return {kernel::InputType::F32};
}

std::vector<kernel::InputType> input_types(RungId rung, const KernelConfig& config) {
  std::vector<kernel::InputType> types;
  for (const kernel::InputType type : input_types(rung))
    if (validate_input(rung, config, type)) types.push_back(type);
  return types;
}

Result<std::vector<float>> execute(RungId rung, const KernelConfig& config, const Problem& problem,
                                   const std::vector<float>& a, const std::vector<float>& b, std::vector<float> c,
                                   std::optional<kernel::InputType> input) {
  const auto types = input_types(rung, config);
  const kernel::InputType type = input.value_or(types.empty() ? input_types(rung).front() : types.front());
  if (auto takes = validate_input(rung, config, type); !takes) return takes.error();
  if (problem.m > kMaxFunctionalDimension || problem.n > kMaxFunctionalDimension || problem.k > kMaxFunctionalDimension)
    return Error{"functional execution runs every thread on the CPU; it takes sizes up to " +
                 std::to_string(kMaxFunctionalDimension) + " in each dimension"};
  const auto size = [](int rows, int cols) { return static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols); };
  if (a.size() != size(problem.m, problem.k) || b.size() != size(problem.k, problem.n) ||
      c.size() != size(problem.m, problem.n))
    return Error{"the matrices' sizes do not match the problem (A m x k, B k x n, C m x n)"};
  return with_engine<std::vector<float>>(rung, config, problem,
                                         [&](auto& e) { return e.execute(a, b, std::move(c), type); });
}

}  // namespace gemmlab::sim
