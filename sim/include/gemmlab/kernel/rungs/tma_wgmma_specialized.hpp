#pragma once
// Rung 18: rung 17's copies and wgmma, with the warps specialised: a producer warp that only copies, consumer
// warpgroups that only multiply, and no block-wide barrier in the main loop.
//
// What changed from rung 17. There, every k-step ended with all warps at __syncthreads: the stage the previous wgmma
// group read could be refilled only once every warpgroup had finished with it, and thread 0 issued the refill after
// the barrier. ncu showed the warps waiting there most of the time (docs/rungs/17-tma-wgmma.md). Here each side waits
// only for what it needs, on mbarriers:
//
//   full[s]   the copies of stage s have landed (as in rung 17: the producer announces the bytes, TMA counts them);
//   empty[s]  every consumer warpgroup has finished reading stage s: after wgmma.wait_group, one thread of each
//             warpgroup arrives; the producer waits for that phase before refilling the stage.
//
// The block: bm / 64 consumer warpgroups (each a 64 x bn strip, as in rung 17) and one producer warp after them,
// 128 * bm / 64 + 32 threads (setmaxnreg = 1: a producer warpgroup, + 128, that hands registers to the consumers;
// register_moves below). The schedule:
//
//   prologue 0   thread 0 initialises full[s] (1 arrival: the producer's) and empty[s] (one per consumer warpgroup);
//                barrier (the last block-wide one)
//   prologue 1   setmaxnreg = 1: the producer warpgroup lowers its registers, the consumers raise theirs;
//                the producer copies tiles 0 .. S-2
//   k-step t     consumers: wait full[t % S]; bk / 16 wgmma; commit; wait for the previous group; then warpgroup w's
//                first thread arrives on empty[(t - 1) % S];
//                producer: copies tile t + S - 1 into stage (t - 1) % S, after waiting (from k-step 1 on) for
//                empty[(t - 1) % S]'s (t - 1) / S-th phase: the same order of copies as rung 17
//   epilogue     consumers: wait for the last group, store their pairs of C
//
// The simulator runs the block's threads phase by phase in thread order: the consumers before the producer, which is
// also an order the GPU may take. Its functional executor checks the protocol: a copy that overwrites what a wgmma
// group reads before an arrival released that group is a race (sim/src/functional.hpp).
//
// Sizes: as rung 17 (n and k multiples of 8).
#include "gemmlab/kernel/rungs/tma_wgmma.hpp"

namespace gemmlab::kernel::rungs {

struct TmaWgmmaSpecialized : TmaWgmma {
  // Rung 17's knobs but its swizzle: these rungs copy in the 128-byte mode (rung 17 shows the others).
  static constexpr std::string_view knobs[] = {"bm", "bn", "bk", "stages", "setmaxnreg"};
  template <class C> GEMMLAB_HD static constexpr int consumers(const C& c) { return c.bm / 64; }
  template <class C> GEMMLAB_HD static constexpr int producer(const C& c) { return 128 * consumers(c); }
  // One producer warp; a whole warpgroup where it moves registers (setmaxnreg is a warpgroup's instruction). Its
  // first thread issues every copy either way.
  template <class C> GEMMLAB_HD static constexpr int producer_threads(const C& c) { return c.setmaxnreg ? 128 : 32; }
  template <class C> GEMMLAB_HD static constexpr int threads(const C& c) { return producer(c) + producer_threads(c); }

  // setmaxnreg = 1. Every thread of a block launches with the same registers, but the producer's thread needs few
  // (a loop counter, coordinates, barrier addresses) while a consumer holds bn / 2 accumulators. The block launches
  // with `launch` registers per thread, the most that fit threads(c) in the SM's 65,536 (ptxas is told so:
  // __launch_bounds__); the producer warpgroup then lowers its count to `producer`, returning the difference to the
  // block's pool, and the consumer warpgroups raise theirs by an equal share of it: at bm = 128, 168 at launch, 40
  // and 232 (the split CUTLASS uses). What it does not do: ptxas allocates every role's code within the launch count
  // (168 here; the consumers' code uses 152), so the raised count gives the consumers no register ptxas would use.
  // It would be the way to a 192-row block with a producer (3 consumers, 512 threads), but there the launch count is
  // 128 and ptxas refuses the consumers' wgmma (validate says so).
  // sm_90's register file and per-thread limit: compile-time constants here (the launch bound needs them), the same
  // figures as the H100 profile's registers_per_sm and max_registers_per_thread (the rung's test checks they agree).
  static constexpr int register_file = 65536, max_thread_registers = 255;
  template <class C> GEMMLAB_HD static constexpr RegisterMoves register_moves(const C& c) {
    return register_moves_of(threads(c), consumers(c));
  }
  // The split for a block of `threads` threads, `consumers` of its warpgroups consumers (rung 24 has two at bm = 64).
  GEMMLAB_HD static constexpr RegisterMoves register_moves_of(int threads, int consumers) {
    const int step = kSetmaxnregStep;
    const int by_file = register_file / threads / step * step;
    const int launch = by_file < max_thread_registers ? by_file : max_thread_registers / step * step;
    const int producer = consumers >= 3 ? kSetmaxnregMin : 40;
    return {launch, producer, launch + (launch - producer) / consumers / step * step};
  }
  // full[s] is rung 17's barrier(c, s); empty[s] follow them.
  template <class C> GEMMLAB_HD static int empty(const C& c, int stage) { return barrier(c, c.stages + stage); }
  template <class C> GEMMLAB_HD static int smem_floats(const C& c) { return barrier(c, 2 * c.stages) / 4; }
  template <class C> GEMMLAB_HD static int mainloop_phases(const C&) { return 1; }
  // After the prologue's first phase, the block-wide barrier (the last one: the main loop has none, and the epilogue's
  // one phase ends the tile).
  GEMMLAB_HD static bool barrier_after(Section section, int phase) { return section == Section::Prologue && phase == 0; }

