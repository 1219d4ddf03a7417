#pragma once
// Rung 24: rung 21's persistent clusters, with the two consumer warpgroups taking turns at whole tiles (ping-pong)
// instead of sharing each one.
//
// What changed from rung 21. There both consumers compute one 128 x 256 tile together, so they finish it together and
// store it together: for as long as the 128 KiB of FP32 results take to leave, no wgmma is issued, and since all the
// blocks walk equal tiles in step, every SM stores at the same moment (rung 21's trace measures it:
// docs/rungs/24-tma-wgmma-pingpong.md). Here a block's tiles are 64 x 256, and its consumers
// take them in turn: warpgroup 0 the block's tiles 0, 2, 4, ..., warpgroup 1 tiles 1, 3, 5, .... While one stores
// its tile, the other multiplies the next, so the tensor cores no longer wait for the stores. This is CUTLASS's
// "ping-pong" schedule. The pieces:
//
//   the block      two consumer warpgroups and rung 18's producer warpgroup, as rung 21, but a tile is one
//                  warpgroup's 64 x 256: each consumer computes it as the one warpgroup of a bm = 64 block does
//                  (rung 17's multiply and store, as that warpgroup's thread tid % 128: lone_warpgroup);
//   the k-step     rung 18's full and empty mbarriers; a stage is read by one warpgroup, so empty[s] takes one arrival
//                  per block of the cluster. The owner of a tile releases each stage once its next group is done, and
//                  the tile's last stage after its last group, before it stores;
//   the turns      turn[w], an mbarrier per consumer: when a consumer has issued its tile's last wgmma, its 128
//                  threads arrive on the other's turn, and a consumer waits for its turn before its tile's first
//                  k-step (but the block's first tile). So one warpgroup multiplies at a time, and the stores overlap
//                  the other's k-steps. The turn is also what makes the stages' parities safe: a consumer that skipped
//                  the other's tile would otherwise wait on full[s] for a phase two or more ahead of the one the
//                  barrier is in, and parity alone cannot tell those apart (the first version of this rung read
//                  stale stages on the GPU so). Each consumer walks its own tiles only
//                  (kernel::for_each_thread_phase; the simulator, running the block's threads phase by phase, has it
//                  sit out the other's: kernel::runs_phase);
//   the cluster, the walk, the order    rung 21's: pairs of blocks along M share B by multicast (a cluster is then
//                  128 x 256 of C, rung 21's tile), persistent blocks, the Hilbert curve over the cluster tiles.
//
// What it costs: a 64-row tile reads B for half as many rows of A. With clusters of two sharing B, the L2 serves 24 KiB
// per block per k-step for 64 x 256 x 64 multiply-adds, where rung 21 serves 32 KiB for twice as many.
//
// Sizes: as rung 17 (n and k multiples of 8). grid > 0: a block of one tile would leave its second warpgroup idle.
#include "gemmlab/kernel/rungs/tma_wgmma_hilbert.hpp"

namespace gemmlab::kernel::rungs {

struct TmaWgmmaPingPong : TmaWgmmaHilbert {
  // Each consumer stores its own tiles from the registers: no __syncwarp, no lockstep in the simulator.
  static constexpr bool syncs_warps = false;
  // Two consumers at bm = 64, then the producer (rung 18's functions of bm would give one).
  template <class C>
  GEMMLAB_HD static constexpr int consumers(const C&) {
    return 2;
  }
  template <class C>
  GEMMLAB_HD static constexpr int producer(const C& c) {
    return 128 * consumers(c);
  }
  template <class C>
  GEMMLAB_HD static constexpr int threads(const C& c) {
    return producer(c) + producer_threads(c);
  }
  template <class C>
  GEMMLAB_HD static constexpr RegisterMoves register_moves(const C& c) {
    return register_moves_of(threads(c), consumers(c));
  }
  // The block's tile j is consumer j % 2's; the other sits out its phases (kernel::TakesTurns).
  static constexpr bool takes_turns = true;
  template <class C>
  GEMMLAB_HD static int owner(const C& c, int tile) {
    return tile % consumers(c);
  }
  // A consumer computes a whole 64 x bn tile, as the one warpgroup of a bm = 64 block: rung 17's multiply_tile and
  // store_accumulators take its rows of A and C from the thread index, so they run as that warpgroup's thread.
  GEMMLAB_HD static ThreadContext lone_warpgroup(const ThreadContext& t) {
    ThreadContext lone = t;
    lone.tid = t.tid % 128;
    return lone;
  }

