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

}  // namespace gemmlab::kernel
