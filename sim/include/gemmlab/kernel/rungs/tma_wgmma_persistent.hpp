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
// the k-steps of its tiles one after another (ThreadContext::tile, TmaWgmma::tile_step), each tile followed by its
// epilogue (kernel::for_each_phase): the producer's ring of stages goes on across tiles, so it copies the next
// tile's first stages while the consumers finish and store this one; the consumers start the next tile with
// D = A * B (wgmma's scale-d predicate) instead of zeroing 128 registers.
//
// The schedule (S stages, kt k-steps per tile, T tiles in the block; steps numbered 0 .. T kt - 1):
//
//   prologue     as rung 18: initialise full[s] and empty[s]; barrier; the producer copies steps 0 .. S - 2
//   step t       consumers: wait full[t mod S]; bk / 16 wgmma (the first with D = A * B where t mod kt = 0);
//                commit; wait for the previous group; arrive on empty[(t - 1) mod S]
//                producer: wait empty[(t - 1) mod S] (from step 1); copy step t + S - 1, of whichever tile it lies in
//   epilogue j   after tile j's kt steps: consumers wait for the last group and store tile j; with tma_store=1 they
//                stage it in chunks that thread 0 stores with TMA, the last store running on into tile j + 1's
//                wgmma (the epilogue's phases: rung 18's header, TmaWgmmaSpecialized::epilogue; only this rung lists
//                the knob, as only a persistent block has a next tile to overlap)
//
// In the simulator, counting runs each tile as a block of its own (a persistent block issues the same copies, wgmma
// and stores per tile); executing runs the persistent blocks as launched, so the exact-GEMM tests check the walk
// across tiles (every element of C written once) and the race check follows the stages from tile to tile.
#include "gemmlab/kernel/rungs/tma_wgmma_specialized.hpp"

namespace gemmlab::kernel::rungs {

struct TmaWgmmaPersistent : TmaWgmmaSpecialized {
  // ---- Host only. ----
  static constexpr std::string_view knobs[] = {"bm", "bn", "bk", "stages", "grid", "setmaxnreg", "tma_store"};

  static constexpr KernelConfig defaults() {  // validate() is rung 18's; the knob table keeps grid in [0, 4096]
    KernelConfig c = TmaWgmmaSpecialized::defaults();
    c.grid = 132;  // the H100 SXM's SMs; on a GPU with fewer, the blocks beyond its SMs wait for a free one
    return c;
  }
};

}  // namespace gemmlab::kernel::rungs
