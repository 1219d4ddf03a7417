#pragma once
// Rung 6: vectorized loads, A transposed in shared memory.
//
// What changed from rung 5 (blocktile-2d). The thread tiling is the same (a 128 x 128 block tile, bk = 8, each of
// 256 threads computing an 8 x 8 tile of C as an outer product), but every memory instruction now moves 16 bytes
// where it can:
//
//   - Global loads of A and B are 128-bit (ldg.128): one instruction brings 4 neighbouring floats of a row, so a
//     k-step of a warp issues 2 loads instead of 8 for the same bytes.
//   - A is stored TRANSPOSED in shared memory: row k of the shared A tile holds the bm values A[row0 + m][k0 + k].
//     In rung 5 a thread's tm A values for one k were a column of the tile, tm floats bk apart, read one by one.
//     Transposed, they are tm consecutive floats and come in with tm / 4 128-bit shared loads (lds.128). B's tn
//     values were already consecutive in a row of the B tile and are now read with lds.128 too. Per k index a
//     thread issues (tm + tn) / 4 = 4 shared loads instead of 16.
//   - C is written with 128-bit stores (stg.128).
//
// The price, and the teaching toggles. A float4 of A is 4 consecutive k of one row of A; transposed, those 4 values
// land in 4 different rows of the shared tile, so they are stored with 4 separate 32-bit stores. In a warp, lanes
// 2j and 2j+1 load the two float4s of the same row of A (bk = 8) and so write the same column m of the shared tile,
// in rows k and k + 4. Without padding a shared row is bm = 128 floats, a multiple of the 32 banks, so rows k and
// k + 4 fall in the same bank: each of the 4 stores is a 2-way bank conflict.
//
//   a_pad = 4    4 floats of padding per shared row of A: rows k and k + 4 are now 16 banks apart and the stores are
//                conflict-free. The padding must keep rows 16-byte aligned for lds.128, so it is a multiple of 4.
//   swizzle = 1  instead of padding, the 16-byte chunks of each shared row of A are permuted by XOR with the row
//                (layout XorSwizzled): row k + 4 flips bit 2 of the chunk index, which moves it to the other half of
//                the banks. No wasted shared memory, and the 4 floats of a chunk stay together for lds.128.
//   b_pad        padding of the B rows (row-major, stored as loaded, with one sts.128 per float4).
//
// What is left for the next rungs. Loads and the multiply still take turns: the block waits at a barrier for its
// tile to arrive, then computes while no load is in flight (double-buffer overlaps them). And the B reads still
// conflict: a quarter-warp reads 8 float4s 8 floats apart, so lanes 0 and 4 hit the same banks (warptile fixes this
// by giving each warp a compact sub-tile).
//
// Problem sizes. A 128-bit global load needs a 16-byte-aligned address: A's rows start aligned only when k % 4 == 0,
// B's when n % 4 == 0. When they are not, the kernel takes a scalar path for that matrix (4 predicated 32-bit loads
// in place of one 128-bit load; 32-bit stores of C). The choice depends only on the problem size, so every thread of
// the block takes the same branch. Any m, n, k works; edges are handled by predication.
#include <string>
#include <string_view>
#include "gemmlab/result.hpp"
#include "gemmlab/kernel/config.hpp"
#include "gemmlab/kernel/tiling_rules.hpp"
#include "gemmlab/kernel/context.hpp"
#include "gemmlab/kernel/epilogue.hpp"
#include "gemmlab/kernel/layout.hpp"
#include "gemmlab/kernel/vec.hpp"

namespace gemmlab::kernel {

// Four consecutive floats of row `row` of a row-major rows x cols matrix, starting at column `col` (a multiple of 4).
// With cols % 4 == 0 that is one aligned 128-bit load, and the 4 columns are all inside the matrix or all outside.
// Otherwise the address is not 16-byte aligned and the kernel falls back to four 32-bit loads, each predicated on its
// own column. `pred` switches the whole load off (a load past the last k-step).
template <class X>
GEMMLAB_HD Vec<4> load_float4(X& x, Operand operand, int row, int col, int rows, int cols, bool pred) {
  Vec<4> v;
  const bool in = pred && row < rows;
  if (cols % 4 == 0) {  // uniform: the same for every thread of the launch
    x.ldg(v, operand, Index(row) * cols + col, in && col < cols);
  } else {
    for (int q = 0; q < 4; ++q) {
      Vec<1> e;
      x.ldg(e, operand, Index(row) * cols + col + q, in && col + q < cols);
      v[q] = e[0];
    }
  }
  return v;
}

namespace rungs {

struct Vectorized {
  template <class C>
  struct State {
    float acc[C::max_tm * C::max_tn];
    float a_frag[C::max_tm];
    float b_frag[C::max_tn];
  };

