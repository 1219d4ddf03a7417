// gemmlab-cli tune: the model-guided autotuner (gemmlab/gpu/tune.hpp). Every valid configuration of a rung ranked by
// the time model; the default, the model's best and a random sample of the rest compiled and timed next to cuBLAS;
// the best found, and how well the model ranked what was timed.
#include <CLI/CLI.hpp>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <thread>

#include "command.hpp"
#include "report_output.hpp"
#include "common/number_options.hpp"
#include "common/rung_options.hpp"
#include "common/output_path.hpp"
#include "gemmlab/file_io.hpp"
#include "gemmlab/gpu/tune.hpp"
#include "gemmlab/sim/launch_order.hpp"
#include "gemmlab/sim/rung_model.hpp"
#include "gemmlab/sim/simulate.hpp"
#include "gpu_options.hpp"
#include "interrupt.hpp"
#include "schedule_options.hpp"
#include "table.hpp"

namespace gemmlab::cli {
namespace {

struct TuneArgs {
  std::string rung, order = "row", input, profile{kAutoProfile}, json_path, rescore_path;
  int m = 4096, n = 4096, k = 4096;
  int budget = 40, top = -1, runs = 10, jobs = 0, device = 0;
  std::string devices;
  std::uint64_t seed = 1;
  bool model_only = false;
  bool compile = false;  // --rescore: compile what the build lacks, for each configuration's own SASS
};

std::string fixed(double value, int digits) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", digits, value);
  return text;
}

std::string label(const gpu::TuneOptions& o, const kernel::KernelConfig& config) {
  return gpu::instance_label(gpu::GpuInstance{o.rung, config});
}

void print_ranking(const gpu::TuneOptions& o, const gpu::TuneRanking& ranking, std::ostream& out) {
  out << "the model's ranking of " << ranking.ranked.size() << " configurations (the first " << o.budget << "):\n";
  using A = TextTable::Align;
  TextTable table({{"rank", A::Right}, {"config"}, {"predicted ms", A::Right}, {"limit"}, {"registers", A::Right}});
  // Predictions within 0.1% of the row above are a tie the model cannot break: marked "=", said once below.
  const auto ties_above = [&](std::size_t i) {
    return i > 0 && ranking.ranked[i].predicted_seconds <= ranking.ranked[i - 1].predicted_seconds * 1.001;
  };
  int tied = 0;
  for (std::size_t i = 0; i < ranking.ranked.size() && static_cast<int>(i) < o.budget; ++i) {
    const gpu::TuneCandidate& c = ranking.ranked[i];
    const bool tie = ties_above(i) || (i + 1 < ranking.ranked.size() && ties_above(i + 1));
    tied += tie ? 1 : 0;
    table.add_row({std::to_string(c.model_rank) + (tie ? "=" : ""), label(o, c.config),
                   fixed(c.predicted_seconds * 1e3, 3), std::string(sim::to_string(c.limit)),
                   std::to_string(c.registers) + (c.registers_from_compiler ? "" : " (est.)")});
  }
  table.print(out);
  if (tied > 0)
    out << "=: " << tied << " of these configurations tie with a neighbour (predictions within 0.1%): the model "
        << "cannot tell them apart, and their order among themselves is the search's, not a ranking\n";
}

void print_report(const gpu::TuneReport& r, std::ostream& out) {
  const gpu::TuneOptions& o = r.options;
  out << "timed on " << r.bench.device.name << " (driver " << r.bench.software.driver << ", CUDA "
      << gpu::format_cuda_version(r.bench.software.runtime_version) << ", cuBLAS " << r.bench.software.cublas << "), "
      << r.bench.date_utc << ": " << r.measured.size() << " configurations, median of up to " << o.runs << " runs each\n";
  const bool several = o.devices.size() > 1;
  if (several)
    out << "spread over " << o.devices.size() << " GPUs, each configuration timed on one ('on': its CUDA index) beside "
        << "that GPU's own cuBLAS runs\n";
  using A = TextTable::Align;
  TextTable table({{"model", A::Right}, {"GPU", A::Right}, {"config"}, {"picked as"}, {"predicted ms", A::Right},
                   {"measured ms", A::Right}, {"TFLOPS", A::Right}, {"x cuBLAS", A::Right}, {"limit (model)"},
                   {"on", A::Right}, {"note"}});
  for (const gpu::TuneMeasurement& m : r.measured) {
    const bool timed = m.row && m.row->status == gpu::BenchStatus::Timed;
    std::string note = !m.compile_error.empty() ? m.compile_error
                       : !m.row                ? "not timed"
                       : timed                 ? m.row->message
                                               : std::string(gpu::to_string(m.row->status)) + ": " + m.row->message;
    if (m.compiled_at_run_time && m.compile_seconds > 0) note = "compiled in " + fixed(m.compile_seconds, 1) + " s. " + note;
    if (m.spill_bytes > 0) note = "spills " + std::to_string(m.spill_bytes) + " bytes: not scored. " + note;
    table.add_row({std::to_string(m.candidate.model_rank), m.measured_rank > 0 ? fixed(m.measured_rank, m.measured_rank == std::floor(m.measured_rank) ? 0 : 1) : "",
                   label(o, m.candidate.config), std::string(gpu::to_string(m.pick)),
                   fixed(m.candidate.predicted_seconds * 1e3, 3), timed ? fixed(m.row->median_ms, 3) : "",
                   timed ? fixed(m.row->tflops, 1) : "", timed ? fixed(m.row->ratio_to_cublas, 3) : "",
                   std::string(sim::to_string(m.candidate.limit)),
                   several && m.device >= 0 ? std::to_string(m.device) : "", note});
  }
  table.print(out);
  out << "(model: the rank among all " << r.ranking.ranked.size() << " ranked, before ptxas's registers; GPU: the rank "
      << "among the " << r.scored << " scored, ties at their average; a configuration that spills is timed, not scored)\n";
  if (r.cublas && r.cublas->status == gpu::BenchStatus::Timed)
    out << "cuBLAS: " << fixed(r.cublas->median_ms, 3) << " ms, " << fixed(r.cublas->tflops, 1) << " TFLOPS\n";
  if (r.best) {
    const gpu::TuneMeasurement& best = r.measured[*r.best];
    out << "best measured: " << label(o, best.candidate.config) << ", " << fixed(best.row->tflops, 1) << " TFLOPS ("
        << fixed(best.row->ratio_to_cublas, 3) << "x cuBLAS)\n";
  }
  if (r.default_config) {
    const gpu::TuneMeasurement& d = r.measured[*r.default_config];
    if (d.row && d.row->status == gpu::BenchStatus::Timed)
      out << "the default: " << fixed(d.row->tflops, 1) << " TFLOPS (" << fixed(d.row->ratio_to_cublas, 3)
          << "x cuBLAS), " << d.measured_rank << " of " << r.scored << " on the GPU, " << d.candidate.model_rank
          << " of " << r.ranking.ranked.size() << " by the model\n";
  }
  out << "Spearman rank correlation of predicted and measured time over " << r.scored
      << " scored configurations (timed, no spills): " << fixed(r.spearman, 3) << "\n";
  if (!r.misses.empty()) {
    out << "the model's worst misses:\n";
    for (const gpu::TuneMiss& miss : r.misses) out << "  - " << miss.sentence << "\n";
  }
  if (r.cancelled) out << "(cancelled before the end)\n";
}

// --json: the report to the file, or to stdout for '-'; nothing without --json. False (and said) where writing failed.
bool write_json(const std::string& path, const gpu::TuneReport& report) {
  return path.empty() || write_report(path, gpu::tune_report_json(report), "tuning report");
}

// --rescore: a recorded study, its measurements predicted and scored again by today's model.
int run_rescore(const TuneArgs& args) {
  const auto text = read_input_file(args.rescore_path, "tuning study");
  if (!text) {
    std::cerr << "gemmlab-cli: --rescore: " << text.error().message << "\n";
    return kExitFailed;
  }
  auto report = gpu::parse_tune_report_json(*text);
  if (!report) {
    std::cerr << "gemmlab-cli: --rescore: " << args.rescore_path << ": " << report.error().message << "\n";
    return kExitFailed;
  }
  auto profile = timing_profile_flag(args.profile, 0, false, report->bench.device.name);
  if (!profile) {
    std::cerr << "gemmlab-cli: " << profile.error().message << "\n";
    return kExitUsage;
  }
  const double recorded = report->spearman;
  if (auto done = gpu::repredict_tune(*report, *profile, !args.compile ? 0
                                                       : args.jobs > 0 ? args.jobs
                                                                       : std::max(1, int(std::thread::hardware_concurrency()))); !done) {
    std::cerr << "gemmlab-cli: --rescore: " << done.error().message << "\n";
    return kExitFailed;
  }
  std::ostream& out = args.json_path == "-" ? std::cerr : std::cout;
  const gpu::TuneOptions& o = report->options;
  out << "rescore " << rung_info(o.rung).slug << " at " << o.shape.m << "x" << o.shape.n << "x" << o.shape.k
      << ": the study's measurements, predicted again by today's model (" << o.profile.name
      << "); the model column is the rank among them\n";
  if (!write_json(args.json_path, *report)) return kExitFailed;
  print_report(*report, out);
  out << "Spearman when the study was recorded: " << fixed(recorded, 3) << "; with today's model: "
      << fixed(report->spearman, 3) << "\n";
  return kExitOk;
}

int run_tune_command(const TuneArgs& args) {
  if (!args.rescore_path.empty()) return run_rescore(args);
  gpu::TuneOptions o;
  const auto rung = find_rung(args.rung);
  if (!rung) {
    std::cerr << "gemmlab-cli: --rung: unknown rung '" << args.rung << "' (gemmlab-cli list shows them)\n";
    return kExitUsage;
  }
  o.rung = *rung;
  if (sim::rung_model(o.rung).knobs.empty()) {
    std::cerr << "gemmlab-cli: rung " << args.rung << " has no knobs to tune\n";
    return kExitUsage;
  }
  o.shape = {args.m, args.n, args.k};
  auto order = order_flag(args.order);
  if (!order) {
    std::cerr << "gemmlab-cli: " << order.error().message << "\n";
    return kExitUsage;
  }
  o.order = *order;
  if (!args.input.empty()) {
    const auto type = kernel::find_input(args.input);
    const auto takes = sim::input_types(o.rung);
    if (!type || std::find(takes.begin(), takes.end(), *type) == takes.end()) {
      std::string names;
      for (const auto t : takes) names += (names.empty() ? "" : ", ") + std::string(kernel::input_name(t));
      std::cerr << "gemmlab-cli: --input: rung " << args.rung << " takes " << names << ", not '" << args.input << "'\n";
      return kExitUsage;
    }
    o.input = *type;
  }
  auto devices = timing_devices(args.devices, args.device, !args.model_only);
  if (!devices) {
    std::cerr << "gemmlab-cli: " << devices.error().message << "\n";
    return kExitUsage;
  }
  o.devices = std::move(*devices);
  // "auto": the profile of the GPU that times (the first, with several: they are of one model, or their times would
  // not compare).
  auto profile = timing_profile_flag(args.profile, o.devices.front(), !args.model_only);
  if (!profile) {
    std::cerr << "gemmlab-cli: " << profile.error().message << "\n";
    return kExitUsage;
  }
  o.profile = std::move(*profile);
  o.budget = args.budget;
  o.top = args.top >= 0 ? args.top : args.budget / 2;
  o.runs = args.runs;
  o.compile_jobs = args.jobs;
  o.device = args.device;
  o.seed = args.seed;
  if (!args.json_path.empty() && args.json_path != "-")
    if (const auto why = common::unwritable_because(args.json_path); !why.empty()) {
      std::cerr << "gemmlab-cli: --json: cannot write the report to " << args.json_path << ": " << why << "\n";
      return kExitFailed;
    }

  InterruptibleWork work("tuning " + args.rung);
  const sim::Progress shown = work.progress();
  std::atomic<bool> cancel{false};
  const auto progress = [&](const gpu::TuneProgress& p) {
    if (!shown(gpu::fraction_done(p))) cancel.store(true);
  };

  std::ostream& out = args.json_path == "-" ? std::cerr : std::cout;
  out << "tune " << args.rung << " at " << args.m << "x" << args.n << "x" << args.k << ", model: " << o.profile.name
      << ", block order " << sim::order_name(o.order) << "\n";
  if (args.model_only) {
    auto ranking = gpu::rank_configurations(o, progress, &cancel);
    if (work.interrupted()) return work.report_stopped();
    if (!ranking) {
      std::cerr << "gemmlab-cli: tune: " << ranking.error().message << "\n";
      return kExitFailed;
    }
    out << "searched " << ranking->space << " valid configurations; " << ranking->unpredicted.size()
        << " without a prediction\n";
    print_ranking(o, *ranking, out);
    for (std::size_t i = 0; i < ranking->unpredicted.size() && i < 5; ++i)
      out << (i == 0 ? "without a prediction, for example:\n" : "") << "  - " << ranking->unpredicted[i] << "\n";
    if (!args.json_path.empty() && !write_report(args.json_path, gpu::tune_ranking_json(o, *ranking), "tuning ranking"))
      return kExitFailed;
    return kExitOk;
  }
  auto report = gpu::run_tune(o, progress, &cancel);
  if (work.interrupted() && (!report || report->cancelled)) return work.report_stopped();
  if (!report) {
    std::cerr << "gemmlab-cli: tune: " << report.error().message << "\n";
    return kExitFailed;
  }
  out << "searched " << report->ranking.space << " valid configurations, ranked " << report->ranking.ranked.size()
      << "; timing the default, the model's top " << o.top << " and a random sample of the rest (seed " << o.seed
      << "), " << report->measured.size() << " in all\n";
  if (!write_json(args.json_path, *report)) return kExitFailed;
  print_report(*report, out);
  return kExitOk;
}

}  // namespace

