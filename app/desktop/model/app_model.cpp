#include "model/app_model.hpp"

#include <algorithm>

#include "gemmlab/gpu/device.hpp"
#include "gemmlab/sim/launch_order.hpp"
#include "gemmlab/sim/rung_model.hpp"
#include "gemmlab/sim/tma_swizzle.hpp"
#include "model/paths.hpp"

namespace gemmlab::desktop {

AppModel::AppModel(Options options)
    : data_roots_(std::move(options.data_roots)),
      device_(sim::find_device(sim::kDefaultDevice)),
      stepper_(context()),
      orders_(context()),
      predictions_(context()),
      benchmark_(context()),
      tuning_(context()),
      settings_path_(std::move(options.settings_path)) {
  for (auto& text : options.startup_messages) add_message(Message::Level::Warning, std::move(text));

  const Settings& s = options.settings;
  selection_.restore(s, messages_);
  stepper_.select_block({s.block_row, s.block_col});
  panel_ = s.panel;
  stepper_.set_play_speed(s.play_speed);
  for (std::size_t side = 0; side < s.launch_orders.size(); ++side) {
    const OrderSettings& saved = s.launch_orders[side];
    OrderChoice choice;
    choice.group_size = saved.group_size;  // checked where it is used: a bad size is the panel's sentence
    if (const auto kind = sim::find_order_kind(saved.kind)) choice.kind = *kind;
    else add_message(Message::Level::Warning, "saved launch order '" + saved.kind + "' is unknown; showing row");
    orders_.set_choice(static_cast<int>(side), choice);
  }
  window_layout_ = s.window_layout;
  if (auto swizzle = set_tma_swizzle(s.tma_swizzle); !swizzle)
    add_message(Message::Level::Warning, "saved TMA swizzle: " + swizzle.error().message + "; showing 128 bytes");
  if (const auto colouring = parse_grid_colouring(s.grid_colouring)) orders_.set_grid_colouring(*colouring);
  else add_message(Message::Level::Warning, "saved grid colouring '" + s.grid_colouring + "' is unknown; colouring by wave");
  docs_ = load_rung_docs(gemmlab::rung_info(rung()), data_roots_);
  benchmark_.show_recorded_results();
  if (!gpu::built_with_cuda()) {
    gpu_status_ = "This build has no CUDA toolkit, so nothing runs on a GPU here.";
  } else if (auto devices = gpu::list_devices(); !devices || devices->empty()) {
    gpu_status_ = devices ? "no CUDA device" : devices.error().message;
  } else {
    gpu_available_ = true;
    gpu_status_ = "GPU: " + devices->front().name;
  }
  if (!device_) add_message(Message::Level::Warning, "no predictions: " + device_.error().message);
  selection_changed(false);
  saved_settings_json_ = settings_to_json(settings());
}

ModelContext AppModel::context() { return {selection_, jobs_, messages_, device(), data_roots_}; }

void AppModel::selection_changed(bool new_rung) {
  if (new_rung) docs_ = load_rung_docs(gemmlab::rung_info(rung()), data_roots_);
  stepper_.selection_changed(new_rung);
  predictions_.selection_changed();
  orders_.selection_changed();
}

void AppModel::select_rung(RungId rung) {
  if (selection_.select_rung(rung)) selection_changed(true);
}

void AppModel::set_knob(std::string_view name, int value) {
  if (selection_.set_knob(name, value)) selection_changed(false);
}

void AppModel::set_config(const kernel::KernelConfig& config) {
  selection_.set_config(config);
  selection_changed(false);
}

void AppModel::reset_config() {
  selection_.reset_config();
  selection_changed(false);
}

void AppModel::set_problem(int m, int n, int k) {
  if (selection_.set_problem(m, n, k)) selection_changed(false);
}

void AppModel::select_panel(std::string_view name) { panel_ = std::string(name); }

Status AppModel::go_to_wave(int wave) {
  const auto& prediction = predictions_.prediction();
  const std::string& error = predictions_.prediction_error();
  if (!prediction) return Error{"the launch's waves are not known" + (error.empty() ? std::string() : ": " + error)};
  const int waves = prediction->l2.waves.waves;
  if (wave < 0 || wave >= waves) return index_out_of_range("wave", wave, "the launch has", waves);
  orders_.select_wave(wave);
  return Ok{};
}

void AppModel::run_benchmark(gpu::BenchOptions options) {
  if (gpu_busy()) return;  // one timing run at a time: two would time each other
  benchmark_.run(std::move(options));
}

void AppModel::run_tuning_study(gpu::TuneOptions options) {
  if (gpu_busy()) return;  // one timing run at a time: two would time each other
  tuning_.run(std::move(options));
}

Status AppModel::set_tma_swizzle(int mode_bytes) {
  // The view shows the mode on rows of its own width, or, without a swizzle, the rungs' 128-byte rows.
  if (auto image = sim::swizzle_image(mode_bytes, mode_bytes == 0 ? 128 : mode_bytes); !image) return image.error();
  tma_swizzle_ = mode_bytes;
  return Ok{};
}

void AppModel::set_window_layout(std::string layout) { window_layout_ = std::move(layout); }

void AppModel::update(double seconds) {
  jobs_.run_completions();
  for (auto& failure : jobs_.take_failures()) add_message(Message::Level::Error, failure);
  benchmark_.update();
  tuning_.update();
  stepper_.update(seconds);
  predictions_.update();
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
  selection_.save(s);
  s.panel = panel_;
  s.block_row = stepper_.block().row, s.block_col = stepper_.block().col;
  s.play_speed = stepper_.play_speed();
  for (std::size_t side = 0; side < s.launch_orders.size(); ++side) {
    const OrderChoice& choice = orders_.choice(static_cast<int>(side));
    s.launch_orders[side] = {std::string(sim::order_kind_name(choice.kind)), choice.group_size};
  }
  s.grid_colouring = std::string(to_string(orders_.grid_colouring()));
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
  auto profile = device_ ? Result<sim::DeviceProfile>(*device_) : sim::find_device(sim::kDefaultDevice);
  if (!profile) return profile.error();
  if (shapes_.tuned() == 0) return shapes_.predict(*profile);  // each rung's default: a fraction of a second
  // Ranking every rung's configurations at every shape takes seconds: a job (the header shows it, with Cancel); a
  // new prediction supersedes one still running.
  jobs_.submit("shapes", "the model's sweep of " + shapes_.shapes_text(),
               [this, text = shapes_.shapes_text(), tuned = shapes_.tuned(),
                profile = *profile](JobContext& job) -> JobRunner::Completion {
                 auto predicted = ShapesStudy::predict_report(
                     text, tuned, profile, [&](double fraction) { job.set_progress(fraction); }, job.cancel_flag());
                 return [this, predicted = std::move(predicted)] { (void)shapes_.show_predicted(predicted); };
               });
  return Ok{};
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
  const std::filesystem::path relative = recorded_trace(rung());
  if (const auto path = find_data_file(data_roots_, relative)) return timeline_.load(*path, relative.string());
  if (!sim::needs_sm90a(rung()))
    return timeline_.refuse(std::string(rung_info(rung()).slug) + " has no recorded trace (no " + relative.string() +
                            "): the Hopper rungs (" + rungs_with_recorded_traces() +
                            ") have one each; gemmlab-cli trace makes one of any rung on a GPU");
  return timeline_.load(data_roots_.empty() ? relative : data_roots_.front() / relative);  // its error names the file
}

}  // namespace gemmlab::desktop
