// gemmlab-cli verify: every compiled rung kernel against an FP64 reference on the GPU (gemmlab/gpu/verify.hpp).
#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>
#include <nlohmann/json.hpp>

#include "command.hpp"
#include "gemmlab/gpu/instances.hpp"
#include "gemmlab/gpu/verify.hpp"
#include "common/number_options.hpp"
#include "gpu_options.hpp"
#include "gemmlab/sim/launch_order.hpp"

namespace gemmlab::cli {
namespace {

struct VerifyArgs {
  std::string rungs, sizes, order = "row", inputs;
  std::vector<std::string> configs;
  bool all = false, json = false;
  int device = 0;
  std::uint64_t seed = 2024;
};

std::string row_line(const gpu::VerifyRow& row) {
  const gpu::GpuInstance& inst = row.kernel;
  char head[200];
  std::snprintf(head, sizeof head, "%-8s %-18s %-22s %-4s %-14s alpha=%-5g beta=%-5g",
                std::string(gpu::to_string(row.result.status)).c_str(), std::string(rung_info(inst.rung).slug).c_str(),
                gpu::instance_label(inst).c_str(), std::string(kernel::input_name(row.input)).c_str(),
                gpu::to_string(row.shape).c_str(), static_cast<double>(row.alpha), static_cast<double>(row.beta));
  std::string line = head;
  if (row.result.status == gpu::CheckStatus::Passed) {
    char tail[96];
    std::snprintf(tail, sizeof tail, " worst error %.3f of the tolerance (largest |error| %.3g)", row.result.worst_ratio,
                  row.result.max_abs_error);
    line += tail;
  } else {
    line += " " + row.result.message;
  }
  return line;
}

nlohmann::json row_json(const gpu::VerifyRow& row) {
  const gpu::GpuInstance& inst = row.kernel;
  return {{"rung", rung_info(inst.rung).slug}, {"config", gpu::instance_label(inst)},
          {"input", kernel::input_name(row.input)}, {"m", row.shape.m},
          {"n", row.shape.n}, {"k", row.shape.k}, {"alpha", row.alpha}, {"beta", row.beta},
          {"status", gpu::to_string(row.result.status)}, {"message", row.result.message},
          {"bad_elements", row.result.bad_elements}, {"worst_error_over_tolerance", row.result.worst_ratio},
          {"max_abs_error", row.result.max_abs_error}};
}

int run_verify(const VerifyArgs& args) {
  gpu::VerifyOptions options;
  auto selection = parse_gpu_selection(args.rungs, args.sizes, args.order, {}, args.inputs);
  if (!selection) {
    std::cerr << "gemmlab-cli: " << selection.error().message << "\n";
    return kExitUsage;
  }
  auto kernels = parse_configs(selection->rungs, args.configs);
  if (!kernels) {
    std::cerr << "gemmlab-cli: " << kernels.error().message << "\n";
    return kExitUsage;
  }
  const auto shapes = selection->shapes.empty()
                          ? std::vector<gpu::Shape>(gpu::default_verify_shapes().begin(), gpu::default_verify_shapes().end())
                          : selection->shapes;
  if (auto ready = prepare_configs(*kernels, selection->inputs, shapes, args.device); !ready) {
    std::cerr << "gemmlab-cli: verify: " << ready.error().message << "\n";
    return kExitFailed;
  }
  options.kernels = std::move(*kernels);
  options.rungs = selection->rungs;
  options.shapes = selection->shapes;
  options.order = selection->order;
  options.inputs = selection->inputs;
  options.all_instances = args.all;
  options.device = args.device;
  options.seed = args.seed;
  const auto progress = [&](const gpu::VerifyRow& row, std::size_t, std::size_t) {
    if (!args.json) std::cout << row_line(row) << std::endl;
  };
  const auto report = gpu::verify(options, progress);
  if (!report) {
    std::cerr << "gemmlab-cli: verify: " << report.error().message << "\n";
    return kExitFailed;
  }
  if (args.json) {
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& row : report->rows) rows.push_back(row_json(row));
    std::cout << nlohmann::json{{"device", report->device.name}, {"block_order", sim::order_name(options.order)},
                                {"passed", report->passed}, {"failed", report->failed}, {"refused", report->refused},
                                {"rows", rows}}
                     .dump(2)
              << "\n";
  } else {
    std::cout << report->device.name << ", block order " << sim::order_name(options.order) << ": " << report->passed
              << " passed, " << report->failed << " failed, " << report->refused << " refused\n";
  }
  return report->failed > 0 ? kExitFailed : kExitOk;
}

}  // namespace

Command add_verify_command(CLI::App& parent) {
  auto* sub = parent.add_subcommand(
      "verify", "Check the GPU kernels against an FP64 reference (random inputs, NaN-poisoned C, beta = 0 and != 0)");
  auto args = std::make_shared<VerifyArgs>();
  sub->add_option("--rungs", args->rungs, "Comma-separated rung slugs or numbers (default: every rung with a kernel)")
      ->check(non_empty_list());
  sub->add_option("--sizes", args->sizes,
                  "Comma-separated sizes: N for N x N x N, or MxNxK (default: 1,7,33,127,1000,4097 and non-square "
                  "shapes)")
      ->check(non_empty_list());
  sub->add_flag("--all", args->all, "Every compiled configuration, not only each rung's default");
  sub->add_option("--config", args->configs, kConfigHelp)->check(non_empty_list())->excludes("--all");
  sub->add_option("--inputs", args->inputs, kInputsHelp)->check(non_empty_list());
  sub->add_option("--order", args->order, "Block launch order: " + std::string(sim::order_names_help()))
      ->capture_default_str();
  sub->add_option("--device", args->device, "CUDA device index")->capture_default_str()->transform(common::whole_number(0));
  sub->add_option("--seed", args->seed, "Seed of the random inputs")
      ->capture_default_str()
      ->transform(common::unsigned_number("a seed"));
  sub->add_flag("--json", args->json, "Print JSON instead of one line per check");
  return {sub, [args] { return run_verify(*args); }};
}

}  // namespace gemmlab::cli
