#pragma once
// A gate that holds a stream shut while the host queues timed launches behind it, then opens: the launches then run
// back to back, and the events between them time the GPU, not the host submitting each one. A GEMM of a few
// microseconds takes about as long to submit (tensor maps, the launch itself) as to run, so without the gate its
// events would time whichever of the two is slower. nvbench times kernels the same way (its blocking kernel).
#include <cuda_runtime.h>

#include "gemmlab/result.hpp"

namespace gemmlab::gpu {

class StreamGate {
 public:
  // The host-visible flags (pinned, mapped memory).
  static Result<StreamGate> create();
  StreamGate(StreamGate&& other) noexcept;
  StreamGate& operator=(StreamGate&&) = delete;
  StreamGate(const StreamGate&) = delete;
  ~StreamGate();

  // Queues, on `stream`, a one-thread kernel that spins until this close's open() or `limit_seconds` have passed (a
  // host that fails between the two must not hang the GPU). Closes count up, so a gate kernel still queued from an
  // earlier close passes at its own open, whatever later closes do.
  Status close(cudaStream_t stream, double limit_seconds);
  void open();
  // Whether a gate kernel gave up waiting since the last call (call it once the stream is idle): the runs queued
  // behind it may include host time.
  bool take_timed_out();

 private:
  StreamGate() = default;
  volatile int* host_ = nullptr;  // [0]: the latest close opened, [1]: a kernel gave up
  int closes_ = 0;
  int* device_ = nullptr;
};

// Opens a gate when it goes out of scope: every path out of a queueing loop, errors included, opens it.
class OpenOnExit {
 public:
  explicit OpenOnExit(StreamGate* gate) : gate_(gate) {}
  OpenOnExit(const OpenOnExit&) = delete;
  OpenOnExit& operator=(const OpenOnExit&) = delete;
  ~OpenOnExit() {
    if (gate_) gate_->open();
  }

 private:
  StreamGate* gate_;
};

}  // namespace gemmlab::gpu
