#pragma once
// Rung 20: rung 18's producer and consumers in persistent blocks, each walking many tiles of C.
//
// What changed from rung 18. There every block computes one 128 x 256 tile and exits: it fills its ring of stages
// from empty (the consumers wait for the first tile's copies with nothing else to do), and at the end its consumers
// store 128 KiB of results while the producer has nothing left to copy and the tensor cores idle; then the next
// block starts the same way on that SM. Measured, a block's fixed cost is about a tenth of its time at 4096^3 (the
// rung gains 7% when k doubles, docs/rungs/18-tma-wgmma-specialized.md).
//
// Here the launch has `grid` blocks (default 132, the H100's SMs: one per SM, since a block takes the SM's shared
// memory), and block b computes the tiles of launch indices b, b + grid, b + 2 grid, ... of the launch order, so the
// blocks running together cover the same tiles a wave of rung 18 would (the same L2 reuse). A block's main loop runs
// the k-steps of its tiles one after another (ThreadContext::tile, PersistentWalk below), each tile followed by its
// epilogue (kernel::for_each_phase): the producer's ring of stages goes on across tiles, so it copies the next
// tile's first stages while the consumers finish and store this one; the consumers start the next tile with
// D = A * B (wgmma's scale-d predicate) instead of zeroing 128 registers.
//
// The schedule (S stages, kt k-steps per tile, T tiles in the block; steps numbered 0 .. T kt - 1):
//
//   prologue     as rung 18: initialise full[s] and empty[s]; barrier; the producer copies steps 0 .. S - 2
//   step t       consumers: wait full[t mod S]; bk / 16 wgmma (the first with D = A * B where t mod kt = 0);
//                commit; wait for the previous group; arrive on empty[(t - 1) mod S], unless t begins a tile
//                producer: wait empty[(t - 1) mod S] (from step 1); copy step t + S - 1, of whichever tile it lies in
//   epilogue j   after tile j's kt steps: consumers wait for the last group, arrive on the empty barrier of tile j's
//                last stage (so the producer has the whole ring to fill while they store), and store tile j; with
//                tma_store=1 they stage it in chunks that thread 0 stores with TMA, the last store running on into
//                tile j + 1's wgmma (tile_epilogue below: only this rung and the next have the knob, as only a
//                persistent block has a next tile to overlap)
//
// In the simulator, counting runs each tile as a block of its own (a persistent block issues the same copies, wgmma
// and stores per tile); executing runs the persistent blocks as launched, so the exact-GEMM tests check the walk
// across tiles (every element of C written once) and the race check follows the stages from tile to tile.
#include "gemmlab/kernel/rungs/tma_wgmma_specialized.hpp"

namespace gemmlab::kernel::rungs {

struct TmaWgmmaPersistent : TmaWgmmaSpecialized {
  // The producer also keeps where its walk stands.
  template <class C>
  struct State : TmaWgmmaSpecialized::State<C> {
    TileStep copied{};  // the step it copied last
    int copied_tile = 0;
    TileCoord storing{};  // a consumer's: the tile its epilogue stores, found once in its first phase
  };

  // The block's walk through its tiles (ThreadContext::tile): step `step` of its main loop is k-step step mod kt of
  // its tile step / kt. The producer walks it one step at a time, from the step it copied last into the next tile
  // after a tile's last k-step, rather than dividing at every copy. A block of one tile (grid = 0, a persistent
  // launch with no more tiles than blocks, and the simulator's counting, which runs each tile as a block of its own)
  // takes the step as it is: no division at all, which a producer issuing a copy every few hundred nanoseconds
  // notices (docs/rungs/20-tma-wgmma-persistent.md, "One tile a block").
  struct PersistentWalk {
    template <class C>
    GEMMLAB_HD static TileStep at(const C& c, const ThreadContext& t, int step) {
      if (c.grid == 0 || t.tiles == 1) return tile_step(c, t, step);
      const TileCoord tile = t.tile(step / t.ksteps);
      return {tile.row * c.bm, tile.col * c.bn, step % t.ksteps};
    }
    template <class C, class S>
    GEMMLAB_HD static void start(const C& c, const ThreadContext& t, S& s) {  // after the ring's first copies
      s.copied = at(c, t, c.stages - 2), s.copied_tile = (c.stages - 2) / t.ksteps;
    }
    template <class C, class S>
    GEMMLAB_HD static TileStep next(const C& c, const ThreadContext& t, S& s, int step) {
      if (c.grid == 0 || t.tiles == 1) return at(c, t, step);
      if (++s.copied.kstep == t.ksteps) {
        const TileCoord tile = t.tile(++s.copied_tile);
        s.copied = {tile.row * c.bm, tile.col * c.bn, 0};
      }
      return s.copied;
    }
    GEMMLAB_HD static int steps(const ThreadContext& t) { return TmaWgmma::steps(t); }
    // The block's main-loop steps up to the end of its tile `tile`.
    GEMMLAB_HD static int steps_through(const ThreadContext& t, int tile) { return (tile + 1) * t.ksteps; }
  };

  // Rung 18's schedule on this walk.
  template <class X, class C, class S>
  GEMMLAB_HD static void prologue(X& x, const C& c, const ThreadContext& t, S& s, int phase) {
    prologue_with<PersistentWalk, OwnCopies>(x, c, t, s, phase);
  }
  template <class X, class C, class S>
  GEMMLAB_HD static void mainloop(X& x, const C& c, const ThreadContext& t, S& s, int step, int phase) {
    mainloop_with<PersistentWalk, OwnCopies>(x, c, t, s, step, phase);
  }

