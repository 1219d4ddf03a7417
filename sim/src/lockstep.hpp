#pragma once
// The lanes of one warp, run in lockstep at its warp-wide operations. The functional executor runs a rung's code one
// thread at a time; ldmatrix and mma, though, are one instruction for all 32 lanes: each lane's registers come from
// the other lanes' addresses or registers. So each lane of the warp runs on a fiber of its own (ucontext): it runs
// until it reaches a warp-wide operation and waits there; when every lane waits at it, the operation is carried out
// for the whole warp at once, and the lanes go on. Code between two warp-wide operations runs lane by lane, as before.
#include <ucontext.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "gemmlab/result.hpp"

namespace gemmlab::sim {

class WarpLockstep {
 public:
  explicit WarpLockstep(std::size_t stack_bytes = std::size_t{256} << 10) : stack_bytes_(stack_bytes) {}
  WarpLockstep(const WarpLockstep&) = delete;
  WarpLockstep& operator=(const WarpLockstep&) = delete;

  // Runs lane_body(lane) for lanes 0 .. lanes - 1. enter(lane) is called each time a lane is about to run (the executor
  // switches to that thread); complete() each time every lane waits at a warp-wide operation, before they go on. An
  // error when some lanes end while others wait: the lanes did not issue the same warp-wide operations.
  Status run(int lanes, const std::function<void(int)>& lane_body, const std::function<void(int)>& enter,
             const std::function<void()>& complete) {
    if (lanes > static_cast<int>(lanes_.size())) grow(lanes);
    body_ = &lane_body;
    for (int lane = 0; lane < lanes; ++lane) {
      Lane& l = lanes_[static_cast<std::size_t>(lane)];
      getcontext(&l.context);
      l.context.uc_stack.ss_sp = l.stack.get();
      l.context.uc_stack.ss_size = stack_bytes_;
      l.context.uc_link = &scheduler_;
      makecontext(&l.context, &WarpLockstep::entry, 0);
      l.state = State::Ready;
    }
    for (;;) {
      int waiting = 0, finished = 0;
      for (int lane = 0; lane < lanes; ++lane) {
        Lane& l = lanes_[static_cast<std::size_t>(lane)];
        if (l.state == State::Ready) {
          enter(lane);
          current_ = this;
          lane_ = lane;
          swapcontext(&scheduler_, &l.context);
        }
        waiting += l.state == State::Waiting;
        finished += l.state == State::Finished;
      }
      if (waiting == 0) return Ok{};
      if (finished > 0)
        return Error{"kernel description error: " + std::to_string(finished) + " lanes of a warp ended while " +
                     std::to_string(waiting) + " waited at a warp-wide operation (ldmatrix, mma): every lane must "
                     "issue the same ones"};
      complete();
      for (int lane = 0; lane < lanes; ++lane) lanes_[static_cast<std::size_t>(lane)].state = State::Ready;
    }
  }

  // Called by the running lane at a warp-wide operation, after it has left what the operation needs: returns once
  // the operation has been carried out for the whole warp.
  void wait_for_warp() {
    Lane& l = lanes_[static_cast<std::size_t>(lane_)];
    l.state = State::Waiting;
    swapcontext(&l.context, &scheduler_);
  }

  int lane() const { return lane_; }

 private:
  enum class State { Ready, Waiting, Finished };
  struct Lane {
    ucontext_t context{};
    std::unique_ptr<char[]> stack;
    State state = State::Finished;
  };

  void grow(int lanes) {
    const auto old = lanes_.size();
    lanes_.resize(static_cast<std::size_t>(lanes));
    for (auto i = old; i < lanes_.size(); ++i) lanes_[i].stack = std::make_unique<char[]>(stack_bytes_);
  }

  // A fiber's first function: the lane's body, then back to the scheduler (uc_link) marked finished.
  static void entry() {
    WarpLockstep* self = current_;
    const int lane = self->lane_;
    (*self->body_)(lane);
    self->lanes_[static_cast<std::size_t>(lane)].state = State::Finished;
  }

  std::size_t stack_bytes_;
  std::vector<Lane> lanes_;
  ucontext_t scheduler_{};
  const std::function<void(int)>* body_ = nullptr;
  int lane_ = 0;
  static inline thread_local WarpLockstep* current_ = nullptr;
};

}  // namespace gemmlab::sim
