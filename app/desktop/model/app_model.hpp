#pragma once
// The desktop app's state and the commands that change it, split by feature as the panels are: the selection every
// panel reads (Selection: rung, configurations, problem), and a model per feature (StepperModel, OrderComparison,
// PredictionModel, BenchmarkModel, TuningModel, LayoutLabModel, ShapesStudy, TimelineStudy). AppModel owns them
// with what they share (the jobs, the messages, the device profile, the data folders), keeps the commands that
// cross features (a new rung, knob or problem tells every feature) and the settings. Panels read the models and call
// their commands; none keeps state of its own. Work that can take a while (opening and replaying a block's stream,
// simulating the whole kernel) runs as jobs on worker threads, and their results come back through update(), called
// once per frame, so everything here is touched by the UI thread only.
#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gemmlab/gpu/bench.hpp"
#include "gemmlab/gpu/tune.hpp"
#include "gemmlab/kernel/config.hpp"
#include "gemmlab/result.hpp"
#include "gemmlab/rungs.hpp"
#include "gemmlab/sim/device_profile.hpp"
#include "gemmlab/sim/problem.hpp"
#include "model/benchmark_model.hpp"
#include "model/docs_page.hpp"
#include "model/job_runner.hpp"
#include "model/layout_lab_model.hpp"
#include "model/messages.hpp"
#include "model/model_context.hpp"
#include "model/order_comparison.hpp"
#include "model/prediction_model.hpp"
#include "model/selection.hpp"
#include "model/settings.hpp"
#include "model/shapes_study.hpp"
#include "model/stepper_model.hpp"
#include "model/timeline_study.hpp"
#include "model/tuning_model.hpp"

namespace gemmlab::desktop {

// How a pannable, zoomable view is placed: content units to pixels, and the offset of content (0, 0) from the
// view's top-left corner. scale 0 means "fit the content on the next draw".
struct ViewTransform {
  float scale = 0.0f;
  float x = 0.0f, y = 0.0f;
  float content_width = 0.0f, content_height = 0.0f;  // what it was fitted to: a new size refits
  float view_width = 0.0f, view_height = 0.0f;        // the view it was fitted into
  bool moved = false;  // panned or zoomed by the user: a new view size keeps the user's placement
};

class AppModel {
 public:
  struct Options {
    Settings settings;
    std::vector<std::string> startup_messages;  // shown as warnings (a settings file that was ignored, ...)
    std::filesystem::path settings_path;        // empty: nothing is saved (screenshots, tests)
    std::vector<std::filesystem::path> data_roots;
  };
  explicit AppModel(Options options);
  AppModel(const AppModel&) = delete;
  AppModel& operator=(const AppModel&) = delete;

  // ---- The selection, which every panel reads.
  const Selection& selection() const { return selection_; }
  RungId rung() const { return selection_.rung(); }
  const kernel::KernelConfig& config() const { return selection_.config(); }
  const kernel::KernelConfig& config_of(RungId rung) const { return selection_.config_of(rung); }
  const sim::Problem& problem() const { return selection_.problem(); }
  const Status& validity() const { return selection_.validity(); }  // validate() of rung, configuration and problem
  const std::optional<sim::LaunchShape>& launch() const { return selection_.launch(); }  // when valid

  // ---- The features, each a model of its own that its panels read and command.
  // The tile stepper: the selected block, the cursor in its stream, playback.
  StepperModel& stepper() { return stepper_; }
  const StepperModel& stepper() const { return stepper_; }
  // The launch-order panel's two orders of the current kernel, side by side.
  OrderComparison& orders() { return orders_; }
  const OrderComparison& orders() const { return orders_; }
  // The kernel's counters and schedule prediction, and the ladder's prediction of every rung.
  const PredictionModel& predictions() const { return predictions_; }
  // Measured results on show and the benchmark run here.
  BenchmarkModel& benchmark() { return benchmark_; }
  const BenchmarkModel& benchmark() const { return benchmark_; }
  // The autotuner's studies and the model's ranking.
  TuningModel& tuning() { return tuning_; }
  const TuningModel& tuning() const { return tuning_; }
  // The layout lab's question and answer, which the layout-lab panel reads and edits.
  LayoutLabModel& layout_lab() { return layout_lab_; }
  const LayoutLabModel& layout_lab() const { return layout_lab_; }
  // The Shapes panel's sweep, predicted here or loaded from a recorded report.
  ShapesStudy& shapes() { return shapes_; }
  const ShapesStudy& shapes() const { return shapes_; }
  // The Timeline panel's trace: a file the user names or the one recorded on the H200 for the current rung.
  TimelineStudy& timeline() { return timeline_; }
  const TimelineStudy& timeline() const { return timeline_; }

