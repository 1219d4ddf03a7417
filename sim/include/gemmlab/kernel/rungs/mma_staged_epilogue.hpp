#pragma once
// Rung 16: tensor cores with C staged through shared memory (seed 001, item 3), on rung 15's main loop.
//
// What changed from rung 15. The accumulators leave the block through shared memory instead of straight from the
// fragments. In rung 15 each lane stores its two consecutive floats of a row with one 64-bit store: a warp
// instruction covers 8 rows x 32 bytes, every sector full but 8 of them in 8 different rows, and a warp tile of 64 x 64
// takes 64 such stores per lane. Here:
//
//   epilogue 0   wait for the last (empty) copy groups, then a barrier: no warp reads a pipeline buffer any more, so
//                the shared memory can hold the block's C tile;
//   epilogue 1   every lane writes its accumulators into the C tile (row-major, bn + 8 floats a row), one 64-bit
//                store per pair; barrier;
//   epilogue 2   the threads read the tile back along its rows, consecutive lanes on consecutive 16-byte chunks, and
//                write C with 128-bit stores: a warp instruction covers 512 contiguous bytes of one row, whole lines.
//
// The 8 floats of padding per row put the 4 rows a half-warp's 64-bit stores touch (rows g = 0..3, each lane pair 2t,
// 2t + 1) 8 banks apart: conflict-free. The tile needs bm x (bn + 8) floats, which the pipeline's buffers hold at the
// default (132 KiB of 144 KiB); where they do not, the block takes the larger of the two.
//
// Sizes: any, as rung 15; the 128-bit stores become four 32-bit ones when n % 4 != 0 (rows of C are then not 16-byte
// aligned).
#include "gemmlab/kernel/rungs/mma_sync.hpp"

namespace gemmlab::kernel::rungs {

struct MmaStagedEpilogue : MmaMultistage {  // its defaults, and any size
  static constexpr int c_pad = 8;  // floats of padding per row of the staged C tile

  template <class C> GEMMLAB_HD static int c_stride(const C& c) { return c.bn + c_pad; }
  template <class C> GEMMLAB_HD static int smem_floats(const C& c) {
    const int pipeline = MmaSync::smem_floats(c), tile = c.bm * c_stride(c);
    return pipeline > tile ? pipeline : tile;
  }
  template <class C> GEMMLAB_HD static int epilogue_phases(const C&) { return 3; }
  GEMMLAB_HD static bool barrier_after(Section section, int phase) {
    return MmaSync::barrier_after(section, phase) || (section == Section::Epilogue && phase < 2);
  }

  template <class X, class C>
  GEMMLAB_HD static void epilogue(X& x, const C& c, const ThreadContext& t, State<C>& s, int phase) {
    if (phase == 0) return x.cp_async_wait(Pending<0>{});  // then the barrier: the buffers are free
    if (phase == 1) return stage_accumulators(x, c, t, s);
    write_c(x, c, t);
  }

  // Each lane's accumulator pairs into the C tile at their place in the block: (row, column) -> row * stride + column.
  template <class X, class C>
  GEMMLAB_HD static void stage_accumulators(X& x, const C& c, const ThreadContext& t, State<C>& s) {
    for_each_result_pair(c, t, s, [&](int row, int col, const Vec<2>& pair) { x.sts(row * c_stride(c) + col, pair); });
  }

  // The C tile back along its rows, 4 floats per lane, and out to C with alpha and beta.
  template <class X, class C>
  GEMMLAB_HD static void write_c(X& x, const C& c, const ThreadContext& t) {
    const int chunks_per_row = c.bn / 4, per_thread = c.bm * chunks_per_row / threads(c);
    for (int i = 0; i < per_thread; ++i) {
      const int chunk = t.tid + i * threads(c);
      const int r = chunk / chunks_per_row, col = chunk % chunks_per_row * 4;
      Vec<4> v;
      x.lds(v, r * c_stride(c) + col);
      store_c_run(x, t, t.row0 + r, t.col0 + col, v);
    }
  }

  static Status validate(const KernelConfig& c) {
    if (auto ok = MmaSync::validate(c); !ok) return ok;
    const int threads = 32 * (c.bm / c.wm) * (c.bn / c.wn);
    if (c.bm * c.bn / 4 % threads != 0)
      return Error{"the " + std::to_string(threads) + " threads must share the C tile's " +
                   std::to_string(c.bm * c.bn / 4) + " 16-byte chunks evenly: change the tile sizes"};
    return Ok{};
  }
};

}  // namespace gemmlab::kernel::rungs
