#include "model/job_runner.hpp"

#include <exception>
#include <utility>

namespace gemmlab::desktop {

JobRunner::~JobRunner() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    for (auto& [group, worker] : workers_) {
      for (auto& job : worker->queue) job->context.cancel_ = true;
      if (worker->current) worker->current->context.cancel_ = true;
      worker->wake.notify_all();
    }
  }
  for (auto& [group, worker] : workers_)
    if (worker->thread.joinable()) worker->thread.join();
}

std::uint64_t JobRunner::submit(const std::string& group, std::string label, Work work, OnCancel on_cancel) {
  std::lock_guard lock(mutex_);
  auto& slot = workers_[group];
  if (!slot) {
    slot = std::make_unique<Worker>();
    Worker* worker = slot.get();
    worker->thread = std::thread([this, worker] { worker_loop(*worker); });
  }
  for (auto& queued : slot->queue) queued->context.cancel_ = true;
  slot->queue.clear();
  if (slot->current) {
    slot->current->context.cancel_ = true;
    slot->current->superseded = true;
  }
  auto job = std::make_shared<Job>();
  job->id = next_id_++;
  job->group = group;
  job->label = std::move(label);
  job->work = std::move(work);
  job->on_cancel = on_cancel;
  slot->queue.push_back(job);
  slot->wake.notify_one();
  return job->id;
}

void JobRunner::cancel(std::uint64_t id) {
  std::lock_guard lock(mutex_);
  for (auto& [group, worker] : workers_) {
    if (worker->current && worker->current->id == id) worker->current->context.cancel_ = true;
    std::erase_if(worker->queue, [id](const auto& job) { return job->id == id; });
  }
  finished_.notify_all();
}

void JobRunner::worker_loop(Worker& worker) {
  std::unique_lock lock(mutex_);
  for (;;) {
    worker.wake.wait(lock, [&] { return stopping_ || !worker.queue.empty(); });
    if (stopping_) return;
    auto job = worker.queue.front();
    worker.queue.pop_front();
    worker.current = job;
    job->running = true;
    job->started = std::chrono::steady_clock::now();
    lock.unlock();
    Completion completion;
    std::string failure;
    try {
      completion = job->work(job->context);
    } catch (const std::exception& error) {
      failure = job->label + " failed: " + error.what();
    }
    lock.lock();
    worker.current.reset();
    if (!failure.empty()) failures_.push_back(std::move(failure));
    // A superseded job's result is stale (its inputs changed): it is dropped, never applied. One cancelled by
    // cancel() is dropped too, unless it keeps what it finished (OnCancel::Complete).
    else if (completion && (!job->context.cancelled() || (job->on_cancel == OnCancel::Complete && !job->superseded)))
      completions_.push_back(std::move(completion));
    finished_.notify_all();
  }
}

int JobRunner::run_completions() {
  std::vector<Completion> ready;
  {
    std::lock_guard lock(mutex_);
    ready.swap(completions_);
  }
  for (auto& completion : ready) completion();
  return static_cast<int>(ready.size());
}

std::vector<std::string> JobRunner::take_failures() {
  std::lock_guard lock(mutex_);
  return std::exchange(failures_, {});
}

bool JobRunner::idle() const {
  std::lock_guard lock(mutex_);
  if (!completions_.empty()) return false;
  for (const auto& [group, worker] : workers_)
    if (worker->current || !worker->queue.empty()) return false;
  return true;
}

bool JobRunner::wait_idle(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    run_completions();  // a completion may submit follow-up work, so check idleness after running them
    if (idle()) return true;
    std::unique_lock lock(mutex_);
    if (finished_.wait_until(lock, deadline, [&] {
          if (!completions_.empty()) return true;
          for (const auto& [group, worker] : workers_)
            if (worker->current || !worker->queue.empty()) return false;
          return true;
        }) == false)
      return false;
  }
}

std::vector<JobStatus> JobRunner::status() const {
  std::lock_guard lock(mutex_);
  std::vector<JobStatus> out;
  const auto now = std::chrono::steady_clock::now();
  for (const auto& [group, worker] : workers_) {
    if (const auto& job = worker->current; job && !job->context.cancelled())
      out.push_back({job->id, group, job->label, job->context.progress_.load(std::memory_order_relaxed), true,
                     std::chrono::duration<double>(now - job->started).count()});
    for (const auto& job : worker->queue) out.push_back({job->id, group, job->label, 0.0, false, 0.0});
  }
  return out;
}

std::optional<JobStatus> JobRunner::job_of(std::string_view group) const {
  for (auto& job : status())
    if (job.group == group) return job;
  return std::nullopt;
}

}  // namespace gemmlab::desktop
