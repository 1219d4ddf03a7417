#pragma once
// Long work off the UI thread. Each job runs on its group's worker thread (one thread per group, so a slow kernel
// simulation never holds up the tile stepper), reports its progress, and can be cancelled. A job returns a
// completion: a function the UI thread runs later (run_completions, once per frame), so the model is only ever
// changed by the UI thread and needs no locks.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace gemmlab::desktop {

// What a running job sees: where to report progress and whether it should stop.
class JobContext {
 public:
  void set_progress(double fraction) { progress_.store(fraction, std::memory_order_relaxed); }
  bool cancelled() const { return cancel_.load(std::memory_order_relaxed); }
  // For library calls that poll a flag themselves (gpu::run_bench).
  const std::atomic<bool>* cancel_flag() const { return &cancel_; }
  // For the simulator's long calls: reports their progress here and stops them when the job is cancelled.
  std::function<bool(double)> progress() {
    return [this](double fraction) {
      set_progress(fraction);
      return !cancelled();
    };
  }

 private:
  friend class JobRunner;
  std::atomic<double> progress_{0.0};
  std::atomic<bool> cancel_{false};
};

struct JobStatus {
  std::uint64_t id = 0;
  std::string group;
  std::string label;
  double progress = 0.0;
  bool running = false;         // false: queued behind another job of its group
  double seconds_running = 0.0;  // since it started (0 while queued)
};

class JobRunner {
 public:
  using Completion = std::function<void()>;
  using Work = std::function<Completion(JobContext&)>;

  JobRunner() = default;
  ~JobRunner();  // cancels every job and joins the workers
  JobRunner(const JobRunner&) = delete;
  JobRunner& operator=(const JobRunner&) = delete;

  // What a job cancelled by cancel() leaves: nothing (its result is stale), or its completion, for work that returns
  // what it finished before it stopped (a benchmark's rows measured so far). A superseded job leaves nothing either way.
  enum class OnCancel { Drop, Complete };

  // Queues `work` on `group`'s worker. A job of the same group that is queued or running is superseded: it is
  // cancelled and its completion will not run. Returns the job's id.
  std::uint64_t submit(const std::string& group, std::string label, Work work, OnCancel on_cancel = OnCancel::Drop);
  void cancel(std::uint64_t id);

  // Runs the completions of finished jobs, uncancelled or kept on cancel (UI thread). Returns how many ran.
  int run_completions();
  // Messages of jobs that threw instead of returning (a bug, or memory exhausted); cleared by the call.
  std::vector<std::string> take_failures();

  bool idle() const;  // nothing queued or running and no completion waiting
  // Blocks until idle or the timeout, running completions as they arrive. True when idle.
  bool wait_idle(std::chrono::milliseconds timeout);
  std::vector<JobStatus> status() const;
  // The job of `group` that is queued or running, if there is one.
  std::optional<JobStatus> job_of(std::string_view group) const;
  // Whether a job of `group` is over: none is queued or running and no completion waits. A cancelled job's completion
  // never runs, so this is how its submitter notices that it is gone.
  bool gone(std::string_view group) const { return !job_of(group) && idle(); }

 private:
  struct Job {
    std::uint64_t id;
    std::string group, label;
    Work work;
    JobContext context;
    OnCancel on_cancel = OnCancel::Drop;
    bool superseded = false;
    bool running = false;
    std::chrono::steady_clock::time_point started{};
  };
  struct Worker {
    std::deque<std::shared_ptr<Job>> queue;
    std::shared_ptr<Job> current;
    std::condition_variable wake;
    std::thread thread;
  };
  void worker_loop(Worker& worker);

  mutable std::mutex mutex_;
  std::condition_variable finished_;
  std::map<std::string, std::unique_ptr<Worker>> workers_;
  std::vector<Completion> completions_;
  std::vector<std::string> failures_;
  std::uint64_t next_id_ = 1;
  bool stopping_ = false;
};

}  // namespace gemmlab::desktop
