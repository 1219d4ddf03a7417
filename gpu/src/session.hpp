#pragma once
// What a verify or bench run holds on the device: the selected device, a stream, and (for the benchmark) a cuBLAS
// handle, released on every path out. Also the run of one instance, shared by both.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <optional>

#include "gemmlab/gpu/device.hpp"
#include "gemmlab/result.hpp"
#include "gemmlab/sim/problem.hpp"
#include "launch.hpp"
#include "stream_gate.hpp"

namespace gemmlab::gpu {

class Session {
 public:
  // Selects `device` (an error says there is none, or which indices exist) and creates the stream.
  static Result<Session> open(int device);
  Session(Session&& other) noexcept;
  Session& operator=(Session&&) = delete;
  Session(const Session&) = delete;
  ~Session();

  const DeviceInfo& device() const { return device_; }
  cudaStream_t stream() const { return stream_; }
  sim::DeviceLimits limits() const;

  // The cuBLAS handle, created on first use.
  Result<cublasHandle_t> cublas();
  // The gate that queues timed runs on the stream (stream_gate.hpp), created on first use.
  Result<StreamGate*> gate();

 private:
  Session() = default;
  DeviceInfo device_;
  cudaStream_t stream_ = nullptr;
  cublasHandle_t cublas_ = nullptr;
  std::optional<StreamGate> gate_;
};

// cuBLAS FP32 (CUBLAS_COMPUTE_32F) on row-major operands: C^T = B^T A^T in cuBLAS's column-major terms, so the
// operands are passed swapped and nothing is transposed in memory.
Status launch_cublas(cublasHandle_t handle, const GemmArgs& args);

// After a kernel: waits for it, turning an asynchronous failure into an error that names `what`.
Status finish(cudaStream_t stream, const std::string& what);

}  // namespace gemmlab::gpu
