#pragma once
// Device memory owned by a C++ object: allocation failures come back as an Error naming what was being allocated and
// how much, and the memory is freed on every path out.
#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <utility>

#include "cuda_error.hpp"
#include "gemmlab/result.hpp"

namespace gemmlab::gpu {

template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(DeviceBuffer&& other) noexcept : data_(std::exchange(other.data_, nullptr)), count_(other.count_) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(count_, other.count_);
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() {
    if (data_) cudaFree(data_);
  }

  // `what` names the buffer in the error ("A of 8192 x 8192").
  static Result<DeviceBuffer> allocate(std::size_t count, const std::string& what) {
    DeviceBuffer buffer;
    const std::size_t bytes = count * sizeof(T);
    if (const cudaError_t code = cudaMalloc(&buffer.data_, bytes); code != cudaSuccess) {
      cudaGetLastError();  // an allocation failure is not sticky: clear it so later calls are not blamed
      buffer.data_ = nullptr;
      const std::string mib = std::to_string(bytes / (1024 * 1024));
      if (code == cudaErrorMemoryAllocation)
        return Error{"out of GPU memory: allocating " + mib + " MiB for " + what +
                     " failed; use smaller sizes"};
      return cuda_error("cudaMalloc of " + mib + " MiB for " + what, code);
    }
    buffer.count_ = count;
    return Result<DeviceBuffer>(std::move(buffer));
  }

  T* data() const { return data_; }
  std::size_t size() const { return count_; }

 private:
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

}  // namespace gemmlab::gpu
