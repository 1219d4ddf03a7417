#pragma once
// Vec<N>: N floats moved by one memory instruction (N = 1, 2, 4: 32-, 64- and 128-bit accesses). Aligned like the
// CUDA vector types, so the GPU executor can load it with one LDG.E.128 / LDS.128.
#include "gemmlab/hd.hpp"

namespace gemmlab::kernel {

template <int N>
struct alignas(4 * N) Vec {
  static_assert(N == 1 || N == 2 || N == 4, "a lane moves 4, 8 or 16 bytes");
  float v[N];
  GEMMLAB_HD float& operator[](int i) { return v[i]; }
  GEMMLAB_HD const float& operator[](int i) const { return v[i]; }
};

template <int N>
GEMMLAB_HD Vec<N> zeros() {
  Vec<N> out;
  for (int i = 0; i < N; ++i) out.v[i] = 0.0f;
  return out;
}

// The three global operands of C = alpha * A * B + beta * C (row-major M x K, K x N, M x N), and split-K's workspace
// (rung 22, workspace = 1: a range's FP32 sums, `splits` slices of M x N).
enum class Operand { A = 0, B = 1, C = 2, W = 3 };

}  // namespace gemmlab::kernel
