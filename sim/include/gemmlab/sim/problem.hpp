#pragma once
#include <string>
// The GEMM to simulate or run: C (m x n) = alpha * A (m x k) * B (k x n) + beta * C, all row-major FP32.
#include <cmath>
#include <limits>

#include "gemmlab/result.hpp"

namespace gemmlab::sim {

struct Problem {
  int m = 0, n = 0, k = 0;
  float alpha = 1.0f, beta = 0.0f;
};

// The largest dimension accepted: every index a kernel computes (row * k + col and so on) stays far inside int64,
// and every tile coordinate inside int.
inline constexpr int kMaxDimension = 1 << 20;

// Whether a number read as a double survives becoming the float alpha and beta are stored in: finite as a float
// (1e39 is not), and not so small that it loses its precision or becomes 0 (1e-46 does); 0 itself is fine.
inline bool fits_float(double value) {
  const double magnitude = std::abs(value);
  return magnitude <= std::numeric_limits<float>::max() &&
         (magnitude == 0.0 || magnitude >= std::numeric_limits<float>::min());
}

// Sizes must be in [1, kMaxDimension] and each matrix at most 2^34 elements; the error says which one is wrong.
Status validate_problem(const Problem& problem);

// The limits a configuration is checked against (defaults: the H100 we measure on).
struct DeviceLimits {
  int max_threads_per_block = 1024;
  int max_smem_per_block_bytes = 232448;  // 227 KiB with cudaFuncSetAttribute opt-in
  // The architecture: the Hopper rungs' TMA and wgmma exist on compute capability 9.0 only (sm_90a).
  int compute_capability_major = 9, compute_capability_minor = 0;
  std::string name = "NVIDIA H100";
};

}  // namespace gemmlab::sim
