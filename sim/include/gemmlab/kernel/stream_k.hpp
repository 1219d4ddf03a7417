#pragma once
// Stream-K's walk (rung 23, kernel/rungs/tma_wgmma_streamk.hpp): which tiles, and which k-steps of them, a persistent
// block computes when the blocks share the GEMM's k-steps equally instead of its tiles. Host and device, so the GPU
// kernel and the simulator walk the same ranges.
//
// The launch's `units` (its clusters: a cluster's blocks take the same k-steps of vertically adjacent tiles, sharing B)
// face `tiles` cluster tiles of `ksteps` k-steps each. Tiles dealt out whole, as rung 20 deals them, leave the last
// wave tiles % units tiles for `units` units: at 4096^3 with 128 x 256 tiles, 256 cluster tiles on 66 clusters make
// four waves, the last 58 of 66 full. Stream-K deals out k-steps: every unit gets the same number of them, whole tiles
// or not. As CUTLASS does, only what the whole waves cannot take is shared so: the data-parallel waves come first
// (each unit's tiles u, u + units, ...: tiles that run together are neighbours in the launch order, as on rung 20),
// then the last whole wave and the partial one, together, are cut into `units` equal ranges of k-steps (iteration
// i of the shared part is k-step i % ksteps of its tile i / ksteps). A range starts and ends where it will, mid-tile
// too: such a piece of a tile is a segment, and a tile's segments add up in C (rung 23 takes turns, as rung 22's
// ranges do).
//
// Unit u takes range units - 1 - u of the shared part: the units launched first take its last ranges. A tile's
// segments are then in launch order from its last k-steps to its first: the unit that computes the tile's last k-steps
// does so at the start of its range (the tile is its first segment), and the one that computes the first k-steps does
// so at the end of its range. So the turn at C goes to the units in launch order, and every wait is for a unit
// launched earlier, which on the GPU has started (blocks start in launch order) and in the simulator has already run.
#include "gemmlab/hd.hpp"
#include "gemmlab/kernel/block_order.hpp"
#include "gemmlab/kernel/context.hpp"

namespace gemmlab::kernel {

struct StreamKPlan {
  int units = 1, tiles = 0, ksteps = 1;
  int shared_waves = 2;  // KernelConfig::shared_waves: the partial wave shared alone (1) or with the last whole one (2)

  // `launched` units over `tiles` tiles: never more units than k-steps in all, so that no range is empty.
  GEMMLAB_HD static StreamKPlan of(int launched, int tiles, int ksteps, int shared_waves) {
    const Index all = Index(tiles) * ksteps;
    return {all < launched ? static_cast<int>(all) : launched, tiles, ksteps, shared_waves};
  }
  // Waves of whole tiles: all of them where the tiles fill their waves exactly; else all of them (shared_waves = 1:
  // only the partial wave is cut into ranges) or all but the last (2: the last whole wave is cut too, as CUTLASS's
  // hybrid does, so that no range is shorter than a tile). The partial wave alone only where it holds a k-step for
  // every unit: an empty range between a tile's pieces would count a turn at C that no segment takes, and the tile's
  // last piece would wait for it forever.
  GEMMLAB_HD int whole_waves() const {
    const int waves = tiles / units, partial = tiles % units;
    if (partial == 0 || waves == 0) return waves;
    return shared_waves == 1 && Index(partial) * ksteps >= units ? waves : waves - 1;
  }
  GEMMLAB_HD int whole_tiles() const { return whole_waves() * units; }
  GEMMLAB_HD Index shared_iterations() const { return Index(tiles - whole_tiles()) * ksteps; }
  // Range r of the shared part: iterations [begin(r), begin(r + 1)), every range within one of the same length.
  GEMMLAB_HD Index begin(int range) const { return Index(range) * shared_iterations() / units; }
  // The range that holds iteration i: the last r with begin(r) <= i.
  GEMMLAB_HD int range_of(Index i) const {
    return static_cast<int>(((i + 1) * units + shared_iterations() - 1) / shared_iterations()) - 1;
  }
  GEMMLAB_HD int range_of_unit(int unit) const { return units - 1 - unit; }
  // The most k-steps a unit walks, in tiles: its whole tiles and the longest range.
  GEMMLAB_HD double busiest_tiles() const {
    const Index longest = (shared_iterations() + units - 1) / units;
    return double(Index(whole_waves()) * ksteps + longest) / ksteps;
  }

