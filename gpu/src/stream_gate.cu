// StreamGate (stream_gate.hpp): the kernel that holds the stream, and the pinned flags it reads.
#include "stream_gate.hpp"

#include <cstdint>
#include <utility>

#include "cuda_error.hpp"

namespace gemmlab::gpu {
namespace {

__device__ std::uint64_t global_ns() {
  std::uint64_t ns;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
  return ns;
}

// Spins until the host opens close number `close` (flags[0] reaches it; read through the mapping on every pass:
// volatile) or `limit_ns` pass, and then says so in flags[1].
__global__ void hold_until_open(volatile int* flags, int close, std::uint64_t limit_ns) {
  const std::uint64_t start = global_ns();
  while (flags[0] < close) {
    if (global_ns() - start > limit_ns) {
      flags[1] = 1;
      return;
    }
    __nanosleep(500);
  }
}

}  // namespace

Result<StreamGate> StreamGate::create() {
  StreamGate gate;
  void* host = nullptr;
  GEMMLAB_CUDA_TRY(cudaHostAlloc(&host, 2 * sizeof(int), cudaHostAllocMapped));
  gate.host_ = static_cast<volatile int*>(host);
  gate.host_[0] = 0;
  gate.host_[1] = 0;
  void* device = nullptr;
  GEMMLAB_CUDA_TRY(cudaHostGetDevicePointer(&device, host, 0));
  gate.device_ = static_cast<int*>(device);
  return Result<StreamGate>(std::move(gate));
}

StreamGate::StreamGate(StreamGate&& other) noexcept
    : host_(other.host_), device_(other.device_), closes_(other.closes_) {
  other.host_ = nullptr, other.device_ = nullptr;
}

StreamGate::~StreamGate() {
  if (!host_) return;
  open();  // a gate kernel still waiting passes now, instead of reading freed memory (or holding cudaFreeHost's sync)
  cudaFreeHost(const_cast<int*>(host_));
}

Status StreamGate::close(cudaStream_t stream, double limit_seconds) {
  // An error left by an earlier call is that call's: say so, rather than blame the gate's launch for it.
  if (const cudaError_t earlier = cudaGetLastError(); earlier != cudaSuccess)
    return cuda_error("an operation before the stream gate", earlier);
  ++closes_;
  hold_until_open<<<1, 1, 0, stream>>>(device_, closes_, static_cast<std::uint64_t>(limit_seconds * 1e9));
  if (const cudaError_t error = cudaGetLastError(); error != cudaSuccess) {
    open();
    return cuda_error("the stream gate's kernel", error);
  }
  return Ok{};
}

void StreamGate::open() { __atomic_store_n(const_cast<int*>(host_), closes_, __ATOMIC_SEQ_CST); }

bool StreamGate::take_timed_out() {
  const bool gave_up = host_[1] != 0;
  host_[1] = 0;
  return gave_up;
}

}  // namespace gemmlab::gpu
