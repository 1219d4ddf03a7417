#pragma once
// Rung 23: rung 21's persistent clusters, dealt the GEMM's k-steps in equal shares instead of whole tiles (Stream-K).
//
// What changed from rung 21. There the 64 clusters of 128 blocks each take every 64th cluster tile of the launch
// order: the work comes in whole tiles, so a grid of tiles that is not a whole number of waves leaves clusters idle in
// the last one (4096^3: 256 cluster tiles make four waves of 64, but on 66 clusters, 132 SMs, three waves and 58 of
// 66), and a GEMM of fewer tiles than clusters (a decode step) leaves most SMs idle throughout. Here every cluster gets
// the same number of k-steps (kernel/stream_k.hpp): the data-parallel waves first, whole tiles as on rung 21, then an
// equal range of the k-steps of the tiles left, which starts and ends mid-tile where it falls. The pieces:
//
//   the block, the k-step, the cluster    rung 21's, unchanged;
//   the walk       segments: the unit's whole tiles, then the pieces of tiles in its range (StreamKWalk: the
//                  producer's copies run on from one segment into the next, as rung 20's run from tile to tile; the
//                  consumers start each segment with D = A * B);
//   the epilogue   after each segment: a whole tile is stored from the registers, as rung 17 stores; a tile cut
//                  into segments adds up in C as
//                  rung 22's ranges do, one segment after another, each waiting for its tile's flag to read its turn
//                  (TurnsAtC, rung 22's serial reduction), the segment of the tile's last k-steps first: it is the
//                  first segment of its unit's range, computed right after the unit's whole tiles, so the one of the
//                  first k-steps, the last segment of another unit, finds the flag set long before it looks;
//   the grid       132 blocks, one per SM of the H100 and H200 (rung 21's 128 left 4 idle: whole tiles divide
//                  among 64 clusters, k-steps among any number);
//   shared_waves   which waves are shared: by default (2) the last whole wave and the partial one together, as
//                  CUTLASS's hybrid does, so that every range is at least a tile; 1 cuts the partial wave alone, its
//                  ranges shorter than a tile but the whole waves' clusters reading the same k-slices of A and B
//                  together for longer (docs/rungs/23-tma-wgmma-streamk.md, "Sharing the partial wave alone").
//
// Every wait is for a unit launched earlier (kernel/stream_k.hpp says why), so it ends whenever the blocks start in
// launch order, and the simulator, running the blocks one after another, checks every one of them as rung 22's.
//
// Sizes: as rung 17 (n and k multiples of 8).
#include "gemmlab/kernel/rungs/tma_wgmma_hilbert.hpp"
#include "gemmlab/kernel/rungs/tma_wgmma_splitk.hpp"
#include "gemmlab/kernel/stream_k.hpp"

namespace gemmlab::kernel::rungs {

struct TmaWgmmaStreamK : TmaWgmmaHilbert, TurnsAtC {
  // The producer also keeps where its segment ends; the consumers, their segment's turn at C (worked out once per
  // segment: its two divisions of 64-bit indices took longer than the adding, in every phase of the chain of turns).
  template <class C>
  struct State : TmaWgmmaPersistent::State<C> {
    int copied_end = 0;
    StreamKTurn turn;
  };

  // Rung 22's turns at C (the prologue's barrier is the cluster's).
  using TurnsAtC::barrier_after;
  using TurnsAtC::barrier_threads;
  using TurnsAtC::epilogue_phases;
  // Its segments store from the registers: no __syncwarp, so the simulator need not run its lanes in lockstep.
  static constexpr bool syncs_warps = false;
  // A segment that is a whole tile has no turn to order: its consumers take no barrier in its epilogue, and each
  // warpgroup goes on to the next segment once its own stores are issued, as on rung 21 (kernel::takes_barrier).
  template <class C>
  GEMMLAB_HD static bool barrier_needed(const C&, const ThreadContext& t, Section section, int segment, int) {
    return section != Section::Epilogue || !stream_k_whole_segment(t, segment);
  }

  // Rung 21's stages and barriers, without its buffers for whole-line stores (a segment stores as rung 17 does).
  template <class C>
  GEMMLAB_HD static int smem_floats(const C& c) {
    return TmaWgmmaPersistent::smem_floats(c);
  }

  // The schedule's segments (kernel::for_each_block_phase).
  GEMMLAB_HD static int segment_ksteps(const ThreadContext& t, int segment) {
    const KStepRange range = stream_k_ksteps(t, segment);
    return range.end - range.first;
  }

