#pragma once
// The desktop app's state and the commands that change it. Panels read the model and call its commands; none keeps
// state of its own. Work that can take a while (opening and replaying a block's stream, simulating the whole
// kernel) runs as jobs on worker threads, and their results come back through update(), called once per frame,
// so everything here is touched by the UI thread only.
#include <array>
#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gemmlab/kernel/block_order.hpp"
#include "gemmlab/kernel/config.hpp"
#include "gemmlab/result.hpp"
#include "gemmlab/rungs.hpp"
#include "gemmlab/sim/block_walker.hpp"
#include "gemmlab/sim/problem.hpp"
#include "gemmlab/sim/schedule_prediction.hpp"
#include "gemmlab/sim/simulate.hpp"
#include "model/bench_results.hpp"
#include "model/docs_page.hpp"
#include "model/job_runner.hpp"
#include "model/layout_lab_model.hpp"
#include "model/shapes_study.hpp"
#include "model/timeline_study.hpp"
#include "model/order_study.hpp"
#include "model/recorded_orders.hpp"
#include "model/settings.hpp"
#include "model/tuning_study.hpp"

namespace gemmlab::desktop {

// The decoded block stream lives in the simulator (gemmlab-cli lists a phase's instructions with it too); the app
// names its pieces as its own.
using sim::BlockOutline;
using sim::BlockWalker;
using sim::decode_global;
using sim::describe_elements;
using sim::ElementRef;
using sim::elements_in_word;
using sim::index_of;
using sim::index_range;
using sim::InstructionKind;
using sim::InstructionView;
using sim::is_kind;
using sim::KeepGoing;
using sim::LaneView;
using sim::PhaseView;
using sim::step_name;

struct Message {
  enum class Level { Info, Warning, Error };
  Level level = Level::Info;
  std::string text;
};

// Where the stepper stands in the selected block's stream: a phase of its schedule, a warp, and that warp's
// instruction within the phase (-1 until the phase is loaded: "its last one", when stepping backwards into it).
struct StepCursor {
  // The block's first phase with memory instructions, once the schedule is known.
  static constexpr std::size_t kFirstBusyPhase = static_cast<std::size_t>(-1);
  std::size_t phase = kFirstBusyPhase;
  int warp = 0;
  int instruction = 0;
};

// How a pannable, zoomable view is placed: content units to pixels, and the offset of content (0, 0) from the
// view's top-left corner. scale 0 means "fit the content on the next draw".
struct ViewTransform {
  float scale = 0.0f;
  float x = 0.0f, y = 0.0f;
  float content_width = 0.0f, content_height = 0.0f;  // what it was fitted to: a new size refits
  float view_width = 0.0f, view_height = 0.0f;        // the view it was fitted into
  bool moved = false;  // panned or zoomed by the user: a new view size keeps the user's placement
};

// A rung's predicted speed at the current problem size, for the ladder: the roofline bound and the time model's
// prediction, or why there is none.
struct RungPrediction {
  std::optional<double> tflops;            // the roofline bound
  std::string note;                        // the bottleneck in a sentence, or why there is no prediction
  std::optional<double> predicted_tflops;  // the time model's (absent for a profile without measured timing)
  std::string predicted_note;              // its limit in a sentence
  bool pending = true;  // not computed yet for the current inputs (the ladder shows "...")
};

// How the launch-order panel colours the grid's tiles: one colour per wave, or a gradient along the launch sequence.
enum class GridColouring { Wave, LaunchOrder };
// "wave", "launch": what the settings and gemmlab --colour-by say.
std::string_view to_string(GridColouring colouring);
std::optional<GridColouring> parse_grid_colouring(std::string_view name);

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

  // ---- What the views read.
  RungId rung() const { return rung_; }
  const kernel::KernelConfig& config() const { return configs_.at(rung_); }
  const kernel::KernelConfig& config_of(RungId rung) const { return configs_.at(rung); }
  const sim::Problem& problem() const { return problem_; }
  const Status& validity() const { return validity_; }  // validate() of rung, configuration and problem
  const std::optional<sim::LaunchShape>& launch() const { return launch_; }  // when valid
  kernel::TileCoord block() const { return block_; }
  const StepCursor& cursor() const { return cursor_; }
  const DocsPage& docs() const { return docs_; }
  const std::vector<std::filesystem::path>& data_roots() const { return data_roots_; }

