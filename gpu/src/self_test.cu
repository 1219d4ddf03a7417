// The smallest proof that this build's kernels run on the device: every thread writes a value computed from its
// index, and the host checks all of them. A kernel image built for the wrong architecture fails here with
// cudaErrorNoKernelImageForDevice rather than later inside a benchmark.
#include <vector>

#include "cuda_error.hpp"
#include "gemmlab/gpu/device.hpp"

namespace gemmlab::gpu {
namespace {

__global__ void write_index_squares(int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i * i;
}

}  // namespace

Status launch_self_test(int device) {
  constexpr int kCount = 1000;  // not a multiple of the block size: the guard is exercised too
  GEMMLAB_CUDA_TRY(cudaSetDevice(device));
  int* buffer = nullptr;
  GEMMLAB_CUDA_TRY(cudaMalloc(&buffer, kCount * sizeof(int)));
  std::vector<int> host(kCount);
  auto run = [&]() -> Status {
    GEMMLAB_CUDA_TRY(cudaMemset(buffer, 0xFF, kCount * sizeof(int)));
    write_index_squares<<<(kCount + 127) / 128, 128>>>(buffer, kCount);
    GEMMLAB_CUDA_TRY(cudaGetLastError());
    GEMMLAB_CUDA_TRY(cudaMemcpy(host.data(), buffer, kCount * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < kCount; ++i)
      if (host[i] != i * i)
        return Error{"self-test kernel wrote " + std::to_string(host[i]) + " at index " + std::to_string(i) +
                     ", expected " + std::to_string(i * i)};
    return Ok{};
  };
  const Status status = run();
  cudaFree(buffer);
  return status;
}

}  // namespace gemmlab::gpu
