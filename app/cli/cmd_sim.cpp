// gemmlab-cli sim: a rung's simulated counters for a configuration and problem size - per kernel, per block
// class and per k-step - with the configuration's validation result, and the occupancy and roofline they give on a
// device (gemmlab-cli schedule shows the launch order's L2 traffic in detail).
#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "command.hpp"
#include "gemmlab/gpu/instances.hpp"
#include "gemmlab/sim/block_walker.hpp"
#include "gemmlab/sim/launch_order.hpp"
#include "gemmlab/sim/rung_model.hpp"
#include "gemmlab/sim/schedule_prediction.hpp"
#include "gemmlab/sim/simulate.hpp"
#include "common/number_options.hpp"
#include "common/rung_options.hpp"
#include "interrupt.hpp"
#include "phase_listing.hpp"
#include "schedule_options.hpp"
#include "schedule_report.hpp"
#include "table.hpp"

namespace gemmlab::cli {
namespace {

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
                    {"ideal_sectors", o.ideal_sectors}, {"data_pipe_wavefronts", o.global_wavefronts}});
    if (o.split_sectors > 0) entry["split_sectors"] = o.split_sectors;
    ops[std::string(sim::op_class_name(i))] = entry;
  }
  nlohmann::json out = {{"fma", c.fma}, {"mma", c.mma}, {"ops", ops}};
  if (c.tma_copies > 0 || c.wgmma > 0)
    out.update({{"tma", {{"copies", c.tma_copies}, {"bytes", c.tma_bytes}, {"sectors", c.tma_sectors}}},
                {"wgmma", {{"instructions", c.wgmma}, {"multiply_adds", c.wgmma_multiply_adds}}}});
  if (c.tma_partner_copies > 0)
    out["tma"].update({{"partner_copies", c.tma_partner_copies}, {"partner_sectors", c.tma_partner_sectors}});
  if (c.tma_stores > 0) out["tma_stores"] = {{"stores", c.tma_stores}, {"sectors", c.tma_store_sectors}};
  return out;
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
    // Wavefronts: the shared side's, or a global access's in the L1 data pipe (Rule G6).
    table.add_row({std::string(sim::op_class_name(i)), std::to_string(o.instructions),
                   shared ? std::to_string(o.wavefronts) : global ? std::to_string(o.global_wavefronts) : "",
                   shared ? std::to_string(o.ideal_wavefronts) : "",
                   shared ? std::to_string(o.bank_conflicts()) : "", global ? std::to_string(o.requests) : "",
                   global ? std::to_string(o.sectors) : "", global ? std::to_string(o.ideal_sectors) : "",
                   global && o.sectors ? fixed(100.0 * double(o.ideal_sectors) / double(o.sectors), 1) + "%" : ""});
  }
  table.print(out);
  for (int i = 0; i < sim::kOpClassCount; ++i)
    if (const auto& o = c.ops[static_cast<std::size_t>(i)]; o.split_sectors > 0)
      out << sim::op_class_name(i) << ": the L2 sends " << o.split_sectors
          << " sectors a second time, to copies whose 16 bytes sit at another offset in their shared sector than in "
             "their global one (a padded row; docs/memory-model.md, Rule G5)\n";
  if (c.tma_copies > 0)
    out << "TMA copies issued (one thread each): " << c.tma_copies << ", " << c.tma_sectors << " global sectors read; "
        << c.tma_bytes << " bytes land in shared memory (a cluster partner's multicast copies included)\n";
  if (c.tma_partner_copies > 0)
    out << "TMA copies a cluster partner issued that land here (multicast): " << c.tma_partner_copies << ", "
        << c.tma_partner_sectors << " global sectors\n";
  if (c.tma_stores > 0)
    out << "TMA stores of C issued (one thread each): " << c.tma_stores << ", " << c.tma_store_sectors
        << " global sectors written from shared memory\n";
  if (c.wgmma > 0)
    out << "wgmma.mma_async (warpgroup-level, tensor cores, operands from shared memory): " << c.wgmma << " ("
        << c.wgmma_multiply_adds << " multiply-adds)\n";
  else if (c.mma > 0)
    out << "mma.sync.m16n8k16 (warp-level, tensor cores): " << c.mma << " (" << c.mma * sim::kMmaMultiplyAdds
        << " multiply-adds)\n";
  else
    out << "FMAs (thread-level): " << c.fma << "\n";
}

}  // namespace

