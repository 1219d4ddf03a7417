#pragma once
// Rung 22: rung 18's producer and consumers with k cut into ranges: split-K, for the shapes that leave SMs idle.
//
// What changed from rung 18. There a block computes a whole tile: all of k. A GEMM with few tiles, a decode step's
// 16 x 4096 x 14336 (one row of 128 x 128 tiles: 32 blocks on 132 SMs), or a last wave that fills a few SMs, then
// leaves most of the GPU idle whatever the kernel does inside a block. Here each tile's k-steps are cut into `splits`
// ranges of ceil(k-steps / splits), and every range is a block of its own (kernel::split_of_launch: a tile's ranges
// are consecutive launches), so the launch has `splits` times the blocks, each with a share of the k-steps.
//
// The ranges' results add up in C itself, one after another (the serial reduction; CUTLASS's "serial split-K"):
// range 0 stores alpha * its sum (plus beta * C), and range r adds alpha * its sum to what range r - 1 left. Each tile
// has a flag in global memory (the launch's split flags, zero between launches): range r waits until its tile's flag
// reads r, adds its part, and sets it to r + 1 (the last range back to 0, ready for the next launch). Its epilogue,
// three phases with a barrier of the consumers after the first two:
//
//   epilogue 0   consumers: wait for the last wgmma group; the first thread waits for the flag to read `split`
//                (range 0 reads 0 at once)
//   epilogue 1   consumers store their pairs: range 0 as rung 18 (alpha * acc + beta * C), the others read C and add
//                alpha * acc to what the earlier ranges stored, a batch of loads at a time (add_accumulators)
//   epilogue 2   after the barrier, every consumer's store is done: the first thread releases the flag (a release
//                at GPU scope, so a block that reads the flag also sees the stores before it)
//
// The second reduction, `workspace` = 1 (workspace_epilogue below): every range but the last leaves its sum in a
// workspace and counts itself in on the flag; the last waits once, adds the others' sums and stores C once. Only the
// last range waits, where the serial reduction's ranges wait one after another (docs/rungs/22-tma-wgmma-splitk.md
// measures which is faster where).
//
// A range waits only for a lower range of its own tile, which launched before it; the simulator's functional
// executor runs the blocks in launch order and says so where a wait would find a value no earlier block set (a
// deadlock on the GPU), and where a launch leaves a flag set. What it costs: every range after the first reads and
// writes the tile of C once more, and the ranges of a tile add up one at a time; what it buys: `splits` times the
// blocks on the SMs.
//
// The ranges: k-steps [split * q, split * q + q) with q = ceil(k-steps / splits); where q does not divide the
// k-steps, the last range's steps past k are TMA's zero fill (kernel::split_count never makes an empty range).
//
// Sizes: as rung 17 (n and k multiples of 8).
#include "gemmlab/kernel/rungs/tma_wgmma_specialized.hpp"

namespace gemmlab::kernel::rungs {

// The schedule of turns at C (the serial reduction), which rung 23's cut tiles take too: three epilogue phases (wait
// for the tile's flag, store or add, release the flag); after the prologue's first phase the block-wide barrier, after
// the epilogue's first two the consumers' own.
struct TurnsAtC {
  template <class C>
  GEMMLAB_HD static int epilogue_phases(const C&) {
    return 3;
  }
  GEMMLAB_HD static bool barrier_after(Section section, int phase) {
    return (section == Section::Prologue && phase == 0) || (section == Section::Epilogue && phase < 2);
  }
  template <class C>
  GEMMLAB_HD static int barrier_threads(const C& c, Section section, int) {
    return section == Section::Epilogue ? 128 * TmaWgmmaSpecialized::consumers(c) : 0;
  }
};

struct TmaWgmmaSplitK : TmaWgmmaSpecialized, TurnsAtC {
  using TurnsAtC::barrier_after;
  using TurnsAtC::barrier_threads;
  using TurnsAtC::epilogue_phases;
  // The tile's flag: one per tile of C, row-major.
  template <class C>
  GEMMLAB_HD static int flag(const C& c, const ThreadContext& t) {
    return t.row0 / c.bm * ceil_div(t.n, c.bn) + t.col0 / c.bn;
  }

  template <class X, class C, class S>
  GEMMLAB_HD static void tile_epilogue(X& x, const C& c, const ThreadContext& t, S& s, int, int phase) {
    if (t.warpgroup >= consumers(c)) return;
    if (c.workspace) return workspace_epilogue(x, c, t, s, phase);
    const bool first_thread = t.tid == 0;
    if (phase == 0) {
      x.wgmma_wait(Pending<0>{}, s.acc);
      x.split_wait(flag(c, t), t.split, first_thread && t.split > 0);
    } else if (phase == 1) {
      if (t.split == 0) return store_accumulators(x, c, t, s, t.row0, t.col0);
      add_accumulators(x, c, t, s, t.row0, t.col0);
    } else {
      x.split_release(flag(c, t), t.split + 1 == t.splits ? 0 : t.split + 1, first_thread && t.splits > 1);
    }
  }

