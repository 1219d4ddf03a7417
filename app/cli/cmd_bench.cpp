// gemmlab-cli bench: each rung's kernel next to cuBLAS on the same input type, verified first, timed with CUDA events
// (gemmlab/gpu/bench.hpp). Text on stdout; --json F / --csv F write the report to files ("-": stdout).
#include <CLI/CLI.hpp>
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "command.hpp"
#include "report_output.hpp"
#include "gemmlab/file_io.hpp"
#include "gemmlab/gpu/bench.hpp"
#include "gpu_options.hpp"
#include "common/number_options.hpp"
#include "common/output_path.hpp"
#include "table.hpp"
#include "gemmlab/sim/launch_order.hpp"

namespace gemmlab::cli {
namespace {

struct BenchArgs {
  std::string rungs, sizes, order = "row", inputs, json_path, csv_path;
  std::vector<std::string> configs;
  bool all = false, unqueued = false;
  int device = 0, runs = 20;
  double hold = 0;
};

std::string fixed(double value, int digits) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", digits, value);
  return text;
}

void print_report(const gpu::BenchReport& r, std::ostream& out) {
  const auto& d = r.device;
  out << "device: " << d.name << " (sm_" << d.cc_major << d.cc_minor << ", " << d.sm_count << " SMs, L2 "
      << d.l2_bytes / (1024 * 1024) << " MiB, SM clock max " << d.sm_clock_max_mhz << " MHz, now "
      << r.sm_clock_start_mhz << " -> " << r.sm_clock_end_mhz << " MHz)\n"
      << "software: driver " << (r.software.driver.empty() ? "unknown" : r.software.driver) << " (CUDA "
      << gpu::format_cuda_version(r.software.driver_cuda_version) << "), runtime CUDA "
      << gpu::format_cuda_version(r.software.runtime_version) << ", cuBLAS " << r.software.cublas << "\n"
      << "date: " << r.date_utc << ", block order " << sim::order_name(r.order) << ", up to " << r.buffer_sets_max
      << " input sets rotated (together > 2x L2)\n"
      << (r.hold_seconds > 0
              ? "held: each kernel ran alone for " + fixed(r.hold_seconds, 1) +
                    " s before its timed runs; x cuBLAS: against cuBLAS's own row, held the same way\n"
              : std::string("x cuBLAS: against cuBLAS runs alternating with the kernel's, on the same shape and input "
                            "type\n"))
      << (r.queued ? "timing: runs queued behind a gate, then back to back: each one's time is the GPU's\n"
                   : "timing: each run as the host submitted it (small kernels include the host's launch time)\n");
  using A = TextTable::Align;
  TextTable table({{"kernel"}, {"config"}, {"input"}, {"size"}, {"runs", A::Right}, {"median ms", A::Right},
                   {"TFLOPS", A::Right}, {"x cuBLAS", A::Right}, {"note"}});
  for (const auto& row : r.rows) {
    const bool timed = row.status == gpu::BenchStatus::Timed;
    std::string note = timed ? row.message : std::string(gpu::to_string(row.status)) + ": " + row.message;
    if (row.compiled_at_run_time) note = "compiled at run time" + std::string(note.empty() ? "" : "; ") + note;
    table.add_row({row.name, row.config, std::string(kernel::input_name(row.input)), gpu::to_string(row.shape),
                   timed ? std::to_string(row.runs) : "",
                   timed ? fixed(row.median_ms, 3) : "", timed ? fixed(row.tflops, 2) : "",
                   timed && row.ratio_to_cublas > 0 ? fixed(row.ratio_to_cublas, 3) : "", note});
  }
  table.print(out);
  if (r.cancelled) out << "(cancelled before the end)\n";
}

int run_bench_command(const BenchArgs& args) {
  gpu::BenchOptions options;
  auto selection = parse_gpu_selection(args.rungs, args.sizes, args.order, options.shapes, args.inputs);
  if (!selection) {
    std::cerr << "gemmlab-cli: " << selection.error().message << "\n";
    return kExitUsage;
  }
  for (const auto& [flag, path] : {std::pair{"--json", &args.json_path}, std::pair{"--csv", &args.csv_path}}) {
    if (path->empty()) continue;
    if (*path == "-") continue;  // stdout
    if (const auto why = common::unwritable_because(*path); !why.empty()) {  // found before a run that may take minutes
      std::cerr << "gemmlab-cli: " << flag << ": cannot write the report to " << *path << ": " << why << "\n";
      return kExitFailed;
    }
  }
  auto kernels = parse_configs(selection->rungs, args.configs);
  if (!kernels) {
    std::cerr << "gemmlab-cli: " << kernels.error().message << "\n";
    return kExitUsage;
  }
  if (auto ready = prepare_configs(*kernels, selection->inputs, selection->shapes, args.device); !ready) {
    std::cerr << "gemmlab-cli: bench: " << ready.error().message << "\n";
    return kExitFailed;
  }
  options.kernels = std::move(*kernels);
  options.rungs = selection->rungs;
  options.shapes = selection->shapes;
  options.order = selection->order;
  options.inputs = selection->inputs;
  options.all_instances = args.all;
  options.device = args.device;
  options.runs = args.runs;
  options.hold_seconds = args.hold;
  options.queued = !args.unqueued;

  // A progress line only where a person watches: a terminal, and no machine-readable report on stdout.
  const bool show_progress = isatty(STDERR_FILENO) && args.json_path.empty();
  std::function<void(const gpu::BenchProgress&)> progress;
  if (show_progress)
    progress = [](const gpu::BenchProgress& p) {
      std::fprintf(stderr, "\r\033[K[%zu/%zu] %s", p.done, p.total, p.what.c_str());
      std::fflush(stderr);
    };
  const auto report = gpu::run_bench(options, progress);
  if (show_progress) std::fprintf(stderr, "\r\033[K");
  if (!report) {
    std::cerr << "gemmlab-cli: bench: " << report.error().message << "\n";
    return kExitFailed;
  }
  if (!args.json_path.empty() && !write_report(args.json_path, gpu::bench_report_json(*report), "report")) return kExitFailed;
  if (!args.csv_path.empty() && !write_report(args.csv_path, gpu::bench_report_csv(*report), "report")) return kExitFailed;
  if (args.json_path != "-" && args.csv_path != "-") print_report(*report, std::cout);
  for (const auto& row : report->rows)
    if (row.status == gpu::BenchStatus::FailedVerification) return kExitFailed;
  return kExitOk;
}

}  // namespace

