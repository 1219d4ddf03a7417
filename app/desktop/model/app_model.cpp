#include "model/app_model.hpp"

#include <algorithm>
#include <exception>

#include "gemmlab/gpu/device.hpp"
#include "gemmlab/gpu/instances.hpp"
#include "gemmlab/gpu/runtime_compile.hpp"
#include "gemmlab/sim/launch_order.hpp"
#include "gemmlab/sim/rung_model.hpp"
#include "model/paths.hpp"
#include "gemmlab/sim/tma_swizzle.hpp"

namespace gemmlab::desktop {
namespace {

constexpr std::size_t kMaxMessages = 8;

// One worker per side of the order comparison, so the two L2 models run side by side.
std::string order_job_group(int side) { return side == 0 ? "order-left" : "order-right"; }

std::string slug_of(RungId rung) { return std::string(gemmlab::rung_info(rung).slug); }

// A phase's place among the block's steps: the prologue, k-step 0, 1, ..., the epilogue.
int step_of(const sim::PhaseRef& ref, int ksteps) {
  switch (ref.section) {
    case kernel::Section::Prologue: return -1;
    case kernel::Section::Mainloop: return ref.kstep;
    case kernel::Section::Epilogue: return ksteps;
  }
  return 0;
}

}  // namespace

AppModel::AppModel(Options options)
    : data_roots_(std::move(options.data_roots)), settings_path_(std::move(options.settings_path)) {
  for (const auto& rung : rungs()) configs_[rung.id] = sim::rung_model(rung.id).defaults;
  order_reports_ = load_order_reports(data_roots_);
  for (auto& text : options.startup_messages) add_message(Message::Level::Warning, std::move(text));

  const Settings& s = options.settings;
  if (const auto rung = find_rung(s.rung)) rung_ = *rung;
  else add_message(Message::Level::Warning, "saved rung '" + s.rung + "' is unknown; showing " + slug_of(rung_));
  for (const auto& [slug, values] : s.knobs) {
    const auto rung = find_rung(slug);
    if (!rung) {
      add_message(Message::Level::Warning, "saved settings name an unknown rung '" + slug + "'; ignored");
      continue;
    }
    const auto& model = sim::rung_model(*rung);
    for (const auto& [name, value] : values) {
      if (!model.has_knob(name)) {
        add_message(Message::Level::Warning, "rung " + slug + " has no knob '" + name + "'; the saved value was ignored");
        continue;
      }
      configs_[*rung].*sim::find_knob(name)->field = value;
    }
  }
  problem_ = {s.m, s.n, s.k, s.alpha, s.beta};
  block_ = {s.block_row, s.block_col};
  panel_ = s.panel;
  play_speed_ = std::clamp(s.play_speed, 0.5, 240.0);
  for (std::size_t side = 0; side < order_sides_.size(); ++side) {
    const OrderSettings& saved = s.launch_orders[side];
    OrderChoice& choice = order_sides_[side].choice;
    choice.group_size = saved.group_size;  // checked where it is used: a bad size is the panel's sentence
    if (const auto kind = sim::find_order_kind(saved.kind)) choice.kind = *kind;
    else add_message(Message::Level::Warning, "saved launch order '" + saved.kind + "' is unknown; showing row");
  }
  window_layout_ = s.window_layout;
  if (auto swizzle = set_tma_swizzle(s.tma_swizzle); !swizzle)
    add_message(Message::Level::Warning, "saved TMA swizzle: " + swizzle.error().message + "; showing 128 bytes");
  if (const auto colouring = parse_grid_colouring(s.grid_colouring)) grid_colouring_ = *colouring;
  else add_message(Message::Level::Warning, "saved grid colouring '" + s.grid_colouring + "' is unknown; colouring by wave");
  docs_ = load_rung_docs(gemmlab::rung_info(rung_), data_roots_);
  show_recorded_results();
  if (!gpu::built_with_cuda()) {
    gpu_status_ = "This build has no CUDA toolkit, so nothing runs on a GPU here.";
  } else if (auto devices = gpu::list_devices(); !devices || devices->empty()) {
    gpu_status_ = devices ? "no CUDA device" : devices.error().message;
  } else {
    gpu_available_ = true;
    gpu_status_ = "GPU: " + devices->front().name;
  }
  if (auto device = sim::find_device(sim::kDefaultDevice)) device_ = std::move(*device);
  else add_message(Message::Level::Warning, "no predictions: " + device.error().message);
  inputs_changed(true);
  saved_settings_json_ = settings_to_json(settings());
}

const InstructionView* AppModel::cursor_instruction() const {
  if (!view_current()) return nullptr;
  return view_->find(cursor_.warp, cursor_.instruction);
}

void AppModel::inputs_changed(bool config_changed) {
  validity_ = sim::validate(rung_, config(), problem_);
  launch_.reset();
  if (validity_) {
    auto shape = sim::launch_shape(rung_, config(), problem_);
    if (shape) launch_ = std::move(*shape);
    else validity_ = shape.error();
  }
  if (launch_) {
    block_.row = std::clamp(block_.row, 0, launch_->tiles_m - 1);
    block_.col = std::clamp(block_.col, 0, launch_->tiles_n - 1);
    cursor_.warp = std::clamp(cursor_.warp, 0, launch_->warps_per_block - 1);
  }
  if (config_changed) ++config_generation_;
  ++block_generation_;
  walker_.reset();
  block_error_.clear();
  if (!validity_) {
    // Nothing to show for an invalid configuration: the views show the validate() sentence instead.
    outline_.reset();
    view_.reset();
    kernel_counters_.reset();
    prediction_.reset();
    prediction_error_.clear();
    playing_ = false;
    for (auto& side : order_sides_) {
      side.study.reset();
      side.error.clear();
    }
  }
}

void AppModel::select_rung(RungId rung) {
  if (rung == rung_) return;
  rung_ = rung;
  docs_ = load_rung_docs(gemmlab::rung_info(rung_), data_roots_);
  cursor_ = {};
  inputs_changed(true);
}

void AppModel::set_knob(std::string_view name, int value) {
  const sim::Knob* knob = sim::find_knob(name);
  if (!knob || !sim::rung_model(rung_).has_knob(name)) return;
  if (configs_[rung_].*knob->field == value) return;
  configs_[rung_].*knob->field = value;
  inputs_changed(true);
}

void AppModel::set_config(const kernel::KernelConfig& config) {
  configs_[rung_] = config;
  inputs_changed(true);
}

void AppModel::reset_config() {
  configs_[rung_] = sim::rung_model(rung_).defaults;
  inputs_changed(true);
}

void AppModel::set_problem(int m, int n, int k) {
  if (m == problem_.m && n == problem_.n && k == problem_.k) return;
  problem_.m = m, problem_.n = n, problem_.k = k;
  inputs_changed(true);
}

void AppModel::select_block(kernel::TileCoord tile) {
  if (tile.row == block_.row && tile.col == block_.col) return;
  block_ = tile;
  inputs_changed(false);
}

void AppModel::select_panel(std::string_view name) { panel_ = std::string(name); }

std::vector<MeasuredOrder> AppModel::measured_orders() const {
  return desktop::measured_orders(order_reports_, rung_, config(), {problem_.m, problem_.n, problem_.k});
}

std::vector<std::size_t> AppModel::step_starts() const {
  std::vector<std::size_t> starts;
  if (!outline_current()) return starts;
  const auto& schedule = outline_->schedule;
  for (std::size_t i = 0; i < schedule.size(); ++i)
    if (i == 0 || step_of(schedule[i], outline_->shape.ksteps) != step_of(schedule[i - 1], outline_->shape.ksteps))
      starts.push_back(i);
  return starts;
}

void AppModel::step_instruction(int delta) {
  if (!view_current()) return;  // wait for the cursor's phase: stepping needs its instruction count
  const std::size_t phases = outline_->schedule.size();
  int index = cursor_.instruction + delta;
  if (index >= 0 && index < view_->instruction_count(cursor_.warp)) {
    cursor_.instruction = index;
    return;
  }
  if (delta > 0 && cursor_.phase + 1 < phases) {
    cursor_.phase += 1;
    cursor_.instruction = 0;
  } else if (delta < 0 && cursor_.phase > 0) {
    cursor_.phase -= 1;
    cursor_.instruction = -1;  // the last one, once the phase is loaded
  } else if (delta > 0) {
    playing_ = false;  // the end of the block's stream
  }
}

void AppModel::step_kstep(int delta) {
  const auto starts = step_starts();
  if (starts.empty()) return;
  const auto current = std::upper_bound(starts.begin(), starts.end(), cursor_.phase) - starts.begin() - 1;
  const auto target = std::clamp<std::ptrdiff_t>(current + delta, 0, static_cast<std::ptrdiff_t>(starts.size()) - 1);
  // Stepping back from inside a step goes to that step's start first, like a media player.
  const bool inside = cursor_.phase != starts[static_cast<std::size_t>(current)] || cursor_.instruction > 0;
  const std::size_t phase = delta < 0 && inside ? starts[static_cast<std::size_t>(current)]
                                                : starts[static_cast<std::size_t>(target)];
  cursor_.phase = phase;
  cursor_.instruction = 0;
}

void AppModel::seek_phase(std::size_t phase) {
  if (outline_current() && phase >= outline_->schedule.size()) return;
  cursor_.phase = phase;
  cursor_.instruction = 0;
}

void AppModel::select_warp(int warp) {
  if (!launch_) return;
  cursor_.warp = std::clamp(warp, 0, launch_->warps_per_block - 1);
  resolve_cursor();
}

void AppModel::select_instruction(int index) {
  cursor_.instruction = index;
  resolve_cursor();
}

namespace {
// "warp 40 does not exist: the block has warps 0-3".
Error out_of_range(const std::string& what, std::int64_t index, const std::string& whose, std::int64_t count) {
  const std::string has = count > 1 ? what + "s " + index_range(count) : count == 1 ? "only " + what + " 0" : "no " + what + "s";
  return Error{what + " " + std::to_string(index) + " does not exist: " + whose + " " + has + " (indices count from 0)"};
}
}  // namespace

Status AppModel::go_to_phase(std::size_t phase) {
  if (!outline_current()) return Error{"the block's schedule is not known" + (block_error_.empty() ? std::string() : ": " + block_error_)};
  const auto phases = static_cast<std::int64_t>(outline_->schedule.size());
  if (phase >= outline_->schedule.size()) return out_of_range("phase", static_cast<std::int64_t>(phase), "the block has", phases);
  seek_phase(phase);
  return Ok{};
}

Status AppModel::go_to_warp(int warp) {
  if (!launch_) return Error{"there is no launch to pick a warp from: " + (validity_ ? std::string("not computed yet") : validity_.error().message)};
  if (warp < 0 || warp >= launch_->warps_per_block) return out_of_range("warp", warp, "the block has", launch_->warps_per_block);
  select_warp(warp);
  return Ok{};
}

Status AppModel::go_to_instruction(int index) {
  if (!view_current()) return Error{"the phase's instructions are not known yet"};
  const int count = view_->instruction_count(cursor_.warp);
  if (index < 0 || index >= count)
    return out_of_range("instruction", index,
                        "warp " + std::to_string(cursor_.warp) + " in phase " + std::to_string(cursor_.phase) + " has",
                        count);
  select_instruction(index);
  return Ok{};
}

Status AppModel::go_to_wave(int wave) {
  if (!prediction_) return Error{"the launch's waves are not known" + (prediction_error_.empty() ? std::string() : ": " + prediction_error_)};
  const int waves = prediction_->l2.waves.waves;
  if (wave < 0 || wave >= waves) return out_of_range("wave", wave, "the launch has", waves);
  select_wave(wave);
  return Ok{};
}

void AppModel::resolve_cursor() {
  if (!view_current()) return;
  const int count = view_->instruction_count(cursor_.warp);
  if (cursor_.instruction < 0 || cursor_.instruction >= count) cursor_.instruction = std::max(0, count - 1);
}

void AppModel::seek_instruction(InstructionKind kind, int direction) {
  if (!view_current() || !walker_) return;
  const int step = direction >= 0 ? 1 : -1;
  for (int i = cursor_.instruction + step; i >= 0 && i < view_->instruction_count(cursor_.warp); i += step)
    if (is_kind(view_->find(cursor_.warp, i)->instruction, kind)) {
      cursor_.instruction = i;
      return;
    }
  // Not in this phase: a job looks through the following (or preceding) phases.
  auto walker = walker_;
  const std::size_t from = cursor_.phase;
  const std::uint64_t generation = block_generation_;
  const int warp = cursor_.warp;
  jobs_.submit("block", "finding the next instruction", [=, this](JobContext& job) -> JobRunner::Completion {
    const KeepGoing keep_going = [&](double f) {
      job.set_progress(f);
      return !job.cancelled();
    };
    auto found = walker->find_phase(from, step, kind, keep_going);
    if (!found) return nullptr;
    if (!*found)
      return [this, generation, kind, step] {
        if (generation != block_generation_) return;
        const std::string what = kind == InstructionKind::Shared ? "shared-memory" : "global-memory";
        add_message(Message::Level::Info, std::string("no ") + (step > 0 ? "later " : "earlier ") + what +
                                              " instruction in this block's stream");
      };
    auto view = walker->view(**found, keep_going);
    if (!view) return nullptr;
    return [this, generation, kind, step, warp, view = *view] {
      if (generation != block_generation_) return;
      view_ = view;
      cursor_.phase = view->phase_index;
      cursor_.warp = warp;
      const int count = view->instruction_count(warp);
      cursor_.instruction = step > 0 ? 0 : std::max(0, count - 1);
      for (int i = 0; i < count; ++i) {
        const int candidate = step > 0 ? i : count - 1 - i;
        if (is_kind(view->find(warp, candidate)->instruction, kind)) {
          cursor_.instruction = candidate;
          break;
        }
      }
    };
  });
}

void AppModel::set_playing(bool playing) {
  playing_ = playing && static_cast<bool>(validity_);
  play_clock_ = 0.0;
}

void AppModel::set_play_speed(double instructions_per_second) {
  play_speed_ = std::clamp(instructions_per_second, 0.5, 240.0);
}

void AppModel::show_recorded_results() {
  auto recorded = load_recorded_results(data_roots_);
  if (recorded) {
    results_ = std::move(*recorded);
    results_message_.clear();
  } else {
    results_message_ = recorded.error().message;
  }
}

const ShownStudy* AppModel::tuning_study() const {
  const auto it = studies_.find(rung_);
  return it == studies_.end() ? nullptr : &it->second;
}

const std::string& AppModel::tuning_message() const {
  static const std::string none;
  const auto it = study_messages_.find(rung_);
  return it == study_messages_.end() ? none : it->second;
}

void AppModel::request_tuning_study() {
  if (studies_.contains(rung_) || study_messages_.contains(rung_)) return;
  if (!device_) {
    study_messages_[rung_] = "no device profile for the model's predictions";
    return;
  }
  auto recorded = load_recorded_study(data_roots_, rung_, *device_);
  if (recorded) studies_.emplace(rung_, std::move(*recorded));
  else study_messages_[rung_] = recorded.error().message;
}

void AppModel::run_tuning_study(gpu::TuneOptions options) {
  if (gpu_busy()) return;  // one timing run at a time: two would time each other
  if (!device_) {
    add_message(Message::Level::Error, "tuning: no device profile for the model's predictions");
    return;
  }
  tuning_running_ = true;
  options.profile = *device_;
  const std::string what = "tuning " + std::string(rung_info(options.rung).slug) + " on the GPU";
  jobs_.submit("tune", what, [=, this](JobContext& job) -> JobRunner::Completion {
    auto report = gpu::run_tune(
        options,
        [&](const gpu::TuneProgress& p) { job.set_progress(gpu::fraction_done(p)); },
        job.cancel_flag());
    return [this, rung = options.rung, report = std::move(report)] {
      tuning_running_ = false;
      if (!report) {
        add_message(Message::Level::Error, "tuning: " + report.error().message);
        return;
      }
      if (report->cancelled && report->measured.empty()) {
        add_message(Message::Level::Info, "tuning cancelled before a configuration was timed; the study on show is unchanged");
        return;
      }
      if (report->cancelled) add_message(Message::Level::Info, "tuning cancelled: what it timed before is shown");
      const std::string when = report->cancelled ? "measured now (cancelled part way)" : "measured now";
      studies_.insert_or_assign(rung, ShownStudy{*report, when + " on the " + report->bench.device.name + ", " +
                                                              report->bench.date_utc, std::nullopt, ""});
      study_messages_.erase(rung);
    };
  }, JobRunner::OnCancel::Complete);
}

void AppModel::rank_by_model() {
  if (ranking_running_) return;
  if (!device_) {
    add_message(Message::Level::Error, "ranking: no device profile for the model's predictions");
    return;
  }
  ranking_running_ = true;
  gpu::TuneOptions options;
  options.rung = rung_;
  options.shape = {problem_.m, problem_.n, problem_.k};
  options.profile = *device_;
  const sim::Problem problem = problem_;
  const std::string what = "ranking " + std::string(rung_info(rung_).slug) + "'s configurations by the model";
  jobs_.submit("rank", what, [=, this](JobContext& job) -> JobRunner::Completion {
    auto ranking = gpu::rank_configurations(
        options, [&](const gpu::TuneProgress& p) { job.set_progress(std::min(1.0, gpu::fraction_done(p) * 5.0)); },  // ranking: the study's first fifth
        job.cancel_flag());
    return [this, rung = options.rung, problem, ranking = std::move(ranking)] {
      ranking_running_ = false;
      if (!ranking) {
        add_message(Message::Level::Error, "ranking: " + ranking.error().message);
        return;
      }
      ModelRanking shown{rung, problem, {}, ranking->ranked.size(), ranking->space};
      for (std::size_t i = 0; i < ranking->ranked.size() && i < kRankingShown; ++i)
        shown.best.push_back(ranking->ranked[i]);
      model_ranking_ = std::move(shown);
    };
  }, JobRunner::OnCancel::Complete);
}

const AppModel::ModelRanking* AppModel::model_ranking() const {
  if (!model_ranking_ || model_ranking_->rung != rung_) return nullptr;
  const sim::Problem& p = model_ranking_->problem;
  return p.m == problem_.m && p.n == problem_.n && p.k == problem_.k ? &*model_ranking_ : nullptr;
}

void AppModel::load_results(const std::filesystem::path& path) {
  auto loaded = load_results_file(path);
  if (!loaded) {
    add_message(Message::Level::Error, loaded.error().message);
    return;
  }
  results_ = std::move(*loaded);
}

void AppModel::save_results(const std::filesystem::path& path) {
  if (!results_) return;
  if (auto saved = save_results_file(path, results_->report); !saved) add_message(Message::Level::Error, saved.error().message);
  else add_message(Message::Level::Info, "results saved to " + path.string());
}

kernel::InputType AppModel::bench_input_shown() const {
  const kernel::InputType wanted = bench_input_ ? *bench_input_ : sim::input_types(rung_).front();
  if (!results_) return wanted;
  // The results on show may lack it (a run of one rung): then their first input type.
  for (const auto& row : results_->report.rows)
    if (row.input == wanted) return wanted;
  return results_->report.rows.empty() ? wanted : results_->report.rows.front().input;
}

void AppModel::run_benchmark(gpu::BenchOptions options) {
  if (gpu_busy()) return;  // one timing run at a time: two would time each other
  benchmark_running_ = true;
  // A configuration the build did not compile is compiled before it runs (seconds): the header says so meanwhile.
  std::string what = "running the benchmark on the GPU";
  for (const gpu::GpuInstance& kernel : options.kernels)
    if (gpu::compiled_at_run_time(kernel))
      what = "compiling " + std::string(rung_info(kernel.rung).slug) + " (" + gpu::instance_label(kernel) +
             ") with nvcc, then timing it on the GPU";
  jobs_.submit("bench", what, [=, this](JobContext& job) -> JobRunner::Completion {
    auto report = gpu::run_bench(
        options,
        [&](const gpu::BenchProgress& progress) {
          if (progress.total) job.set_progress(static_cast<double>(progress.done) / static_cast<double>(progress.total));
        },
        job.cancel_flag());
    return [this, report = std::move(report)] {
      benchmark_running_ = false;
      if (!report) {
        add_message(Message::Level::Error, "benchmark: " + report.error().message);
        return;
      }
      if (report->cancelled && report->rows.empty()) {
        add_message(Message::Level::Info, "benchmark cancelled before a row was measured; the results on show are unchanged");
        return;
      }
      if (report->cancelled)
        add_message(Message::Level::Info, "benchmark cancelled: the " + std::to_string(report->rows.size()) +
                                              " rows measured before it are shown, marked cancelled part way");
      const std::string when = report->cancelled ? "measured now (cancelled part way)" : "measured now";
      results_ = ShownResults{*report, when + " on the " + report->device.name + ", " + report->date_utc};
    };
  }, JobRunner::OnCancel::Complete);
}

std::shared_ptr<const OrderStudy> AppModel::order_study(int side) const {
  return order_sides_.at(static_cast<std::size_t>(side)).study;
}

bool AppModel::order_study_current(int side) const {
  const OrderSide& s = order_sides_.at(static_cast<std::size_t>(side));
  return s.study && s.result_generation == config_generation_ && s.result_choice == s.choice;
}

const std::string& AppModel::order_error(int side) const {
  static const std::string none;
  const OrderSide& s = order_sides_.at(static_cast<std::size_t>(side));
  return s.result_generation == config_generation_ && s.result_choice == s.choice ? s.error : none;
}

std::optional<JobStatus> AppModel::order_job(int side) const {
  for (auto& job : jobs_.status())
    if (job.group == order_job_group(side)) return job;
  return std::nullopt;
}

int AppModel::wave_count() const {
  for (int side = 0; side < kOrderSides; ++side)
    if (order_study_current(side)) return order_study(side)->prediction.l2.waves.waves;
  for (const auto& side : order_sides_)
    if (side.study) return side.study->prediction.l2.waves.waves;
  return 0;
}

void AppModel::set_order_choice(int side, OrderChoice choice) {
  order_sides_.at(static_cast<std::size_t>(side)).choice = choice;
}

void AppModel::select_wave(int wave) {
  selected_wave_ = std::max(-1, wave);
  clamp_selected_wave();
}

void AppModel::step_wave(int delta) {
  const int waves = wave_count();
  if (waves == 0 || delta == 0) return;
  if (selected_wave_ < 0) selected_wave_ = delta > 0 ? 0 : waves - 1;
  else selected_wave_ = std::clamp(selected_wave_ + delta, 0, waves - 1);
}

void AppModel::clamp_selected_wave() {
  if (const int waves = wave_count(); waves > 0) selected_wave_ = std::min(selected_wave_, waves - 1);
}

std::string_view to_string(GridColouring colouring) { return colouring == GridColouring::LaunchOrder ? "launch" : "wave"; }

std::optional<GridColouring> parse_grid_colouring(std::string_view name) {
  for (const GridColouring colouring : {GridColouring::Wave, GridColouring::LaunchOrder})
    if (to_string(colouring) == name) return colouring;
  return std::nullopt;
}

void AppModel::set_grid_colouring(GridColouring colouring) { grid_colouring_ = colouring; }

Status AppModel::set_tma_swizzle(int mode_bytes) {
  // The view shows the mode on rows of its own width, or, without a swizzle, the rungs' 128-byte rows.
  if (auto image = sim::swizzle_image(mode_bytes, mode_bytes == 0 ? 128 : mode_bytes); !image) return image.error();
  tma_swizzle_ = mode_bytes;
  return Ok{};
}

void AppModel::set_window_layout(std::string layout) { window_layout_ = std::move(layout); }

void AppModel::recompute_order_study(int side) { order_sides_.at(static_cast<std::size_t>(side)).requested_generation = 0; }

void AppModel::request_order_studies() {
  if (!validity_ || !device_) return;
  for (int index = 0; index < kOrderSides; ++index) {
    OrderSide& side = order_sides_[static_cast<std::size_t>(index)];
    if (side.requested_generation == config_generation_ && side.requested_choice == side.choice) continue;
    side.requested_generation = config_generation_;
    side.requested_choice = side.choice;
    const std::uint64_t generation = config_generation_;
    const OrderChoice choice = side.choice;
    // The result (or the error) is applied only if the side still wants it.
    const auto apply = [this, index, generation, choice](std::shared_ptr<const OrderStudy> study, std::string error) {
      OrderSide& s = order_sides_[static_cast<std::size_t>(index)];
      if (generation != config_generation_ || !(choice == s.choice)) return;
      if (study) s.study = std::move(study);
      s.error = std::move(error);
      s.result_generation = generation;
      s.result_choice = choice;
      clamp_selected_wave();
    };
    auto order = choice.order();
    if (!order) {
      apply(nullptr, order.error().message);
      continue;
    }
    const RungId rung = rung_;
    const kernel::KernelConfig config = this->config();
    const sim::Problem problem = problem_;
    const sim::DeviceProfile device = *device_;
    const kernel::BlockOrder block_order = *order;
    jobs_.submit(order_job_group(index), "L2 model of " + choice.name(),
                 [=](JobContext& job) -> JobRunner::Completion {
                   auto study = study_order(rung, config, problem, block_order, device, job.progress());
                   if (job.cancelled()) return nullptr;
                   if (!study) return [apply, error = study.error().message] { apply(nullptr, error); };
                   return [apply, study = std::move(*study)] { apply(study, {}); };
                 });
  }
}

void AppModel::add_message(Message::Level level, std::string text) {
  messages_.push_back({level, std::move(text)});
  if (messages_.size() > kMaxMessages) messages_.erase(messages_.begin());
}

void AppModel::dismiss_message(std::size_t index) {
  if (index < messages_.size()) messages_.erase(messages_.begin() + static_cast<std::ptrdiff_t>(index));
}

void AppModel::request_view() {
  if (!validity_) return;
  if (view_current()) return;
  if (requested_generation_ == block_generation_ && requested_phase_ == cursor_.phase) return;
  requested_generation_ = block_generation_;
  requested_phase_ = cursor_.phase;
  auto walker = walker_;
  const RungId rung = rung_;
  const kernel::KernelConfig config = this->config();
  const sim::Problem problem = problem_;
  const kernel::TileCoord tile = block_;
  const std::size_t phase = cursor_.phase;
  const std::uint64_t generation = block_generation_;
  jobs_.submit("block", "replaying the block's stream", [=, this](JobContext& job) -> JobRunner::Completion {
    std::shared_ptr<BlockWalker> w = walker;
    if (!w) {
      auto opened = BlockWalker::open(rung, config, problem, tile);
      if (!opened)
        return [this, generation, error = opened.error().message] {
          if (generation != block_generation_) return;
          block_error_ = error;
        };
      w = std::move(*opened);
    }
    std::size_t target = std::min(phase, w->outline()->schedule.size() - 1);
    if (phase == StepCursor::kFirstBusyPhase) {
      // Start where the block first touches memory (a prologue may only clear registers).
      auto first = w->first_busy_phase();
      target = first ? *first : 0;
    }
    auto view = w->view(target, [&](double f) {
      job.set_progress(f);
      return !job.cancelled();
    });
    if (!view) {
      if (job.cancelled()) return nullptr;
      return [this, generation, error = view.error().message] {
        if (generation == block_generation_) block_error_ = error;
      };
    }
    return [this, generation, w, view = *view] {
      if (generation != block_generation_) return;
      walker_ = w;
      outline_ = w->outline();
      outline_generation_ = generation;
      view_ = view;
      cursor_.phase = view->phase_index;
      resolve_cursor();
    };
  });
}

void AppModel::request_kernel_counters() {
  if (!validity_ || kernel_requested_ == config_generation_) return;
  kernel_requested_ = config_generation_;
  const RungId rung = rung_;
  const kernel::KernelConfig config = this->config();
  const sim::Problem problem = problem_;
  const std::uint64_t generation = config_generation_;
  const std::optional<sim::DeviceProfile> device = device_;
  jobs_.submit("kernel", "simulating the whole kernel", [=, this](JobContext& job) -> JobRunner::Completion {
    const sim::Progress progress = job.progress();
    auto counters = sim::simulate_kernel(rung, config, problem, sim::part_of(progress, 0.0, 0.5));
    std::optional<Result<sim::SchedulePrediction>> prediction;
    if (counters && device)
      prediction = sim::predict_schedule(rung, config, problem, *counters, {}, *device,
                                         gpu::compiled_facts(rung, config, *device),
                                         sim::part_of(progress, 0.5, 1.0));
    if (job.cancelled()) return nullptr;
    return [this, generation, counters = std::move(counters), prediction = std::move(prediction)] {
      if (generation != config_generation_) return;
      if (!counters) {
        add_message(Message::Level::Error, "kernel simulation failed: " + counters.error().message);
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

void AppModel::request_ladder_predictions() {
  if (!device_) return;
  if (ladder_generation_ != config_generation_) {  // new inputs: every figure is pending again
    ladder_generation_ = config_generation_;
    ladder_predictions_.assign(rungs().size(), RungPrediction{});
    ladder_in_flight_.reset();  // a job for the old inputs is superseded by the next submit
  }
  if (ladder_in_flight_) {
    // A cancelled job's completion never runs: once no ladder job is left and nothing waits to complete, go on.
    for (const auto& job : jobs_.status())
      if (job.group == "ladder") return;
    if (!jobs_.idle()) return;
    ladder_in_flight_.reset();
  }
  // The panel on show first: while its jobs run (the block, the kernel counters, the order studies), wait.
  for (const auto& job : jobs_.status())
    if (job.group != "ladder" && job.group != "bench" && job.group != "tune") return;
  // The selected rung first (its figure stands beside its configuration), then the ladder in order.
  auto next = static_cast<std::size_t>(rung_);
  if (!ladder_predictions_[next].pending) {
    const auto pending = std::ranges::find_if(ladder_predictions_, &RungPrediction::pending);
    if (pending == ladder_predictions_.end()) return;
    next = static_cast<std::size_t>(pending - ladder_predictions_.begin());
  }
  const RungInfo& rung = rungs()[next];
  const kernel::KernelConfig config = configs_.at(rung.id);
  const sim::Problem problem = problem_;
  const sim::DeviceProfile device = *device_;
  const std::uint64_t generation = config_generation_;
  ladder_in_flight_ = next;
  jobs_.submit("ladder", "predicting rung " + std::to_string(rung.number), [=, this](JobContext& job) -> JobRunner::Completion {
    RungPrediction p;
    p.pending = false;
    try {  // a job that throws never completes: the chain of rungs would stop here
      auto predicted = sim::predict_schedule(rung.id, config, problem, {}, device,
                                             gpu::compiled_facts(rung.id, config, device),
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

void AppModel::update(double seconds) {
  jobs_.run_completions();
  for (auto& failure : jobs_.take_failures()) add_message(Message::Level::Error, failure);
  // A cancelled (or failed) GPU run's completion is dropped: notice that its job is gone.
  const auto gone = [&](std::string_view group) {
    for (const auto& job : jobs_.status())
      if (job.group == group) return false;
    return jobs_.idle();
  };
  if (benchmark_running_ && gone("bench")) {
    benchmark_running_ = false;
    add_message(Message::Level::Info, "benchmark cancelled; the results on show are unchanged");
  }
  if (tuning_running_ && gone("tune")) {
    tuning_running_ = false;
    add_message(Message::Level::Info, "tuning cancelled; the study on show is unchanged");
  }
  if (playing_ && view_current()) {
    play_clock_ += seconds * play_speed_;
    // At most a few steps per frame, so a slow frame does not skip whole phases.
    for (int steps = 0; play_clock_ >= 1.0 && steps < 4 && playing_ && view_current(); ++steps) {
      play_clock_ -= 1.0;
      step_instruction(+1);
    }
    play_clock_ = std::min(play_clock_, 1.0);
  }
  request_view();
  request_kernel_counters();
  request_ladder_predictions();
}

bool AppModel::wait_until_idle(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    update(0.0);
    if (jobs_.idle()) {
      update(0.0);  // a finished job may have moved the cursor into a phase not loaded yet
      if (jobs_.idle()) return true;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    jobs_.wait_idle(std::min(left, std::chrono::milliseconds(50)));
  }
}

Settings AppModel::settings() const {
  Settings s;
  s.rung = slug_of(rung_);
  for (const auto& [rung, config] : configs_) {
    const auto& model = sim::rung_model(rung);
    for (const auto name : model.knobs) {
      const int value = config.*sim::find_knob(name)->field;
      // Only what differs from the defaults, so a change of default reaches users who never touched the knob.
      if (value != model.defaults.*sim::find_knob(name)->field) s.knobs[slug_of(rung)][std::string(name)] = value;
    }
  }
  s.m = problem_.m, s.n = problem_.n, s.k = problem_.k;
  s.alpha = problem_.alpha, s.beta = problem_.beta;
  s.panel = panel_;
  s.block_row = block_.row, s.block_col = block_.col;
  s.play_speed = play_speed_;
  for (std::size_t side = 0; side < order_sides_.size(); ++side)
    s.launch_orders[side] = {std::string(sim::order_kind_name(order_sides_[side].choice.kind)),
                             order_sides_[side].choice.group_size};
  s.grid_colouring = std::string(to_string(grid_colouring_));
  s.tma_swizzle = tma_swizzle_;
  s.window_layout = window_layout_;
  return s;
}

void AppModel::save_settings_if_changed(bool now) {
  if (settings_path_.empty()) return;
  const auto clock = std::chrono::steady_clock::now();
  if (!now && clock - last_save_ < std::chrono::seconds(1)) return;
  std::string json = settings_to_json(settings());
  if (json == saved_settings_json_) return;
  last_save_ = clock;
  if (auto saved = save_settings(settings_path_, settings()); !saved) {
    add_message(Message::Level::Warning, "settings not saved: " + saved.error().message);
    settings_path_.clear();  // say it once, not every second
    return;
  }
  saved_settings_json_ = std::move(json);
}

Status AppModel::predict_shapes() {
  if (device_) return shapes_.predict(*device_);
  auto profile = sim::find_device(sim::kDefaultDevice);
  if (!profile) return profile.error();
  return shapes_.predict(*profile);
}

Status AppModel::load_recorded_sweep() {
  // Not found: the first root's path, so that the study's error names the file that is missing.
  const auto path = find_data_file(data_roots_, kRecordedSweep);
  return shapes_.load_report(path ? *path : (data_roots_.empty() ? kRecordedSweep : data_roots_.front() / kRecordedSweep));
}

Status AppModel::load_trace(const std::filesystem::path& path) {
  std::error_code ec;
  if (path.is_relative() && !std::filesystem::exists(path, ec))
    if (const auto found = find_data_file(data_roots_, path)) return timeline_.load(*found, path.string());
  return timeline_.load(path);
}

Status AppModel::load_recorded_trace() {
  const std::filesystem::path relative = recorded_trace(rung_);
  if (const auto path = find_data_file(data_roots_, relative)) return timeline_.load(*path, relative.string());
  return timeline_.load(data_roots_.empty() ? relative : data_roots_.front() / relative);  // its error names the file
}

}  // namespace gemmlab::desktop