  // tma_store = 1 stages C through two buffers of bm rows by 32 FP32 columns, after rung 18's mbarriers (each buffer a
  // chunk of the tile: 4 panels of 8 columns, one box), 128-byte aligned for TMA.
  static constexpr int c_chunk_cols = 32, c_buffers = 2, c_panel_cols = 8, c_buffer_alignment = 128;
  template <class C> GEMMLAB_HD static int c_chunks(const C& c) { return c.bn / c_chunk_cols; }
  template <class C> GEMMLAB_HD static int c_chunk_bytes(const C& c) { return c.bm * c_chunk_cols * 4; }
  template <class C> GEMMLAB_HD static int c_buffer(const C& c, int buffer) {
    const int after_barriers = TmaWgmmaSpecialized::smem_floats(c) * 4;
    return (after_barriers + c_buffer_alignment - 1) / c_buffer_alignment * c_buffer_alignment +
           buffer * c_chunk_bytes(c);
  }
  template <class C> GEMMLAB_HD static int smem_floats(const C& c) {
    return c.tma_store ? c_buffer(c, c_buffers) / 4 : TmaWgmmaSpecialized::smem_floats(c);
  }
  // Chunk q of the tile at `at`: its bm rows by c_chunk_cols columns of C, in unswizzled panels.
  template <class C> GEMMLAB_HD static TmaBox c_box(const C& c, const ThreadContext& t, TileCoord at, int q) {
    return {Operand::C, at.row * c.bm, at.col * c.bn + q * c_chunk_cols, c.bm, c_chunk_cols, t.m, t.n, 0, c_panel_cols};
  }

  // The epilogue's alternate, tma_store = 1: phase 0 waits for the last group, then one phase per chunk of C and one
  // to issue the last store, each followed by a barrier of the consumers alone (barrier_threads): the GPU's named
  // barrier 1, which the producer, copying the next tile, does not take (gpu/src/rung_block.cuh).
  template <class C> GEMMLAB_HD static int epilogue_phases(const C& c) { return c.tma_store ? c_chunks(c) + 2 : 1; }
  GEMMLAB_HD static bool barrier_after(Section section, int phase) {
    return TmaWgmmaSpecialized::barrier_after(section, phase) || (section == Section::Epilogue && phase > 0);
  }
  template <class C> GEMMLAB_HD static int barrier_threads(const C& c, Section section, int phase) {
    return section == Section::Epilogue && phase > 0 ? 128 * consumers(c) : 0;
  }

  // After each tile: wait for the last group, then store the tile from the registers (rung 18's epilogue), or with
  // tma_store = 1 through shared memory (below).
  //
  // With tma_store = 1 and beta != 0 the old C would have to come in first (through the same buffers, as CUTLASS's
  // epilogue loads it by TMA); reading it with the threads' own loads took ptxas from 160 to 178 registers, which a
  // block of 288 threads cannot have (the partitions' register files hold 8 such warps, not 9). Such a GEMM is stored
  // from the registers, as without tma_store: a branch on beta, the same for the whole launch (its epilogue phases
  // from 1 on do nothing but take their consumers' barrier).
  //
  // `Stores`: how a tile leaves the registers where it does not go through shared memory and TMA stores: here
  // RegisterStores, rung 17's stores (store_accumulators); rung 21 names its own (TmaWgmmaHilbert::LineStores).
  struct RegisterStores {
    template <class X, class C, class S>
    GEMMLAB_HD static void store(X& x, const C& c, const ThreadContext& t, S& s, int tile_row0, int tile_col0) {
      store_accumulators(x, c, t, s, tile_row0, tile_col0);
    }
  };
  template <class X, class C, class S>
  GEMMLAB_HD static void tile_epilogue(X& x, const C& c, const ThreadContext& t, S& s, int tile, int phase) {
    tile_epilogue_with<OwnCopies, RegisterStores>(x, c, t, s, tile, phase);
  }
  template <class Copies, class Stores, class X, class C, class S>
  GEMMLAB_HD static void tile_epilogue_with(X& x, const C& c, const ThreadContext& t, S& s, int tile, int phase) {
    if (t.warpgroup >= consumers(c)) return;
    const bool through_shared = c.tma_store && t.beta == 0.0f;
    if (phase == 0) {  // the tile's place found while its last wgmma group runs, once (the later phases keep it)
      s.storing = t.tile(tile);
      x.wgmma_wait(Pending<0>{}, s.acc);
      s.accumulating = false;
      release_last_stage<Copies>(x, c, t, PersistentWalk::steps_through(t, tile));
      if (!through_shared) Stores::store(x, c, t, s, s.storing.row * c.bm, s.storing.col * c.bn);
      return;
    }
    if (through_shared) store_through_shared(x, c, t, s, s.storing, phase - 1, tile == t.tiles - 1);
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
  static constexpr std::string_view knobs[] = {"bm", "bn", "bk", "stages", "grid", "setmaxnreg", "tma_store"};

  static constexpr KernelConfig defaults() {  // the knob table keeps grid in [0, 4096]
    KernelConfig c = TmaWgmmaSpecialized::defaults();
    c.grid = 132;  // the H100 SXM's SMs; on a GPU with fewer, the blocks beyond its SMs wait for a free one
    return c;
  }
  static Status validate(const KernelConfig& c) {
    if (auto block = TmaWgmmaSpecialized::validate(c); !block) return block;
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
