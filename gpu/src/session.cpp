#include "session.hpp"

#include <utility>

#include "cuda_error.hpp"
#include "gemmlab/gpu/bench.hpp"

namespace gemmlab::gpu {

Result<Session> Session::open(int device) {
  auto devices = list_devices();
  if (!devices) return devices.error();
  if (device < 0 || device >= static_cast<int>(devices->size()))
    return Error{"there is no CUDA device " + std::to_string(device) + ": this machine has " +
                 std::to_string(devices->size()) + " (indices 0 to " + std::to_string(devices->size() - 1) + ")"};
  Session session;
  session.device_ = (*devices)[static_cast<std::size_t>(device)];
  GEMMLAB_CUDA_TRY(cudaSetDevice(device));
  GEMMLAB_CUDA_TRY(cudaStreamCreateWithFlags(&session.stream_, cudaStreamNonBlocking));
  return Result<Session>(std::move(session));
}

Session::Session(Session&& other) noexcept
    : device_(std::move(other.device_)),
      stream_(std::exchange(other.stream_, nullptr)),
      cublas_(std::exchange(other.cublas_, nullptr)),
      gate_(std::exchange(other.gate_, std::nullopt)) {}

Session::~Session() {
  if (cublas_) cublasDestroy(cublas_);
  if (stream_) cudaStreamDestroy(stream_);
}

sim::DeviceLimits Session::limits() const {
  sim::DeviceLimits limits;
  limits.max_smem_per_block_bytes = static_cast<int>(device_.smem_per_block_optin_bytes);
  limits.compute_capability_major = device_.cc_major;
  limits.compute_capability_minor = device_.cc_minor;
  limits.name = device_.name;
  return limits;
}

Result<cublasHandle_t> Session::cublas() {
  if (!cublas_) {
    if (const auto code = cublasCreate(&cublas_); code != CUBLAS_STATUS_SUCCESS) {
      cublas_ = nullptr;
      return cublas_error("cublasCreate", code);
    }
    if (const auto code = cublasSetStream(cublas_, stream_); code != CUBLAS_STATUS_SUCCESS)
      return cublas_error("cublasSetStream", code);
  }
  return cublas_;
}

Result<StreamGate*> Session::gate() {
  if (!gate_) {
    auto made = StreamGate::create();
    if (!made) return made.error();
    gate_.emplace(std::move(*made));
  }
  return &*gate_;
}

Status launch_cublas(cublasHandle_t handle, const GemmArgs& g) {
  const cudaDataType_t in = g.input == kernel::InputType::F16    ? CUDA_R_16F
                            : g.input == kernel::InputType::BF16 ? CUDA_R_16BF
                                                                 : CUDA_R_32F;
  // Row-major C (m x n) = A B is column-major C^T (n x m) = B^T (n x k) A^T (k x m): B first, leading dimension n.
  // FP32 accumulation and an FP32 C for every input type, as the rungs.
  const auto code = cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, g.n, g.m, g.k, &g.alpha, g.b, in, g.n, g.a, in, g.k,
                                 &g.beta, g.c, CUDA_R_32F, g.n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  if (code != CUBLAS_STATUS_SUCCESS)
    return cublas_error("cublasGemmEx (" + std::string(cublas_label(g.input)) + ")", code);
  return Ok{};
}

Status finish(cudaStream_t stream, const std::string& what) {
  if (const cudaError_t code = cudaStreamSynchronize(stream); code != cudaSuccess)
    return cuda_error(what + " (the device may now be unusable in this process)", code);
  return Ok{};
}

}  // namespace gemmlab::gpu
