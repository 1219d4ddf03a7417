// gemmlab: the desktop window.
//
//   gemmlab                                    open the window with the settings of the last run
//   gemmlab --rung vectorized --a-pad 4        start on a rung and configuration (the same flags as gemmlab-cli)
//   gemmlab --screenshot out.png --panel banks render, save a PNG and exit (saved settings are not read or written)
//   gemmlab --frames 120 --frame-times         render 120 frames, print how long they took, exit
//   gemmlab --live-benchmark 256 [--cancel-after S]   press the benchmark panel's Run on the GPU, report, exit
//           [--live-this-configuration --rung R KNOBS]  ... its "Run this configuration" instead
//   gemmlab --panel launch-order --order row --compare-order groupm:8 --wave 2   the launch orders compared
//   gemmlab --panel layout-lab --lab-preset rows-of-64-halves [--lab-layout L --lab-op OP ...]   the layout lab
#include <CLI/CLI.hpp>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <vector>

#include "app_frame.hpp"
#include "common/number_options.hpp"
#include "common/rung_options.hpp"
#include "gemmlab/lab/access.hpp"
#include "gemmlab/lab/query.hpp"
#include "gemmlab/sim/launch_order.hpp"
#include "gemmlab/sim/rung_model.hpp"
#include "model/app_model.hpp"
#include "model/live_bench_script.hpp"
#include "model/paths.hpp"
#include "model/settings.hpp"
#include "panels/panels.hpp"
#include "screenshot.hpp"
#include "ui/cell_grid.hpp"
#include "ui/theme.hpp"
#include "window.hpp"