  // The most segments a unit walks: its whole tiles, then the tiles its range of the shared part spans.
  GEMMLAB_HD int most_segments() const {
    int most = 0;
    for (int range = 0; range < units; ++range) {
      if (begin(range + 1) == begin(range)) continue;
      const int spans = static_cast<int>((begin(range + 1) - 1) / ksteps - begin(range) / ksteps) + 1;
      most = spans > most ? spans : most;
    }
    return whole_waves() + most;
  }

  // The same plan seen from a tile instead of a unit (what the launch-order panel draws): cluster tile `tile` (its
  // place in the launch order) is computed in pieces(tile) pieces, piece p by unit piece(tile, p).unit over k-steps
  // [first, end); the pieces in k order, so the last one takes the first turn at C.
  struct Piece {
    int unit = 0, first = 0, end = 0;
  };
  GEMMLAB_HD int pieces(int tile) const {
    if (tile < whole_tiles()) return 1;
    const Index origin = Index(tile - whole_tiles()) * ksteps;
    return range_of(origin + ksteps - 1) - range_of(origin) + 1;
  }
  // The most pieces a tile is cut into: a range shorter than a tile leaves whole ranges in the middle of one.
  GEMMLAB_HD int most_pieces() const {
    int most = 1;
    for (int tile = whole_tiles(); tile < tiles; ++tile) most = pieces(tile) > most ? pieces(tile) : most;
    return most;
  }
  GEMMLAB_HD Piece piece(int tile, int p) const {
    if (tile < whole_tiles()) return {tile % units, 0, ksteps};
    const Index origin = Index(tile - whole_tiles()) * ksteps;
    const int range = range_of(origin) + p;
    const Index first = begin(range) > origin ? begin(range) : origin;
    const Index end = begin(range + 1) < origin + ksteps ? begin(range + 1) : origin + ksteps;
    return {range_of_unit(range), static_cast<int>(first - origin), static_cast<int>(end - origin)};
  }
};

GEMMLAB_HD StreamKPlan stream_k_plan(const ThreadContext& t) {
  return {t.units, t.cluster_tiles, t.ksteps, t.shared_waves};
}

// The block launched at `launch` of `blocks` (whole clusters of `cluster`), over the `slots` launch indices of the
// order: its unit, its whole tiles, its range of the shared k-steps and so its segments (t.tiles of them).
GEMMLAB_HD void walk_stream_k(ThreadContext& t, int launch, int blocks, int slots, int tiles_m, int tiles_n,
                              BlockOrder order, int cluster, int shared_waves) {
  t.tiles_m = tiles_m, t.tiles_n = tiles_n, t.order = order, t.cluster = cluster;
  t.cluster_tiles = slots / cluster, t.shared_waves = shared_waves;
  const StreamKPlan plan = StreamKPlan::of(blocks / cluster, t.cluster_tiles, t.ksteps, shared_waves);
  t.units = plan.units, t.unit = launch / cluster;
  t.first_launch = launch, t.launch_stride = blocks;
  t.tiles = t.iterations = t.first_iteration = t.whole_tiles = 0;
  if (t.unit >= plan.units) return;  // more blocks launched than k-steps in all: this one has none
  const int range = plan.range_of_unit(t.unit);
  const Index begin = plan.begin(range), end = plan.begin(range + 1);
  t.whole_tiles = plan.whole_waves();
  t.first_iteration = static_cast<int>(begin), t.iterations = static_cast<int>(end - begin);
  const int shared_segments = end > begin ? static_cast<int>((end - 1) / t.ksteps - begin / t.ksteps) + 1 : 0;
  t.tiles = t.whole_tiles + shared_segments;
}

// A shared segment j's tile among the shared part's tiles: the tile of its range's first iteration, then the next.
GEMMLAB_HD int stream_k_shared_tile(const ThreadContext& t, int j) {
  return t.first_iteration / t.ksteps + (j - t.whole_tiles);
}

// Segment j's tile: a whole tile of the data-parallel waves (the unit's j-th: launch unit + j units), or a shared one.
// Asked after setmaxnreg: the Hilbert curve inlined (HilbertCode).
GEMMLAB_HD TileCoord stream_k_tile(const ThreadContext& t, int j) {
  const int cluster_tile =
      j < t.whole_tiles ? t.unit + j * t.units : stream_k_plan(t).whole_tiles() + stream_k_shared_tile(t, j);
  return tile_of_launch<HilbertCode::Inlined>(cluster_tile * t.cluster + t.first_launch % t.cluster, t.tiles_m,
                                              t.tiles_n, t.order, t.cluster);
}

// Segment j's k-steps of its tile: [first, end).
struct KStepRange {
  int first = 0, end = 0;
};
GEMMLAB_HD KStepRange stream_k_ksteps(const ThreadContext& t, int j) {
  if (j < t.whole_tiles) return {0, t.ksteps};
  const int origin = stream_k_shared_tile(t, j) * t.ksteps;
  const int last = t.first_iteration + t.iterations - origin;
  return {t.first_iteration > origin ? t.first_iteration - origin : 0, last < t.ksteps ? last : t.ksteps};
}

// The block's main-loop steps up to the end of segment j: its whole tiles', then its range's up to where segment j
// ends.
GEMMLAB_HD int stream_k_steps_through(const ThreadContext& t, int j) {
  if (j < t.whole_tiles) return (j + 1) * t.ksteps;
  return t.whole_tiles * t.ksteps + stream_k_shared_tile(t, j) * t.ksteps + stream_k_ksteps(t, j).end -
         t.first_iteration;
}

// Whether segment j is its tile, whole: a tile of the data-parallel waves, or one a range holds from its first k-step
// to its last (its one turn at C is a store). stream_k_turn(t, j).turns == 1, without its divisions of 64-bit indices.
GEMMLAB_HD bool stream_k_whole_segment(const ThreadContext& t, int j) {
  if (j < t.whole_tiles) return true;
  const KStepRange range = stream_k_ksteps(t, j);
  return range.first == 0 && range.end == t.ksteps;
}

// Segment j's turn at its tile of C, of the tile's `turns` segments: 0 stores, the others add, one after another.
struct StreamKTurn {
  int turn = 0, turns = 1;
};
GEMMLAB_HD StreamKTurn stream_k_turn(const ThreadContext& t, int j) {
  if (j < t.whole_tiles) return {};
  const StreamKPlan plan = stream_k_plan(t);
  const Index first_kstep = Index(stream_k_shared_tile(t, j)) * t.ksteps;
  const int first_unit = plan.range_of_unit(plan.range_of(first_kstep + t.ksteps - 1));  // the tile's last k-steps
  const int last_unit = plan.range_of_unit(plan.range_of(first_kstep));
  return {t.unit - first_unit, last_unit - first_unit + 1};
}

// A context whose one segment is the whole tile of cluster launch index `launch` (of the launch t walks): the block
// the simulator steps through and replays for a tile of C, whichever segments compute it in the launch.
GEMMLAB_HD ThreadContext stream_k_whole_tile(ThreadContext t, int launch) {
  t.unit = launch / t.cluster, t.first_launch = launch, t.whole_tiles = 1, t.iterations = 0, t.tiles = 1;
  t.first_tile = stream_k_tile(t, 0);
  return t;
}

// A context whose one segment is segment j of t's: the simulator counts each segment as a block of its own, as it
// counts each tile of a persistent block (a whole tile as above; a piece: the range that starts and ends where the
// piece does).
GEMMLAB_HD ThreadContext stream_k_segment(ThreadContext t, int j) {
  if (j < t.whole_tiles) return stream_k_whole_tile(t, (t.unit + j * t.units) * t.cluster + t.first_launch % t.cluster);
  const KStepRange range = stream_k_ksteps(t, j);
  t.first_iteration = stream_k_shared_tile(t, j) * t.ksteps + range.first, t.iterations = range.end - range.first;
  t.whole_tiles = 0, t.tiles = 1;
  t.first_tile = stream_k_tile(t, 0);
  return t;
}

}  // namespace gemmlab::kernel
