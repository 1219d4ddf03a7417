// gemmlab-cli sweep: the user's shapes (or presets of real models' GEMMs) x rungs: per shape and rung, the tiles, the
// waves and how full the last one is, the model's predicted speed and limit, and with a GPU the measured speed beside
// cuBLAS (gemmlab/gpu/sweep.hpp). Text on stdout; --json F / --csv F write the report ("-": stdout).
#include <unistd.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "command.hpp"
#include "common/number_options.hpp"
#include "common/output_path.hpp"
#include "gemmlab/file_io.hpp"
#include "gemmlab/gpu/device.hpp"
#include "gemmlab/gpu/sweep.hpp"
#include "gemmlab/sim/launch_order.hpp"
#include "gpu_options.hpp"
#include "interrupt.hpp"
#include "report_output.hpp"
#include "schedule_options.hpp"
#include "table.hpp"

namespace gemmlab::cli {
namespace {

struct SweepArgs {
  std::string devices, shard;
  std::string shapes, shapes_file, rungs, input = "bf16", order = "row", profile{kAutoProfile}, json_path, csv_path,
                                          rescore_path;
  bool model_only = false;
  int device = 0, runs = 20, tuned = 0, jobs = 0;
};

std::string fixed(double value, int digits) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", digits, value);
  return text;
}

void print_sweep(const gpu::SweepReport& r, std::ostream& out) {
  out << "model: " << r.options.profile.name << ", " << kernel::input_name(r.options.input) << " inputs, block order "
      << gpu::sweep_order_name(r.options) << "\n";
  for (const gpu::BenchReport& b : r.bench)
    out << "measured: " << b.device.name << " (GPU " << b.device.index << "), driver " << b.software.driver
        << ", cuBLAS " << b.software.cublas << ", " << b.date_utc
        << " (x cuBLAS: against cuBLAS runs alternating with the kernel's)\n";
  if (r.bench.empty()) out << "measured: nothing (--model-only)\n";
  using A = TextTable::Align;
  for (std::size_t s = 0; s < r.options.shapes.size(); ++s) {
    const gpu::SweepShape& shape = r.options.shapes[s];
    out << "\n" << shape.label << ": " << shape.shape.m << " x " << shape.shape.n << " x " << shape.shape.k;
    if (s < r.cublas.size() && r.cublas[s]) out << ", cuBLAS " << fixed(r.cublas[s]->tflops, 1) << " TFLOPS";
    out << "\n";
    if (s < r.cublas_decoded.size() && r.cublas_decoded[s])
      out << "cuBLAS runs: " << gpu::summary(*r.cublas_decoded[s]) << " (" << r.cublas_decoded[s]->gemm_ex_kernel
          << ")\n";
    TextTable table({{"rung"},
                     {"config"},
                     {"blocks", A::Right},
                     {"at once", A::Right},
                     {"waves", A::Right},
                     {"last wave", A::Right},
                     {"predicted TFLOPS", A::Right},
                     {"limit"},
                     {"TFLOPS", A::Right},
                     {"x cuBLAS", A::Right}});
    bool any = false;
    std::string refusals;  // below the table: a sentence does not fit a column
    for (const gpu::SweepEntry& e : r.entries) {
      if (e.shape != s) continue;
      any = true;
      const std::string slug(rung_info(e.rung).slug);
      std::string config = gpu::instance_label({e.rung, e.config});
      if (e.model_rank > 0) config += " (model's " + std::to_string(e.model_rank) + ")";
      if (r.options.orders.size() > 1) config += " in " + sim::order_name(e.order);
      if (!e.refused.empty()) {
        refusals += slug + (e.model_rank > 0 ? " " + config : "") + " refused: " + e.refused + "\n";
        continue;
      }
      std::string measured, ratio;
      if (e.measured && e.measured->status == gpu::BenchStatus::Timed)
        measured = fixed(e.measured->tflops, 1), ratio = fixed(e.measured->ratio_to_cublas, 3);
      else if (e.measured) measured = std::string(gpu::to_string(e.measured->status));
      table.add_row({slug, config, std::to_string(e.tiles.blocks), std::to_string(e.tiles.blocks_per_wave),
                     fixed(e.tiles.fractional(), 2),
                     std::to_string(e.tiles.last_wave_blocks) + "/" + std::to_string(e.tiles.blocks_per_wave),
                     fixed(e.predicted_tflops, 1), e.limit + (e.from_time_model ? "" : " (roofline)"), measured,
                     ratio});
    }
    if (any) table.print(out), out << refusals;
    else out << "(not reached: stopped)\n";
  }
  if (r.options.tuned > 0)
    out << "\n(model's N): the configuration's place in the time model's ranking of all the rung's valid "
           "configurations at that shape (1: predicted fastest); each rung's default first, then its "
        << r.options.tuned << " best-ranked others\n";
  if (r.cancelled)
    out << "\n(stopped with Ctrl-C: the shapes above are those done; none while the model was still ranking)\n";
}

// --rescore: a recorded sweep's measurements beside this build's model for --profile.
int run_rescore(const SweepArgs& args) {
  const auto text = read_input_file(args.rescore_path, "sweep report");
  if (!text) {
    std::cerr << "gemmlab-cli: sweep --rescore: " << text.error().message << "\n";
    return kExitUsage;
  }
  const auto recorded = nlohmann::json::parse(*text, nullptr, false);
  std::string recorded_gpu;  // the GPU the sweep was measured on, whose profile "auto" means
  if (recorded.is_object() && recorded.contains("measured_on") && recorded["measured_on"].is_object()) {
    const auto& on = recorded["measured_on"];
    if (on.contains("device") && on["device"].is_object() && on["device"].contains("name") &&
        on["device"]["name"].is_string())
      recorded_gpu = on["device"]["name"].get<std::string>();
  }
  const auto profile = timing_profile_flag(args.profile, 0, false, recorded_gpu);
  if (!profile) {
    std::cerr << "gemmlab-cli: sweep: " << profile.error().message << "\n";
    return kExitUsage;
  }
  const auto rescored = gpu::rescore_sweep_report(*text, *profile);
  if (!rescored) {
    std::cerr << "gemmlab-cli: sweep --rescore " << args.rescore_path << ": " << rescored.error().message << "\n";
    return kExitUsage;
  }
  return write_report(args.json_path.empty() ? "-" : args.json_path, *rescored, "rescored sweep") ? kExitOk
                                                                                                  : kExitFailed;
}

int run_sweep_command(const SweepArgs& args) {
  if (!args.rescore_path.empty()) return run_rescore(args);
  std::vector<gpu::SweepShape> shapes;
  if (!args.shapes.empty()) {
    auto given = gpu::parse_sweep_shapes(args.shapes);
    if (!given) {
      std::cerr << "gemmlab-cli: --shapes: " << given.error().message << "\n";
      return kExitUsage;
    }
    shapes = std::move(*given);
  }
  if (!args.shapes_file.empty()) {
    const auto text = read_input_file(args.shapes_file, "shapes file");
    if (!text) {
      std::cerr << "gemmlab-cli: --shapes-file: " << text.error().message << "\n";
      return kExitUsage;
    }
    auto listed = gpu::parse_shapes_file(*text, args.shapes_file);
    if (!listed) {
      std::cerr << "gemmlab-cli: --shapes-file: " << listed.error().message << "\n";
      return kExitUsage;
    }
    shapes.insert(shapes.end(), listed->begin(), listed->end());
  }
  if (shapes.empty()) {
    std::cerr << "gemmlab-cli: sweep: give --shapes (sizes or presets) or --shapes-file\n";
    return kExitUsage;
  }
  gpu::SweepOptions options;
  options.shapes = std::move(shapes);
  auto rungs = parse_rung_list(args.rungs);
  if (!rungs) {
    std::cerr << "gemmlab-cli: --rungs: " << rungs.error().message << "\n";
    return kExitUsage;
  }
  options.rungs = std::move(*rungs);
  const auto input = kernel::find_input(args.input);
  if (!input) {
    std::cerr << "gemmlab-cli: --input: unknown input type '" << args.input << "': fp32, fp16 or bf16\n";
    return kExitUsage;
  }
  options.input = *input;
  if (auto order = gpu::set_sweep_order(options, args.order); !order) {
    std::cerr << "gemmlab-cli: --order: " << order.error().message << "\n";
    return kExitUsage;
  }
  options.model_only = args.model_only, options.runs = args.runs;
  options.tuned = args.tuned, options.compile_jobs = args.jobs;
  auto devices = timing_devices(args.devices, args.device, !args.model_only);
  if (!devices) {
    std::cerr << "gemmlab-cli: " << devices.error().message << "\n";
    return kExitUsage;
  }
  options.devices = std::move(*devices);
  // "auto": the first GPU's profile; every GPU of a sweep is of one model, or their ratios would not compare.
  auto profile = timing_profile_flag(args.profile, options.devices.front(), !args.model_only);
  if (!profile) {
    std::cerr << "gemmlab-cli: " << profile.error().message << "\n";
    return kExitUsage;
  }
  options.profile = std::move(*profile);
  for (std::size_t i = 0; i < options.shapes.size(); ++i) options.shapes[i].index = i;
  if (!args.shard.empty()) {  // this machine's share: the shapes whose index % N == i
    const auto shard = gpu::parse_shard(args.shard);
    if (!shard) {
      std::cerr << "gemmlab-cli: --shard: " << shard.error().message << "\n";
      return kExitUsage;
    }
    std::erase_if(options.shapes,
                  [&](const gpu::SweepShape& s) { return int(s.index % std::size_t(shard->count)) != shard->index; });
    if (options.shapes.empty()) {
      std::cerr << "gemmlab-cli: --shard " << args.shard << ": no shapes fall to this shard\n";
      return kExitUsage;
    }
  }
  for (const auto& [flag, path] : {std::pair{"--json", &args.json_path}, std::pair{"--csv", &args.csv_path}}) {
    if (path->empty() || *path == "-") continue;
    if (const auto why = common::unwritable_because(*path); !why.empty()) {  // before a run that may take minutes
      std::cerr << "gemmlab-cli: " << flag << ": cannot write the report to " << *path << ": " << why << "\n";
      return kExitFailed;
    }
  }

  InterruptibleWork work("sweeping");
  auto show = work.progress();
  const auto report = gpu::run_sweep(
      options, [&](const gpu::SweepProgress& p) { show(p.total ? double(p.done) / double(p.total) : 0.0); },
      work.stop_flag());
  if (!report) {
    std::cerr << "gemmlab-cli: sweep: " << report.error().message << "\n";
    return kExitFailed;
  }
  // The files hold what was done, whole, also after Ctrl-C.
  if (!args.json_path.empty() && !write_report(args.json_path, gpu::sweep_report_json(*report), "sweep"))
    return kExitFailed;
  if (!args.csv_path.empty() && !write_report(args.csv_path, gpu::sweep_report_csv(*report), "sweep"))
    return kExitFailed;
  if (args.json_path != "-" && args.csv_path != "-") print_sweep(*report, std::cout);
  if (report->cancelled) return work.report_stopped();
  for (const auto& e : report->entries)
    if (e.measured && e.measured->status == gpu::BenchStatus::FailedVerification) return kExitFailed;
  return kExitOk;
}

std::string presets_help() {
  std::string text = "Comma-separated shapes: N, MxNxK, or a preset of a model's GEMMs:";
  for (const gpu::ShapePreset& p : gpu::shape_presets())
    text += "\n  " + std::string(p.name) + ": " + std::string(p.source);
  return text;
}

int run_merge(const std::vector<std::string>& inputs, const std::string& json_path) {
  std::vector<std::string> texts;
  for (const std::string& path : inputs) {
    auto text = read_input_file(path, "sweep report");
    if (!text) {
      std::cerr << "gemmlab-cli: merge: " << text.error().message << "\n";
      return kExitUsage;
    }
    texts.push_back(std::move(*text));
  }
  auto merged = gpu::merge_sweep_reports(texts);
  if (!merged) {
    std::cerr << "gemmlab-cli: merge: " << merged.error().message << " (the reports: in the order given)\n";
    return kExitUsage;
  }
  return write_report(json_path, *merged, "merged sweep") ? kExitOk : kExitFailed;
}

}  // namespace

