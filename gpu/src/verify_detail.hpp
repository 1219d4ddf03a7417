#pragma once
// The pieces of verification the benchmark reuses: one problem's buffers with its reference, and the check of one
// instance against it.
#include <cstdint>
#include <span>
#include <vector>

#include "device_buffer.hpp"
#include "gemmlab/gpu/verify.hpp"
#include "reference.hpp"
#include "session.hpp"

namespace gemmlab::gpu {

struct GemmBuffers {
  DeviceBuffer<float> a, b, c0, c;
  DeviceBuffer<std::uint16_t> a16, b16;  // A and B as FP16 or BF16 for the tensor-core kernels
  DeviceBuffer<double> ref, tol;
  DeviceBuffer<double> tol_half_acc;  // with FP16 inputs: the tolerance of kernels that accumulate in FP16
  kernel::InputType input = kernel::InputType::F32;  // what prepare() made A and B

  static Result<GemmBuffers> allocate(const Shape& shape);
  // Random A, B and initial C from `seed`, A and B rounded to `input` (16-bit copies in a16, b16), then the FP64
  // reference for alpha and beta on those rounded inputs, with the tolerance of `input`'s kernels.
  Status prepare(const Shape& shape, float alpha, float beta, std::uint64_t seed, kernel::InputType input,
                 cudaStream_t stream);
  // The kernel arguments for these buffers (A and B in the prepared input type).
  GemmArgs args(const Shape& shape, float alpha, float beta, kernel::BlockOrder order) const;
  // C before a run: poisoned with NaN when beta == 0, else the initial C.
  Status reset_c(float beta, cudaStream_t stream);
  // C against the reference (synchronizes), with the tolerance of FP32 or (acc = 16) FP16 accumulators.
  Result<CheckResult> check(const Shape& shape, const kernel::KernelConfig& config, cudaStream_t stream) const;
};

// Validates, resets C, launches `kernel` and checks C. A refusal or a failed check is a CheckResult; an
// error that leaves the device unusable is an Error.
Result<CheckResult> run_and_check(Session& session, GemmBuffers& buffers, const GpuInstance& kernel, const Shape& shape,
                                  float alpha, float beta, kernel::BlockOrder order);

std::uint64_t case_seed(std::uint64_t seed, std::size_t shape, std::size_t scalar_case);

}  // namespace gemmlab::gpu
