#include "model/benchmark_model.hpp"

#include "gemmlab/gpu/instances.hpp"
#include "gemmlab/gpu/runtime_compile.hpp"
#include "gemmlab/sim/rung_model.hpp"

namespace gemmlab::desktop {

kernel::InputType BenchmarkModel::input_shown() const {
  const kernel::InputType wanted = input_ ? *input_ : sim::input_types(context_.selection.rung()).front();
  if (!results_) return wanted;
  // The results on show may lack it (a run of one rung): then their first input type.
  for (const auto& row : results_->report.rows)
    if (row.input == wanted) return wanted;
  return results_->report.rows.empty() ? wanted : results_->report.rows.front().input;
}

void BenchmarkModel::show_recorded_results() {
  auto recorded = load_recorded_results(context_.data_roots);
  if (recorded) {
    results_ = std::move(*recorded);
    results_message_.clear();
  } else {
    results_message_ = recorded.error().message;
  }
}

void BenchmarkModel::load_results(const std::filesystem::path& path) {
  auto loaded = load_results_file(path);
  if (!loaded) {
    context_.messages.add(Message::Level::Error, loaded.error().message);
    return;
  }
  results_ = std::move(*loaded);
}

void BenchmarkModel::save_results(const std::filesystem::path& path) {
  if (!results_) return;
  if (auto saved = save_results_file(path, results_->report); !saved)
    context_.messages.add(Message::Level::Error, saved.error().message);
  else context_.messages.add(Message::Level::Info, "results saved to " + path.string());
}

void BenchmarkModel::run(gpu::BenchOptions options) {
  if (running_) return;
  running_ = true;
  // A configuration the build did not compile is compiled before it runs (seconds): the header says so meanwhile.
  std::string what = "running the benchmark on the GPU";
  for (const gpu::GpuInstance& kernel : options.kernels)
    if (gpu::compiled_at_run_time(kernel))
      what = "compiling " + std::string(rung_info(kernel.rung).slug) + " (" + gpu::instance_label(kernel) +
             ") with nvcc, then timing it on the GPU";
  context_.jobs.submit(
      "bench", what,
      [=, this](JobContext& job) -> JobRunner::Completion {
        auto report = gpu::run_bench(
            options,
            [&](const gpu::BenchProgress& progress) {
              if (progress.total)
                job.set_progress(static_cast<double>(progress.done) / static_cast<double>(progress.total));
            },
            job.cancel_flag());
        return [this, report = std::move(report)] {
          running_ = false;
          RunEnd end;
          end.job = "benchmark";
          if (!report) {
            end.error = report.error().message;
          } else {
            end.cancelled = report->cancelled, end.measured_nothing = report->rows.empty();
            end.device = report->device.name, end.date = report->date_utc;
            end.nothing_kept = "benchmark cancelled before a row was measured; the results on show are unchanged";
            end.partly_kept = "benchmark cancelled: the " + std::to_string(report->rows.size()) +
                              " rows measured before it are shown, marked cancelled part way";
          }
          if (auto label = run_end_label(context_.messages, end)) results_ = ShownResults{*report, *label};
        };
      },
      JobRunner::OnCancel::Complete);
}

void BenchmarkModel::update() {
  // A cancelled (or failed) run's completion is dropped: notice that its job is gone.
  if (running_ && context_.jobs.gone("bench")) {
    running_ = false;
    context_.messages.add(Message::Level::Info, "benchmark cancelled; the results on show are unchanged");
  }
}

}  // namespace gemmlab::desktop