  // Shared layouts. A: bk rows of bm floats (transposed), padded or swizzled. B: bk rows of bn floats, as in global.
  template <class C> GEMMLAB_HD static PaddedRowMajor a_padded(const C& c) { return {c.bm, c.a_pad}; }
  template <class C> GEMMLAB_HD static XorSwizzled a_swizzled(const C& c) { return {c.bm, 8}; }
  template <class C> GEMMLAB_HD static PaddedRowMajor b_layout(const C& c) { return {c.bn, c.b_pad}; }
  template <class C> GEMMLAB_HD static int a_tile_floats(const C& c) {
    return c.swizzle ? a_swizzled(c).size(c.bk) : a_padded(c).size(c.bk);
  }
  // One buffer: the A tile, then the B tile.
  template <class C> GEMMLAB_HD static int tile_floats(const C& c) { return a_tile_floats(c) + b_layout(c).size(c.bk); }

  template <class C> GEMMLAB_HD static constexpr int threads(const C& c) { return (c.bm / c.tm) * (c.bn / c.tn); }
  template <class C> GEMMLAB_HD static int smem_floats(const C& c) { return tile_floats(c); }
  template <class C> GEMMLAB_HD static int prologue_phases(const C&) { return 1; }
  template <class C> GEMMLAB_HD static int mainloop_phases(const C&) { return 2; }  // 0: load tiles, 1: multiply
  template <class C> GEMMLAB_HD static int epilogue_phases(const C&) { return 1; }
  GEMMLAB_HD static bool barrier_after(Section section, int) { return section == Section::Mainloop; }

  // The thread's tile of C, relative to the block's: rows [thread_row * tm, +tm), columns [thread_col * tn, +tn).
  template <class C> GEMMLAB_HD static int thread_row(const C& c, int tid) { return tid / (c.bn / c.tn); }
  template <class C> GEMMLAB_HD static int thread_col(const C& c, int tid) { return tid % (c.bn / c.tn); }

  // Float4s of each tile a thread copies per k-step (validate() makes both divide evenly).
  template <class C> GEMMLAB_HD static int a_loads(const C& c) { return c.bm * c.bk / 4 / threads(c); }
  template <class C> GEMMLAB_HD static int b_loads(const C& c) { return c.bk * c.bn / 4 / threads(c); }

  // The thread's i-th float4 of the A tile is float4 e = i * threads + tid, counted along the rows of A (bk / 4 per
  // row): consecutive lanes take consecutive 16-byte pieces of a row, so a warp's load is coalesced.
  template <class C> GEMMLAB_HD static int a_load_row(const C& c, int tid, int i) {
    return (i * threads(c) + tid) / (c.bk / 4);
  }
  template <class C> GEMMLAB_HD static int a_load_k(const C& c, int tid, int i) {
    return (i * threads(c) + tid) % (c.bk / 4) * 4;
  }
  // The same for B, along its rows of bn / 4 float4s.
  template <class C> GEMMLAB_HD static int b_load_k(const C& c, int tid, int i) {
    return (i * threads(c) + tid) / (c.bn / 4);
  }
  template <class C> GEMMLAB_HD static int b_load_col(const C& c, int tid, int i) {
    return (i * threads(c) + tid) % (c.bn / 4) * 4;
  }

  // Global -> registers: the thread's i-th float4 of the A or B tile of the k-step starting at k0.
  template <class X, class C>
  GEMMLAB_HD static Vec<4> load_a(X& x, const C& c, const ThreadContext& t, int k0, int i, bool pred) {
    return load_float4(x, Operand::A, t.row0 + a_load_row(c, t.tid, i), k0 + a_load_k(c, t.tid, i), t.m, t.k, pred);
  }
  template <class X, class C>
  GEMMLAB_HD static Vec<4> load_b(X& x, const C& c, const ThreadContext& t, int k0, int i, bool pred) {
    return load_float4(x, Operand::B, k0 + b_load_k(c, t.tid, i), t.col0 + b_load_col(c, t.tid, i), t.k, t.n, pred);
  }

