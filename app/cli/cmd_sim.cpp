// gemmlab-cli sim: a rung's simulated counters for a configuration and problem size - per kernel, per block
// class and per k-step - with the configuration's validation result.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "command.hpp"
#include "gemmlab/sim/rung_model.hpp"
#include "gemmlab/sim/simulate.hpp"
#include "rung_options.hpp"
#include "table.hpp"

namespace gemmlab::cli {
namespace {

std::string fixed(double value, int digits) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", digits, value);
  return text;
}

nlohmann::json to_json(const sim::Counters& c) {
  nlohmann::json ops = nlohmann::json::object();
  for (int i = 0; i < sim::kOpClassCount; ++i) {
    const auto& o = c.ops[static_cast<std::size_t>(i)];
    if (o.instructions == 0) continue;
    nlohmann::json entry = {{"instructions", o.instructions}};
    if (sim::op_class_is_shared(i))
      entry.update({{"wavefronts", o.wavefronts}, {"ideal_wavefronts", o.ideal_wavefronts},
                    {"bank_conflicts", o.bank_conflicts()}});
    if (sim::op_class_is_global(i))
      entry.update({{"requests", o.requests}, {"sectors", o.sectors}, {"lines", o.lines},
                    {"ideal_sectors", o.ideal_sectors}});
    ops[std::string(sim::op_class_name(i))] = entry;
  }
  return {{"fma", c.fma}, {"ops", ops}};
}

void print_counters(const sim::Counters& c, std::ostream& out) {
  using A = TextTable::Align;
  TextTable table({{"instruction"}, {"count", A::Right}, {"wavefronts", A::Right}, {"ideal", A::Right},
                   {"conflicts", A::Right}, {"requests", A::Right}, {"sectors", A::Right}, {"ideal sectors", A::Right},
                   {"sector efficiency", A::Right}});
  for (int i = 0; i < sim::kOpClassCount; ++i) {
    const auto& o = c.ops[static_cast<std::size_t>(i)];
    if (o.instructions == 0) continue;
    const bool shared = sim::op_class_is_shared(i), global = sim::op_class_is_global(i);
    table.add_row({std::string(sim::op_class_name(i)), std::to_string(o.instructions),
                   shared ? std::to_string(o.wavefronts) : "", shared ? std::to_string(o.ideal_wavefronts) : "",
                   shared ? std::to_string(o.bank_conflicts()) : "", global ? std::to_string(o.requests) : "",
                   global ? std::to_string(o.sectors) : "", global ? std::to_string(o.ideal_sectors) : "",
                   global && o.sectors ? fixed(100.0 * double(o.ideal_sectors) / double(o.sectors), 1) + "%" : ""});
  }
  table.print(out);
  out << "FMAs (thread-level): " << c.fma << "\n";
}

}  // namespace

