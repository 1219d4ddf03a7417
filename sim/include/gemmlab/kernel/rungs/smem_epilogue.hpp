#pragma once
// Rung 10: a shared-memory staged epilogue. The prologue and the mainloop are rung 9's (warp tiling on a cp.async
// pipeline), called as they are; only the way C leaves the block changes.
//
// What changed from rung 9, and why. Rung 9 stores C from the registers where the thread tiling put the results:
// which addresses a warp's store touches depends on the lane grid. With the default 4 x 8 grid the 8 lanes of a lane
// row happen to cover 128 contiguous bytes, but an 8 x 4 grid covers 64, and when n % 4 != 0 the rows of C
// are not 16-byte aligned, every result goes out with its own 32-bit store, and the lanes of one store are 16 bytes
// apart: 32 floats written over 16 sectors. (With beta != 0 the reads of C have the same shape.) Here the results
// take a detour through shared memory, where the block can rearrange them for free, and leave in rows:
//
//   pass p (one per result row p of a thread, 0 <= p < tm): every thread writes its row p (tn floats, tn / 4
//          sts.128) into a slab of shared memory; the slab holds, for each warp row and lane row, one whole row of
//          the block tile (bm / wm * lane_rows rows of bn floats: 16 x 256 at the defaults) - barrier -
//          then the threads read the slab back along its rows, consecutive lanes on consecutive 16-byte chunks,
//          and store each chunk to C with alpha and beta applied (store_c: C is read only when beta != 0). A warp
//          instruction now covers 512 contiguous bytes of one row of C: four whole 128-byte lines.
//
// When n % 4 != 0 the slab is read back one float per lane (lds.32) and written with 32-bit stores of 32 consecutive
// floats per warp: one line instead of 16 sectors scattered over 4 rows.
//
// Two slabs alternate, so one barrier per pass is enough: the writes of pass p + 1 go to the other slab, and the
// reads of pass p - 1 from it happened before the barrier of pass p. Both slabs reuse the pipeline's shared memory
// (2 x 17 KB inside the 146 KB of 3 stages at the defaults); a first epilogue phase waits for the (empty) copy groups
// still open and has every thread pass a barrier, after which no thread reads a pipeline buffer again.
//
// The slab rows are padded by 16 floats: the 8 lanes of a quarter-warp write 4 chunks of 2 neighbouring slab rows
// (lane bit 0 is the lane row), and 16 floats of padding put those 2 rows in opposite halves of the banks, so the
// sts.128 are conflict-free. The read back is contiguous and conflict-free with any padding.
//
// The cost: tm passes, each a barrier and a shared-memory round trip, once per block. At 4096^3 the epilogue is well
// under 1% of a block's time, and at the default warp shape rung 9's stores are already whole lines, so this rung
// cannot be faster there and is expected to be slightly slower. (The main loop is compiled into a different kernel,
// and at about 250 registers the compiler's register choice for the FFMAs - how often two operands of one FFMA share
// a register bank - can differ from rung 9's: a few percent either way.) What it buys is stores that stay whole
// lines whatever the thread tiling, and coalesced 32-bit stores (and beta reads) when n % 4 != 0.
//
// Register arrays on the GPU: the pass is a run-time value wherever the phase loop is not unrolled, and indexing the
// accumulators with it would move them to local memory. So each pass walks all tm rows and selects its own with a
// compare: every index into acc stays a compile-time constant.
#include <string>
#include <string_view>
#include "gemmlab/result.hpp"
#include "gemmlab/kernel/config.hpp"
#include "gemmlab/kernel/context.hpp"
#include "gemmlab/kernel/epilogue.hpp"
#include "gemmlab/kernel/executor.hpp"
#include "gemmlab/kernel/layout.hpp"
#include "gemmlab/kernel/rungs/warptile.hpp"
#include "gemmlab/kernel/vec.hpp"

namespace gemmlab::kernel::rungs {

struct SmemEpilogue {
  template <class C>
  using State = WarpTile::State<C>;

  static constexpr int kSlabPad = 16;  // floats after each slab row: half of the banks

  // One slab: a row of the block tile for each (warp row, lane row), in that order.
  template <class C> GEMMLAB_HD static int slab_rows(const C& c) { return c.bm / c.wm * WarpTile::lane_rows(c); }
  template <class C> GEMMLAB_HD static PaddedRowMajor slab_layout(const C& c) { return {c.bn, kSlabPad}; }
  template <class C> GEMMLAB_HD static int slab_base(const C& c, int pass) {
    return pass % 2 * slab_layout(c).size(slab_rows(c));
  }
  // The block-tile row that slab row `r` holds in pass p.
  template <class C> GEMMLAB_HD static int block_row(const C& c, int r, int p) {
    const int lanes = WarpTile::lane_rows(c);
    return r / lanes * c.wm + p / 4 * (4 * lanes) + r % lanes * 4 + p % 4;
  }