  // The consumers' turns follow the empty barriers.
  template <class C>
  GEMMLAB_HD static int turn(const C& c, int consumer) {
    return barrier(c, 2 * c.stages + consumer);
  }
  template <class C>
  GEMMLAB_HD static int smem_floats(const C& c) {
    return turn(c, consumers(c)) / 4;
  }
  template <class C>
  struct State : TmaWgmmaPersistent::State<C> {
    int turns = 0;  // a consumer's: the turns it has waited for (the next one's parity)
  };

  template <class X, class C, class S>
  GEMMLAB_HD static void prologue(X& x, const C& c, const ThreadContext& t, S& s, int phase) {
    if (phase == 0) {
      for (int stage = 0; stage < c.stages; ++stage) {
        x.mbarrier_init(barrier(c, stage), 1, t.tid == 0);
        x.mbarrier_init(empty(c, stage), SharedB::blocks(c), t.tid == 0);  // one warpgroup of each block reads it
      }
      for (int consumer = 0; consumer < consumers(c); ++consumer) x.mbarrier_init(turn(c, consumer), 128, t.tid == 0);
      return;
    }
    move_registers(x, c, register_moves(c), t.warpgroup < consumers(c));
    fill_ring<PersistentWalk, SharedB>(x, c, t, s, t.tid == producer(c));
  }

  template <class X, class C, class S>
  GEMMLAB_HD static void mainloop(X& x, const C& c, const ThreadContext& t, S& s, int step, int) {
    const RingStep ring = RingStep::at(step, c.stages);
    if (t.warpgroup < consumers(c)) {
      const bool accumulate = s.accumulating;  // false at the tile's first k-step, whose previous step is not ours
      s.accumulating = true;
      if (!accumulate && step > 0) x.mbarrier_wait(turn(c, t.warpgroup), s.turns++ % 2);
      x.mbarrier_wait(barrier(c, ring.stage), ring.parity);
      multiply_tile(x, c, lone_warpgroup(t), s, ring.stage, accumulate);
      x.wgmma_wait(Pending<1>{}, s.acc);
      x.mbarrier_arrive_cluster(empty(c, ring.released), accumulate && t.tid % 128 == 0, SharedB::blocks(c));
      return;
    }
    refill_stage<PersistentWalk, SharedB>(x, c, t, s, step, t.tid == producer(c));
  }

  // After tile j: its owner passes the turn, waits for the last group, releases the tile's last stage and stores.
  template <class X, class C, class S>
  GEMMLAB_HD static void tile_epilogue(X& x, const C& c, const ThreadContext& t, S& s, int tile, int) {
    if (t.warpgroup >= consumers(c)) return;
    const TileCoord at = t.tile(tile);
    x.mbarrier_arrive(turn(c, 1 - t.warpgroup), true);  // every wgmma of the tile issued: the other's turn
    x.wgmma_wait(Pending<0>{}, s.acc);
    s.accumulating = false;
    release_last_stage<SharedB>(x, c, t, PersistentWalk::steps_through(t, tile));
    store_accumulators(x, c, lone_warpgroup(t), s, at.row * c.bm, at.col * c.bn);
  }

  // ---- Host only. ----
  static constexpr std::string_view knobs[] = {"bn", "bk", "stages", "cluster", "grid", "setmaxnreg"};

  static constexpr KernelConfig defaults() {
    KernelConfig c = TmaWgmmaHilbert::defaults();
    c.bm = 64;
    return c;
  }
  static Status validate(const KernelConfig& c) {
    if (c.bm != 64)
      return Error{"bm=" + std::to_string(c.bm) + ": a ping-pong tile is one consumer warpgroup's 64 rows: use bm=64"};
    if (c.grid == 0)
      return Error{
          "grid=0: the consumers take turns at a block's tiles, so a block needs several; give the persistent "
          "blocks' number (grid=128)"};
    if (c.tma_store)
      return Error{"tma_store=1: this rung stores C from the registers (rung 21 has the TMA-store alternate)"};
    if (auto clusters = whole_clusters(c); !clusters) return clusters;
    return TmaWgmma::validate(c);
  }
};

}  // namespace gemmlab::kernel::rungs
