#pragma once
// The GPU side of checking a GEMM: random inputs, a poisoned C, an FP64 reference with a per-element error bound,
// and the comparison. Host functions that enqueue kernels (reference.cu); every one returns the launch's status.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "gemmlab/kernel/element.hpp"
#include "gemmlab/result.hpp"

namespace gemmlab::gpu {

// Fills `count` floats with values uniform in [-1, -1/64] U [1/64, 1], from a counter-based hash of (seed, index):
// reproducible, and never zero, so an element a kernel forgot to multiply in still changes the result.
Status fill_random(float* data, std::size_t count, std::uint64_t seed, cudaStream_t stream);

// Rounds `count` floats in place to FP16 or BF16 (to nearest, ties to even) and writes the 16-bit values to `bits`:
// the tensor-core kernels read `bits`, the FP64 reference the rounded floats, so both see the same inputs.
Status round_to_input(float* data, std::uint16_t* bits, std::size_t count, kernel::InputType type, cudaStream_t stream);

// Every element becomes a quiet NaN (all bits set): an element the kernel does not write fails the comparison.
Status fill_nan(float* data, std::size_t count, cudaStream_t stream);

// ref = alpha * A * B + beta * C0 in FP64 (row-major m x k, k x n, m x n; c0 may be null when beta == 0), and the
// tolerance of every element:
//
//   tol = (k + 2) * u * (|alpha| * sum_k |a_ik| |b_kj| + |beta| * |c0_ij|),   u = unit_roundoff
//
// This is the classic bound on a dot product summed in FP32 in any order, |fl(s) - s| <= k u sum |a b| (to first
// order), plus two more roundings for alpha * acc + beta * c. A correct kernel can never exceed it, whatever its
// summation order or use of FMA; a missing, doubled or misplaced term exceeds it for most elements. u is FP32's
// 2^-24 for FFMA kernels (round to nearest); the tensor cores' FP32 additions are not documented to round to
// nearest (NVIDIA leaves the order and rounding of an mma's internal sums open), so their checks allow a whole ulp,
// u = 2^-23 (kUnitRoundoffTensor). Their products of 16-bit inputs are exact in FP32 either way.
//
// FP16 accumulators (the mma.sync rungs' acc=16) are rounded to FP16 once per mma, after each 16 of k, which the
// reference's k-loop walks in the same steps (every kernel's k-tiles start at 0 and are multiples of 16). To first
// order each rounding errs by at most one FP16 ulp of the sum so far, so `tol_half_acc` (where not null) adds
//
//   |alpha| * 2^-10 * sum over the k16 steps of |the exact sum of the products so far|
//
// to the tolerance above (which still covers the instruction's own sum of 16 products and the FP32 epilogue). A whole
// ulp (2^-10 relative), not half of one, as for the FP32 tensor sums: the rounding of mma's FP16 sum is not documented.
inline constexpr double kUnitRoundoffFp32 = 0x1p-24, kUnitRoundoffTensor = 0x1p-23, kHalfAccumulatorUlp = 0x1p-10;
Status reference_gemm(const float* a, const float* b, const float* c0, double* ref, double* tol, int m, int n, int k,
                      double alpha, double beta, double unit_roundoff, cudaStream_t stream,
                      double* tol_half_acc = nullptr);

struct Comparison {
  std::int64_t checked = 0;
  std::int64_t bad = 0;            // elements outside their tolerance (NaN counts as outside)
  std::int64_t first_bad = -1;     // the lowest index of a bad element
  double worst_ratio = 0.0;        // max |out - ref| / tol (infinity for a NaN)
  double max_abs_error = 0.0;      // max |out - ref| over the finite outputs
  float first_bad_value = 0.0f;    // out[first_bad], ref[first_bad] and tol[first_bad], when there is one
  double first_bad_expected = 0.0;
  double first_bad_tolerance = 0.0;
};

// Compares out (count floats) with ref and tol; synchronizes the stream to read the result.
Result<Comparison> compare_to_reference(const float* out, const double* ref, const double* tol, std::size_t count,
                                        cudaStream_t stream);

}  // namespace gemmlab::gpu
