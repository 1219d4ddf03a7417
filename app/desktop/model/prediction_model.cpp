#include "model/prediction_model.hpp"

#include <algorithm>
#include <exception>

#include "gemmlab/gpu/runtime_compile.hpp"

namespace gemmlab::desktop {

void PredictionModel::selection_changed() {
  if (context_.selection.validity()) return;
  kernel_counters_.reset();
  prediction_.reset();
  prediction_error_.clear();
}

void PredictionModel::update() {
  request_kernel_counters();
  request_ladder_predictions();
}

void PredictionModel::request_kernel_counters() {
  const Selection& selection = context_.selection;
  if (!selection.validity() || kernel_requested_ == selection.generation()) return;
  kernel_requested_ = selection.generation();
  const RungId rung = selection.rung();
  const kernel::KernelConfig config = selection.config();
  const sim::Problem problem = selection.problem();
  const std::uint64_t generation = selection.generation();
  const std::optional<sim::DeviceProfile> device =
      context_.device ? std::optional<sim::DeviceProfile>(*context_.device) : std::nullopt;
  context_.jobs.submit("kernel", "simulating the whole kernel", [=, this](JobContext& job) -> JobRunner::Completion {
    const sim::Progress progress = job.progress();
    auto counters = sim::simulate_kernel(rung, config, problem, sim::part_of(progress, 0.0, 0.5));
    std::optional<Result<sim::SchedulePrediction>> prediction;
    if (counters && device)
      prediction = sim::predict_schedule(rung, config, problem, *counters, {}, *device,
                                         gpu::compiled_facts(rung, config, *device), sim::part_of(progress, 0.5, 1.0));
    if (job.cancelled()) return nullptr;
    return [this, generation, counters = std::move(counters), prediction = std::move(prediction)] {
      if (generation != context_.selection.generation()) return;
      if (!counters) {
        context_.messages.add(Message::Level::Error, "kernel simulation failed: " + counters.error().message);
        return;
      }
      kernel_counters_ = *counters;
      kernel_generation_ = generation;
      prediction_.reset();
      prediction_error_.clear();
      if (prediction && *prediction) prediction_ = **prediction;
      else if (prediction) prediction_error_ = prediction->error().message;
    };
  });
}

void PredictionModel::request_ladder_predictions() {
  if (!context_.device) return;
  const Selection& selection = context_.selection;
  JobRunner& jobs = context_.jobs;
  if (ladder_generation_ != selection.generation()) {  // new inputs: every figure is pending again
    ladder_generation_ = selection.generation();
    ladder_predictions_.assign(rungs().size(), RungPrediction{});
    ladder_in_flight_.reset();  // a job for the old inputs is superseded by the next submit
  }
  if (ladder_in_flight_) {
    // A cancelled job's completion never runs: once no ladder job is left and nothing waits to complete, go on.
    if (!jobs.gone("ladder")) return;
    ladder_in_flight_.reset();
  }
  // The panel on show first: while its jobs run (the block, the kernel counters, the order studies), wait.
  for (const auto& job : jobs.status())
    if (job.group != "ladder" && job.group != "bench" && job.group != "tune") return;
  // The selected rung first (its figure stands beside its configuration), then the ladder in order.
  auto next = static_cast<std::size_t>(selection.rung());
  if (!ladder_predictions_[next].pending) {
    const auto pending = std::ranges::find_if(ladder_predictions_, &RungPrediction::pending);
    if (pending == ladder_predictions_.end()) return;
    next = static_cast<std::size_t>(pending - ladder_predictions_.begin());
  }
  const RungInfo& rung = rungs()[next];
  const kernel::KernelConfig config = selection.config_of(rung.id);
  const sim::Problem problem = selection.problem();
  const sim::DeviceProfile device = *context_.device;
  const std::uint64_t generation = selection.generation();
  ladder_in_flight_ = next;
  const std::string what = "predicting rung " + std::to_string(rung.number);
  jobs.submit("ladder", what, [=, this](JobContext& job) -> JobRunner::Completion {
    RungPrediction p;
    p.pending = false;
    try {  // a job that throws never completes: the chain of rungs would stop here
      auto predicted =
          sim::predict_schedule(rung.id, config, problem, {}, device, gpu::compiled_facts(rung.id, config, device),
                                sim::part_of(job.progress(), 0.0, 1.0));
      if (job.cancelled()) return nullptr;  // superseded or cancelled: request_ladder_predictions notices
      if (predicted) {
        p.tflops = predicted->roofline.predicted_tflops;
        p.note = predicted->roofline.explanation;
        if (predicted->time) {
          p.predicted_tflops = predicted->time->tflops;
          p.predicted_note = predicted->time->explanation;
        }
      } else {
        p.note = predicted.error().message;
      }
    } catch (const std::exception& e) {
      p.note = std::string("the prediction failed: ") + e.what();
    }
    return [this, generation, next, p = std::move(p)] {
      if (generation != ladder_generation_) return;
      ladder_predictions_[next] = p;
      ladder_in_flight_.reset();
    };
  });
}

}  // namespace gemmlab::desktop
