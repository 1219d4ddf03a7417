#pragma once
// A scripted press of the benchmark panel's "Run every rung on the GPU" button (or of "Run this configuration", for
// whatever the configuration editor holds), for `gemmlab --live-benchmark`: the
// check that the live benchmark works on a real GPU (tests/app/desktop_live_bench_test.sh, run on the GPU machine by
// scripts/device-desktop). It starts the run the way the panel does, optionally presses the header's Cancel after
// some seconds, keeps the frame times while the run is going, and says when it is over and what the panel shows.
#include <optional>
#include <string>
#include <vector>

#include "gemmlab/result.hpp"
#include "model/app_model.hpp"

namespace gemmlab::desktop {

class LiveBenchScript {
 public:
  // Which of the panel's buttons the script presses.
  enum class Button { EveryRung, ThisConfiguration };
  // sizes: what the panel's Sizes field takes ("256", "1024,2048", "MxNxK"); cancel_after_s <= 0: never cancel.
  static Result<LiveBenchScript> create(std::string sizes, double cancel_after_s, Button button = Button::EveryRung);

  // Once per frame, on the UI thread, with the seconds since the previous frame. Returns an error when the run
  // cannot start (no GPU, a build without CUDA): the same sentence the panel would show.
  Status step(AppModel& model, double frame_seconds);
  bool finished() const { return finished_; }
  // What happened, in one line: the rows shown and where they come from, whether it was cancelled, how long it
  // took, and the frame times while it ran (median, 90th percentile, max).
  std::string summary(const AppModel& model) const;

 private:
  LiveBenchScript(std::string sizes, double cancel_after_s, Button button)
      : sizes_(std::move(sizes)), cancel_after_s_(cancel_after_s), button_(button) {}
  std::string sizes_;
  double cancel_after_s_;
  Button button_;
  bool started_ = false, cancel_pressed_ = false, finished_ = false;
  double running_s_ = 0.0, cancelled_at_s_ = 0.0;
  std::vector<double> frame_ms_;  // frames drawn while the benchmark ran
};

}  // namespace gemmlab::desktop
