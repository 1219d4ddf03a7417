#pragma once
// What the model predicts for the selection (the ladder column, the kernel summary and the occupancy panel read it):
// the selected configuration's whole-kernel counters with its occupancy, waves, L2 and time on the device, and each
// rung's predicted speed at the current problem size for the ladder. Both take a while, so they run on workers:
// the kernel's as a job of the "kernel" group, the ladder's one rung at a time in the "ladder" group.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gemmlab/sim/schedule_prediction.hpp"
#include "gemmlab/sim/simulate.hpp"
#include "model/model_context.hpp"

namespace gemmlab::desktop {

// A rung's predicted speed at the current problem size, for the ladder: the roofline bound and the time model's
// prediction, or why there is none.
struct RungPrediction {
  std::optional<double> tflops;            // the roofline bound
  std::string note;                        // the bottleneck in a sentence, or why there is no prediction
  std::optional<double> predicted_tflops;  // the time model's (absent for a profile without measured timing)
  std::string predicted_note;              // its limit in a sentence
  bool pending = true;                     // not computed yet for the current inputs (the ladder shows "...")
};

class PredictionModel {
 public:
  explicit PredictionModel(ModelContext context) : context_(context) {}
  PredictionModel(const PredictionModel&) = delete;
  PredictionModel& operator=(const PredictionModel&) = delete;

  const std::optional<sim::KernelCounters>& kernel_counters() const { return kernel_counters_; }
  bool kernel_counters_current() const {
    return kernel_counters_ && kernel_generation_ == context_.selection.generation();
  }
  // Occupancy, waves, L2 and the roofline of the selected configuration on the device (with the kernel counters).
  const std::optional<sim::SchedulePrediction>& prediction() const { return prediction_; }
  const std::string& prediction_error() const { return prediction_error_; }
  // One entry per rung (ladder order), each with its own current configuration. They fill in one rung at a time on
  // a worker, the selected rung first, and only while no job of the panel on show is running: at 8192^3 a naive
  // rung's prediction takes seconds, and the panel the user looks at comes first.
  const std::vector<RungPrediction>& ladder_predictions() const { return ladder_predictions_; }

  // AppModel's: the selection changed (an invalid one has nothing to predict).
  void selection_changed();
  // Once per frame: asks for what the selection lacks.
  void update();

 private:
  void request_kernel_counters();
  void request_ladder_predictions();

  ModelContext context_;
  std::optional<sim::KernelCounters> kernel_counters_;
  std::uint64_t kernel_generation_ = 0;  // the selection's generation the counters belong to
  std::uint64_t kernel_requested_ = 0;
  std::optional<sim::SchedulePrediction> prediction_;
  std::string prediction_error_;
  std::vector<RungPrediction> ladder_predictions_;
  std::uint64_t ladder_generation_ = 0;          // the selection's generation ladder_predictions_ belong to
  std::optional<std::size_t> ladder_in_flight_;  // the rung whose prediction is being computed
};

}  // namespace gemmlab::desktop
