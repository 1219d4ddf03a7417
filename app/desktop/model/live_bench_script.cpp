#include "model/live_bench_script.hpp"

#include <algorithm>
#include <cstdio>

#include "gemmlab/gpu/instances.hpp"
#include "gemmlab/gpu/shapes.hpp"

namespace gemmlab::desktop {

Result<LiveBenchScript> LiveBenchScript::create(std::string sizes, double cancel_after_s, Button button) {
  if (auto shapes = gpu::parse_shapes(sizes); !shapes) return Error{"--live-benchmark: " + shapes.error().message};
  return LiveBenchScript(std::move(sizes), cancel_after_s, button);
}

Status LiveBenchScript::step(AppModel& model, double frame_seconds) {
  BenchmarkModel& benchmark = model.benchmark();
  if (finished_) return Ok{};
  if (!started_) {
    if (!model.gpu_available()) return Error{"--live-benchmark: " + model.gpu_status()};
    benchmark.shapes() = sizes_;  // what the user would type into the panel's Sizes field
    gpu::BenchOptions options;
    options.shapes = *gpu::parse_shapes(sizes_);
    if (button_ == Button::ThisConfiguration) options.kernels = {{model.rung(), model.config()}};
    model.run_benchmark(options);
    started_ = true;
    return Ok{};
  }
  if (!benchmark.running()) {
    finished_ = true;
    return Ok{};
  }
  running_s_ += frame_seconds;
  frame_ms_.push_back(1000.0 * frame_seconds);
  if (cancel_after_s_ > 0 && running_s_ >= cancel_after_s_ && !cancel_pressed_) {
    for (const auto& job : model.jobs().status())  // the header's Cancel button of the benchmark's job
      if (job.group == "bench") model.jobs().cancel(job.id);
    cancel_pressed_ = true;
    cancelled_at_s_ = running_s_;
  }
  return Ok{};
}

std::string LiveBenchScript::summary(const AppModel& model) const {
  const auto& results = model.benchmark().results();
  std::string out = "gemmlab: live benchmark (" + sizes_ + "): ";
  if (button_ == Button::ThisConfiguration)
    out += std::string(rung_info(model.rung()).slug) + " (" + gpu::instance_label({model.rung(), model.config()}) + "): ";
  if (!results) {
    out += "no results shown";
  } else {
    std::size_t timed = 0;
    for (const auto& row : results->report.rows) timed += row.status == gpu::BenchStatus::Timed;
    out += std::to_string(timed) + " of " + std::to_string(results->report.rows.size()) + " rows timed, " +
           results->source;
  }
  char text[200];
  if (cancel_pressed_)
    std::snprintf(text, sizeof text, "; Cancel pressed after %.1f s, the run ended %.1f s later", cancelled_at_s_,
                  running_s_ - cancelled_at_s_);
  else
    std::snprintf(text, sizeof text, "; not cancelled; ran %.1f s", running_s_);
  out += text;
  if (cancel_pressed_ && !model.messages().empty()) out += "; the app says: " + model.messages().back().text;
  if (!frame_ms_.empty()) {
    std::vector<double> sorted = frame_ms_;
    std::sort(sorted.begin(), sorted.end());
    const auto at = [&](double q) {
      return sorted[static_cast<std::size_t>(q * static_cast<double>(sorted.size() - 1))];
    };
    std::snprintf(text, sizeof text, "; %zu frames while it ran: median %.1f ms, 90th percentile %.1f ms, max %.1f ms",
                  sorted.size(), at(0.5), at(0.9), sorted.back());
    out += text;
  }
  return out;
}

}  // namespace gemmlab::desktop