  // The selected block and the cursor's phase, decoded. They may trail the inputs for a frame or two while a job
  // computes the new ones (then *_current() is false); null before the first result or for an invalid config.
  std::shared_ptr<const BlockOutline> outline() const { return outline_; }
  std::shared_ptr<const PhaseView> phase_view() const { return view_; }
  bool outline_current() const { return outline_ && outline_generation_ == block_generation_; }
  bool view_current() const { return outline_current() && view_ && view_->phase_index == cursor_.phase; }
  // The cursor's instruction (of the selected warp), when the view is current; nullptr otherwise.
  const InstructionView* cursor_instruction() const;
  const std::string& block_error() const { return block_error_; }  // why the block could not be opened

  const std::optional<sim::KernelCounters>& kernel_counters() const { return kernel_counters_; }
  bool kernel_counters_current() const { return kernel_counters_ && kernel_generation_ == config_generation_; }
  // Occupancy, waves, L2 and the roofline of the selected configuration on the device (with the kernel counters).
  const std::optional<sim::SchedulePrediction>& prediction() const { return prediction_; }
  const std::string& prediction_error() const { return prediction_error_; }
  // One entry per rung (ladder order), each with its own current configuration. They fill in one rung at a time on
  // a worker, the selected rung first, and only while no job of the panel on show is running: at 8192^3 a naive
  // rung's prediction takes seconds, and the panel the user looks at comes first.
  const std::vector<RungPrediction>& ladder_predictions() const { return ladder_predictions_; }
  // Measured results on show (recorded, run here, or loaded), and why there are none.
  const std::optional<ShownResults>& results() const { return results_; }
  const std::string& results_message() const { return results_message_; }
  bool benchmark_running() const { return benchmark_running_; }
  // Whether this machine can run the benchmark, and the sentence that says so (no CUDA build, no device, or which).
  bool gpu_available() const { return gpu_available_; }
  const std::string& gpu_status() const { return gpu_status_; }
  // What the benchmark panel's text fields hold (state like any other, edited in place by the panel).
  std::string& results_path() { return results_path_; }
  std::string& bench_shapes() { return bench_shapes_; }
  // The input type the benchmark chart and table show (one at a time: FP16 and BF16 lines would share colours): the
  // one chosen, else the selected rung's first; where the results on show lack it, their first.
  kernel::InputType bench_input_shown() const;
  void show_bench_input(kernel::InputType input) { bench_input_ = input; }
  // The selected rung's tuning study (predicted against measured time per configuration): one run here, else the
  // recorded H100 one once request_tuning_study loaded it; null where there is none, and tuning_message says why.
  const ShownStudy* tuning_study() const;
  const std::string& tuning_message() const;
  bool tuning_running() const { return tuning_running_; }
  // A benchmark or a tuning study is timing on the GPU: the other waits (two would time each other).
  bool gpu_busy() const { return benchmark_running_ || tuning_running_; }
  // The device the predictions are for (the H100 profile), or null when it could not be loaded.
  const sim::DeviceProfile* device() const { return device_ ? &*device_ : nullptr; }

  bool playing() const { return playing_; }
  double play_speed() const { return play_speed_; }  // instructions per second
  const std::string& panel() const { return panel_; }
  const std::vector<Message>& messages() const { return messages_; }
  JobRunner& jobs() { return jobs_; }
  // Pan and zoom of the view named `id` (kept here, not in the panel, like every other piece of state).
  ViewTransform& view_transform(const std::string& id) { return view_transforms_[id]; }
  // The layout lab's question and answer: a model of its own, which the layout-lab panel reads and edits.
  LayoutLabModel& layout_lab() { return layout_lab_; }
  const LayoutLabModel& layout_lab() const { return layout_lab_; }
  // The Shapes panel's sweep: a model of its own, predicted here or loaded from a recorded report.
  ShapesStudy& shapes() { return shapes_; }
  const ShapesStudy& shapes() const { return shapes_; }
  // The model's sweep of the shapes typed, for this device's profile (the H100's without one); and the recorded
  // sweep (kRecordedSweep). Errors go to the study (its error()) as well as to the caller.
  Status predict_shapes();
  Status load_recorded_sweep();
  // The Timeline panel's trace: a model of its own, a file the user names or the one recorded on the H200 for the
  // current rung (recorded_trace); errors go to the study too.
  TimelineStudy& timeline() { return timeline_; }
  const TimelineStudy& timeline() const { return timeline_; }
  // A relative path that is not there from the working directory is looked for in the data roots (the recorded
  // traces' own names, as the panel shows them).
  Status load_trace(const std::filesystem::path& path);
  Status load_recorded_trace();