Command add_tune_command(CLI::App& parent) {
  auto* sub = parent.add_subcommand(
      "tune", "Rank every valid configuration of a rung by the time model, time the model's best and a random sample "
              "on the GPU, and report how well the model ranked them");
  auto args = std::make_shared<TuneArgs>();
  auto* rung = sub->add_option("--rung", args->rung, "The rung to tune (slug or ladder number)");
  auto* rescore = sub->add_option("--rescore", args->rescore_path,
                                  "Predict a recorded study's measurements (its JSON) again with today's model and "
                                  "score them: no GPU");
  rung->excludes(rescore);
  sub->callback([rung, rescore] {
    if (rung->count() == 0 && rescore->count() == 0) throw CLI::RequiredError("--rung (or --rescore)");
  });
  common::add_problem_size_options(*sub, args->m, args->n, args->k);
  sub->add_option("--budget", args->budget, "Configurations to time on the GPU, the default among them")
      ->capture_default_str()
      ->transform(common::whole_number(1, 10000));
  sub->add_option("--top", args->top, "Of those, the model's best (default: half the budget); the rest at random")
      ->transform(common::whole_number(0, 10000));
  sub->add_option("--runs", args->runs, "Timed runs per configuration")->capture_default_str()->transform(common::whole_number(1));
  sub->add_option("--input", args->input, "Input type of A and B: fp32, fp16 or bf16 (default: the rung's first)");
  sub->add_option("--order", args->order, "Block launch order: " + std::string(sim::order_names_help()))
      ->capture_default_str();
  sub->add_option("--profile", args->profile,
                  "The device profile the model predicts for; auto: the timing GPU's own (with --rescore: the "
                  "study's GPU's), else h100")
      ->capture_default_str();
  auto* device = sub->add_option("--device", args->device, "CUDA device index")
                     ->capture_default_str()
                     ->transform(common::whole_number(0));
  sub->add_option("--devices", args->devices,
                  "Time on several GPUs at once, one worker each, the configurations dealt out in turn: all, or "
                  "indices like 0,1 (each row says which GPU timed it)")
      ->excludes(device);
  sub->add_option("--jobs", args->jobs, "nvcc processes at once (default: one per core)")->transform(common::whole_number(1));
  sub->add_option("--seed", args->seed, "Seed of the random sample")->capture_default_str()->transform(common::unsigned_number("a seed"));
  sub->add_option("--json", args->json_path, "Write the study as JSON to this file ('-': stdout)")
      ->check(common::non_empty_text("a file name, or '-' for stdout"));
  sub->add_flag("--model-only", args->model_only, "Rank by the model only: no GPU, nothing compiled or timed");
  sub->add_flag("--compile", args->compile,
                "With --rescore: compile each configuration the build lacks (nvcc, no GPU; --jobs at once) and predict "
                "it with its own registers and SASS")
      ->needs(rescore);
  // A recorded study brings its own rung, size, input, order and sample: the options that make a new one do not apply.
  for (const char* name : {"--model-only", "--budget", "--top", "--runs", "--input", "--order", "--device",
                           "--devices", "--seed", "--m", "--n", "--k"})
    rescore->excludes(sub->get_option(name));
  return {sub, [args] { return run_tune_command(*args); }};
}

}  // namespace gemmlab::cli