  template <class C>
  struct State : TmaWgmma::State<C> {
    // False until the consumer's first wgmma group of a tile, which then sets D = A * B instead of adding to the
    // previous tile's results (or to uninitialised registers). A register, not a division of the step by the k-steps
    // per tile: that sat between the stage's wait and the wgmma and cost the persistent rung a tenth of its speed
    // (measured).
    bool accumulating = false;
  };

  // The schedule below, with its two choices named: `Walk`, the tiles a block walks and in what order (OneTileWalk
  // here), and `Copies`, who copies a stage into the block (TmaWgmma::OwnCopies here). Each later rung names its own.
  template <class X, class C, class S>
  GEMMLAB_HD static void prologue(X& x, const C& c, const ThreadContext& t, S& s, int phase) {
    prologue_with<OneTileWalk, OwnCopies>(x, c, t, s, phase);
  }
  template <class Walk, class Copies, class X, class C, class S>
  GEMMLAB_HD static void prologue_with(X& x, const C& c, const ThreadContext& t, S& s, int phase) {
    if (phase == 0) return init_barriers<Copies>(x, c, t);  // no zeroing: each tile's first wgmma sets D = A * B
    move_registers(x, c, register_moves(c), t.warpgroup < consumers(c));
    fill_ring<Walk, Copies>(x, c, t, s, t.tid == producer(c));
  }
  // full[s] expects the producer's one arrival; empty[s] one from each consumer warpgroup of every block that reads
  // the stage's copies.
  template <class Copies, class X, class C>
  GEMMLAB_HD static void init_barriers(X& x, const C& c, const ThreadContext& t) {
    for (int stage = 0; stage < c.stages; ++stage) {
      x.mbarrier_init(barrier(c, stage), 1, t.tid == 0);
      x.mbarrier_init(empty(c, stage), consumers(c) * Copies::blocks(c), t.tid == 0);
    }
  }

  // setmaxnreg = 1, after the prologue's barrier: every warp of the block has started, with its launch registers.
  template <class X, class C>
  GEMMLAB_HD static void move_registers(X& x, const C& c, RegisterMoves moves, bool consumer) {
    if (!c.setmaxnreg) return;
    x.set_max_registers(consumer ? moves.consumer : moves.producer, consumer);
  }
  // The producer's first copies, steps 0 .. S - 2, and where its walk stands after them. `issuer`: the producer's
  // thread.
  template <class Walk, class Copies, class X, class C, class S>
  GEMMLAB_HD static void fill_ring(X& x, const C& c, const ThreadContext& t, S& s, bool issuer) {
    for (int step = 0; step < c.stages - 1; ++step)
      fill_stage<Walk, Copies>(x, c, t, step, issuer && step < Walk::steps(t));
    Walk::start(c, t, s);
  }
  // Step `step` (< S - 1) into stage `step`: a call of its own, as rung 17's load_tile is (written into fill_ring's
  // loop, the same copies compiled to a differently ordered prologue on the persistent rungs).
  template <class Walk, class Copies, class X, class C>
  GEMMLAB_HD static void fill_stage(X& x, const C& c, const ThreadContext& t, int step, bool issuer) {
    load_tile_at<Copies>(x, c, t, Walk::at(c, t, step), step, issuer);
  }

  // The producer's walk: where step `step` of the block's main loop falls (`at`), where its next copy falls after the
  // ring's first copies (`start`, then `next`), and how many steps the main loop has. Here a block computes one tile,
  // and a step is its k-step; rung 20's blocks walk several tiles (TmaWgmmaPersistent::PersistentWalk) and rung 23's
  // segments of tiles (TmaWgmmaStreamK::StreamKWalk), through the same main loop.
  struct OneTileWalk {
    template <class C>
    GEMMLAB_HD static TileStep at(const C& c, const ThreadContext& t, int step) {
      return tile_step(c, t, step);
    }
    template <class C, class S>
    GEMMLAB_HD static void start(const C&, const ThreadContext&, S&) {}
    template <class C, class S>
    GEMMLAB_HD static TileStep next(const C& c, const ThreadContext& t, S&, int step) {
      return at(c, t, step);
    }
    GEMMLAB_HD static int steps(const ThreadContext& t) { return TmaWgmma::steps(t); }
  };

