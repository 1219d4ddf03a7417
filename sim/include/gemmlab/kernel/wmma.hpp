#pragma once
// The WMMA API (nvcuda::wmma, 16 x 16 x 16, FP16/BF16 A and B, FP32 accumulators) as description operations.
//
// WMMA's fragments are opaque: the API promises nothing about which lane holds which element, and it takes a
// pointer and a row stride where ldmatrix takes one address per lane. The GPU executor calls the API itself
// (gpu/src/executor.cuh, `wmma_*`); the simulator's executors have no such calls, and carry out instead what nvcc
// compiles the API into on sm_80 and later, read from the SASS of the wmma rung (scripts/sass-report, and
// docs/rungs/11-wmma.md):
//
//   load_matrix_sync  A, row-major 16 x 16 in shared memory   LDSM.16.M88.4   = ldmatrix.x4 over the block
//                     B, row-major 16 x 16 in shared memory   LDSM.16.MT88.4  = ldmatrix.x4.trans over the block
//   mma_sync          16 x 16 x 16                            2 x HMMA.16816  = two mma.m16n8k16, one per n8 half
//   store_matrix_sync 16 x 16 floats, row-major, to global    STG.E.64 x 4    = each lane's pairs of the two halves
//   load_matrix_sync  accumulator, from global (for beta)     LDG.E.64 x 4
//
// so the fragments hold, on these GPUs, the mma atom's registers (kernel/mma_atom.hpp): an A fragment is the atom's
// A; a B fragment the B registers of the n8 tiles at columns 0 and 8; an accumulator the C values of those two tiles.
// The storage is the API's size (its A and B fragments keep 16 halves per lane for older GPUs' layouts), so the GPU
// executor can hold the API's fragment in it; the simulator uses the first registers.
#include <concepts>
#include <cstdint>

#include "gemmlab/hd.hpp"
#include "gemmlab/kernel/context.hpp"
#include "gemmlab/kernel/executor.hpp"
#include "gemmlab/kernel/mma_atom.hpp"
#include "gemmlab/kernel/vec.hpp"

namespace gemmlab::kernel {

struct Wmma16x16x16 {
  using Atom = MmaM16N8K16;
  static constexpr int m = 16, n = 16, k = 16;
  struct A { std::uint32_t r[8]; };
  struct B { std::uint32_t r[8]; };
  struct Accumulator { float v[8]; };  // v[4 h + i]: the atom's c_i of the n8 half h (columns 8h..8h+7)

  // The lane's share of a 16 x 16 accumulator in memory: pair p (0..3) is (row, col), (row, col + 1) of the block.
  GEMMLAB_HD static int pair_row(int lane, int p) { return Atom::c_row(lane, 2 * (p % 2)); }
  GEMMLAB_HD static int pair_col(int lane, int p) { return 8 * (p / 2) + Atom::c_col(lane, 0); }
};

// An executor that calls the API itself (the GPU's) says so with this member.
template <class X>
concept HasWmmaApi = X::has_wmma_api;

// load_matrix_sync of A or B: the 16 x 16 block whose first element is at shared byte `byte`, rows `row_bytes`
// apart. B is row-major (k rows of n), so .trans turns its 8 x 8 matrices into the atom's column fragments.
template <class X, class Fragment>
  requires std::same_as<Fragment, Wmma16x16x16::A> || std::same_as<Fragment, Wmma16x16x16::B>
GEMMLAB_HD void wmma_load(X& x, Fragment& f, int byte, int row_bytes) {
  using Atom = Wmma16x16x16::Atom;
  if constexpr (HasWmmaApi<X>) {
    x.wmma_load(f, byte, row_bytes);
  } else {
    constexpr bool trans = std::same_as<Fragment, Wmma16x16x16::B>;
    x.ldmatrix(Ldsm<4, trans>{}, f.r,
               [&](int lane) { return byte + Atom::ldsm_row(lane) * row_bytes + 2 * Atom::ldsm_col(lane); });
  }
}

// mma_sync: d = a * b + d.
template <class X>
GEMMLAB_HD void wmma_mma(X& x, Wmma16x16x16::Accumulator& d, const Wmma16x16x16::A& a, const Wmma16x16x16::B& b) {
  using Atom = Wmma16x16x16::Atom;
  if constexpr (HasWmmaApi<X>) {
    x.wmma_mma(d, a, b);
  } else {
    x.mma(Atom{}, d.v, a.r, b.r);          // columns 0..7: B registers 0, 1
    x.mma(Atom{}, d.v + 4, a.r, b.r + 2);  // columns 8..15: B registers 2, 3
  }
}

// What load_matrix_sync and store_matrix_sync of an accumulator become on these GPUs: each lane's 4 pairs of
// neighbouring results, one 64-bit access each. f(p, row, col) for pair p, at (row, col) of the 16 x 16 block.
template <class F>
GEMMLAB_HD void for_each_accumulator_pair(int lane, F&& f) {
  for (int p = 0; p < 4; ++p) f(p, Wmma16x16x16::pair_row(lane, p), Wmma16x16x16::pair_col(lane, p));
}

// load_matrix_sync / store_matrix_sync of an accumulator from / to C (row-major, rows n floats apart), the block at
// element `index`. Only C is read or written this way.
template <class X>
GEMMLAB_HD void wmma_load_c(X& x, Wmma16x16x16::Accumulator& f, const ThreadContext& t, Index index) {
  if constexpr (HasWmmaApi<X>) {
    x.wmma_load_c(f, index, t.n);
  } else {
    for_each_accumulator_pair(t.tid % 32, [&](int p, int row, int col) {
      Vec<2> pair;
      x.ldg(pair, Operand::C, index + Index(row) * t.n + col, true);
      f.v[2 * p] = pair[0], f.v[2 * p + 1] = pair[1];
    });
  }
}

template <class X>
GEMMLAB_HD void wmma_store_c(X& x, const Wmma16x16x16::Accumulator& f, const ThreadContext& t, Index index) {
  if constexpr (HasWmmaApi<X>) {
    x.wmma_store_c(f, index, t.n);
  } else {
    for_each_accumulator_pair(t.tid % 32, [&](int p, int row, int col) {
      Vec<2> pair;
      pair[0] = f.v[2 * p], pair[1] = f.v[2 * p + 1];
      x.stg(Operand::C, index + Index(row) * t.n + col, pair, true);
    });
  }
}

}  // namespace gemmlab::kernel