  // ---- What the app shares.
  const DocsPage& docs() const { return docs_; }  // the selected rung's page
  const std::vector<std::filesystem::path>& data_roots() const { return data_roots_; }
  // The device the predictions are for (the H100 profile), or null when it could not be loaded.
  const sim::DeviceProfile* device() const { return device_ ? &*device_ : nullptr; }
  // Whether this machine can run the benchmark or a tuning study, and the sentence that says so (no CUDA build, no
  // device, or which).
  bool gpu_available() const { return gpu_available_; }
  const std::string& gpu_status() const { return gpu_status_; }
  // A benchmark or a tuning study is timing on the GPU: the other waits (two would time each other).
  bool gpu_busy() const { return benchmark_.running() || tuning_.running(); }
  const std::string& panel() const { return panel_; }
  const std::vector<Message>& messages() const { return messages_.list(); }
  JobRunner& jobs() { return jobs_; }
  // Pan and zoom of the view named `id` (kept here, not in the panel, like every other piece of state).
  ViewTransform& view_transform(const std::string& id) { return view_transforms_[id]; }
  // The TMA swizzle mode the banks panel shows for the Hopper rungs: 0 (none), 32, 64 or 128 bytes.
  int tma_swizzle() const { return tma_swizzle_; }

  // ---- Commands that cross features: a change of the selection tells every feature that depends on it.
  void select_rung(RungId rung);
  void set_knob(std::string_view name, int value);
  void reset_config();                                  // the rung's defaults
  void set_config(const kernel::KernelConfig& config);  // every knob of the selected rung (a study's point)
  void set_problem(int m, int n, int k);
  void select_panel(std::string_view name);
  // The command line's way to pick a wave (gemmlab --wave; the stepper's go_to_* place the cursor): an index out of
  // the prediction's waves is an error sentence and changes nothing. wait_until_idle comes first.
  Status go_to_wave(int wave);
  // The benchmark and a tuning study of the selected rung, each on a worker once the GPU is free (gpu_busy).
  void run_benchmark(gpu::BenchOptions options);
  void run_tuning_study(gpu::TuneOptions options);
  // The model's sweep of the shapes typed, for this device's profile (the H100's without one); and the recorded
  // sweep (kRecordedSweep). Errors go to the study (its error()) as well as to the caller.
  Status predict_shapes();
  Status load_recorded_sweep();
  // A relative path that is not there from the working directory is looked for in the data roots (the recorded
  // traces' own names, as the panel shows them). Errors go to the study too.
  Status load_trace(const std::filesystem::path& path);
  Status load_recorded_trace();
  Status set_tma_swizzle(int mode_bytes);  // an error (and no change) for a mode TMA does not have
  void add_message(Message::Level level, std::string text) { messages_.add(level, std::move(text)); }
  void dismiss_message(std::size_t index) { messages_.dismiss(index); }

  // Once per frame: applies finished jobs, advances playback by `seconds`, asks for the data the views need.
  void update(double seconds);
  // Blocks until no job is pending (screenshots and tests). True when everything finished in time.
  bool wait_until_idle(std::chrono::milliseconds timeout);

  Settings settings() const;
  // The window layout (ImGui's ini text), saved with the settings; the window passes it in when ImGui asks to save.
  void set_window_layout(std::string layout);
  // Saves the settings when they changed since the last save (at most once a second unless `now`).
  void save_settings_if_changed(bool now = false);

 private:
  void selection_changed(bool new_rung);  // tells the features
  ModelContext context();

  std::vector<std::filesystem::path> data_roots_;
  Result<sim::DeviceProfile> device_;
  MessageLog messages_;
  Selection selection_;
  // The features refer to jobs_ (declared last, so that it is destroyed first) and to the members above.
  StepperModel stepper_;
  OrderComparison orders_;
  PredictionModel predictions_;
  BenchmarkModel benchmark_;
  TuningModel tuning_;
  LayoutLabModel layout_lab_;
  ShapesStudy shapes_;
  TimelineStudy timeline_;

  DocsPage docs_;
  bool gpu_available_ = false;
  std::string gpu_status_;
  std::string panel_;
  std::map<std::string, ViewTransform> view_transforms_;
  int tma_swizzle_ = 128;
  std::string window_layout_;

  std::filesystem::path settings_path_;
  std::string saved_settings_json_;
  std::chrono::steady_clock::time_point last_save_{};

  JobRunner jobs_;  // last member: destroyed first, so no job outlives what its completion refers to
};

}  // namespace gemmlab::desktop