  template <class X, class C, class S>
  GEMMLAB_HD static void mainloop(X& x, const C& c, const ThreadContext& t, S& s, int step, int phase) {
    mainloop_with<OneTileWalk, OwnCopies>(x, c, t, s, step, phase);
  }

  // `step` is the k-step, or where a block walks several tiles (rung 20 on) the step of its run through them: the ring
  // of stages and its parities go on from one tile to the next.
  template <class Walk, class Copies, class X, class C, class S>
  GEMMLAB_HD static void mainloop_with(X& x, const C& c, const ThreadContext& t, S& s, int step, int) {
    const RingStep ring = RingStep::at(step, c.stages);
    if (t.warpgroup < consumers(c)) {
      const bool accumulate = s.accumulating;  // false at a tile's first k-step: D = A * B
      s.accumulating = true;
      x.mbarrier_wait(barrier(c, ring.stage), ring.parity);
      multiply_tile(x, c, t, s, ring.stage, accumulate);
      x.wgmma_wait(Pending<1>{}, s.acc);  // the group of step - 1 is done: its stage can go
      // At a tile's first step there is none to release here: the tile before released its last stage in its
      // epilogue (release_last_stage), and a block's first step follows no other.
      x.mbarrier_arrive_cluster(empty(c, ring.released), accumulate && t.tid % 128 == 0, Copies::blocks(c));
      return;
    }
    refill_stage<Walk, Copies>(x, c, t, s, step, t.tid == producer(c));
  }
  // A walk that goes on after a tile (rung 20 on) releases the tile's last stage in the tile's epilogue, once its last
  // group is done (`steps_through`: the block's main-loop steps up to the tile's end): the producer then refills it
  // while the consumers store C, instead of after the next tile's first wait, and the whole ring is in flight across
  // the epilogue.
  template <class Copies, class X, class C>
  GEMMLAB_HD static void release_last_stage(X& x, const C& c, const ThreadContext& t, int steps_through) {
    x.mbarrier_arrive_cluster(empty(c, (steps_through - 1) % c.stages), t.tid % 128 == 0, Copies::blocks(c));
  }
  // The producer's part of a step: the refill goes into the stage step - 1 read (at step 0, the last one still empty),
  // once its consumers have released it. `issuer`: whether this thread is the producer's. Where the copy falls is
  // found before the wait, so that a walk's arithmetic at a tile's end (the Hilbert curve's, on rung 21) runs while
  // the producer would wait anyway.
  template <class Walk, class Copies, class X, class C, class S>
  GEMMLAB_HD static void refill_stage(X& x, const C& c, const ThreadContext& t, S& s, int step, bool issuer) {
    const RingStep ring = RingStep::at(step, c.stages);
    if (issuer && ring.refill < Walk::steps(t)) {
      const TileStep at = Walk::next(c, t, s, ring.refill);
      if (step > 0) x.mbarrier_wait(empty(c, ring.released), ring.released_parity);
      load_tile_at<Copies>(x, c, t, at, ring.released, true);
    }
  }

  // After each of the block's tiles (one, except on the persistent rung): wait for the last group, store the tile from
  // the registers (TmaWgmma::store_accumulators). Rung 20 adds an alternate that stores through shared memory.
  template <class X, class C, class S>
  GEMMLAB_HD static void tile_epilogue(X& x, const C& c, const ThreadContext& t, S& s, int tile, int) {
    if (t.warpgroup >= consumers(c)) return;
    const TileCoord at = t.tile(tile);
    x.wgmma_wait(Pending<0>{}, s.acc);
    s.accumulating = false;
    store_accumulators(x, c, t, s, at.row * c.bm, at.col * c.bn);
  }

  // ---- Host only. ----
  static constexpr KernelConfig defaults() {
    KernelConfig c = TmaWgmma::defaults();
    c.bm = 128;  // 2 consumer warpgroups + the producer warp: 288 threads x 154 registers fit; 3 + 1 would not
    return c;
  }
  static Status validate(const KernelConfig& c) {
    if (c.bm == 192 && !c.setmaxnreg)
      return Error{"bm=192 needs 3 consumer warpgroups and the producer warp, 416 threads, whose registers (about 160 "
                   "each) exceed the SM's 65,536: use 64 or 128"};
    if (c.bm == 192)  // measured: ptxas 13.0 refuses it, as it refuses the same in CUTLASS's DSL (cutlass#2904)
      return Error{"bm=192 with setmaxnreg=1: the block launches 512 threads at 128 registers each, and ptxas compiles "
                   "every role's code within that count, the consumers' too (setmaxnreg moves the hardware's registers, "
                   "not ptxas's budget); a consumer's 64 x 256 accumulators need about 154 (\"Insufficient registers "
                   "(128)\"): use bm=128"};
    if (c.bm == 64 && c.setmaxnreg)
      return Error{"setmaxnreg=1 with bm=64: a block of one consumer warpgroup launches with the most registers a "
                   "thread can have, so there are none to move: use bm=128, or setmaxnreg=0"};
    return TmaWgmma::validate(c);
  }
};

}  // namespace gemmlab::kernel::rungs
