#pragma once
// Long simulations in gemmlab-cli: a progress line on stderr once the work has run for a second, and Ctrl-C stops it
// cleanly (the command says so and exits kExitInterrupted) instead of killing the program mid-output.
#include <atomic>
#include <chrono>
#include <csignal>
#include <string>

#include "gemmlab/sim/progress.hpp"

namespace gemmlab::cli {

inline constexpr int kExitInterrupted = 130;  // what a shell reports for a program stopped by SIGINT

class InterruptibleWork {
 public:
  // While it lives, Ctrl-C (SIGINT) asks the work to stop; a second Ctrl-C kills the program as usual.
  explicit InterruptibleWork(std::string what);  // "simulating smem-tiling"
  ~InterruptibleWork();                          // restores SIGINT's handler and ends the progress line
  InterruptibleWork(const InterruptibleWork&) = delete;
  InterruptibleWork& operator=(const InterruptibleWork&) = delete;

  // For the simulation: prints the progress line (at most once a second), and returns false once Ctrl-C was pressed.
  sim::Progress progress();
  bool interrupted() const;
  // The flag Ctrl-C sets, for work that polls one (gpu::run_bench, gpu::run_sweep).
  const std::atomic<bool>* stop_flag() const;
  // After work that interrupted() stopped: says so on stderr and returns the exit code, kExitInterrupted.
  int report_stopped() const;

 private:
  std::string what_;
  std::chrono::steady_clock::time_point start_, printed_at_;
  bool printed_ = false;
  struct sigaction previous_ {};
};

}  // namespace gemmlab::cli
