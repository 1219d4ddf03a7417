#pragma once
// Rung 21: every Hopper technique of rungs 17 to 20 in one kernel, its persistent clusters walking the tiles along a
// Hilbert curve.
//
// What changed from rung 20. Rungs 18 to 20 each add one technique to rung 17's copies and wgmma, and each alone
// bought little or nothing: the warps specialise (18), clusters share B by multicast (19), blocks persist and their
// ring of stages runs on from tile to tile (20), the producer hands its registers to the consumers (setmaxnreg). The
// fastest public H100 GEMMs have all of them at once. Here they are together, as named pieces of the descriptions
// before:
//
//   the block        rung 18's: two consumer warpgroups of 64 x 256 and a producer warpgroup (TmaWgmmaSpecialized),
//                    the producer at 40 registers and the consumers at 232 (register_moves);
//   the k-step       rung 18's full and empty mbarriers per stage, 4 stages of 64-deep k;
//   the cluster      rung 19's pair of blocks along M: each copies half of the B tile, multicast into both, and a
//                    stage is refilled once the consumers of both blocks released it;
//   the walk         rung 20's persistent blocks, `grid` of them, block b taking the launches b, b + grid, ...; in
//                    clusters, both blocks of a cluster take the same cluster's launches at each turn;
//   the epilogue     new: a tile inside the matrix leaves in whole lines, each consumer warp's rows through a small
//                    buffer of its own in shared memory (LineStores below); other tiles take rung 17's stores from
//                    the registers (TmaWgmma::store_accumulators); rung 20's TMA stores are the alternate
//                    tma_store=1, measured slower: each chunk's store is waited for at a barrier of all the consumers;
//   the order        new: the launch order's clusters follow a Hilbert curve over the grid of cluster tiles
//                    (kernel::hilbert_cell, `--order hilbert`; the simulator executes the rung in it, its
//                    preferred_order, while the benchmark runs the order it is given), so the 64 clusters running
//                    at once cover a compact patch of C and share its rows of A and columns of B in L2 in both
//                    directions, turn after turn.
//
// `grid` is 128, fast.cu's choice: at 4096^3 and 8192^3 every block then walks the same number of tiles (4 and 16).
// With 132 blocks (66 pairs, all of which the H200 measured runs at once) the last blocks still walk 4 and 16, so the
// kernel ends no sooner; measured within run-to-run noise of each other (docs/rungs/21-tma-wgmma-hilbert.md).
//
// The barriers: after the mbarriers' initialisation, one of the whole cluster (no partner may arrive on or copy into
// a barrier not yet initialised); in the epilogue, the consumers' own (the producer is copying the next tile); and
// at the very end, the cluster's again, so that no block leaves while its partner may still arrive on its empty
// barriers (gpu/src/rung_block.cuh: every cluster kernel ends so).
//
// Sizes: as rung 17 (n and k multiples of 8); with an odd number of tile rows the last cluster's second block
// computes rows past the matrix, stores nothing, and still copies its half of B for its partner.
#include "gemmlab/kernel/rungs/tma_wgmma_multicast.hpp"
#include "gemmlab/kernel/rungs/tma_wgmma_persistent.hpp"

namespace gemmlab::kernel::rungs {

struct TmaWgmmaHilbert : TmaWgmmaPersistent {
  // Rung 18's schedule with rung 20's walk and epilogue and rung 19's shared copies.
  using SharedB = TmaWgmmaMulticast::SharedB;
  template <class X, class C, class S>
  GEMMLAB_HD static void prologue(X& x, const C& c, const ThreadContext& t, S& s, int phase) {
    prologue_with<PersistentWalk, SharedB>(x, c, t, s, phase);
  }
  template <class X, class C, class S>
  GEMMLAB_HD static void mainloop(X& x, const C& c, const ThreadContext& t, S& s, int step, int phase) {
    mainloop_with<PersistentWalk, SharedB>(x, c, t, s, step, phase);
  }
  template <class X, class C, class S>
  GEMMLAB_HD static void tile_epilogue(X& x, const C& c, const ThreadContext& t, S& s, int tile, int phase) {
    tile_epilogue_with<SharedB, LineStores>(x, c, t, s, tile, phase);
  }

  // The epilogue's stores in whole lines. In wgmma's accumulator layout a warp's 64-bit store writes 8 rows of 32
  // bytes, a sector in each of 8 lines; when every block of the launch stores its tile at once, as persistent blocks
  // of equal work do, the L2 takes such partial lines far slower than whole ones (docs/rungs/21-tma-wgmma-hilbert.md,
  // "The epilogue in whole lines"). So a tile inside the matrix, with beta = 0, leaves through shared memory: each
  // consumer warp writes its 16 rows, 32 columns at a time, into a buffer of its own (16 rows of 128 bytes, each row's
  // 16-byte pieces turned by the row: piece ^ 2 (row mod 4), so that a half-warp's 64-bit writes, 4 rows of two pieces
  // each, fall on 8 different pieces, and neither the writes nor the reads conflict), waits for its lanes (__syncwarp),
  // reads the chunk back as 16-byte words, 8 lanes a row, and stores them: 4 whole lines a warp store. It waits for its
  // lanes again before the next chunk overwrites the buffer. Other tiles take rung 17's stores.
  struct LineStores {
    static constexpr int chunk_cols = 32, warp_rows = 16, buffer_bytes = warp_rows * chunk_cols * 4;
    // Warp w's buffer, after the stages and their mbarriers, 128-byte aligned.
    template <class C>
    GEMMLAB_HD static int buffer(const C& c, int warp) {
      const int after_barriers = TmaWgmmaSpecialized::smem_floats(c) * 4;
      return (after_barriers + 127) / 128 * 128 + warp * buffer_bytes;
    }
    GEMMLAB_HD static int offset(int row, int col) {
      return row * 128 + ((col / 4) ^ (row % 4 * 2)) * 16 + col % 4 * 4;
    }

