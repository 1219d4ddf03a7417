// gemmlab-cli cublas: which algorithm cuBLAS runs for a problem, decoded into gemmlab's terms (gemmlab/gpu/
// cublas_choice.hpp), beside the tiles and waves of the ladder's top rung on the same problem.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "command.hpp"
#include "common/number_options.hpp"
#include "common/rung_options.hpp"
#include "gemmlab/gpu/cublas_choice.hpp"
#include "gemmlab/kernel/tiling_rules.hpp"
#include "gemmlab/rungs.hpp"
#include "gemmlab/sim/rung_model.hpp"
#include "gemmlab/sim/simulate.hpp"

namespace gemmlab::cli {
namespace {

struct CublasArgs {
  int m = 4096, n = 4096, k = 4096, device = 0;
  std::string input = "bf16";
  bool json = false;
};

int run_cublas(const CublasArgs& args) {
  const auto input = kernel::find_input(args.input);
  if (!input || *input == kernel::InputType::F32) {
    std::cerr << "gemmlab-cli: --input: '" << args.input
              << "': fp16 or bf16 (cuBLAS decoded reads tensor-core GEMMs)\n";
    return kExitUsage;
  }
  const gpu::Shape shape{args.m, args.n, args.k};
  const auto choice = gpu::cublas_choice(shape, *input, args.device);
  if (!choice) {
    std::cerr << "gemmlab-cli: cublas: " << choice.error().message << "\n";
    return kExitFailed;
  }
  if (args.json) {
    std::cout << nlohmann::json{{"m", args.m},
                                {"n", args.n},
                                {"k", args.k},
                                {"input", args.input},
                                {"cublas", nlohmann::json::parse(gpu::cublas_choice_json(*choice))}}
                     .dump(2)
              << "\n";
    return kExitOk;
  }
  const auto& c = *choice;
  std::printf(
      "cuBLAS on the %s for %d x %d x %d, %s inputs, FP32 accumulation and C (as gemmlab's benchmark runs it)\n",
      c.device.c_str(), args.m, args.n, args.k, args.input.c_str());
  std::printf(
      "cuBLASLt's first choice: algorithm %d, %s; CTA swizzle %d; %.2f waves (its count); workspace %zu bytes\n",
      c.algorithm, gpu::summary(c).c_str(), c.cta_swizzle, c.waves, c.workspace_bytes);
  std::printf("  (cuBLASLt's names: tile %s of C^T, stages %s, cluster %s)\n", c.tile_name.c_str(),
              c.stages_name.c_str(), c.cluster_name.c_str());
  if (!c.gemm_ex_kernel.empty()) {
    std::printf("kernel cublasGemmEx launched: %s\n", c.gemm_ex_kernel.c_str());
    std::printf("kernel cublasLtMatmul launched with that choice: %s%s\n", c.lt_kernel.c_str(),
                c.lt_kernel == c.gemm_ex_kernel ? " (the same)" : " (a different one: cublasGemmEx chose otherwise)");
  } else {
    std::printf("kernels: not named: %s\n", c.kernel_note.c_str());
  }
  if (c.tile_rows > 0) {
    const long tiles = long(kernel::ceil_div(args.m, c.tile_rows)) * kernel::ceil_div(args.n, c.tile_cols);
    std::printf("In gemmlab's terms: %ld tiles of %d x %d", tiles, c.tile_rows, c.tile_cols);
    if (c.split_k > 1) std::printf(", each K cut in %d slices: %ld blocks", c.split_k, tiles * c.split_k);
    std::printf(".\n");
  }
  const RungId top = gemmlab::rungs().back().id;
  const auto config = sim::rung_model(top).defaults;
  if (const auto launch = sim::launch_shape(top, config, {args.m, args.n, args.k})) {
    std::printf("gemmlab's %s (default, %d x %d tiles): %d tiles, no split of K",
                std::string(rung_info(top).slug).c_str(), config.bm, config.bn, launch->blocks);
    if (config.grid > 0) std::printf(", on %d persistent blocks", config.grid);
    std::printf(" (gemmlab-cli sweep or schedule predicts it).\n");
  }
  return kExitOk;
}

}  // namespace

Command add_cublas_command(CLI::App& parent) {
  auto* sub = parent.add_subcommand(
      "cublas",
      "Which algorithm cuBLAS runs for a problem, decoded: tile, k-depth and stages, split-K and its "
      "reduction, swizzle, cluster shape, and the kernel it launches (needs a GPU)");
  auto args = std::make_shared<CublasArgs>();
  common::add_problem_size_options(*sub, args->m, args->n, args->k);
  sub->add_option("--input", args->input, "The input type of A and B: fp16 or bf16")->capture_default_str();
  sub->add_option("--device", args->device, "CUDA device index")
      ->capture_default_str()
      ->transform(common::whole_number(0));
  sub->add_flag("--json", args->json, "Print JSON instead of text");
  return {sub, [args] { return run_cublas(*args); }};
}

}  // namespace gemmlab::cli
