#pragma once
// The order in which a block runs a rung's phases, shared by the GPU kernel and the simulator.
#include "gemmlab/hd.hpp"
#include "gemmlab/kernel/context.hpp"

namespace gemmlab::kernel {

// Which of a block's tiles a walk takes: [first, last), with the prologue where it starts at the first tile, unless it
// is [0, 0) (so that [0, w) then [w, end) call what one walk calls, w = 0 too). A walk of every tile is the schedule;
// the tracing build walks a sampled block twice, its first tiles stamped and the rest not (gpu/src/rung_block.cuh),
// the State and the pipeline going on from one walk to the next.
struct TileRange {
  int first = 0;
  int last = -1;  // -1: to the block's last tile
  // The walk's end among `tiles` tiles. (The default's tests fold away, so a walk of every tile compiles as it did
  // before ranges were asked for.)
  GEMMLAB_HD constexpr int end(int tiles) const { return last >= 0 && last < tiles ? last : tiles; }
  GEMMLAB_HD constexpr bool runs_prologue() const { return first == 0 && last != 0; }
};

// Calls f(section, kstep, phase) for every phase of one block, in order: the prologue, then for each of the block's
// `tiles` tiles (one, except on the persistent rung) its k-steps and its epilogue. A main-loop phase gets the step
// counted from the block's first tile (tile j's k-step t is step j * ksteps + t), an epilogue phase the tile's index.
// The phase loops are unrolled on the GPU: each phase is then compiled for its own constant phase number, and the
// k-step loop body is straight-line code. Left as a loop, nvcc kept a run-time phase counter and recomputed every
// address of both phases at the top of each k-step - about 200 integer instructions per k-step in the best rung,
// each one an issue slot taken from the FFMAs (docs/results.md). The tiles are an outer loop, not more steps of the
// k-step loop: a tile's end inside the k-step loop put the consumers' stores behind a branch, and ptxas then made
// every wgmma wait for the one before ("C7517: warpgroup.wait is injected"). `range`: the tiles walked (all of them
// unless the caller says).
template <class Kernel, class Config, class F>
GEMMLAB_HD void for_each_phase(const Config& c, int ksteps, int tiles, F&& f, TileRange range = {}) {
  if (range.runs_prologue()) {
    GEMMLAB_UNROLL
    for (int p = 0; p < Kernel::prologue_phases(c); ++p) f(Section::Prologue, 0, p);
  }
  const int last = range.end(tiles);
  for (int j = range.first; j < last; ++j) {
    for (int t = 0; t < ksteps; ++t) {
      GEMMLAB_UNROLL
      for (int p = 0; p < Kernel::mainloop_phases(c); ++p) f(Section::Mainloop, j * ksteps + t, p);
    }
    GEMMLAB_UNROLL
    for (int p = 0; p < Kernel::epilogue_phases(c); ++p) f(Section::Epilogue, j, p);
  }
}

// Whether a rung's blocks walk segments of varying k-steps (rung 23's Stream-K: Kernel::segment_ksteps) rather than
// whole tiles of t.ksteps each.
template <class Kernel>
concept WalksSegments = requires(const ThreadContext& t) { Kernel::segment_ksteps(t, 0); };

// Every phase of the block whose context is t: its tiles as for_each_phase walks them, or a Stream-K block's segments
// (segment j: Kernel::segment_ksteps(t, j) k-steps, then its epilogue; main-loop steps counted on across segments).
// `range`: the tiles (segments) walked, as for_each_phase's.
template <class Kernel, class Config, class F>
GEMMLAB_HD void for_each_block_phase(const Config& c, const ThreadContext& t, F&& f, TileRange range = {}) {
  if constexpr (WalksSegments<Kernel>) {
    if (range.runs_prologue()) {
      GEMMLAB_UNROLL
      for (int p = 0; p < Kernel::prologue_phases(c); ++p) f(Section::Prologue, 0, p);
    }
    int step = 0;  // the segments' before the range
    for (int j = 0; j < range.first && j < t.tiles; ++j) step += Kernel::segment_ksteps(t, j);
    for (int j = range.first; j < range.end(t.tiles); ++j) {
      const int ksteps = Kernel::segment_ksteps(t, j);
      for (int i = 0; i < ksteps; ++i, ++step) {
        GEMMLAB_UNROLL
        for (int p = 0; p < Kernel::mainloop_phases(c); ++p) f(Section::Mainloop, step, p);
      }
      GEMMLAB_UNROLL
      for (int p = 0; p < Kernel::epilogue_phases(c); ++p) f(Section::Epilogue, j, p);
    }
  } else {
    for_each_phase<Kernel>(c, t.ksteps, t.tiles, f, range);
  }
}

// Whether a rung's consumer warpgroups take turns at the block's tiles (rung 24's ping-pong: tile j is consumer
// Kernel::owner(c, j)'s, and the other sits it out).
template <class Kernel>
concept TakesTurns = requires { Kernel::takes_turns; };

// Whether the thread whose context is t runs a phase of its block's schedule (for_each_block_phase): every one, except
// the phases of a tile its warpgroup sits out. The simulator runs a block's threads phase by phase and asks; the GPU
// walks each thread's own phases (for_each_thread_phase).
template <class Kernel, class Config>
GEMMLAB_HD bool runs_phase(const Config& c, const ThreadContext& t, Section section, int kstep) {
  if constexpr (TakesTurns<Kernel>) {
    if (section == Section::Prologue || t.warpgroup >= Kernel::consumers(c)) return true;
    const int tile = section == Section::Mainloop ? kstep / t.ksteps : kstep;
    return Kernel::owner(c, tile) == t.warpgroup;
  } else {
    return true;
  }
}

// The phases one thread runs, in order: its block's, less those runs_phase leaves out. A consumer that takes turns
// walks only its own tiles, so its k-step loop holds no test of whose tile it is: with one, ptxas made every wgmma
// wait for the one before ("C7517: warpgroup.wait is injected"). `range`: the block's tiles walked, as
// for_each_phase's (a consumer that takes turns walks its own among them).
template <class Kernel, class Config, class F>
GEMMLAB_HD void for_each_thread_phase(const Config& c, const ThreadContext& t, F&& f, TileRange range = {}) {
  if constexpr (TakesTurns<Kernel>) {
    if (range.runs_prologue()) {
      GEMMLAB_UNROLL
      for (int p = 0; p < Kernel::prologue_phases(c); ++p) f(Section::Prologue, 0, p);
    }
    const bool consumer = t.warpgroup < Kernel::consumers(c);
    const int stride = consumer ? Kernel::consumers(c) : 1;
    int first = consumer ? t.warpgroup : 0;
    if (range.first > 0 && range.first > first) first += (range.first - first + stride - 1) / stride * stride;
    const int last = range.end(t.tiles);
    for (int j = first; j < last; j += stride) {
      for (int i = 0; i < t.ksteps; ++i) {
        GEMMLAB_UNROLL
        for (int p = 0; p < Kernel::mainloop_phases(c); ++p) f(Section::Mainloop, j * t.ksteps + i, p);
      }
      GEMMLAB_UNROLL
      for (int p = 0; p < Kernel::epilogue_phases(c); ++p) f(Section::Epilogue, j, p);
    }
  } else {
    for_each_block_phase<Kernel>(c, t, f, range);
  }
}

// The blocks a launch has over `slots` launch indices of the order, each tile cut into `splits` k-ranges: one per slot
// and range, or a persistent rung's `grid` where that is fewer; Stream-K's `grid` whatever the tiles (its blocks share
// k-steps, so more blocks than tiles still have work).
template <class Kernel, class Config>
GEMMLAB_HD int launched_blocks(const Config& c, int slots, int splits) {
  if constexpr (WalksSegments<Kernel>) return c.grid;
  return c.grid > 0 && c.grid < slots ? c.grid : slots * splits;
}

// Whether the block whose context is t takes the barrier after a phase: where the rung's barrier_after asks for one,
// unless the rung's barrier_needed says this block's walk leaves it nothing to order there (the same in every thread of
// the block: rung 23's tile with one turn at C).
template <class Kernel, class Config>
GEMMLAB_HD bool takes_barrier(const Config& c, const ThreadContext& t, Section section, int kstep, int phase) {
  if (!Kernel::barrier_after(section, phase)) return false;
  if constexpr (requires { Kernel::barrier_needed(c, t, section, kstep, phase); })
    return Kernel::barrier_needed(c, t, section, kstep, phase);
  else
    return true;
}

// The threads the barrier after a phase takes in (where the rung's barrier_after asks for one): 0 for the whole block,
// else the block's first n threads alone, as a rung that says so (barrier_threads) asks: a warp-specialised rung's
// consumers after an epilogue phase of rung 20's TMA store, which the producer, copying the next tile, passes by.
template <class Kernel, class Config>
GEMMLAB_HD int barrier_threads(const Config& c, Section section, int phase) {
  if constexpr (requires { Kernel::barrier_threads(c, section, phase); })
    return Kernel::barrier_threads(c, section, phase);
  else
    return 0;
}

// The launch order a rung is run in unless the user names one: its description's preferred_order (rung 21's Hilbert
// curve), else row-major, CUDA's own.
template <class Kernel>
constexpr BlockOrder preferred_order() {
  if constexpr (requires { Kernel::preferred_order; })
    return Kernel::preferred_order;
  else
    return BlockOrder{};
}

template <class Kernel, class X, class Config, class State>
GEMMLAB_HD void run_phase(X& x, const Config& c, const ThreadContext& t, State& s, Section section, int kstep,
                          int phase) {
  switch (section) {
    case Section::Prologue: Kernel::prologue(x, c, t, s, phase); break;
    case Section::Mainloop: Kernel::mainloop(x, c, t, s, kstep, phase); break;
    case Section::Epilogue:
      if constexpr (requires { Kernel::tile_epilogue(x, c, t, s, kstep, phase); })
        Kernel::tile_epilogue(x, c, t, s, kstep, phase);  // kstep: the tile's index in the block (for_each_phase)
      else
        Kernel::epilogue(x, c, t, s, phase);
      break;
  }
}

}  // namespace gemmlab::kernel