  // The launch-order panel compares two orders of the current kernel side by side: side 0 (left) and 1 (right).
  static constexpr int kOrderSides = 2;
  const OrderChoice& order_choice(int side) const { return order_sides_.at(static_cast<std::size_t>(side)).choice; }
  // The side's study: null before the first one; for earlier inputs (not current) while a worker computes the new.
  std::shared_ptr<const OrderStudy> order_study(int side) const;
  bool order_study_current(int side) const;
  const std::string& order_error(int side) const;  // why the side has no study for the current inputs
  std::optional<JobStatus> order_job(int side) const;  // the worker computing the side's study, if one is
  // What launch orders measured for the current rung, configuration and problem in the recorded runs (none where
  // nothing was recorded at this size): the hardware's answer beside the studies' predictions.
  std::vector<MeasuredOrder> measured_orders() const;
  int wave_count() const;  // of the studies on show; 0 before the first
  int selected_wave() const { return selected_wave_; }  // -1: all waves
  GridColouring grid_colouring() const { return grid_colouring_; }

  // ---- Commands.
  void select_rung(RungId rung);
  void set_knob(std::string_view name, int value);
  void reset_config();  // the rung's defaults
  void set_config(const kernel::KernelConfig& config);  // every knob of the selected rung (a study's point)
  void set_problem(int m, int n, int k);
  void select_block(kernel::TileCoord tile);
  void select_panel(std::string_view name);
  void step_instruction(int delta);  // by instruction of the selected warp, across phases
  void step_kstep(int delta);        // to the first phase of the next (previous) k-step, prologue or epilogue
  void seek_phase(std::size_t phase);
  void select_warp(int warp);
  void select_instruction(int index);  // of the selected warp in the cursor's phase
  // The command line's way to place the stepper and the wave (gemmlab --phase, --warp, --instruction, --wave).
  // Indices count from 0, as everywhere in gemmlab; one out of range is an error sentence and changes nothing (the
  // commands above clamp, for the keys and buttons). Each needs what it indexes to be known: the block's schedule,
  // the phase's instructions or the prediction's waves, so wait_until_idle comes first.
  Status go_to_phase(std::size_t phase);
  Status go_to_warp(int warp);
  Status go_to_instruction(int index);
  Status go_to_wave(int wave);
  // The next (direction > 0) or previous instruction of `kind` of the selected warp, looking across phases.
  void seek_instruction(InstructionKind kind, int direction);
  void set_playing(bool playing);
  void set_play_speed(double instructions_per_second);
  // Runs the GPU benchmark on a worker (progress and Cancel in the header); its report replaces the results on
  // show. Without a GPU or CUDA the error comes back as a message.
  void run_benchmark(gpu::BenchOptions options);
  // Runs the autotuner on a worker for the selected rung (progress and Cancel in the header): compiles what the build
  // lacks, times the sample next to cuBLAS; the study replaces the rung's one on show.
  void run_tuning_study(gpu::TuneOptions options);
  // The model's ranking of the selected rung's configurations at the problem typed, without a GPU (the autotuner's
  // first two steps, on the job runner's thread): kept with the rung and problem it is of, so the panel shows it only
  // while they are the ones selected. Its best configurations, fastest first.
  struct ModelRanking {
    RungId rung{};
    sim::Problem problem;
    std::vector<gpu::TuneCandidate> best;  // at most kRankingShown
    std::size_t ranked = 0, space = 0;     // configurations predicted, and valid ones in all
  };
  static constexpr std::size_t kRankingShown = 10;
  void rank_by_model();
  bool ranking_running() const { return ranking_running_; }
  // The ranking of the selected rung at the problem typed; null where there is none (yet).
  const ModelRanking* model_ranking() const;
  // Loads the selected rung's recorded study if none is on show (the tuning tab asks every frame it is shown).
  void request_tuning_study();
  void load_results(const std::filesystem::path& path);
  void save_results(const std::filesystem::path& path);
  void show_recorded_results();
  void set_order_choice(int side, OrderChoice choice);
  void select_wave(int wave);  // -1: all waves; clamped once the waves are known
  void step_wave(int delta);   // from all waves, +1 goes to the first and -1 to the last
  void set_grid_colouring(GridColouring colouring);
  // The TMA swizzle mode the banks panel shows for the Hopper rungs: 0 (none), 32, 64 or 128 bytes.
  int tma_swizzle() const { return tma_swizzle_; }
  Status set_tma_swizzle(int mode_bytes);  // an error (and no change) for a mode TMA does not have
  // Starts the studies the launch-order panel lacks; the panel asks every frame it is shown, so the L2 model of a
  // big grid runs only for someone who looks at it. A study the user cancelled waits for recompute_order_study.
  void request_order_studies();
  void recompute_order_study(int side);
  void add_message(Message::Level level, std::string text);
  void dismiss_message(std::size_t index);