Command add_bench_command(CLI::App& parent) {
  auto* sub = parent.add_subcommand(
      "bench", "Time the GPU kernels next to cuBLAS on the same input type, FP32, FP16 or BF16 (verified first; median of "
              "CUDA-event-timed runs)");
  auto args = std::make_shared<BenchArgs>();
  sub->add_option("--rungs", args->rungs, "Comma-separated rung slugs or numbers (default: every rung with a kernel)")
      ->check(non_empty_list());
  sub->add_option("--sizes", args->sizes, "Comma-separated sizes: N for N x N x N, or MxNxK (default: 1024,2048,4096,8192)")
      ->check(non_empty_list());
  sub->add_flag("--all", args->all, "Every compiled configuration, not only each rung's default");
  sub->add_option("--config", args->configs, kConfigHelp)->check(non_empty_list())->excludes("--all");
  sub->add_option("--inputs", args->inputs, kInputsHelp)->check(non_empty_list());
  sub->add_option("--order", args->order, "Block launch order: " + std::string(sim::order_names_help()))
      ->capture_default_str();
  sub->add_option("--runs", args->runs, "Timed runs per kernel and size (fewer where one run takes seconds)")
      ->capture_default_str()
      ->transform(common::whole_number(1));
  sub->add_option("--hold", args->hold,
                  "Seconds each kernel runs alone before it is timed; its timed runs then do not alternate with "
                  "cuBLAS's, so the card runs at the clock it holds under that kernel's own load, the clock the time "
                  "model assumes (0, the default: alternate with cuBLAS)")
      ->capture_default_str()
      ->check(common::seconds(gpu::kMaxHoldSeconds));
  sub->add_flag("--unqueued", args->unqueued,
                "Time each run as the host submits it, not queued behind a gate first (bench's method before "
                "2026-11-30): a kernel of a few microseconds then includes the host's launch time");
  sub->add_option("--device", args->device, "CUDA device index")->capture_default_str()->transform(common::whole_number(0));
  sub->add_option("--json", args->json_path, "Write the report as JSON to this file ('-': stdout, no table)")
      ->check(common::non_empty_text("a file name, or '-' for stdout"));
  sub->add_option("--csv", args->csv_path, "Write the report as CSV to this file ('-': stdout, no table)")
      ->check(common::non_empty_text("a file name, or '-' for stdout"));
  return {sub, [args] { return run_bench_command(*args); }};
}

}  // namespace gemmlab::cli