Command add_sim_command(CLI::App& parent) {
  auto* sub = parent.add_subcommand(
      "sim", "Simulate a rung: its warp memory instructions' counters per kernel, per block and per k-step");
  auto options = std::make_shared<RungOptions>();
  add_rung_options(*sub, options);
  auto json = std::make_shared<bool>(false);
  auto kstep = std::make_shared<int>(-1);
  sub->add_flag("--json", *json, "Print JSON instead of tables");
  sub->add_option("--kstep", *kstep, "Also show the first block's counters at this k-step (default: the first)");
  return {sub, [options, json, kstep] {
            const auto resolved = options->resolve();
            if (!resolved) {
              std::cerr << "gemmlab-cli: " << resolved.error().message << "\n";
              return kExitFailed;
            }
            const auto& [rung, config, problem] = *resolved;
            const RungInfo& info = rung_info(rung);
            const auto valid = sim::validate(rung, config, problem);
            if (!valid) {
              if (*json)
                std::cout << nlohmann::json{{"rung", info.slug}, {"valid", false}, {"reason", valid.error().message}}
                                 .dump(2)
                          << "\n";
              std::cerr << "gemmlab-cli: invalid configuration for " << info.slug << ": " << valid.error().message
                        << "\n";
              return kExitFailed;
            }
            const auto kernel = sim::simulate_kernel(rung, config, problem);
            if (!kernel) {
              std::cerr << "gemmlab-cli: " << kernel.error().message << "\n";
              return kExitFailed;
            }
            const auto& shape = kernel->shape;
            const kernel::TileCoord first{0, 0};
            const auto block = sim::simulate_block(rung, config, problem, first);
            if (!block) {
              std::cerr << "gemmlab-cli: " << block.error().message << "\n";
              return kExitFailed;
            }
            const int step = *kstep < 0 ? 0 : *kstep;
            if (step >= shape.ksteps) {
              std::cerr << "gemmlab-cli: --kstep " << step << " is past the last k-step (" << shape.ksteps - 1 << ")\n";
              return kExitFailed;
            }
            if (*json) {
              nlohmann::json classes = nlohmann::json::array();
              for (const auto& cls : kernel->classes)
                classes.push_back({{"example_tile", {cls.example.row, cls.example.col}},
                                   {"blocks", cls.count},
                                   {"per_block", to_json(cls.per_block)}});
              nlohmann::json per_kstep = nlohmann::json::array();
              for (const auto& c : block->per_kstep) per_kstep.push_back(to_json(c));
              const nlohmann::json out = {
                  {"rung", info.slug},
                  {"valid", true},
                  {"config", nlohmann::json::parse("{}")},
                  {"problem", {{"m", problem.m}, {"n", problem.n}, {"k", problem.k}, {"alpha", problem.alpha},
                               {"beta", problem.beta}}},
                  {"launch", {{"tiles_m", shape.tiles_m}, {"tiles_n", shape.tiles_n}, {"blocks", shape.blocks},
                              {"threads_per_block", shape.threads_per_block}, {"smem_bytes", shape.smem_bytes},
                              {"ksteps", shape.ksteps}}},
                  {"kernel", to_json(kernel->total)},
                  {"block_classes", classes},
                  {"first_block", {{"prologue", to_json(block->prologue)}, {"epilogue", to_json(block->epilogue)},
                                   {"per_kstep", per_kstep}}}};
              nlohmann::json with_config = out;
              for (const auto name : sim::rung_model(rung).knobs)
                with_config["config"][std::string(name)] = config.*sim::find_knob(name)->field;
              std::cout << with_config.dump(2) << "\n";
              return kExitOk;
            }
            std::cout << "rung " << info.number << " " << info.slug << ": " << info.title << "\n"
                      << "configuration: " << describe_config(rung, config) << " (valid)\n"
                      << "problem: C(" << problem.m << " x " << problem.n << ") = " << problem.alpha << " * A(" << problem.m
                      << " x " << problem.k << ") B(" << problem.k << " x " << problem.n << ") + " << problem.beta
                      << " * C\n"
                      << "launch: " << shape.tiles_m << " x " << shape.tiles_n << " = " << shape.blocks << " blocks of "
                      << shape.threads_per_block << " threads (" << shape.warps_per_block << " warps), "
                      << shape.smem_bytes << " bytes of shared memory, " << shape.ksteps << " k-steps\n"
                      << "block classes (blocks with provably equal counters): " << kernel->classes.size() << "\n\n"
                      << "== whole kernel ==\n";
            print_counters(kernel->total, std::cout);
            std::cout << "\n== block (0, 0), k-step " << step << " ==\n";
            print_counters(block->per_kstep[static_cast<std::size_t>(step)], std::cout);
            std::cout << "\nbank conflicts = wavefronts - ideal wavefronts; sector efficiency = ideal sectors / sectors "
                         "(above 100% when lanes share sectors).\n";
            return kExitOk;
          }};
}

}  // namespace gemmlab::cli