  // A range after the first: C += alpha * acc over the warpgroup's 64 x bn strip of the tile at (tile_row0,
  // tile_col0), `batch` pairs at a time, all of a batch's loads of C before any of its stores. Pair by pair (rung 17's
  // store_c_run with beta = 1), each store could alias the next pair's load, so every load waited for the store before
  // it: a round trip to L2 per pair, in the chain of ranges that every tile walks one after another. A batch is the
  // whole strip up to bn = 128, 32 pairs: one round trip (traced against half of it: docs/rungs/22-tma-wgmma-splitk.md,
  // "The last range's adding, traced"). A wider strip goes 16 pairs at a time: at bn = 256 the 128 accumulators leave
  // no room for 64 more registers (ptxas spilled). Rows of C are whole pairs here (n is a multiple of 8); rung 23's
  // segments take their turns through the same path.
  static constexpr int max_batch = 32;
  GEMMLAB_HD static constexpr int batch_of(int strip_pairs) {
    return strip_pairs <= max_batch ? strip_pairs : max_batch / 2;
  }
  template <class Atom>
  static constexpr int batch_pairs = batch_of(Atom::d_values / 2);
  template <class X, class C, class S>
  GEMMLAB_HD static void add_accumulators(X& x, const C& c, const ThreadContext& t, S& s, int tile_row0,
                                          int tile_col0) {
    const int lane = t.tid % 128, row0 = tile_row0 + t.tid / 128 * 64;
    with_atom(c, [&](auto atom) {
      using Atom = decltype(atom);
      constexpr int batch = TmaWgmmaSplitK::batch_pairs<Atom>;
      GEMMLAB_UNROLL
      for (int first = 0; first < Atom::d_values; first += 2 * batch) {
        Vec<2> sum[batch];
        GEMMLAB_UNROLL
        for (int j = 0; j < batch; ++j) {
          const int row = row0 + Atom::d_row(lane, first + 2 * j), col = tile_col0 + Atom::d_col(lane, first + 2 * j);
          x.ldg(sum[j], Operand::C, Index(row) * t.n + col, row < t.m && col < t.n);
        }
        GEMMLAB_UNROLL
        for (int j = 0; j < batch; ++j) {
          const int i = first + 2 * j, row = row0 + Atom::d_row(lane, i), col = tile_col0 + Atom::d_col(lane, i);
          sum[j][0] += t.alpha * s.acc[i], sum[j][1] += t.alpha * s.acc[i + 1];
          x.stg(Operand::C, Index(row) * t.n + col, sum[j], row < t.m && col < t.n);
        }
      }
    });
  }