  // The producer's walk: the next k-step of its segment, or the first of the next segment.
  template <class C, class S>
  GEMMLAB_HD static void start_segment(const C& c, const ThreadContext& t, S& s, int segment) {
    const TileCoord tile = stream_k_tile(t, segment);
    const KStepRange range = stream_k_ksteps(t, segment);
    s.copied = {tile.row * c.bm, tile.col * c.bn, range.first};
    s.copied_tile = segment, s.copied_end = range.end;
  }
  struct StreamKWalk {
    template <class C, class S>
    GEMMLAB_HD static TileStep next(const C& c, const ThreadContext& t, S& s, int) {
      if (++s.copied.kstep == s.copied_end) start_segment(c, t, s, s.copied_tile + 1);
      return s.copied;
    }
    GEMMLAB_HD static int steps(const ThreadContext& t) { return t.whole_tiles * t.ksteps + t.iterations; }
  };

  // As rung 18's, with the first copies taken along the walk.
  template <class X, class C, class S>
  GEMMLAB_HD static void prologue(X& x, const C& c, const ThreadContext& t, S& s, int phase) {
    if (phase == 0) return init_barriers<SharedB>(x, c, t);
    move_registers(x, c, register_moves(c), t.warpgroup < consumers(c));
    start_segment(c, t, s, 0);
    for (int step = 0; step < c.stages - 1; ++step) {
      if (step > 0) StreamKWalk::next(c, t, s, step);
      load_tile_at<SharedB>(x, c, t, s.copied, step, t.tid == producer(c) && step < StreamKWalk::steps(t));
    }
  }

  template <class X, class C, class S>
  GEMMLAB_HD static void mainloop(X& x, const C& c, const ThreadContext& t, S& s, int step, int phase) {
    mainloop_with<StreamKWalk, SharedB>(x, c, t, s, step, phase);
  }

  // After segment j: wait for the last group, release the segment's last stage, then the tile's turn at C (rung 22's
  // three phases); a whole tile's one turn is a store.
  template <class X, class C, class S>
  GEMMLAB_HD static void tile_epilogue(X& x, const C& c, const ThreadContext& t, S& s, int segment, int phase) {
    if (t.warpgroup >= consumers(c)) return;
    if (phase == 0) s.storing = stream_k_tile(t, segment), s.turn = stream_k_turn(t, segment);  // while wgmma runs
    const StreamKTurn turn = s.turn;
    if (phase == 2 && turn.turns == 1) return;
    const TileCoord tile = s.storing;
    const int flag = tile.row * t.tiles_n + tile.col;
    const bool first_thread = t.tid == 0;
    if (phase == 0) {
      x.wgmma_wait(Pending<0>{}, s.acc);
      s.accumulating = false;
      release_last_stage<SharedB>(x, c, t, stream_k_steps_through(t, segment));
      x.split_wait(flag, turn.turn, first_thread && turn.turn > 0);
    } else if (phase == 1) {
      if (turn.turn == 0) return store_accumulators(x, c, t, s, tile.row * c.bm, tile.col * c.bn);
      TmaWgmmaSplitK::add_accumulators(x, c, t, s, tile.row * c.bm, tile.col * c.bn);
    } else {
      x.split_release(flag, turn.turn + 1 == turn.turns ? 0 : turn.turn + 1, first_thread);
    }
  }

  // ---- Host only. ----
  static constexpr std::string_view knobs[] = {"bm",      "bn",   "bk",         "stages",
                                               "cluster", "grid", "setmaxnreg", "shared_waves"};
  static constexpr int shared_wave_counts[] = {1, 2};
  static constexpr KnobChoice knob_choices[] = {TmaWgmma::bn_choice,
                                                {"shared_waves", shared_wave_counts,
                                                 "the last waves of tiles cut into equal ranges of k-steps: 1, the "
                                                 "partial wave alone; 2, the last whole wave with "
                                                 "it, so that no range is shorter than a tile"}};

  // A turn at C is rung 22's (the time model's chain at the end of a block's walk).
  static int split_step_round_trips(const KernelConfig& c) { return TmaWgmmaSplitK::split_step_round_trips(c); }

  static constexpr KernelConfig defaults() {
    KernelConfig c = TmaWgmmaHilbert::defaults();
    c.grid = 132;
    return c;
  }
  static Status validate(const KernelConfig& c) {
    if (c.grid == 0)
      return Error{
          "grid=0: Stream-K shares the k-steps among persistent blocks; give their number (grid=132 is one "
          "per SM of an H100)"};
    return TmaWgmmaHilbert::validate(c);
  }
};

}  // namespace gemmlab::kernel::rungs
