#pragma once
// The benchmark panel's state (the ladder and occupancy panels read its results too): the measured results on show
// (recorded, run here or loaded) or why there are none, the running benchmark, the panel's text fields and the input
// type its chart shows. A run is a job of the "bench" group; AppModel starts it (run_benchmark) once the GPU is free.
#include <filesystem>
#include <optional>
#include <string>

#include "gemmlab/gpu/bench.hpp"
#include "gemmlab/kernel/config.hpp"
#include "model/bench_results.hpp"
#include "model/model_context.hpp"

namespace gemmlab::desktop {

class BenchmarkModel {
 public:
  explicit BenchmarkModel(ModelContext context) : context_(context) {}
  BenchmarkModel(const BenchmarkModel&) = delete;
  BenchmarkModel& operator=(const BenchmarkModel&) = delete;

  // ---- What the panels read.
  // Measured results on show (recorded, run here, or loaded), and why there are none.
  const std::optional<ShownResults>& results() const { return results_; }
  const std::string& results_message() const { return results_message_; }
  bool running() const { return running_; }
  // What the panel's text fields hold (state like any other, edited in place by the panel).
  std::string& results_path() { return results_path_; }
  std::string& shapes() { return shapes_; }
  // The input type the chart and table show (one at a time: FP16 and BF16 lines would share colours): the one chosen,
  // else the selected rung's first; where the results on show lack it, their first.
  kernel::InputType input_shown() const;

  // ---- Commands.
  void show_input(kernel::InputType input) { input_ = input; }
  // Runs the GPU benchmark on a worker (progress and Cancel in the header); its report replaces the results on show.
  // Without a GPU or CUDA the error comes back as a message. AppModel::run_benchmark calls it when the GPU is free.
  void run(gpu::BenchOptions options);
  void load_results(const std::filesystem::path& path);
  void save_results(const std::filesystem::path& path);
  void show_recorded_results();

  // Once per frame: notices a run that was cancelled (its completion is dropped).
  void update();

 private:
  ModelContext context_;
  std::optional<ShownResults> results_;
  std::string results_message_;
  bool running_ = false;
  std::string results_path_ = "gemmlab-results.json";
  std::string shapes_ = "1024,2048,4096";
  std::optional<kernel::InputType> input_;
};

}  // namespace gemmlab::desktop
