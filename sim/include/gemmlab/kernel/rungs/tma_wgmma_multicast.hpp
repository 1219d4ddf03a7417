#pragma once
// Rung 19: rung 18's producer and consumers, with blocks paired into thread-block clusters that share their copies
// of B through TMA multicast.
//
// What changed from rung 18. There every block reads its whole A and B tiles from L2 at every k-step: for a 128 x 256
// tile, 48 KiB per 128 x 256 x 64 multiply-adds, about 48 bytes per cycle per SM at the tensor cores' rate and over
// 9 TB/s for the chip. Two blocks that compute vertically adjacent tiles read the same B tile. Here they run as one
// cluster of 2 (consecutive launch indices, kernel::tile_of_launch), and each copies half of the B tile's 64-column
// panels with a multicast copy that lands at the same shared offset in both blocks (a tile one panel wide, bn = 64, is
// copied whole by the first block). Each block still copies its own A. The L2 serves 32 KiB per block per k-step
// instead of 48. (Measured, this did not make the rung faster than rung 18: the L2 was not what limited it,
// docs/rungs/19-tma-wgmma-multicast.md.)
//
// What the protocol gains:
//
//   full[s]   the block's producer still announces the whole stage's bytes: its own A, its half of B and the
//             partner's half, which completes bytes on this block's mbarrier too;
//   empty[s]  a stage may be refilled only once the consumers of BOTH blocks have finished with it (the refill of
//             B lands in both): each consumer warpgroup arrives on empty[s] of every block of the cluster
//             (mbarrier.arrive on a partner's shared memory through mapa), so it expects 2 x 2 arrivals;
//   barriers  the block-wide barrier becomes cluster-wide (barrier.cluster): after initialising the mbarriers, so no
//             partner copies into or arrives on one not yet initialised; and every cluster kernel ends with one
//             (gpu/src/rung_block.cuh), so no block exits while its partner may still arrive on its barriers.
//
// The simulator runs one block at a time; a partner's multicast copies are written into the block's shared image by
// its own producer thread, in the same place of the schedule, and counted as global reads only by the block that
// issues them (kernel/wgmma.hpp, TmaMulticast).
//
// In the description: the same schedule as rung 18 (its prologue_with and mainloop_with), with SharedB below
// instead of rung 17's OwnCopies as the answer to "who copies a stage into the block".
//
// Sizes: as rung 17. With an odd number of tile rows the last cluster's second block has no rows of C: it runs
// anyway (its partner needs its half of B) and stores nothing.
#include "gemmlab/kernel/rungs/tma_wgmma_specialized.hpp"

namespace gemmlab::kernel::rungs {

struct TmaWgmmaMulticast : TmaWgmmaSpecialized {
  // Who copies a stage into the block: the cluster's blocks together. A's box is each block's own; B's panels are
  // dealt out among the blocks by their place in the cluster, and each is multicast into every block of it. So every
  // block's consumers read every block's copies of B, and all of them release a stage before any block refills it.
  struct SharedB {
    template <class C> GEMMLAB_HD static constexpr int blocks(const C& c) { return c.cluster; }
    // The block's place in its cluster: clusters of c.cluster blocks along M.
    template <class C> GEMMLAB_HD static int rank(const C& c, const ThreadContext& t) {
      return t.row0 / c.bm % c.cluster;
    }
    template <class C>
    GEMMLAB_HD static TmaMulticast b_panel(const C& c, const ThreadContext& t, int panel, int panels) {
      return {c.cluster, panel * c.cluster / panels == rank(c, t)};
    }
  };

  // Rung 18's schedule, its stages' copies shared (SharedB for OwnCopies).
  template <class X, class C, class S>
  GEMMLAB_HD static void prologue(X& x, const C& c, const ThreadContext& t, S& s, int phase) {
    prologue_with<OneTileWalk, SharedB>(x, c, t, s, phase);
  }
  template <class X, class C, class S>
  GEMMLAB_HD static void mainloop(X& x, const C& c, const ThreadContext& t, S& s, int step, int phase) {
    mainloop_with<OneTileWalk, SharedB>(x, c, t, s, step, phase);
  }

  // ---- Host only. ----
  static constexpr std::string_view knobs[] = {"bm", "bn", "bk", "stages", "cluster", "setmaxnreg"};

  static constexpr KernelConfig defaults() {  // validate() is rung 18's; the knob table keeps cluster in [1, 2]
    KernelConfig c = TmaWgmmaSpecialized::defaults();
    c.cluster = 2;
    return c;
  }
};

}  // namespace gemmlab::kernel::rungs