namespace {

using namespace gemmlab;
using namespace gemmlab::desktop;

constexpr int kExitUsage = 2;
constexpr int kExitNoDisplay = 3;  // scripts/run falls back to the headless tour on this code
constexpr int kExitNoGpu = 77;     // --live-benchmark without a GPU: CTest reports the test as skipped
constexpr int kWarmupFrames = 5;   // left out of the frame-time figures: fonts, textures and first layouts
// How long a picture waits for its figures. The panel's own work comes first and the ladder's predictions after,
// one rung at a time; at 8192^3 on a busy machine the naive rungs' predictions alone can pass 30 s, and a picture
// taken before they land differs from one taken after (the README pictures are compared with fresh ones).
constexpr auto kSettleTimeout = std::chrono::seconds(120);

struct Invocation {
  std::string screenshot_path;
  std::string panel;
  std::string settings_path;
  int frames = 0;
  std::vector<int> window_size;  // --window-size W H: the window's size in pixels (empty: 1600 x 1000)
  int phase = -1, instruction = -1, warp = -1;  // where the stepper starts (-1: its default)
  std::string order, compare_order, colour_by;  // the launch-order panel's two orders and its colouring
  std::optional<int> tma_swizzle;               // the banks panel's TMA swizzle mode (Hopper rungs)
  int wave = -1;                                 // and its selected wave (-1: all)
  std::string trace;  // a trace file for the Timeline tab and the stepper's measured k-steps ("recorded": the rung's)
  // The layout lab's question: a gallery entry, and fields given on top of it (empty: not given).
  std::string lab_preset, lab_layout, lab_element, lab_swizzle, lab_op;
  bool frame_times = false;
  bool list_panels = false;
  std::string live_benchmark;    // sizes: run the benchmark panel's live run, then exit
  bool live_this_configuration = false;  // ... of the selected configuration, not every rung
  double cancel_after = 0.0;     // ... pressing Cancel after this many seconds of it
  std::shared_ptr<common::RungOptions> rung = std::make_shared<common::RungOptions>();
};

std::string panel_help() {
  std::string text = "Panels (--panel NAME):\n";
  for (const auto& panel : panels())
    text += "  " + std::string(panel.name) + std::string(14 - std::min<std::size_t>(13, panel.name.size()), ' ') +
            std::string(panel.summary) + "\n";
  return text;
}

// Applies the rung, knob and size flags on top of the starting settings. Errors are usage errors.
gemmlab::Status apply_flags(const CLI::App& app, const Invocation& invocation, Settings& settings) {
  auto& options = *invocation.rung;
  const bool rung_given = !options.rung_slug.empty();
  if (rung_given || !options.knob_values.empty()) {
    if (!rung_given) options.rung_slug = settings.rung;
    auto resolved = options.resolve();
    if (!resolved) return resolved.error();
    settings.rung = std::string(rung_info(resolved->rung).slug);
    auto& knobs = settings.knobs[settings.rung];
    knobs.clear();
    for (const auto name : sim::rung_model(resolved->rung).knobs)
      knobs[std::string(name)] = resolved->config.*sim::find_knob(name)->field;
  }
  if (app.count("--m")) settings.m = options.m;
  if (app.count("--n")) settings.n = options.n;
  if (app.count("--k")) settings.k = options.k;
  if (app.count("--alpha")) settings.alpha = options.alpha;
  if (app.count("--beta")) settings.beta = options.beta;
  const std::pair<const std::string*, const char*> orders[] = {{&invocation.order, "--order"},
                                                                {&invocation.compare_order, "--compare-order"}};
  for (std::size_t side = 0; side < std::size(orders); ++side) {
    const auto& [text, flag] = orders[side];
    if (text->empty()) continue;
    auto choice = parse_order_choice(*text, settings.launch_orders[side].group_size);
    if (!choice) return gemmlab::Error{std::string(flag) + ": " + choice.error().message};
    settings.launch_orders[side] = {std::string(sim::order_kind_name(choice->kind)), choice->group_size};
  }
  if (!invocation.colour_by.empty()) settings.grid_colouring = invocation.colour_by;
  if (invocation.tma_swizzle) {
    // Only the Hopper rungs' tiles are written by TMA: elsewhere the flag would be silently ignored.
    const auto rung = find_rung(settings.rung);
    if (!rung || !sim::needs_sm90a(*rung))
      return gemmlab::Error{"--tma-swizzle shows the TMA swizzle mode of a Hopper rung's tiles (rungs 17 to 20); rung '" +
                            settings.rung + "' has no TMA copies (its layouts' knobs are --a-pad, --b-pad, --swizzle)"};
    settings.tma_swizzle = *invocation.tma_swizzle;
  }
  if (!invocation.panel.empty()) {
    if (!find_panel(invocation.panel))
      return gemmlab::Error{"unknown panel '" + invocation.panel + "'; the panels are: " + panel_names()};
    settings.panel = invocation.panel;
  }
  return gemmlab::Ok{};
}

// The layout lab's question from the --lab-* flags, on top of --lab-preset's (or the gallery's first): nothing when no
// such flag is given. A value that cannot be read on its own is a usage error naming the flag; a question whose parts
// do not fit together (a swizzle the tile cannot take, an access wider than the tile) is shown, with why.
gemmlab::Result<std::optional<lab::QueryText>> lab_question(const Invocation& invocation) {
  const Invocation& i = invocation;
  if (i.lab_preset.empty() && i.lab_layout.empty() && i.lab_element.empty() && i.lab_swizzle.empty() &&
      i.lab_op.empty())
    return std::optional<lab::QueryText>{};
  lab::QueryText q = lab::presets().front().query;
  if (!i.lab_preset.empty()) {
    const lab::Preset* preset = lab::find_preset(i.lab_preset);
    if (!preset) {
      std::string names;
      for (const auto& p : lab::presets()) names.append(names.empty() ? "" : ", ").append(p.name);
      return gemmlab::Error{std::string("--lab-preset: no preset '") + i.lab_preset + "'; the presets are: " + names};
    }
    q = preset->query;
  }
  if (!i.lab_layout.empty()) {
    lab::Swizzle printed;
    if (auto layout = lab::parse_swizzled_layout(i.lab_layout, printed); !layout)
      return gemmlab::Error{std::string("--lab-layout: ") + layout.error().message};
    q.layout = i.lab_layout;
    if (!printed.identity()) {  // the layout carries its own swizzle: the preset's would be a second one
      q.swizzle.clear();
      q.tma_swizzle.clear();
    }
  }
  if (!i.lab_element.empty()) {
    if (auto element = lab::parse_element(i.lab_element); !element)
      return gemmlab::Error{std::string("--lab-element: ") + element.error().message};
    q.element = i.lab_element;
  }
  if (!i.lab_swizzle.empty()) {
    if (i.lab_swizzle != "none")
      if (auto swizzle = lab::parse_swizzle(i.lab_swizzle); !swizzle)
        return gemmlab::Error{std::string("--lab-swizzle: ") + swizzle.error().message};
    q.swizzle = i.lab_swizzle == "none" ? std::string() : i.lab_swizzle;
    q.tma_swizzle.clear();  // the one swizzle the tile has
  }
  if (!i.lab_op.empty()) {
    if (auto kind = lab::access_kind(i.lab_op); !kind)
      return gemmlab::Error{std::string("--lab-op: ") + kind.error().message};
    q.op = i.lab_op;
  }
  return std::optional<lab::QueryText>{std::move(q)};
}

// Per frame: the whole frame, and the part spent building the UI on the CPU (the rest is the renderer drawing it).
struct FrameTimes {
  std::vector<double> frame_ms, build_ms;
  static double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  }
  void report(const std::string& panel, const std::string& renderer, int width, int height) const {
    if (frame_ms.empty()) {
      std::cout << "gemmlab: no frames measured (use more than " << kWarmupFrames << " frames)\n";
      return;
    }
    std::vector<double> sorted = frame_ms;
    std::sort(sorted.begin(), sorted.end());
    const auto at = [&](double q) { return sorted[static_cast<std::size_t>(q * static_cast<double>(sorted.size() - 1))]; };
    std::printf("gemmlab frame times, panel %s, %dx%d, %zu frames after %d warm-up frames: median %.2f ms, 90th "
                "percentile %.2f ms, max %.2f ms; of the median, building the UI %.2f ms, rendering the rest "
                "(renderer: %s)\n",
                panel.c_str(), width, height, sorted.size(), kWarmupFrames, at(0.5), at(0.9), sorted.back(),
                median(build_ms), renderer.c_str());
  }
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"gemmlab: step through a GEMM kernel's tile loads, bank conflicts, coalescing and launch order, rung by rung",
               "gemmlab"};
  Invocation invocation;
  // Text flags given as '' are refused, as gemmlab-cli refuses them (an empty --screenshot would otherwise open an
  // interactive session, an empty --panel or --order would be ignored).
  app.add_option("--screenshot", invocation.screenshot_path,
                 "Render, write the window to this PNG file, and exit (saved settings are neither read nor written); "
                 "exits 1 when the configuration shown is invalid")
      ->check(common::non_empty_text("the name of a PNG file"));
  app.add_option("--panel", invocation.panel, "Open this panel (names below)")
      ->check(common::non_empty_text("a panel name (gemmlab --list-panels)"));
  app.add_option("--window-size", invocation.window_size,
                 "The window's width and height in pixels (default 1600 1000): look at the panels as a smaller or a "
                 "larger screen shows them")
      ->expected(2)
      ->transform(common::whole_number(640, 7680));
  app.add_option("--frames", invocation.frames,
                 "Render this many frames, then exit (with --screenshot: before the capture)")
      ->transform(common::whole_number(1, 100000));
  app.add_flag("--frame-times", invocation.frame_times,
               "Print how long the frames took (median, 90th percentile, max), after " +
                   std::to_string(kWarmupFrames) + " warm-up frames (which --frames does not count)");
  app.add_option("--settings", invocation.settings_path,
                 "Read (and, in a normal run, write) the settings here instead of the user's config folder")
      ->check(common::non_empty_text("the path of a settings file"));
  app.add_flag("--list-panels", invocation.list_panels, "Print the panel names, one per line, and exit");
  // Every index counts from 0, here, in the panels' labels and in the docs.
  app.add_option("--trace", invocation.trace,
                 "Load this trace file (gemmlab-cli trace --out), or 'recorded' for the rung's trace recorded on the "
                 "H200: the Timeline tab draws it, and the stepper shows its k-steps beside the schedule's")
      ->check(common::non_empty_text("a trace file, or 'recorded'"));
  app.add_option("--phase", invocation.phase, "Start the stepper at this phase of the block's schedule (from 0)")
      ->transform(common::whole_number(0));
  app.add_option("--instruction", invocation.instruction, "... and at this instruction of the warp in that phase (from 0)")
      ->transform(common::whole_number(0));
  app.add_option("--warp", invocation.warp, "... of this warp of the block (from 0)")->transform(common::whole_number(0));
  const std::string orders = "a launch order (" + std::string(sim::order_names_help()) + ")";
  app.add_option("--order", invocation.order, "Launch order & L2: the left order, " + orders)
      ->check(common::non_empty_text(orders));
  app.add_option("--compare-order", invocation.compare_order, "... and the right order, compared with it")
      ->check(common::non_empty_text(orders));
  app.add_option("--wave", invocation.wave, "... showing this wave (from 0; the default shows all)")
      ->transform(common::whole_number(0));
  app.add_option("--colour-by", invocation.colour_by, "... colouring the tiles by wave or by launch order")
      ->check(CLI::IsMember(
          {std::string(to_string(GridColouring::Wave)), std::string(to_string(GridColouring::LaunchOrder))}));
  app.add_option("--tma-swizzle", invocation.tma_swizzle,
                 "Shared-memory banks, Hopper rungs: the TMA swizzle mode shown (0 for none, 32, 64 or 128 bytes)")
      ->check(CLI::IsMember({0, 32, 64, 128}));
  app.add_option("--lab-preset", invocation.lab_preset,
                 "Layout lab: start from this question of the gallery (gemmlab-cli layout --list-presets lists them)")
      ->check(common::non_empty_text("a layout-lab preset (gemmlab-cli layout --list-presets)"));
  app.add_option("--lab-layout", invocation.lab_layout,
                 "... with this tile in CuTe notation, e.g. '(64,64):(72,1)' or 'Sw<3,3,3> o (64,64):(64,1)'")
      ->check(common::non_empty_text("a CuTe layout, e.g. (64,64):(64,1)"));
  app.add_option("--lab-element", invocation.lab_element, "... of this element type (fp32, tf32, fp16, bf16, fp8, int8)")
      ->check(common::non_empty_text("an element type (fp32, tf32, fp16, bf16, fp8, int8)"));
  app.add_option("--lab-swizzle", invocation.lab_swizzle, "... through CuTe's Swizzle<B,M,S>, given as B,M,S (or none)")
      ->check(common::non_empty_text("a swizzle B,M,S, e.g. 3,3,3"));
  app.add_option("--lab-op", invocation.lab_op,
                 "... read or written by this access (ldmatrix.x4, stmatrix.x4, lds.128, cp.async.16, wgmma, tma, ...)")
      ->check(common::non_empty_text("an access, e.g. ldmatrix.x4"));
  app.add_option("--live-benchmark", invocation.live_benchmark,
                 "Press the benchmark panel's \"Run every rung on the GPU\" for these sizes (as its Sizes field takes "
                 "them), print what the panel then shows and the frame times while it ran, and exit (exit 77: no GPU)")
      ->check(common::non_empty_text("sizes, as the benchmark panel takes them (256, 1024,2048, MxNxK)"));
  app.add_flag("--live-this-configuration", invocation.live_this_configuration,
               "... pressing \"Run this configuration\" instead: the configuration --rung and the knob flags give, "
               "compiled first where the build did not compile it")
      ->needs("--live-benchmark");
  app.add_option("--cancel-after", invocation.cancel_after,
                 "... pressing the run's Cancel after this many seconds")
      ->check(CLI::Range(0.0, 3600.0))
      ->needs("--live-benchmark");
  common::add_rung_options(app, invocation.rung, common::RungFlag::Optional);
  app.footer(panel_help());
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& help) {
    return app.exit(help);
  } catch (const CLI::ParseError& error) {  // CLI11's own codes (105, 106...) would hide that it is a usage error
    std::cerr << "gemmlab: " << error.what() << "\n(gemmlab --help lists the options)\n";
    return kExitUsage;
  }

  if (invocation.list_panels) {
    for (const auto& panel : panels()) std::cout << panel.name << "\n";
    return 0;
  }
  if (!invocation.screenshot_path.empty()) {
    if (const auto writable = check_png_path(invocation.screenshot_path); !writable) {
      std::cerr << "gemmlab: " << writable.error().message << "\n";
      return kExitUsage;
    }
  }

  // Settings: the user's, unless this run only renders (then the defaults, so pictures do not depend on the user).
  const bool rendering_only = !invocation.screenshot_path.empty() || invocation.frame_times || invocation.frames > 0 ||
                              !invocation.live_benchmark.empty();
  auto lab_start = lab_question(invocation);
  if (!lab_start) {
    std::cerr << "gemmlab: " << lab_start.error().message << "\n";
    return kExitUsage;
  }
  std::optional<LiveBenchScript> live_bench;
  if (!invocation.live_benchmark.empty()) {
    auto script = LiveBenchScript::create(invocation.live_benchmark, invocation.cancel_after,
                                          invocation.live_this_configuration ? LiveBenchScript::Button::ThisConfiguration
                                                                             : LiveBenchScript::Button::EveryRung);
    if (!script) {
      std::cerr << "gemmlab: " << script.error().message << "\n";
      return kExitUsage;
    }
    live_bench = std::move(*script);
  }
  std::filesystem::path settings_path = invocation.settings_path;
  if (settings_path.empty() && !rendering_only && !config_dir().empty()) settings_path = config_dir() / "settings.json";
  LoadedSettings loaded = settings_path.empty() ? LoadedSettings{} : load_settings(settings_path);
  for (const auto& message : loaded.messages) std::cerr << "gemmlab: " << message << "\n";
  if (auto applied = apply_flags(app, invocation, loaded.settings); !applied) {
    std::cerr << "gemmlab: " << applied.error().message << "\n";
    return kExitUsage;
  }
  if (!find_panel(loaded.settings.panel)) {
    loaded.messages.push_back("saved panel '" + loaded.settings.panel + "' does not exist; showing the tile stepper");
    loaded.settings.panel = "tile-stepper";
  }

  Window::Options window_options;
  if (invocation.window_size.size() == 2)
    window_options.width = invocation.window_size[0], window_options.height = invocation.window_size[1];
  window_options.vsync = !invocation.frame_times && !live_bench;  // frame times measure the app, not the display
  auto window = Window::open(window_options);
  if (!window) {
    std::cerr << "gemmlab: " << window.error().message << "\n"
              << "gemmlab: without a display, use gemmlab-cli (scripts/run does this for you).\n";
    return kExitNoDisplay;
  }

  (*window)->set_ignore_mouse(rendering_only);
  // Window layout: ImGui's ini text, kept inside the settings file (ImGui writes no file of its own).
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  if (!rendering_only && !loaded.settings.window_layout.empty())
    ImGui::LoadIniSettingsFromMemory(loaded.settings.window_layout.c_str(), loaded.settings.window_layout.size());
  const ui::Fonts fonts = ui::load_fonts_and_style();
  if (!fonts.note.empty()) loaded.messages.push_back(fonts.note);
  std::unique_ptr<ui::CellGridRenderer> grids;
  if (auto created = ui::CellGridRenderer::create(); created) grids = std::move(*created);
  else loaded.messages.push_back("large grids are drawn without shaders (slower): " + created.error().message);

  AppModel::Options model_options;
  model_options.settings = loaded.settings;
  model_options.startup_messages = loaded.messages;
  // A settings file that could not be read as ours is never overwritten (load_settings said so).
  model_options.settings_path = rendering_only || loaded.keep_file ? std::filesystem::path{} : settings_path;
  model_options.data_roots = data_roots();
  AppModel model(std::move(model_options));
  PanelContext context{model, grids.get()};
  if (*lab_start) model.layout_lab().set_query(std::move(**lab_start));
  if (!invocation.trace.empty()) {
    const Status trace =
        invocation.trace == "recorded" ? model.load_recorded_trace() : model.load_trace(invocation.trace);
    if (!trace) {
      std::cerr << "gemmlab: --trace: " << trace.error().message << "\n";
      return kExitUsage;
    }
  }
  if (invocation.phase >= 0 || invocation.instruction >= 0 || invocation.warp >= 0 || invocation.wave >= 0) {
    // The stepper's position and the wave need the block's schedule and the launch: let the first jobs finish, then
    // move. An index out of range is a usage error, as for every other flag (never clamped into range).
    const auto refuse = [](const char* flag, const Status& status) {
      if (!status) std::cerr << "gemmlab: " << flag << ": " << status.error().message << "\n";
      return !status;
    };
    model.wait_until_idle(std::chrono::seconds(30));
    if (invocation.wave >= 0 && refuse("--wave", model.go_to_wave(invocation.wave))) return kExitUsage;
    if (invocation.warp >= 0 && refuse("--warp", model.stepper().go_to_warp(invocation.warp))) return kExitUsage;
    if (invocation.phase >= 0 &&
        refuse("--phase", model.stepper().go_to_phase(static_cast<std::size_t>(invocation.phase))))
      return kExitUsage;
    model.wait_until_idle(std::chrono::seconds(30));
    if (invocation.instruction >= 0 &&
        refuse("--instruction", model.stepper().go_to_instruction(invocation.instruction)))
      return kExitUsage;
  }

  // A screenshot waits 3 frames for its jobs, or for the whole live benchmark.
  // With --frame-times, --frames counts the frames measured: the warm-up frames come on top.
  const int frame_limit = invocation.frames > 0
                              ? invocation.frames + (invocation.frame_times ? kWarmupFrames : 0)
                              : (invocation.screenshot_path.empty() || live_bench ? 0 : 3);
  int settled_at = 0;  // the frame after which every job had finished
  FrameTimes times;
  auto last = std::chrono::steady_clock::now();
  int status = 0;
  for (int frame = 1; !(*window)->should_close(); ++frame) {
    const auto start = std::chrono::steady_clock::now();
    const double frame_seconds = std::chrono::duration<double>(start - last).count();
    model.update(frame_seconds);
    last = start;
    (*window)->begin_frame();
    if (grids) grids->begin_frame();
    draw_app_frame(context);
    const auto built = std::chrono::steady_clock::now();
    (*window)->end_frame();
    if (invocation.frame_times) {
      (*window)->finish();
      // The frames asked for, not the two drawn after the jobs settle.
      if (frame > kWarmupFrames && (frame_limit == 0 || frame <= frame_limit)) {
        times.frame_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
        times.build_ms.push_back(std::chrono::duration<double, std::milli>(built - start).count());
      }
    }
    if (live_bench) {
      if (auto stepped = live_bench->step(model, frame_seconds); !stepped) {
        std::cerr << "gemmlab: " << stepped.error().message << "\n";
        return kExitNoGpu;
      }
    }
    bool done = false;
    if ((frame_limit > 0 && frame >= frame_limit) || (live_bench && live_bench->finished())) {
      // A picture shows finished results: wait for the jobs, then draw twice more so layouts settle.
      if (settled_at == 0) {
        if (!model.wait_until_idle(kSettleTimeout))
          std::cerr << "gemmlab: some work was still running after " << kSettleTimeout.count()
                    << " s; the picture shows what was ready\n";
        settled_at = frame;
      }
      done = frame >= settled_at + 2;
    }
    if (done && !invocation.screenshot_path.empty()) {
      if (const auto saved = save_back_buffer_png(invocation.screenshot_path, (*window)->framebuffer_width(),
                                                  (*window)->framebuffer_height());
          !saved) {
        std::cerr << "gemmlab: " << saved.error().message << "\n";
        status = 1;
      } else {
        std::cout << "gemmlab: wrote " << invocation.screenshot_path << "\n";
      }
      // The picture shows why the configuration is invalid; a script rendering it must not take it for success.
      if (!model.validity()) {
        std::cerr << "gemmlab: the configuration shown is invalid: " << model.validity().error().message << "\n";
        status = 1;
      }
      if (model.panel() == "layout-lab" && !model.layout_lab().report()) {
        std::cerr << "gemmlab: the layout lab's question shown has no answer: " << model.layout_lab().error() << "\n";
        status = 1;
      }
    }
    (*window)->present();
    if (io.WantSaveIniSettings) {
      model.set_window_layout(ImGui::SaveIniSettingsToMemory());
      io.WantSaveIniSettings = false;
    }
    model.save_settings_if_changed();
    if (done) break;
  }
  if (live_bench) std::cout << live_bench->summary(model) << "\n";
  if (invocation.frame_times)
    times.report(model.panel(), (*window)->renderer(), (*window)->framebuffer_width(), (*window)->framebuffer_height());
  if (!rendering_only) model.set_window_layout(ImGui::SaveIniSettingsToMemory());
  model.save_settings_if_changed(/*now=*/true);
  return status;
}
