#pragma once
// CUDA events owned by a C++ object (timing kernels: bench.cpp, trace.cpp), destroyed on every path out.
#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

#include "cuda_error.hpp"
#include "gemmlab/result.hpp"

namespace gemmlab::gpu {

class Events {
 public:
  explicit Events(std::size_t count) : events_(count, nullptr) {}
  Events(const Events&) = delete;
  Events& operator=(const Events&) = delete;
  ~Events() {
    for (cudaEvent_t e : events_)
      if (e) cudaEventDestroy(e);
  }
  Status create() {
    for (cudaEvent_t& e : events_) GEMMLAB_CUDA_TRY(cudaEventCreate(&e));
    return Ok{};
  }
  cudaEvent_t operator[](std::size_t i) const { return events_[i]; }

 private:
  std::vector<cudaEvent_t> events_;
};

}  // namespace gemmlab::gpu
