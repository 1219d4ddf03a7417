#pragma once
// Work spread over threads, for what runs many independent jobs at once: the tuner's ranking and its nvcc compiles,
// the sweep's compiles.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace gemmlab::gpu {

// `asked` workers, or one per core where it is 0 or less.
inline int worker_count(int asked) {
  if (asked > 0) return asked;
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

// Runs work(i) for i in [0, count) on `workers` threads; stops handing out work once *cancel is set.
template <class Work>
void parallel_for(std::size_t count, int workers, const std::atomic<bool>* cancel, Work&& work) {
  std::atomic<std::size_t> next{0};
  // An exception escaping a worker thread would end the process (the desktop app with it): `work` records its own
  // errors, and whatever it still throws is caught here and ends that worker's share only.
  const auto loop = [&] {
    for (std::size_t i; (i = next++) < count;) {
      if (cancel && cancel->load()) return;
      try {
        work(i);
      } catch (...) {
      }
    }
  };
  std::vector<std::thread> threads;
  for (int t = 1; t < std::min<int>(workers, static_cast<int>(count)); ++t) threads.emplace_back(loop);
  loop();
  for (auto& t : threads) t.join();
}

}  // namespace gemmlab::gpu
