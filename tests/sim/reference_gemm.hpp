#pragma once
// The reference the functional executions are checked against, shared by the simulator's tests.
#include <cstddef>
#include <random>
#include <vector>

#include "gemmlab/rungs.hpp"
#include "gemmlab/sim/problem.hpp"
#include "gemmlab/sim/rung_model.hpp"

namespace gemmlab::sim::test_support {

// Small integers: every product and partial sum is exact in FP32, so any summation order gives the same C.
inline std::vector<float> random_integers(std::size_t count, std::mt19937& rng) {
  std::uniform_int_distribution<int> dist(-4, 4);
  std::vector<float> v(count);
  for (auto& x : v) x = static_cast<float>(dist(rng));
  return v;
}

// The nearest problem at least as large that `rung` accepts at its defaults: the 16-bit rungs need n and k multiples
// of 8 (16-byte rows for cp.async.16), so generic tests' odd sizes are rounded up there (m stays odd); where that is
// not enough (wmma stores whole 16 x 16 blocks), m and n are rounded up to 16 as well.
inline Problem admissible(RungId rung, Problem p) {
  const auto up = [](int v, int step) { return (v + step - 1) / step * step; };
  if (rung_info(rung).precision != Precision::FP16BF16) return p;
  p.n = up(p.n, 8), p.k = up(p.k, 8);
  if (validate(rung, rung_model(rung).defaults, p)) return p;
  p.m = up(p.m, 16), p.n = up(p.n, 16);
  return p;
}

// Padding that keeps a rung's shared rows 16-byte aligned: 4 floats, or 8 halves.
inline int aligned_pad(RungId rung) { return rung_info(rung).precision == Precision::FP16BF16 ? 8 : 4; }

inline std::vector<float> reference_gemm(const Problem& p, const std::vector<float>& a, const std::vector<float>& b,
                                         const std::vector<float>& c) {
  std::vector<float> out(c.size());
  for (int i = 0; i < p.m; ++i)
    for (int j = 0; j < p.n; ++j) {
      double acc = 0;
      for (int k = 0; k < p.k; ++k) acc += double(a[std::size_t(i) * p.k + k]) * b[std::size_t(k) * p.n + j];
      const double old = p.beta != 0.0f ? double(c[std::size_t(i) * p.n + j]) : 0.0;
      out[std::size_t(i) * p.n + j] = static_cast<float>(p.alpha * acc + p.beta * old);
    }
  return out;
}

}  // namespace gemmlab::sim::test_support
