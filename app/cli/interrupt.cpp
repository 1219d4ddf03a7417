#include "interrupt.hpp"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <utility>

namespace gemmlab::cli {
namespace {

std::atomic<bool> g_interrupted{false};  // lock-free, so the handler may set it
static_assert(std::atomic<bool>::is_always_lock_free);

extern "C" void on_interrupt(int) {
  g_interrupted.store(true);
  std::signal(SIGINT, SIG_DFL);  // a second Ctrl-C stops the program at once
}

}  // namespace

InterruptibleWork::InterruptibleWork(std::string what)
    : what_(std::move(what)), start_(std::chrono::steady_clock::now()), printed_at_(start_) {
  g_interrupted.store(false);
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, &previous_);
}

InterruptibleWork::~InterruptibleWork() {
  sigaction(SIGINT, &previous_, nullptr);
  if (printed_) std::fputs(::isatty(STDERR_FILENO) ? "\n" : "", stderr);
}

bool InterruptibleWork::interrupted() const { return g_interrupted.load(); }

const std::atomic<bool>* InterruptibleWork::stop_flag() const { return &g_interrupted; }

int InterruptibleWork::report_stopped() const {
  std::fprintf(stderr, "%sgemmlab-cli: %s: stopped (Ctrl-C)\n", printed_ && ::isatty(STDERR_FILENO) ? "\n" : "",
               what_.c_str());
  return kExitInterrupted;
}

sim::Progress InterruptibleWork::progress() {
  return [this](double fraction) {
    const auto now = std::chrono::steady_clock::now();
    // Quick runs print nothing; long ones a line a second (rewritten in place on a terminal).
    if (now - start_ >= std::chrono::seconds(1) && now - printed_at_ >= std::chrono::seconds(1)) {
      const bool terminal = ::isatty(STDERR_FILENO);
      std::fprintf(stderr, "%sgemmlab-cli: %s: %.0f%% (Ctrl-C stops)%s", terminal ? "\r" : "", what_.c_str(),
                   100.0 * fraction, terminal ? "" : "\n");
      std::fflush(stderr);
      printed_ = true;
      printed_at_ = now;
    }
    return !interrupted();
  };
}

}  // namespace gemmlab::cli