  template <class C> GEMMLAB_HD static constexpr int threads(const C& c) { return WarpTile::threads(c); }
  template <class C> GEMMLAB_HD static int smem_floats(const C& c) {
    const int pipeline = WarpTile::smem_floats(c), slabs = 2 * slab_layout(c).size(slab_rows(c));
    return pipeline > slabs ? pipeline : slabs;
  }
  template <class C> GEMMLAB_HD static int prologue_phases(const C& c) { return WarpTile::prologue_phases(c); }
  template <class C> GEMMLAB_HD static int mainloop_phases(const C& c) { return WarpTile::mainloop_phases(c); }
  // 0: drain the pipeline; then per pass p: 2p + 1 writes the slab, 2p + 2 reads it back and stores C.
  template <class C> GEMMLAB_HD static int epilogue_phases(const C& c) { return 1 + 2 * c.tm; }
  GEMMLAB_HD static bool barrier_after(Section section, int phase) {
    if (section != Section::Epilogue) return WarpTile::barrier_after(section, phase);
    return phase % 2 == 0 ? phase == 0 : true;
  }

  template <class X, class C>
  GEMMLAB_HD static void prologue(X& x, const C& c, const ThreadContext& t, State<C>& s, int phase) {
    WarpTile::prologue(x, c, t, s, phase);
  }
  template <class X, class C>
  GEMMLAB_HD static void mainloop(X& x, const C& c, const ThreadContext& t, State<C>& s, int kstep, int phase) {
    WarpTile::mainloop(x, c, t, s, kstep, phase);
  }

  template <class X, class C>
  GEMMLAB_HD static void epilogue(X& x, const C& c, const ThreadContext& t, State<C>& s, int phase) {
    if (phase == 0) {
      x.cp_async_wait(Pending<0>{});  // then the barrier: the pipeline's buffers are free
      return;
    }
    const int pass = (phase - 1) / 2;
    if (phase % 2 == 1) write_slab(x, c, t, s, pass);
    else store_slab(x, c, t, pass);
  }

  // Pass p, registers -> shared: the thread's result row p goes to slab row (warp row, lane row), at the columns the
  // thread owns in the block tile.
  template <class X, class C>
  GEMMLAB_HD static void write_slab(X& x, const C& c, const ThreadContext& t, const State<C>& s, int pass) {
    const PaddedRowMajor slab = slab_layout(c);
    const int row = WarpTile::warp_row(c, t.tid) * WarpTile::lane_rows(c) + WarpTile::lane_row(c, t.tid % 32);
    GEMMLAB_UNROLL
    for (int i = 0; i < c.tm; ++i) {
      if (i != pass) continue;  // keeps acc's index a compile-time constant (see the top)
      GEMMLAB_UNROLL
      for (int j = 0; j < c.tn; j += 4) {
        Vec<4> v;
        for (int q = 0; q < 4; ++q) v[q] = s.acc[i * c.tn + j + q];
        x.sts(slab_base(c, pass) + slab(row, WarpTile::thread_col(c, t.tid, j)), v);
      }
    }
  }

  // Pass p, shared -> C along the slab's rows: 16-byte chunks (consecutive lanes, consecutive chunks) when rows of C
  // are 16-byte aligned, single floats otherwise. Every thread moves tn floats either way.
  template <class X, class C>
  GEMMLAB_HD static void store_slab(X& x, const C& c, const ThreadContext& t, int pass) {
    const PaddedRowMajor slab = slab_layout(c);
    const int base = slab_base(c, pass);
    if (t.n % 4 == 0) {  // uniform: the same for every thread of the launch
      const int chunks_per_row = c.bn / 4;
      for (int u = 0; u < c.tn / 4; ++u) {
        const int e = t.tid + u * threads(c);
        const int r = e / chunks_per_row, col = e % chunks_per_row * 4;
        Vec<4> v;
        x.lds(v, base + slab(r, col));
        const int row = t.row0 + block_row(c, r, pass), gcol = t.col0 + col;
        store_c(x, t, Index(row) * t.n + gcol, v, row < t.m && gcol < t.n);
      }
    } else {
      for (int u = 0; u < c.tn; ++u) {
        const int e = t.tid + u * threads(c);
        const int r = e / c.bn, col = e % c.bn;
        Vec<1> v;
        x.lds(v, base + slab(r, col));
        const int row = t.row0 + block_row(c, r, pass), gcol = t.col0 + col;
        store_c(x, t, Index(row) * t.n + gcol, v, row < t.m && gcol < t.n);
      }
    }
  }
  // ---- Its knobs, defaults, tiling rules and register estimate: what the simulator, the CLI and the app read (host
  // only; sim/src/rung_model.cpp and occupancy.cpp). ----
  static constexpr auto& knobs = WarpTile::knobs;
  static constexpr KernelConfig defaults() { return WarpTile::defaults(); }
  static Status validate(const KernelConfig& c) { return WarpTile::validate(c); }
  static int live_registers(const KernelConfig& c) { return WarpTile::live_registers(c); }

};

}  // namespace gemmlab::kernel::rungs
