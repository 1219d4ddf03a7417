// The job runner: work runs off the calling thread, results come back only through run_completions, a superseded
// or cancelled job's result is dropped, and a job that throws becomes a message.
#include "model/job_runner.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <thread>

namespace gemmlab::desktop {
namespace {

using namespace std::chrono_literals;

// Blocks until `flag` is set or the job is cancelled.
bool wait_for(const std::atomic<bool>& flag, JobContext& job) {
  const auto deadline = std::chrono::steady_clock::now() + 10s;
  while (!flag.load() && !job.cancelled() && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(1ms);
  return flag.load();
}

TEST(JobRunner, CompletionRunsOnTheCallersThreadOnly) {
  JobRunner runner;
  std::atomic<bool> release{false};
  std::thread::id worker_thread;
  bool applied = false;
  runner.submit("g", "work", [&](JobContext& job) -> JobRunner::Completion {
    worker_thread = std::this_thread::get_id();
    wait_for(release, job);
    return [&] { applied = true; };
  });
  std::this_thread::sleep_for(20ms);
  EXPECT_FALSE(runner.idle());
  EXPECT_FALSE(applied);
  release = true;
  ASSERT_TRUE(runner.wait_idle(10s));
  EXPECT_TRUE(applied);
  EXPECT_NE(worker_thread, std::this_thread::get_id());
}

TEST(JobRunner, ProgressIsVisibleWhileRunning) {
  JobRunner runner;
  std::atomic<bool> release{false};
  runner.submit("g", "half way", [&](JobContext& job) -> JobRunner::Completion {
    job.set_progress(0.5);
    wait_for(release, job);
    return nullptr;
  });
  double seen = 0.0;
  for (int i = 0; i < 1000 && seen != 0.5; ++i) {
    for (const auto& status : runner.status())
      if (status.running && status.label == "half way") seen = status.progress;
    std::this_thread::sleep_for(1ms);
  }
  EXPECT_EQ(seen, 0.5);
  release = true;
  EXPECT_TRUE(runner.wait_idle(10s));
}

TEST(JobRunner, ANewJobSupersedesTheRunningOneOfItsGroup) {
  JobRunner runner;
  std::atomic<bool> first_started{false}, first_saw_cancel{false};
  int applied = 0;
  runner.submit("g", "first", [&](JobContext& job) -> JobRunner::Completion {
    first_started = true;
    std::atomic<bool> never{false};
    wait_for(never, job);
    first_saw_cancel = job.cancelled();
    return [&] { applied = 1; };
  });
  while (!first_started) std::this_thread::sleep_for(1ms);
  runner.submit("g", "second", [&](JobContext&) -> JobRunner::Completion { return [&] { applied = 2; }; });
  ASSERT_TRUE(runner.wait_idle(10s));
  EXPECT_TRUE(first_saw_cancel);
  EXPECT_EQ(applied, 2);
}

TEST(JobRunner, OtherGroupsRunAlongside) {
  JobRunner runner;
  std::atomic<bool> release{false};
  bool slow_done = false, fast_done = false;
  runner.submit("slow", "slow", [&](JobContext& job) -> JobRunner::Completion {
    wait_for(release, job);
    return [&] { slow_done = true; };
  });
  runner.submit("fast", "fast", [&](JobContext&) -> JobRunner::Completion { return [&] { fast_done = true; }; });
  for (int i = 0; i < 1000 && !fast_done; ++i) {
    runner.run_completions();
    std::this_thread::sleep_for(1ms);
  }
  EXPECT_TRUE(fast_done);
  EXPECT_FALSE(slow_done);
  release = true;
  ASSERT_TRUE(runner.wait_idle(10s));
  EXPECT_TRUE(slow_done);
}

TEST(JobRunner, CancelDropsTheResult) {
  JobRunner runner;
  std::atomic<bool> started{false};
  bool applied = false;
  const auto id = runner.submit("g", "cancel me", [&](JobContext& job) -> JobRunner::Completion {
    started = true;
    std::atomic<bool> never{false};
    wait_for(never, job);
    return [&] { applied = true; };
  });
  while (!started) std::this_thread::sleep_for(1ms);
  runner.cancel(id);
  ASSERT_TRUE(runner.wait_idle(10s));
  EXPECT_FALSE(applied);
}

// A benchmark keeps the rows it measured before Cancel (issue 32, item 11): its completion still runs.
TEST(JobRunner, AJobThatKeepsItsResultCompletesWhenCancelled) {
  JobRunner runner;
  std::atomic<bool> started{false};
  bool saw_cancel = false, applied = false;
  const auto id = runner.submit(
      "g", "keep me",
      [&](JobContext& job) -> JobRunner::Completion {
        started = true;
        std::atomic<bool> never{false};
        wait_for(never, job);
        const bool cancelled = job.cancelled();
        return [&, cancelled] {
          applied = true;
          saw_cancel = cancelled;
        };
      },
      JobRunner::OnCancel::Complete);
  while (!started) std::this_thread::sleep_for(1ms);
  runner.cancel(id);
  ASSERT_TRUE(runner.wait_idle(10s));
  EXPECT_TRUE(applied);
  EXPECT_TRUE(saw_cancel);
}

// ... but not when a newer job of its group supersedes it: its result is stale then.
TEST(JobRunner, ASupersededJobIsDroppedEvenIfItKeepsItsResult) {
  JobRunner runner;
  std::atomic<bool> started{false};
  bool first_applied = false, second_applied = false;
  runner.submit(
      "g", "first",
      [&](JobContext& job) -> JobRunner::Completion {
        started = true;
        std::atomic<bool> never{false};
        wait_for(never, job);
        return [&] { first_applied = true; };
      },
      JobRunner::OnCancel::Complete);
  while (!started) std::this_thread::sleep_for(1ms);
  runner.submit("g", "second", [&](JobContext&) -> JobRunner::Completion { return [&] { second_applied = true; }; });
  ASSERT_TRUE(runner.wait_idle(10s));
  EXPECT_FALSE(first_applied);
  EXPECT_TRUE(second_applied);
}

TEST(JobRunner, AThrowingJobBecomesAFailureMessage) {
  JobRunner runner;
  runner.submit("g", "doomed", [](JobContext&) -> JobRunner::Completion { throw std::runtime_error("out of cheese"); });
  ASSERT_TRUE(runner.wait_idle(10s));
  const auto failures = runner.take_failures();
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_NE(failures[0].find("doomed"), std::string::npos);
  EXPECT_NE(failures[0].find("out of cheese"), std::string::npos);
  EXPECT_TRUE(runner.take_failures().empty());
}

}  // namespace
}  // namespace gemmlab::desktop
