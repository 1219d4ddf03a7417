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
    const int step = kSetmaxnregStep;
    const int by_file = register_file / threads(c) / step * step;
    const int launch = by_file < max_thread_registers ? by_file : max_thread_registers / step * step;
    const int producer = consumers(c) >= 3 ? kSetmaxnregMin : 40;
    return {launch, producer, launch + (launch - producer) / consumers(c) / step * step};
  }
  // full[s] is rung 17's barrier(c, s); empty[s] follow them.
  template <class C> GEMMLAB_HD static int empty(const C& c, int stage) { return barrier(c, c.stages + stage); }
  template <class C> GEMMLAB_HD static int smem_floats(const C& c) { return barrier(c, 2 * c.stages) / 4; }
  template <class C> GEMMLAB_HD static int mainloop_phases(const C&) { return 1; }
  // tma_store = 1: phase 0 waits for the last group, then one phase per chunk of C and one to issue the last store.
  template <class C> GEMMLAB_HD static int epilogue_phases(const C& c) { return c.tma_store ? c_chunks(c) + 2 : 1; }
  // After the prologue's first phase, the block-wide barrier. After an epilogue phase from 1 on (there are some only
  // with tma_store = 1: epilogue_phases is 1 without it), a barrier of the consumers alone (barrier_threads): the GPU's
  // named barrier 1, which the producer, copying the next tile, does not take (gpu/src/rung_block.cuh).
  GEMMLAB_HD static bool barrier_after(Section section, int phase) {
    return (section == Section::Prologue && phase == 0) || (section == Section::Epilogue && phase > 0);
  }
  template <class C> GEMMLAB_HD static int barrier_threads(const C& c, Section section, int phase) {
    return section == Section::Epilogue && phase > 0 ? 128 * consumers(c) : 0;
  }

  template <class X, class C, class S>
  GEMMLAB_HD static void prologue(X& x, const C& c, const ThreadContext& t, S& s, int phase) {
    if (phase == 0) {  // no zeroing of the accumulators: each tile's first wgmma sets D = A * B
      for (int stage = 0; stage < c.stages; ++stage) {
        x.mbarrier_init(barrier(c, stage), 1, t.tid == 0);
        x.mbarrier_init(empty(c, stage), consumers(c) * c.cluster, t.tid == 0);  // rung 19: every block's consumers
      }
      return;
    }
    if (c.setmaxnreg) {  // after the barrier: every warp of the block has started, with its launch registers
      const RegisterMoves moves = register_moves(c);
      const bool consumer = t.warpgroup < consumers(c);
      x.set_max_registers(consumer ? moves.consumer : moves.producer, consumer);
    }
    for (int step = 0; step < c.stages - 1; ++step)
      load_tile(x, c, t, step, step, t.tid == producer(c) && step < steps(t));
    s.copied = tile_step(c, t, c.stages - 2), s.copied_tile = (c.stages - 2) / t.ksteps;
  }

  // Where the producer's next copy falls: the step after the one it copied last. A persistent block walks it one
  // k-step at a time; a block of one tile (and the simulator's counting, which runs each tile as one) takes the
  // step as it is.
  template <class C, class S>
  GEMMLAB_HD static TileStep next_step(const C& c, const ThreadContext& t, S& s, int step) {
    if (c.grid == 0 || t.tiles == 1) return tile_step(c, t, step);
    if (++s.copied.kstep == t.ksteps) {
      const TileCoord tile = t.tile(++s.copied_tile);
      s.copied = {tile.row * c.bm, tile.col * c.bn, 0};
    }
    return s.copied;
  }

  // `step` is the k-step, or on the persistent rung (20) the step of the block's run through its tiles: the ring of
  // stages and its parities go on from one tile to the next.
  template <class X, class C, class S>
  GEMMLAB_HD static void mainloop(X& x, const C& c, const ThreadContext& t, S& s, int step, int) {
    const RingStep ring = RingStep::at(step, c.stages);
    if (t.warpgroup < consumers(c)) {
      const bool accumulate = s.accumulating;  // false at a tile's first k-step: D = A * B
      s.accumulating = true;
      x.mbarrier_wait(barrier(c, ring.stage), ring.parity);
      multiply_tile(x, c, t, s, ring.stage, accumulate);
      x.wgmma_wait(Pending<1>{}, s.acc);  // the group of step - 1 is done: its stage can go
      x.mbarrier_arrive_cluster(empty(c, ring.released), step > 0 && t.tid % 128 == 0, c.cluster);
      return;
    }
    // The refill goes into the stage step - 1 read: at step 0, the last one still empty.
    if (t.tid == producer(c) && ring.refill < steps(t)) {
      if (step > 0) x.mbarrier_wait(empty(c, ring.released), ring.released_parity);
      load_tile_at(x, c, t, next_step(c, t, s, ring.refill), ring.released, true);
    }
  }

  // After each of the block's tiles (one, except on the persistent rung): wait for the last group, store the tile.
  //
  // With tma_store = 1 and beta != 0 the old C would have to come in first (through the same buffers, as CUTLASS's
  // epilogue loads it by TMA); reading it with the threads' own loads took ptxas from 160 to 178 registers, which a
  // block of 288 threads cannot have (the partitions' register files hold 8 such warps, not 9). Such a GEMM is stored
  // from the registers, as without tma_store: a branch on beta, the same for the whole launch (its epilogue phases
  // from 1 on do nothing but take their consumers' barrier).
  template <class X, class C, class S>
  GEMMLAB_HD static void tile_epilogue(X& x, const C& c, const ThreadContext& t, S& s, int tile, int phase) {
    if (t.warpgroup >= consumers(c)) return;
    const TileCoord at = t.tile(tile);
    const bool through_shared = c.tma_store && t.beta == 0.0f;
    if (phase == 0) {
      x.wgmma_wait(Pending<0>{}, s.acc);
      s.accumulating = false;
      if (!through_shared) store_accumulators(x, c, t, s, at.row * c.bm, at.col * c.bn);
      return;
    }
    if (through_shared) store_through_shared(x, c, t, s, at, phase - 1, tile == t.tiles - 1);
  }

  // tma_store = 1 (where beta = 0): C leaves through shared memory, c_chunk_cols columns at a time, in two buffers
  // that take turns. Epilogue phase q + 1 (a consumers' barrier after each):
  //
  //   issue   (q >= 1) thread 0 stores chunk q - 1 from its buffer with one TMA store (a bm x 32 box), and commits it;
  //   write   (q < chunks) every consumer writes its results of chunk q (times alpha) into buffer q % 2, then
  //           fence.proxy.async, so that the copy engine sees them. The buffer holds the chunk as 4 panels of 8
  //           columns (32-byte rows, unswizzled; one 3-D box, c_box), so each half-warp's 64-bit writes (4 rows of
  //           32 bytes: wgmma's layout) fill one 128-byte bank line: no conflicts;
  //   wait    thread 0 waits until its stores have read shared memory, so that chunk q + 1, written after this
  //           phase's barrier, finds its buffer (chunk q - 1's) free.
  //
  // So chunk q - 1's store runs while chunk q is written, and the tile's last chunk's while the consumers start the
  // next tile's wgmma: thread 0 waits for it in the next tile's first write phase (or, after the block's last tile,
  // before the block ends). Buffer 0 is free at a tile's first write, since the chunks are even in number (validate):
  // its last store, chunk chunks - 2's, was waited for.
  template <class X, class C, class S>
  GEMMLAB_HD static void store_through_shared(X& x, const C& c, const ThreadContext& t, S& s, TileCoord at, int q,
                                              bool last_tile) {
    const bool issuer = t.tid == 0;
    if (q >= 1) {
      x.tma_store(c_box(c, t, at, q - 1), c_buffer(c, (q - 1) % c_buffers), issuer);
      x.tma_store_commit(issuer);
    }
    if (q < c_chunks(c)) {
      stage_chunk(x, c, t, s, at, q);
      x.fence_async_shared();
    }
    if (q < c_chunks(c) || last_tile) x.tma_store_wait(Pending<0>{}, issuer);
  }
  // The warpgroup's results of chunk q (times alpha) into buffer q % 2: pairs of consecutive columns, 64-bit writes.
  // The walk over the pairs is store_accumulators' over part of the columns, written out again on purpose: shared
  // through a callback, ptxas kept the accumulators on the stack and serialised the wgmma (C7514; CUDA 13.0).
  template <class X, class C, class S>
  GEMMLAB_HD static void stage_chunk(X& x, const C& c, const ThreadContext& t, S& s, TileCoord at, int q) {
    const int lane = t.tid % 128, strip = t.tid / 128 * 64;
    const TmaBox box = c_box(c, t, at, q);
    with_atom(c, [&](auto atom) {
      using Atom = decltype(atom);
      const int first = Atom::first_register_of_column(q * c_chunk_cols);
      GEMMLAB_UNROLL
      for (int i = first; i < first + Atom::first_register_of_column(c_chunk_cols); i += 2) {
        const int r = strip + Atom::d_row(lane, i), col = Atom::d_col(lane, i) - q * c_chunk_cols;
        Vec<2> pair;
        pair[0] = t.alpha * s.acc[i], pair[1] = t.alpha * s.acc[i + 1];
        x.sts((c_buffer(c, q % c_buffers) + box.shared_offset(r, col)) / 4, pair);
      }
    });
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
    if (auto tiles = TmaWgmma::validate(c); !tiles) return tiles;
    // The buffers' turns restart with buffer 0 at every tile. Every bn TmaWgmma takes gives an even number of chunks;
    // this says so should it take others.
    if (c.tma_store && c_chunks(c) % c_buffers != 0)
      return Error{"tma_store=1 stores C in chunks of " + std::to_string(c_chunk_cols) + " columns through " +
                   std::to_string(c_buffers) + " buffers taking turns: bn must be a multiple of " +
                   std::to_string(c_chunk_cols * c_buffers)};
    return Ok{};
  }
};

}  // namespace gemmlab::kernel::rungs