    template <class X, class C, class S>
    GEMMLAB_HD static void store(X& x, const C& c, const ThreadContext& t, S& s, int tile_row0, int tile_col0) {
      // (Rows of C start on 16-byte boundaries: n is a multiple of 8. They are whole 128-byte lines where n is a
      // multiple of 32, as every LLM shape's is; elsewhere a row's 128 bytes span two lines.)
      const bool inside = t.beta == 0.0f && tile_row0 + c.bm <= t.m && tile_col0 + c.bn <= t.n;
      if (!inside) return store_accumulators(x, c, t, s, tile_row0, tile_col0);
      const int warp = t.tid / 32, lane = t.tid % 32, lane128 = t.tid % 128;
      const int mine = buffer(c, warp);
      // The lane's first read and store; 4 rows further on, the same piece lies 512 bytes on (offset's turn of the
      // pieces repeats every 4 rows). Found once, outside the chunks: inside them ptxas ran out of registers.
      const int read_at = (mine + offset(lane / 8, 4 * (lane % 8))) / 4;
      const Index line = Index(tile_row0 + warp * warp_rows + lane / 8) * t.n + tile_col0 + 4 * (lane % 8);
      with_atom(c, [&](auto atom) {
        using Atom = decltype(atom);
        GEMMLAB_UNROLL
        for (int q = 0; q < Atom::d_values / Atom::first_register_of_column(chunk_cols); ++q) {
          const int first = Atom::first_register_of_column(q * chunk_cols);
          GEMMLAB_UNROLL
          for (int i = first; i < first + Atom::first_register_of_column(chunk_cols); i += 2) {
            const int r = Atom::d_row(lane128, i) - warp % 4 * warp_rows,
                      col = Atom::d_col(lane128, i) - q * chunk_cols;
            Vec<2> pair;
            pair[0] = t.alpha * s.acc[i], pair[1] = t.alpha * s.acc[i + 1];
            x.sts((mine + offset(r, col)) / 4, pair);
          }
          x.sync_warp();
          GEMMLAB_UNROLL
          for (int k = 0; k < warp_rows / 4; ++k) {
            Vec<4> words;
            x.lds(words, read_at + 4 * 32 * k);
            x.stg(Operand::C, line + Index(4 * k) * t.n + q * chunk_cols, words, true);
          }
          x.sync_warp();
        }
      });
    }
  };
  // The warps' buffers, where C leaves from the registers (tma_store = 0).
  template <class C>
  GEMMLAB_HD static int smem_floats(const C& c) {
    return c.tma_store ? TmaWgmmaPersistent::smem_floats(c) : LineStores::buffer(c, 4 * consumers(c)) / 4;
  }
  // The lanes of a warp meet at __syncwarp: the simulator runs them in lockstep (sim/src/lockstep.hpp).
  static constexpr bool syncs_warps = true;

  // ---- Host only. ----
  static constexpr std::string_view knobs[] = {"bm",      "bn",   "bk",         "stages",
                                               "cluster", "grid", "setmaxnreg", "tma_store"};
  static constexpr BlockOrder preferred_order{OrderKind::Hilbert, 0};

  static constexpr KernelConfig defaults() {
    KernelConfig c = TmaWgmmaPersistent::defaults();
    c.cluster = 2, c.grid = 128, c.setmaxnreg = 1;
    return c;
  }
  static Status whole_clusters(const KernelConfig& c) {
    if (c.grid > 0 && c.grid % c.cluster != 0)
      return Error{"grid=" + std::to_string(c.grid) + " with cluster=" + std::to_string(c.cluster) +
                   ": the persistent blocks walk whole clusters, so grid must be a multiple of the cluster size"};
    return Ok{};
  }
  static Status validate(const KernelConfig& c) {
    if (auto clusters = whole_clusters(c); !clusters) return clusters;
    if (c.bm == 128 && !c.setmaxnreg)  // measured: ptxas gives this rung's code more than 170 registers
      return Error{
          "setmaxnreg=0 with bm=128: the block's 288 threads launch with the registers ptxas chose for this "
          "rung's code, and nine warps of that many do not fit the SM's four register files (the launch "
          "fails): use setmaxnreg=1, or rung 20 (tma-wgmma-persistent) for one producer warp"};
    return TmaWgmmaPersistent::validate(c);
  }
};

}  // namespace gemmlab::kernel::rungs
