#pragma once
// Turning CUDA and cuBLAS status codes into gemmlab errors: the library never aborts on a failed call.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <string>

#include "gemmlab/result.hpp"

namespace gemmlab::gpu {

inline Error cuda_error(const std::string& what, cudaError_t code) {
  return Error{what + " failed: " + cudaGetErrorName(code) + " (" + cudaGetErrorString(code) + ")"};
}

inline Error cublas_error(const std::string& what, cublasStatus_t code) {
  return Error{what + " failed: " + cublasGetStatusName(code) + " (" + cublasGetStatusString(code) + ")"};
}

}  // namespace gemmlab::gpu

// Inside a function returning a Result: return the error of a failed CUDA call, naming the call.
#define GEMMLAB_CUDA_TRY(call)                                                        \
  do {                                                                                \
    if (const cudaError_t gemmlab_code_ = (call); gemmlab_code_ != cudaSuccess)       \
      return ::gemmlab::gpu::cuda_error(#call, gemmlab_code_);                        \
  } while (0)
