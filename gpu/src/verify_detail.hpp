#pragma once
// The pieces of verification the benchmark reuses: one problem's buffers with its reference, and the check of one
// instance against it.
#include <cstdint>

#include "device_buffer.hpp"
#include "gemmlab/gpu/verify.hpp"
#include "reference.hpp"
#include "session.hpp"

namespace gemmlab::gpu {

struct GemmBuffers {
  DeviceBuffer<float> a, b, c0, c;
  DeviceBuffer<double> ref, tol;

  static Result<GemmBuffers> allocate(const Shape& shape);
  // Random A, B and initial C from `seed`, then the FP64 reference for alpha and beta.
  Status prepare(const Shape& shape, float alpha, float beta, std::uint64_t seed, cudaStream_t stream);
  // C before a run: poisoned with NaN when beta == 0, else the initial C.
  Status reset_c(float beta, cudaStream_t stream);
  // C against the reference (synchronizes).
  Result<CheckResult> check(const Shape& shape, cudaStream_t stream) const;
};

// Validates, resets C, launches instance `instance` and checks C. A refusal or a failed check is a CheckResult; an
// error that leaves the device unusable is an Error.
Result<CheckResult> run_and_check(Session& session, GemmBuffers& buffers, std::size_t instance, const Shape& shape,
                                  float alpha, float beta, kernel::BlockOrder order);

std::uint64_t case_seed(std::uint64_t seed, std::size_t shape, std::size_t scalar_case);

}  // namespace gemmlab::gpu
