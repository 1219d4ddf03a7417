#pragma once
// The multistage cp.async pipeline of rungs 8 and 11 to 16, written once: `stages` shared buffers, tile t in buffer
// t % stages, one commit group per tile. A rung says how to issue the copies of one tile (load_tile(tile, stage));
// the pipeline says when. Rung 8's page (docs/rungs/08-cp-async.md) explains the schedule.
#include "gemmlab/hd.hpp"
#include "gemmlab/kernel/executor.hpp"

namespace gemmlab::kernel {

struct CpAsyncPipeline {
  // The prologue: tiles 0 .. stages - 2 into buffers 0 .. stages - 2. A group past the end of K is committed empty,
  // so that "the oldest tile has landed" is always "stages - 2 groups pending".
  template <class X, class LoadTile>
  GEMMLAB_HD static void fill(X& x, int stages, int ksteps, LoadTile&& load_tile) {
    for (int tile = 0; tile < stages - 1; ++tile) {
      if (tile < ksteps) load_tile(tile, tile);
      x.cp_async_commit();
    }
  }

  // At k-step `kstep`, after the barrier that freed the buffer of tile kstep - 1: tile kstep + stages - 1 into it.
  template <class X, class LoadTile>
  GEMMLAB_HD static void refill(X& x, int stages, int kstep, int ksteps, LoadTile&& load_tile) {
    const int next = kstep + stages - 1;
    if (next < ksteps) load_tile(next, next % stages);
    x.cp_async_commit();
  }

  // A k-step of two phases, as rungs 8 and 11 to 16 run it: phase 0 waits for tile kstep (the rung puts a barrier
  // after it: every thread's copies visible, every thread done with tile kstep - 1); phase 1 refills the freed buffer
  // and multiplies tile kstep from buffer kstep % stages (multiply(stage)).
  template <class X, class LoadTile, class Multiply>
  GEMMLAB_HD static void step(X& x, int stages, int kstep, int ksteps, int phase, LoadTile&& load_tile,
                              Multiply&& multiply) {
    if (phase == 0) return wait_for_oldest_tile(x, stages);
    refill(x, stages, kstep, ksteps, load_tile);
    multiply(kstep % stages);
  }

  // Blocks until the oldest tile in flight has landed: at most stages - 2 younger groups may stay pending. The count
  // must be a compile-time constant; the simulator's run-time `stages` is dispatched here.
  template <class X>
  GEMMLAB_HD static void wait_for_oldest_tile(X& x, int stages) {
    switch (stages) {
      case 2: x.cp_async_wait(Pending<0>{}); break;
      case 3: x.cp_async_wait(Pending<1>{}); break;
      default: x.cp_async_wait(Pending<2>{}); break;
    }
  }
};

}  // namespace gemmlab::kernel