  // Registers -> shared, into the buffer starting at `base`. A is transposed on the way: the 4 values (4 consecutive
  // k of one row m) go to 4 different shared rows, one 32-bit store each. B keeps its shape: one 128-bit store.
  template <class X, class C, class ALayout>
  GEMMLAB_HD static void store_a(X& x, const C& c, const ThreadContext& t, int base, const ALayout& as, int i,
                                 const Vec<4>& v) {
    const int m = a_load_row(c, t.tid, i), k = a_load_k(c, t.tid, i);
    for (int q = 0; q < 4; ++q) {
      Vec<1> e;
      e[0] = v[q];
      x.sts(base + as(k + q, m), e);
    }
  }
  template <class X, class C>
  GEMMLAB_HD static void store_b(X& x, const C& c, const ThreadContext& t, int base, int i, const Vec<4>& v) {
    x.sts(base + a_tile_floats(c) + b_layout(c)(b_load_k(c, t.tid, i), b_load_col(c, t.tid, i)), v);
  }

  // The multiply of one k-step from the buffer at `base`: per k index, tm / 4 lds.128 of A (the thread's tm rows of
  // C, now consecutive in a transposed row), tn / 4 lds.128 of B, then tm * tn FMAs.
  template <class X, class C, class ALayout>
  GEMMLAB_HD static void multiply(X& x, const C& c, const ThreadContext& t, State<C>& s, int base, const ALayout& as) {
    const PaddedRowMajor bs = b_layout(c);
    const int b_base = base + a_tile_floats(c);
    const int tr = thread_row(c, t.tid), tc = thread_col(c, t.tid);
    for (int kk = 0; kk < c.bk; ++kk) {
      for (int i = 0; i < c.tm; i += 4) {
        Vec<4> a;
        x.lds(a, base + as(kk, tr * c.tm + i));  // i % 4 == 0: a whole 16-byte chunk, swizzled or not
        for (int q = 0; q < 4; ++q) s.a_frag[i + q] = a[q];
      }
      for (int j = 0; j < c.tn; j += 4) {
        Vec<4> b;
        x.lds(b, b_base + bs(kk, tc * c.tn + j));
        for (int q = 0; q < 4; ++q) s.b_frag[j + q] = b[q];
      }
      for (int i = 0; i < c.tm; ++i)
        for (int j = 0; j < c.tn; ++j) s.acc[i * c.tn + j] = x.fma(s.a_frag[i], s.b_frag[j], s.acc[i * c.tn + j]);
    }
  }

  template <class X, class C>
  GEMMLAB_HD static void prologue(X&, const C& c, const ThreadContext&, State<C>& s, int) {
    for (int i = 0; i < c.tm * c.tn; ++i) s.acc[i] = 0.0f;
  }

  // The swizzle toggle picks the A layout's type; with a FixedConfig the branch is decided at compile time.
  template <class X, class C>
  GEMMLAB_HD static void mainloop(X& x, const C& c, const ThreadContext& t, State<C>& s, int kstep, int phase) {
    if (c.swizzle) step(x, c, t, s, kstep, phase, a_swizzled(c));
    else step(x, c, t, s, kstep, phase, a_padded(c));
  }

  template <class X, class C, class ALayout>
  GEMMLAB_HD static void step(X& x, const C& c, const ThreadContext& t, State<C>& s, int kstep, int phase,
                              const ALayout& as) {
    if (phase == 0) {
      const int k0 = kstep * c.bk;
      for (int i = 0; i < a_loads(c); ++i) store_a(x, c, t, 0, as, i, load_a(x, c, t, k0, i, true));
      for (int i = 0; i < b_loads(c); ++i) store_b(x, c, t, 0, i, load_b(x, c, t, k0, i, true));
      return;
    }
    multiply(x, c, t, s, 0, as);
  }