  // The second reduction (workspace = 1), CUTLASS's "parallel" split-K done inside the kernel: every range but the
  // last stores its sum in its own slice of the workspace (slice r of `splits` FP32 slices of M x N) and counts itself
  // in on the tile's flag; the last range, launched after the others, waits until they have all arrived, adds their
  // slices to its own sum and stores C once (alpha * sum + beta * C), then sets the flag back to 0. The same three
  // phases and barriers as the serial reduction: the ranges but the last wait for nothing, and the last waits once,
  // where the serial reduction's ranges wait one after another. It costs a slice's write and read per range but the
  // last, in FP32, where the serial one reads and writes C instead.
  //
  //   epilogue 0   consumers: wait for the last wgmma group; the last range's first thread waits for the flag to read
  //                splits - 1
  //   epilogue 1   the ranges but the last store their sums in their slices; the last adds the slices and stores C
  //   epilogue 2   after the barrier: the first thread of each range but the last adds one to the flag (a release);
  //                the last range's sets it back to 0
  template <class X, class C, class S>
  GEMMLAB_HD static void workspace_epilogue(X& x, const C& c, const ThreadContext& t, S& s, int phase) {
    const bool last = t.split + 1 == t.splits, first_thread = t.tid == 0;
    if (phase == 0) {
      x.wgmma_wait(Pending<0>{}, s.acc);
      x.split_wait(flag(c, t), t.splits - 1, first_thread && last && t.splits > 1);
    } else if (phase == 1) {
      if (last) return add_slices(x, c, t, s);
      store_slice(x, c, t, s);
    } else if (last) {
      x.split_release(flag(c, t), 0, first_thread && t.splits > 1);
    } else {
      x.split_arrive(flag(c, t), first_thread);
    }
  }
  // Element (row, col) of C in slice `slice` of the workspace.
  GEMMLAB_HD static Index slice_index(const ThreadContext& t, int slice, int row, int col) {
    return (Index(slice) * t.m + row) * t.n + col;
  }
  // A range but the last: its sums, as they are, into its slice (the warpgroup's 64 x bn strip of the tile).
  template <class X, class C, class S>
  GEMMLAB_HD static void store_slice(X& x, const C& c, const ThreadContext& t, S& s) {
    with_atom(c, [&](auto atom) {
      using Atom = decltype(atom);
      const int lane = t.tid % 128, row0 = t.row0 + t.tid / 128 * 64;
      GEMMLAB_UNROLL
      for (int i = 0; i < Atom::d_values; i += 2) {
        const int row = row0 + Atom::d_row(lane, i), col = t.col0 + Atom::d_col(lane, i);
        Vec<2> pair;
        pair[0] = s.acc[i], pair[1] = s.acc[i + 1];
        x.stg(Operand::W, slice_index(t, t.split, row, col), pair, row < t.m && col < t.n);
      }
    });
  }
  // The last range: its sums plus the other ranges' slices, in range order, then C = alpha * sum + beta * C, `batch`
  // pairs at a time, each slice's loads of a batch issued together.
  template <class X, class C, class S>
  GEMMLAB_HD static void add_slices(X& x, const C& c, const ThreadContext& t, S& s) {
    const int lane = t.tid % 128, row0 = t.row0 + t.tid / 128 * 64;
    with_atom(c, [&](auto atom) {
      using Atom = decltype(atom);
      constexpr int batch = TmaWgmmaSplitK::batch_pairs<Atom>;
      GEMMLAB_UNROLL
      for (int first = 0; first < Atom::d_values; first += 2 * batch) {
        Vec<2> sum[batch];
        GEMMLAB_UNROLL
        for (int j = 0; j < batch; ++j) sum[j][0] = s.acc[first + 2 * j], sum[j][1] = s.acc[first + 2 * j + 1];
        for (int slice = 0; slice + 1 < t.splits; ++slice) {
          Vec<2> part[batch];
          GEMMLAB_UNROLL
          for (int j = 0; j < batch; ++j) {
            const int i = first + 2 * j, row = row0 + Atom::d_row(lane, i), col = t.col0 + Atom::d_col(lane, i);
            x.ldg(part[j], Operand::W, slice_index(t, slice, row, col), row < t.m && col < t.n);
          }
          GEMMLAB_UNROLL
          for (int j = 0; j < batch; ++j) sum[j][0] += part[j][0], sum[j][1] += part[j][1];
        }
        Vec<2> old[batch];
        GEMMLAB_UNROLL
        for (int j = 0; j < batch; ++j) {
          const int i = first + 2 * j, row = row0 + Atom::d_row(lane, i), col = t.col0 + Atom::d_col(lane, i);
          x.ldg(old[j], Operand::C, Index(row) * t.n + col, t.beta != 0.0f && row < t.m && col < t.n);
        }
        GEMMLAB_UNROLL
        for (int j = 0; j < batch; ++j) {
          const int i = first + 2 * j, row = row0 + Atom::d_row(lane, i), col = t.col0 + Atom::d_col(lane, i);
          Vec<2> out;
          out[0] = t.alpha * sum[j][0] + t.beta * old[j][0], out[1] = t.alpha * sum[j][1] + t.beta * old[j][1];
          x.stg(Operand::C, Index(row) * t.n + col, out, row < t.m && col < t.n);
        }
      }
    });
  }

  // ---- Host only. ----
  static constexpr std::string_view knobs[] = {"bm", "bn", "bk", "stages", "setmaxnreg", "splits", "workspace"};

  // What one range's turn at C waits for, one trip to the L2 after another (the time model's split-K chain): the
  // release of the range before reaching the L2 and this range's acquiring load of the flag, each batch of loads of
  // C, and its stores landing before its own release.
  // With the workspace (workspace = 1) only the last range waits, once: for the others' arrivals, then for each batch
  // the other ranges' slices one after another and C, then its stores before its release.
  static int split_step_round_trips(const KernelConfig& c) {
    const int pairs = WgmmaM64K16<max_n>::d_values * c.bn / max_n / 2;  // a thread's pairs of its strip
    return 2 + ceil_div(pairs, batch_of(pairs)) * (c.workspace ? c.splits : 1) + 1;
  }

  // One consumer warpgroup of 64 x 128: the few rows of a decode step waste less of each wgmma than in 128-row tiles,
  // and the narrower tiles give twice rung 18's tiles across n before any split; four ranges each. Measured best of
  // the configurations tried on skinny shapes (docs/rungs/22-tma-wgmma-splitk.md).
  static constexpr KernelConfig defaults() {
    KernelConfig c = TmaWgmmaSpecialized::defaults();
    c.bm = 64, c.bn = 128, c.splits = 4;
    return c;
  }
  static Status validate(const KernelConfig& c) {
    if (c.workspace && c.splits < 2)
      return Error{"workspace=1 adds split-K's ranges up through a workspace: it needs splits of 2 or more"};
    return TmaWgmmaSpecialized::validate(c);
  }
};

}  // namespace gemmlab::kernel::rungs