  // Once per frame: applies finished jobs, advances playback by `seconds`, asks for the data the cursor needs.
  void update(double seconds);
  // Blocks until no job is pending (screenshots and tests). True when everything finished in time.
  bool wait_until_idle(std::chrono::milliseconds timeout);

  Settings settings() const;
  // The window layout (ImGui's ini text), saved with the settings; the window passes it in when ImGui asks to save.
  void set_window_layout(std::string layout);
  // Saves the settings when they changed since the last save (at most once a second unless `now`).
  void save_settings_if_changed(bool now = false);

 private:
  void inputs_changed(bool config_changed);  // revalidate, clamp the block, bump generations, drop the walker
  void request_view();
  void request_kernel_counters();
  void request_ladder_predictions();
  void resolve_cursor();  // clamps the cursor's warp and instruction into the current view
  std::vector<std::size_t> step_starts() const;  // the first phase of the prologue, each k-step and the epilogue
  void clamp_selected_wave();

  // One side of the order comparison, with the inputs its study and error belong to and those last asked for.
  struct OrderSide {
    OrderChoice choice;
    std::shared_ptr<const OrderStudy> study;
    std::string error;
    std::uint64_t result_generation = 0, requested_generation = 0;  // config_generation_ of the result, the request
    OrderChoice result_choice, requested_choice;
  };

  RungId rung_ = RungId::SmemTiling;
  std::map<RungId, kernel::KernelConfig> configs_;  // every rung's configuration, edits kept when switching rungs
  sim::Problem problem_;
  Status validity_ = Ok{};
  std::optional<sim::LaunchShape> launch_;
  kernel::TileCoord block_;
  StepCursor cursor_;
  DocsPage docs_;
  std::vector<std::filesystem::path> data_roots_;
  std::vector<gpu::BenchReport> order_reports_;  // assets/results/order-runs.txt's reports, read once
  std::string panel_;
  bool playing_ = false;
  double play_speed_ = 8.0;
  double play_clock_ = 0.0;
  std::vector<Message> messages_;
  std::map<std::string, ViewTransform> view_transforms_;
  std::array<OrderSide, kOrderSides> order_sides_;
  int selected_wave_ = -1;
  GridColouring grid_colouring_ = GridColouring::Wave;
  int tma_swizzle_ = 128;
  LayoutLabModel layout_lab_;
  ShapesStudy shapes_;
  TimelineStudy timeline_;
  std::string window_layout_;

  // Results and the generation of the inputs they belong to.
  std::uint64_t config_generation_ = 1;  // rung, configuration, problem
  std::uint64_t block_generation_ = 1;   // the above, or the selected block
  std::shared_ptr<BlockWalker> walker_;  // used by jobs of the "block" group only, one at a time
  std::shared_ptr<const BlockOutline> outline_;
  std::shared_ptr<const PhaseView> view_;
  std::uint64_t outline_generation_ = 0;
  std::string block_error_;
  std::uint64_t requested_generation_ = 0;
  std::size_t requested_phase_ = 0;
  std::optional<sim::KernelCounters> kernel_counters_;
  std::uint64_t kernel_generation_ = 0;
  std::uint64_t kernel_requested_ = 0;
  std::optional<sim::DeviceProfile> device_;
  std::optional<sim::SchedulePrediction> prediction_;
  std::string prediction_error_;
  std::vector<RungPrediction> ladder_predictions_;
  std::optional<ShownResults> results_;
  std::string results_message_;
  bool benchmark_running_ = false;
  std::map<RungId, ShownStudy> studies_;           // by rung: recorded or run here
  std::map<RungId, std::string> study_messages_;   // by rung: why there is no study
  bool tuning_running_ = false;
  bool ranking_running_ = false;
  std::optional<ModelRanking> model_ranking_;
  bool gpu_available_ = false;
  std::string gpu_status_;
  std::string results_path_ = "gemmlab-results.json";
  std::string bench_shapes_ = "1024,2048,4096";
  std::optional<kernel::InputType> bench_input_;
  std::uint64_t ladder_generation_ = 0;  // config_generation_ that ladder_predictions_ belong to
  std::optional<std::size_t> ladder_in_flight_;  // the rung whose prediction is being computed

  std::filesystem::path settings_path_;
  std::string saved_settings_json_;
  std::chrono::steady_clock::time_point last_save_{};

  JobRunner jobs_;  // last member: destroyed first, so no job outlives what its completion refers to
};

}  // namespace gemmlab::desktop
