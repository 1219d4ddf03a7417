#pragma once
// Checking the compiled rung kernels against an FP64 reference computed on the GPU.
//
// For every shape, two cases run, each with fresh random inputs (never zero, see fill_random):
//   alpha = 0.75, beta = 0     C is poisoned with NaN first, so an element the kernel does not write fails;
//   alpha = 1.25, beta = -0.5  C holds random values that the kernel must read and scale.
// An element passes when |out - ref| <= (k + 2) * u * (|alpha| * sum_k |a_ik b_kj| + |beta c_ij|), the bound on
// an FP32 dot product summed in any order, u = 2^-24 (2^-23 for tensor cores; gpu/src/reference.hpp explains it).
// NaN never passes. The tensor-core kernels run on FP16 or BF16 inputs: A and B are rounded first, and the FP64
// reference is computed from the same rounded values.
// A configuration that the rung's validate() refuses for a shape is reported as refused, with its sentence.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "gemmlab/gpu/device.hpp"
#include "gemmlab/gpu/instances.hpp"
#include "gemmlab/gpu/shapes.hpp"
#include "gemmlab/kernel/block_order.hpp"
#include "gemmlab/kernel/element.hpp"
#include "gemmlab/result.hpp"
#include "gemmlab/rungs.hpp"

namespace gemmlab::gpu {

enum class CheckStatus { Passed, Failed, Refused };
std::string_view to_string(CheckStatus status);

struct CheckResult {
  CheckStatus status = CheckStatus::Passed;
  std::string message;          // refused: the validate() sentence; failed: the first bad element, or the error
  std::int64_t bad_elements = 0;
  double worst_ratio = 0.0;     // max |out - ref| / tolerance over C (passes while <= 1)
  double max_abs_error = 0.0;
};

struct VerifyRow {
  GpuInstance kernel;           // the rung and configuration (compiled by the build, or at run time)
  Shape shape;
  float alpha = 1.0f, beta = 0.0f;
  kernel::InputType input = kernel::InputType::F32;  // the element type of A and B in this run
  CheckResult result;
};

struct VerifyOptions {
  std::vector<RungId> rungs;       // empty: every rung that has GPU instances
  bool all_instances = false;      // false: each rung's default configuration only
  // Non-empty: exactly these configurations, in this order (rungs and all_instances are then not read); one that the
  // build did not compile is compiled at run time (gemmlab/gpu/runtime_compile.hpp).
  std::vector<GpuInstance> kernels;
  std::vector<Shape> shapes;       // empty: default_verify_shapes()
  kernel::BlockOrder order{};
  std::vector<kernel::InputType> inputs;  // empty: every input type each kernel takes (FP32; FP16 and BF16)
  int device = 0;
  std::uint64_t seed = 2024;
};

// 1, 7, 33, 127, 1000 and 4097 cubed, and non-square shapes with odd edges in every dimension.
std::span<const Shape> default_verify_shapes();

struct VerifyReport {
  DeviceInfo device;
  std::vector<VerifyRow> rows;
  int passed = 0, failed = 0, refused = 0;
  bool cancelled = false;
};

// Called after each row; `done` of `total` rows.
using VerifyProgress = std::function<void(const VerifyRow& row, std::size_t done, std::size_t total)>;

// Runs every selected instance on every shape and case. A failed check is a row; an error (no GPU, out of memory, a
// CUDA error that leaves the device unusable) ends the run and is returned. Stops early, with cancelled set, when
// *cancel becomes true.
Result<VerifyReport> verify(const VerifyOptions& options, const VerifyProgress& progress = {},
                            const std::atomic<bool>* cancel = nullptr);

// The configurations `verify` and the benchmark run: `kernels` where it is not empty; else, for these rungs (empty:
// every rung with instances), each rung's default configuration or all of its compiled instances. An error names a
// rung that has no GPU kernel in this build.
Result<std::vector<GpuInstance>> select_instances(std::span<const RungId> rungs, bool all_instances,
                                                  std::span<const GpuInstance> kernels = {});

// The input types a configuration's rung takes ({FP32}, or {FP16, BF16}), restricted to `wanted` (empty: all).
std::vector<kernel::InputType> inputs_for(const GpuInstance& kernel, std::span<const kernel::InputType> wanted);

// The input types these configurations run on, in the order FP32, FP16, BF16; an error, before any GPU work, where
// none of them takes any of `wanted` ("mma-swizzled takes fp16, bf16").
Result<std::vector<kernel::InputType>> input_types_to_run(std::span<const GpuInstance> kernels,
                                                         std::span<const kernel::InputType> wanted);

}  // namespace gemmlab::gpu