Command add_merge_command(CLI::App& parent) {
  auto* sub = parent.add_subcommand("merge", "Join the JSON reports of a sweep's shards (sweep --shard i/N) into one");
  auto inputs = std::make_shared<std::vector<std::string>>();
  auto json_path = std::make_shared<std::string>("-");
  sub->add_option("reports", *inputs, "The shards' JSON reports")->required();
  sub->add_option("--json", *json_path, "Write the merged report to this file ('-': stdout)")
      ->capture_default_str()
      ->check(common::non_empty_text("a file name, or '-' for stdout"));
  return {sub, [inputs, json_path] { return run_merge(*inputs, *json_path); }};
}

Command add_sweep_command(CLI::App& parent) {
  auto* sub = parent.add_subcommand(
      "sweep",
      "Your shapes x rungs: tiles, waves and the last wave's fill, the model's predicted speed and limit, and "
      "with a GPU the measured speed beside cuBLAS");
  auto args = std::make_shared<SweepArgs>();
  sub->add_option("--shapes", args->shapes, presets_help())->check(non_empty_list());
  sub->add_option("--shapes-file", args->shapes_file,
                  "A file of shapes, one a line: MxNxK (or N), then an optional label; '#' starts a comment");
  sub->add_option("--rungs", args->rungs,
                  "Comma-separated rung slugs or numbers (default: every rung that takes --input)")
      ->check(non_empty_list());
  sub->add_option("--input", args->input, "The input type of A and B: fp32, fp16 or bf16")->capture_default_str();
  sub->add_option("--order", args->order,
                  "Block launch order: " + std::string(sim::order_names_help()) + ", or " +
                      std::string(gpu::kRungsOwnOrder) + " (" + gpu::rungs_own_order_help() +
                      "); several, comma-separated (preferred,groupm:8), time each configuration in each order its "
                      "grid of tiles takes")
      ->capture_default_str();
  sub->add_option("--profile", args->profile,
                  "The device profile the model predicts for; auto: the timing GPU's own (with --rescore: the "
                  "sweep's GPU's), else h100")
      ->capture_default_str();
  sub->add_flag("--model-only", args->model_only, "Predict only: no GPU needed");
  auto* device = sub->add_option("--device", args->device, "CUDA device index")
                     ->capture_default_str()
                     ->transform(common::whole_number(0));
  sub->add_option("--devices", args->devices,
                  "Time on several GPUs at once, one worker each: all, or indices like 0,1 (each row says which GPU "
                  "timed it)")
      ->excludes(device);
  sub->add_option("--shard", args->shard,
                  "i/N: only shard i (from 0) of N, the shapes whose place in the list % N == i, for a sweep spread "
                  "over machines; `gemmlab-cli merge` joins the shards' JSON reports");
  sub->add_option("--runs", args->runs, "Timed runs per kernel and shape")
      ->capture_default_str()
      ->transform(common::whole_number(1));
  auto* tuned =
      sub->add_option(
             "--tuned", args->tuned,
             "Beside each rung's default, the N configurations the time model ranks fastest for each shape (as "
             "`tune` ranks them), compiled at run time where the build lacks them, and timed")
          ->capture_default_str()
          ->transform(common::whole_number(0));
  sub->add_option("--jobs", args->jobs, "With --tuned: nvcc processes at once (default: one per core)")
      ->transform(common::whole_number(1))
      ->needs(tuned);
  sub->add_option("--json", args->json_path, "Write the report as JSON to this file ('-': stdout, no table)")
      ->check(common::non_empty_text("a file name, or '-' for stdout"));
  auto* csv = sub->add_option("--csv", args->csv_path, "Write the report as CSV to this file ('-': stdout, no table)")
                  ->check(common::non_empty_text("a file name, or '-' for stdout"));
  auto* rescore =
      sub->add_option("--rescore", args->rescore_path,
                      "A recorded sweep's JSON report: its model columns predicted again by this build for --profile, "
                      "its measurements as recorded; the report goes to --json (default: stdout)")
          ->check(common::non_empty_text("a sweep's JSON report"));
  for (const char* other : {"--shapes", "--shapes-file", "--rungs", "--input", "--order", "--model-only", "--device",
                            "--devices", "--shard", "--runs", "--tuned", "--jobs"})
    rescore->excludes(sub->get_option(other));
  rescore->excludes(csv);
  return {sub, [args] { return run_sweep_command(*args); }};
}

}  // namespace gemmlab::cli