Command add_sim_command(CLI::App& parent) {
  auto* sub = parent.add_subcommand(
      "sim", "Simulate a rung: its warp memory instructions' counters per kernel, per block and per k-step");
  auto options = std::make_shared<common::RungOptions>();
  common::add_rung_options(*sub, options);
  auto schedule = std::make_shared<ScheduleOptions>();
  add_schedule_options(*sub, schedule);
  auto json = std::make_shared<bool>(false);
  auto kstep = std::make_shared<int>(-1);
  sub->add_flag("--json", *json, "Print JSON instead of tables");
  sub->add_option("--kstep", *kstep, "Also show the first block's counters at this k-step (default: the first)")
      ->transform(common::whole_number(0));
  auto list_phase = std::make_shared<int>(-1);
  auto warp = std::make_shared<int>(0);
  auto* list = sub->add_option("--list-phase", *list_phase,
                               "Instead: list one warp's instructions in this phase of the first block (from 0), with "
                               "what each moves and its cost")
                   ->transform(common::whole_number(0));
  sub->add_option("--warp", *warp, "With --list-phase: the warp (from 0; default 0)")
      ->transform(common::whole_number(0))
      ->needs(list);
  return {sub, [options, schedule, json, kstep, list_phase, warp] {
            const auto request = resolve_request(*options, *schedule);
            if (!request) {  // an unknown rung, knob, device or launch order: the command line is wrong
              std::cerr << "gemmlab-cli: " << request.error().message << "\n";
              return kExitUsage;
            }
            const auto& [rung, config, problem] = request->kernel;
            const auto* target = &request->target;
            const RungInfo& info = rung_info(rung);
            const auto valid = sim::validate(rung, config, problem, sim::device_limits(target->device));
            if (valid && *list_phase >= 0) return print_phase_listing(rung, config, problem, *list_phase, *warp, *json);
            if (!valid) {
              if (*json)
                std::cout << nlohmann::json{{"rung", info.slug}, {"valid", false}, {"reason", valid.error().message}}
                                 .dump(2)
                          << "\n";
              std::cerr << "gemmlab-cli: invalid configuration for " << info.slug << ": " << valid.error().message
                        << "\n";
              return kExitFailed;
            }
            // Before the simulation, which can take minutes: a k-step that does not exist is refused at once.
            if (const auto launch = sim::launch_shape(rung, config, problem); launch && *kstep >= launch->ksteps) {
              std::cerr << "gemmlab-cli: --kstep: k-step " << *kstep << " does not exist: the kernel has k-steps "
                        << sim::index_range(launch->ksteps) << " (indices count from 0)\n";
              return kExitUsage;
            }
            InterruptibleWork work("simulating " + std::string(info.slug));
            // The kernel's counters, then (below) the L2 model: the two parts that take minutes on big problems.
            const auto kernel = sim::simulate_kernel(rung, config, problem, sim::part_of(work.progress(), 0.0, 0.5));
            if (work.interrupted()) return work.report_stopped();
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
            const auto prediction = sim::predict_schedule(rung, config, problem, *kernel, target->order, target->device,
                                                          gpu::compiled_facts(rung, config, target->device),
                                                          sim::part_of(work.progress(), 0.5, 1.0));
            if (work.interrupted()) return work.report_stopped();
            if (!prediction) {
              std::cerr << "gemmlab-cli: " << info.slug << " on " << target->device.name << ": "
                        << prediction.error().message << "\n";
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
              with_config["device"] = {{"id", target->device.id}, {"name", target->device.name}};
              with_config["order"] = sim::order_name(target->order);
              with_config["occupancy"] = occupancy_json(*prediction);
              with_config["l2"] = l2_json(*prediction, false, false);
              with_config["roofline"] = roofline_json(*prediction);
              with_config["time_model"] = time_model_json(*prediction);
              with_config["pipeline"] = pipeline_json(*prediction);
              for (const auto name : sim::rung_model(rung).knobs)
                with_config["config"][std::string(name)] = config.*sim::find_knob(name)->field;
              std::cout << with_config.dump(2) << "\n";
              return kExitOk;
            }
            std::cout << "rung " << info.number << " " << info.slug << ": " << info.title << "\n"
                      << "configuration: " << common::describe_config(rung, config) << " (valid)\n"
                      << "problem: C(" << problem.m << " x " << problem.n << ") = " << problem.alpha << " * A(" << problem.m
                      << " x " << problem.k << ") B(" << problem.k << " x " << problem.n << ") + " << problem.beta
                      << " * C\n"
                      << "launch: " << sim::blocks_text(shape) << " of " << shape.threads_per_block << " threads ("
                      << shape.warps_per_block << " warps), " << shape.smem_bytes << " bytes of shared memory, "
                      << sim::ksteps_text(shape, problem.k, config.bk) << "\n"
                      << "block classes (blocks with provably equal counters): " << kernel->classes.size() << "\n\n"
                      << "== whole kernel ==\n";
            print_counters(kernel->total, std::cout);
            std::cout << "\n== block (0, 0), k-step " << step << " ==\n";
            print_counters(block->per_kstep[static_cast<std::size_t>(step)], std::cout);
            std::cout << "\nwavefronts: the L1/shared data pipe's cycles (shared memory by its banks; a global access one a "
                         "line, a load at least one per 128 bytes its lanes receive); bank conflicts = wavefronts - ideal "
                         "wavefronts; sector efficiency = ideal sectors / sectors (above 100% when lanes share sectors).\n"
                      << "\n== occupancy on the " << target->device.name << " ==\n";
            print_occupancy(*prediction, std::cout);
            std::cout << "\n== roofline (DRAM traffic from the L2 model, launch order " << sim::order_name(target->order)
                      << "; gemmlab-cli schedule shows it wave by wave) ==\n";
            print_l2(*prediction, 0, std::cout);
            print_roofline(*prediction, std::cout);
            std::cout << "\n== time model (predicted from the counters and the device's measured rates and latencies) ==\n";
            print_time_model(*prediction, std::cout);
            return kExitOk;
          }};
}

}  // namespace gemmlab::cli
