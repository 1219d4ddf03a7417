#pragma once
// Writing one result: C = alpha * acc + beta * C. C is read only when beta != 0, so a C that was never
// initialised (or was poisoned with NaN to catch unwritten elements) does not leak into the result.
#include "gemmlab/hd.hpp"
#include "gemmlab/kernel/context.hpp"
#include "gemmlab/kernel/vec.hpp"

namespace gemmlab::kernel {

template <class X, int N>
GEMMLAB_HD void store_c(X& x, const ThreadContext& t, Index index, Vec<N> acc, bool pred) {
  Vec<N> out;
  if (t.beta != 0.0f) {
    Vec<N> old;
    x.ldg(old, Operand::C, index, pred);
    for (int i = 0; i < N; ++i) out[i] = t.alpha * acc[i] + t.beta * old[i];
  } else {
    for (int i = 0; i < N; ++i) out[i] = t.alpha * acc[i];
  }
  x.stg(Operand::C, index, out, pred);
}

template <class X>
GEMMLAB_HD void store_c(X& x, const ThreadContext& t, Index index, float acc, bool pred) {
  Vec<1> v;
  v[0] = acc;
  store_c(x, t, index, v, pred);
}

// N consecutive results of row `row`, from column `col` (a multiple of N): one N-wide access when rows of C keep it
// aligned (n % N == 0), else N scalar ones, each predicated on its own column. The branch depends only on the problem
// size, so every thread of the launch takes the same one.
template <class X, int N>
GEMMLAB_HD void store_c_run(X& x, const ThreadContext& t, int row, int col, const Vec<N>& acc) {
  if (t.n % N == 0) {
    store_c(x, t, Index(row) * t.n + col, acc, row < t.m && col < t.n);
  } else {
    for (int q = 0; q < N; ++q) store_c(x, t, Index(row) * t.n + col + q, acc[q], row < t.m && col + q < t.n);
  }
}

}  // namespace gemmlab::kernel
