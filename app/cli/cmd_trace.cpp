// gemmlab-cli trace: one kernel on the GPU with its warps' operations stamped (gemmlab/gpu/trace.hpp), written as a
// Chrome trace-event file (Perfetto, chrome://tracing) and summarised: where each warp role's time went, the copies'
// latency as the consumers see it, the epilogue's overlap with the next tile, and what the tracing cost.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "command.hpp"
#include "common/number_options.hpp"
#include "common/output_path.hpp"
#include "common/rung_options.hpp"
#include "gemmlab/file_io.hpp"
#include "gemmlab/gpu/instances.hpp"
#include "gemmlab/gpu/trace.hpp"
#include "gemmlab/sim/device_profile.hpp"
#include "gemmlab/sim/launch_order.hpp"
#include "gemmlab/sim/predicted_timeline.hpp"
#include "gemmlab/sim/schedule_prediction.hpp"
#include "gemmlab/sim/timeline.hpp"
#include "gpu_options.hpp"
#include "table.hpp"

namespace gemmlab::cli {
namespace {

struct TraceArgs {
  std::string input = "bf16", order = "row", out, profile = kAutoProfile;
  int device = 0, blocks = 2, events = 0, runs = 20, tiles = gpu::kDefaultStampedTiles;
  bool json = false;
};

// What the time model predicts for the traced launch on a device profile: the kernel's time and a block's pace
// (sim/predicted_timeline.hpp), drawn into the trace file beside the measured block.
struct ModelSide {
  std::string profile, limit, note;  // note: why there is no prediction
  double kernel_ms = 0, kstep_ns = 0;
  std::optional<sim::BlockPace> pace;
};

ModelSide predict(const gpu::TraceOptions& o, int launched, const sim::DeviceProfile& profile) {
  ModelSide out;
  const auto unpredicted = [&](std::string why) {
    out.note = std::move(why);
    return out;
  };
  out.profile = profile.name;
  const sim::Problem problem{o.shape.m, o.shape.n, o.shape.k, o.alpha, o.beta};
  const auto p = sim::predict_schedule(o.kernel.rung, o.kernel.config, problem, o.order, profile,
                                       gpu::compiled_facts(o.kernel.rung, o.kernel.config, profile));
  if (!p) return unpredicted(p.error().message);
  const auto pace = sim::block_pace(*p, launched);
  if (!pace) return unpredicted(pace.error().message);
  out.kernel_ms = pace->kernel_ns / 1e6, out.kstep_ns = pace->kstep_ns, out.pace = *pace;
  out.limit = p->time->explanation;
  return out;
}

// The measured timeline with the model's block added above it, starting where the first sampled block started; where
// the sampled blocks stamped only their first tiles, the model's block is cut to as many of its k-steps (a block's
// k-steps shared evenly over its tiles).
sim::Timeline with_prediction(sim::Timeline timeline, const ModelSide& model) {
  if (!model.pace || timeline.tracks.empty()) return timeline;
  sim::BlockPace pace = *model.pace;
  if (timeline.stamped_tiles > 0 && timeline.stamped_tiles < timeline.tiles_per_block)
    pace.ksteps = (pace.ksteps * timeline.stamped_tiles + timeline.tiles_per_block - 1) / timeline.tiles_per_block;
  const auto first = std::ranges::min_element(timeline.tracks, {}, [](const sim::Track& t) { return t.begin_ns; });
  const auto has = [&](std::string_view role) {
    return std::ranges::any_of(timeline.tracks, [&](const sim::Track& t) { return t.role == role; });
  };
  for (sim::Track& t :
       sim::predicted_tracks(pace, first->begin_ns, has("consumer") ? "consumer" : "warpgroup", has("producer")))
    timeline.tracks.push_back(std::move(t));
  return timeline;
}

nlohmann::json summary_json(const gpu::TraceRun& run, const sim::TimelineSummary& s, const ModelSide& model,
                            const std::string& out) {
  nlohmann::json roles = nlohmann::json::array();
  for (const auto& r : s.roles) {
    nlohmann::json waits = nlohmann::json::object();
    for (const auto& [op, ns] : r.waits_ns) waits[op] = ns;
    roles.push_back({{"role", r.role},
                     {"warps", r.tracks},
                     {"total_ns", r.total_ns},
                     {"phases_ns", r.phases_ns},
                     {"busy_ns", r.busy_ns},
                     {"issue_ns", r.issue_ns},
                     {"waits_ns", waits},
                     {"ksteps", r.ksteps},
                     {"median_kstep_ns", r.median_kstep_ns}});
  }
  const sim::Timeline& t = run.timeline;
  return {{"kernel", t.kernel},
          {"m", t.m},
          {"n", t.n},
          {"k", t.k},
          {"input", t.input},
          {"source", t.source},
          {"device", run.device},
          {"driver", run.driver},
          {"cuda", run.cuda},
          {"measured_at", run.measured_at},
          {"blocks_launched", t.blocks_launched},
          {"blocks_sampled", run.blocks_sampled},
          {"events_per_warp", run.events_per_warp},
          {"tiles_per_block", run.tiles_per_block},
          {"tiles_stamped", run.tiles_stamped},
          {"events_lost", s.lost},
          {"warps_that_lost_events", s.tracks_with_lost},
          {"traced_registers", run.traced_registers},
          {"traced_spill_bytes", run.traced_spill_bytes},
          {"traced_ptxas_warnings", run.traced_ptxas_warnings},
          {"runs", run.runs},
          {"untraced_ms", run.untraced_ms},
          {"traced_ms", run.traced_ms},
          {"overhead", run.overhead()},
          {"sampled_kernel_ns", s.kernel_ns},
          {"roles", roles},
          {"copies_matched", s.copies_matched},
          {"median_copy_to_use_ns", s.median_copy_to_use_ns},
          {"median_consumer_wait_ns", s.median_consumer_wait_ns},
          {"epilogues", s.epilogues},
          {"mean_epilogue_ns", s.mean_epilogue_ns},
          {"mean_fills_during_epilogue", s.mean_fills_during_epilogue},
          {"mean_wait_after_epilogue_ns", s.mean_wait_after_epilogue_ns},
          {"trace_file", out},
          {"model",
           {{"profile", model.profile},
            {"kernel_ms", model.kernel_ms},
            {"kstep_ns", model.kstep_ns},
            {"limit", model.limit},
            {"note", model.note}}}};
}

void print_summary(const gpu::TraceRun& run, const sim::TimelineSummary& s, const ModelSide& model,
                   const std::string& out) {
  const sim::Timeline& t = run.timeline;
  std::printf("Traced %s at %d x %d x %d, %s inputs,\n  %s.\n", t.kernel.c_str(), t.m, t.n, t.k, t.input.c_str(),
              t.source.c_str());
  std::printf(
      "Tracing build: %d registers per thread, %s.\n", run.traced_registers,
      run.traced_spill_bytes > 0 ? (std::to_string(run.traced_spill_bytes) + " bytes spilled").c_str() : "no spills");
  for (const std::string& warning : run.traced_ptxas_warnings) {
    std::printf("  ptxas said of it: %s\n", warning.c_str());
    if (warning.find("setmaxnreg") != std::string::npos)
      std::printf("  (so the traced kernel does not move registers between its roles, as the timed one does)\n");
  }
  std::printf("Buffers: %d events per recorded warp; ", run.events_per_warp);
  if (s.lost == 0) std::printf("none lost.\n");
  else
    std::printf("%u events lost by %d warps (their tracks say so; rerun with more --events).\n", s.lost,
                s.tracks_with_lost);
  std::printf(
      "Kernel time, median of %d runs alternating: %.4f ms untraced, %.4f ms traced: the tracing costs %+.1f%%.\n\n",
      run.runs, run.untraced_ms, run.traced_ms, 100.0 * run.overhead());
  TextTable table({{"role"},
                   {"warps", TextTable::Align::Right},
                   {"k-steps", TextTable::Align::Right},
                   {"median k-step", TextTable::Align::Right},
                   {"own work", TextTable::Align::Right},
                   {"waiting (largest first)"},
                   {"issuing", TextTable::Align::Right}});
  for (const auto& r : s.roles)
    table.add_row({r.role, std::to_string(r.tracks), std::to_string(r.ksteps),
                   r.ksteps > 0 ? sim::duration_text(r.median_kstep_ns) : "-", sim::share_text(r.busy_ns, r.total_ns),
                   sim::waits_text(r), sim::share_text(r.issue_ns, r.total_ns)});
  table.print(std::cout);
  std::printf(
      "(shares of each warp's time from its start to its end, or to the end of its stamped tiles; the sampled "
      "blocks ran %s from the first start to the last end)\n",
      sim::duration_text(s.kernel_ns).c_str());
  for (const std::string& finding : sim::findings_text(s)) std::printf("%s\n", finding.c_str());
  if (model.note.empty()) {
    const sim::RoleSummary* pace = sim::pace_role(s);
    const double kstep = pace != nullptr ? pace->median_kstep_ns : 0.0;
    std::printf(
        "The time model (%s profile): the kernel %.4f ms (%+.0f%% of the untraced kernel's time), a block's "
        "k-step %s (%+.0f%% of the consumers' median k-step measured). It says: %s\n",
        model.profile.c_str(), model.kernel_ms, 100.0 * (model.kernel_ms / run.untraced_ms - 1.0),
        sim::duration_text(model.kstep_ns).c_str(), kstep > 0 ? 100.0 * (model.kstep_ns / kstep - 1.0) : 0.0,
        model.limit.c_str());
  } else {
    std::printf("The time model has no prediction here: %s\n", model.note.c_str());
  }
  std::printf(
      "Wrote %s: the Chrome trace-event format; open it in https://ui.perfetto.dev or chrome://tracing (a "
      "process per SM, a thread per recorded warp, and above them the time model's block).\n",
      out.c_str());
}

int run_trace(const common::RungOptions& rung_options, const TraceArgs& args) {
  const auto resolved = rung_options.resolve();
  if (!resolved) {
    std::cerr << "gemmlab-cli: " << resolved.error().message << "\n";
    return kExitUsage;
  }
  const auto input = kernel::find_input(args.input);
  if (!input) {
    std::cerr << "gemmlab-cli: --input: '" << args.input << "': fp32, fp16 or bf16\n";
    return kExitUsage;
  }
  const auto order = sim::parse_order(args.order);
  if (!order) {
    std::cerr << "gemmlab-cli: --order: " << order.error().message << "\n";
    return kExitUsage;
  }
  const auto profile = timing_profile_flag(args.profile, args.device, true);
  if (!profile) {
    std::cerr << "gemmlab-cli: " << profile.error().message << "\n";
    return kExitUsage;
  }
  if (const std::string why = common::unwritable_because(args.out); !why.empty()) {
    std::cerr << "gemmlab-cli: --out " << args.out << ": " << why << "\n";
    return kExitUsage;
  }
  gpu::TraceOptions options;
  options.kernel = {resolved->rung, resolved->config};
  options.shape = {resolved->problem.m, resolved->problem.n, resolved->problem.k};
  options.alpha = resolved->problem.alpha, options.beta = resolved->problem.beta;
  options.input = *input, options.order = *order, options.device = args.device;
  options.blocks = args.blocks, options.events_per_warp = args.events, options.runs = args.runs;
  options.tiles = args.tiles;
  std::fprintf(stderr, "gemmlab-cli: tracing %s (the tracing build is compiled at run time, once)...\n",
               std::string(rung_info(resolved->rung).slug).c_str());
  const auto run = gpu::trace_kernel(options);
  if (!run) {
    std::cerr << "gemmlab-cli: trace: " << run.error().message << "\n";
    return kExitFailed;
  }
  const ModelSide model = predict(options, run->timeline.blocks_launched, *profile);
  sim::Timeline timeline = with_prediction(run->timeline, model);
  char cost[160];  // what the file's reader (Perfetto, the app's Timeline panel) should know of the traced kernel
  std::snprintf(cost, sizeof cost,
                "; the traced kernel ran %+.1f%% against the untraced one (%.4f and %.4f ms, medians of %d runs)",
                100.0 * run->overhead(), run->traced_ms, run->untraced_ms, run->runs);
  timeline.source += cost;
  if (auto nested = sim::check_nesting(timeline); !nested) {  // a file its own reader would refuse is not written
    std::cerr << "gemmlab-cli: trace: the timeline does not nest, so no file was written: " << nested.error().message
              << "\n";
    return kExitFailed;
  }
  const std::string file = sim::chrome_trace_json(timeline);
  if (auto written = write_output_file(args.out, file, "trace"); !written) {
    std::cerr << "gemmlab-cli: " << written.error().message << "\n";
    return kExitFailed;
  }
  const sim::TimelineSummary summary = sim::summarize(run->timeline);
  if (args.json) std::cout << summary_json(*run, summary, model, args.out).dump(2) << "\n";
  else print_summary(*run, summary, model, args.out);
  return kExitOk;
}

}  // namespace

Command add_trace_command(CLI::App& parent) {
  auto* sub = parent.add_subcommand(
      "trace",
      "Run one kernel on the GPU with its warps' waits, copies and phases stamped: a Chrome trace-event file "
      "(Perfetto) and where each warp role's time went");
  auto options = std::make_shared<common::RungOptions>();
  options->m = options->n = options->k = 4096;
  auto args = std::make_shared<TraceArgs>();
  common::add_rung_options(*sub, options);
  sub->add_option("--out", args->out, "The trace file to write (JSON, the Chrome trace-event format)")->required();
  sub->add_option("--input", args->input, "Element type of A and B: fp32, fp16 or bf16")->capture_default_str();
  sub->add_option("--order", args->order, "Block launch order: " + std::string(sim::order_names_help()))
      ->capture_default_str();
  sub->add_option("--blocks", args->blocks, "Blocks to sample, spread over the launch")
      ->capture_default_str()
      ->transform(common::whole_number(1, gpu::kMaxTracedBlocks));
  sub->add_option("--events", args->events, "Events per recorded warp (0: enough for the shape's phases)")
      ->capture_default_str()
      ->transform(common::whole_number(0, gpu::kMaxTraceEventsPerWarp));
  sub->add_option("--tiles", args->tiles,
                  "Of a block that walks several tiles (a persistent grid, Stream-K), how many a sampled block "
                  "stamps from its first, the rest running untraced (0: every tile; each count compiles a tracing "
                  "build of its own)")
      ->capture_default_str()
      ->transform(common::whole_number(0));
  sub->add_option("--runs", args->runs, "Timed runs of the traced and the untraced kernel, alternating")
      ->capture_default_str()
      ->transform(common::whole_number(1, 1000));
  sub->add_option("--device", args->device, "CUDA device index")
      ->capture_default_str()
      ->transform(common::whole_number(0));
  sub->add_option("--profile", args->profile,
                  "The device profile the time model predicts with, beside the measurement; auto: the traced GPU's "
                  "own, else h100")
      ->capture_default_str();
  sub->add_flag("--json", args->json, "Print the summary as JSON instead of text");
  return {sub, [options, args] { return run_trace(*options, *args); }};
}

}  // namespace gemmlab::cli