  // C = alpha * acc + beta * C, 4 columns per 128-bit store (per 32-bit store when n % 4 != 0: rows of C are then
  // not 16-byte aligned).
  template <class X, class C>
  GEMMLAB_HD static void epilogue(X& x, const C& c, const ThreadContext& t, State<C>& s, int) {
    const int tr = thread_row(c, t.tid), tc = thread_col(c, t.tid);
    GEMMLAB_UNROLL  // i and j index the accumulators: unrolled, they stay in registers
    for (int i = 0; i < c.tm; ++i) {
      const int row = t.row0 + tr * c.tm + i;
      GEMMLAB_UNROLL
      for (int j = 0; j < c.tn; j += 4) {
        const int col = t.col0 + tc * c.tn + j;
        Vec<4> acc;
        for (int q = 0; q < 4; ++q) acc[q] = s.acc[i * c.tn + j + q];
        store_c_run(x, t, row, col, acc);
      }
    }
  }
  // ---- Its knobs, defaults, tiling rules and register estimate: what the simulator, the CLI and the app read (host
  // only; sim/src/rung_model.cpp and occupancy.cpp). ----
  static constexpr std::string_view knobs[] = {"bm", "bn", "bk", "tm", "tn", "a_pad", "b_pad", "swizzle"};
  static constexpr KernelConfig defaults() {
    KernelConfig c;
    c.bm = 128, c.bn = 128, c.bk = 8, c.tm = 8, c.tn = 8;
    return c;
  }
  static Status validate([[maybe_unused]] const KernelConfig& c) {
    if (c.tm % 4 != 0 || c.tn % 4 != 0)
      return Error{"tm=" + std::to_string(c.tm) + " and tn=" + std::to_string(c.tn) +
                   " must be multiples of 4: each thread reads its A and B fragments with 128-bit shared loads"};
    if (auto rows = whole_thread_rows(c); !rows) return rows;
    if (auto columns = whole_thread_columns(c); !columns) return columns;
    if (c.bk % 4 != 0)
      return Error{"bk=" + std::to_string(c.bk) + " is not a multiple of 4: the A tile is loaded 4 consecutive k at a time"};
    if (auto padding = padding_keeps_rows_aligned(c, 4, "floats", "128-bit loads"); !padding) return padding;
    if (c.swizzle && c.a_pad != 0)
      return Error{"swizzle=1 replaces the padding of the A tile: set a_pad=0 (or swizzle=0 to use a_pad=" +
                   std::to_string(c.a_pad) + ")"};
    if (c.swizzle && c.bm % 32 != 0)
      return Error{"swizzle=1 permutes groups of 8 16-byte chunks, so bm=" + std::to_string(c.bm) +
                   " must be a multiple of 32; use padding (swizzle=0, a_pad=4) for this tile"};
    const int threads = (c.bm / c.tm) * (c.bn / c.tn);
    const int a_vectors = c.bm * c.bk / 4, b_vectors = c.bk * c.bn / 4;
    if (a_vectors % threads != 0 || b_vectors % threads != 0)
      return Error{"the " + std::to_string(threads) + " threads must share the tile loads evenly, but the A tile has " +
                   std::to_string(a_vectors) + " and the B tile " + std::to_string(b_vectors) +
                   " float4s: change bk (or the tile sizes) so both are multiples of " + std::to_string(threads)};
    const int staged = (a_vectors > b_vectors ? a_vectors : b_vectors) / threads * 4;
    if (staged > KernelConfig::max_loads)
      return Error{"each thread would copy " + std::to_string(staged) + " floats of one tile per k-step; at most " +
                   std::to_string(KernelConfig::max_loads) + " are allowed: use a smaller bk or more threads (smaller tm, tn)"};
    return Ok{};
  }
  // Registers a thread keeps live besides the overhead every kernel has (occupancy.cpp adds it).
  static int live_registers([[maybe_unused]] const KernelConfig& c) {
    const int n = threads(c) > 0 ? threads(c) : 1;  // validate() refuses a tile with no thread; estimate anyway
    const int staged = (c.bm * c.bk + c.bk * c.bn + n - 1) / n;  // one thread's share of a k-step's tiles
    // Loads and fragments are not live at the same time: the tile is copied, then multiplied.
    return c.tm * c.tn + (c.tm + c.tn > staged ? c.tm + c.tn : staged);
  }

};

}  // namespace rungs
}  // namespace gemmlab::kernel
