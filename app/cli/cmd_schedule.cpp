// gemmlab-cli schedule: a rung's launch on a device - occupancy and waves, the L2 traffic its launch order gives,
// and the roofline prediction.
#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "command.hpp"
#include "gemmlab/gpu/instances.hpp"
#include "gemmlab/sim/launch_order.hpp"
#include "gemmlab/sim/occupancy.hpp"
#include "gemmlab/sim/rung_model.hpp"
#include "gemmlab/sim/schedule_prediction.hpp"
#include "gemmlab/sim/simulate.hpp"
#include "common/data_files.hpp"
#include "common/number_options.hpp"
#include "common/recorded_orders.hpp"
#include "common/rung_options.hpp"
#include "interrupt.hpp"
#include "schedule_options.hpp"
#include "schedule_report.hpp"

namespace gemmlab::cli {

Command add_schedule_command(CLI::App& parent) {
  auto* sub = parent.add_subcommand(
      "schedule", "Model a rung's launch on a GPU: occupancy and waves, L2 reuse for a launch order, the roofline");
  auto options = std::make_shared<common::RungOptions>();
  auto schedule = std::make_shared<ScheduleOptions>();
  common::add_rung_options(*sub, options);
  add_schedule_options(*sub, schedule);
  auto json = std::make_shared<bool>(false);
  auto tiles = std::make_shared<bool>(false);
  auto waves_shown = std::make_shared<int>(8);
  sub->add_flag("--json", *json, "Print JSON instead of text (with every wave)");
  sub->add_flag("--tiles", *tiles, "With --json: how many times each tile of A and B came from DRAM (for heat maps)");
  sub->add_option("--waves", *waves_shown, "Waves listed in the text table (the first ones and the last)")
      ->capture_default_str()
      ->transform(common::whole_number(0));
  return {sub, [options, schedule, json, tiles, waves_shown] {
            const auto request = resolve_request(*options, *schedule);
            if (!request) {  // an unknown rung, knob, device or launch order: the command line is wrong
              std::cerr << "gemmlab-cli: " << request.error().message << "\n";
              return kExitUsage;
            }
            const auto& [rung, config, problem] = request->kernel;
            const auto* target = &request->target;
            const RungInfo& info = rung_info(rung);
            InterruptibleWork work("predicting " + std::string(info.slug));
            const auto p = sim::predict_schedule(rung, config, problem, target->order, target->device,
                                                 gpu::compiled_facts(rung, config, target->device), work.progress());
            if (work.interrupted()) return work.report_stopped();
            if (!p) {
              if (*json)
                std::cout << nlohmann::json{{"rung", info.slug}, {"valid", false}, {"reason", p.error().message}}.dump(2)
                          << "\n";
              std::cerr << "gemmlab-cli: " << info.slug << " on " << target->device.name << ": " << p.error().message
                        << "\n";
              return kExitFailed;
            }
            const auto measured = common::measured_orders(common::load_order_reports(common::data_roots()), rung,
                                                          config, {problem.m, problem.n, problem.k});
            if (*json) {
              nlohmann::json out = {
                  {"rung", info.slug},
                  {"valid", true},
                  {"config", nlohmann::json::object()},
                  {"problem", {{"m", problem.m}, {"n", problem.n}, {"k", problem.k}, {"alpha", problem.alpha},
                               {"beta", problem.beta}}},
                  {"device", {{"id", p->device.id}, {"name", p->device.name}}},
                  {"order", {{"name", sim::order_name(p->order)}, {"description", sim::order_description(p->order)}}},
                  {"launch", {{"tiles_m", p->shape.tiles_m}, {"tiles_n", p->shape.tiles_n}, {"blocks", p->shape.blocks},
                              {"threads_per_block", p->shape.threads_per_block}, {"smem_bytes", p->shape.smem_bytes},
                              {"ksteps", p->shape.ksteps}}},
                  {"occupancy", occupancy_json(*p)},
                  {"l2", l2_json(*p, true, *tiles)},
                  {"roofline", roofline_json(*p)},
                  {"time_model", time_model_json(*p)},
                  {"measured_orders", measured_orders_json(measured)}};
              for (const auto name : sim::rung_model(rung).knobs)
                out["config"][std::string(name)] = config.*sim::find_knob(name)->field;
              // Beside the count used (measured where compiled): the estimate, which docs/scheduling.md compares.
              out["occupancy"]["registers_estimate"] = sim::estimate_registers(rung, config).per_thread;
              std::cout << out.dump(2) << "\n";
              return kExitOk;
            }
            const auto& s = p->shape;
            std::cout << "rung " << info.number << " " << info.slug << ": " << info.title << "\n"
                      << "configuration: " << common::describe_config(rung, config) << "\n"
                      << "problem: " << problem.m << " x " << problem.n << " x " << problem.k << ": "
                      << sim::blocks_text(s) << " of " << s.threads_per_block << " threads, " << s.smem_bytes
                      << " bytes of shared memory, " << sim::ksteps_text(s, problem.k, config.bk) << "\n"
                      << "launch order: " << sim::order_name(p->order) << " (" << sim::order_description(p->order)
                      << ")\n\n"
                      << "== occupancy on the " << p->device.name << " (" << p->device.sms << " SMs) ==\n";
            print_occupancy(*p, std::cout);
            std::cout << "\n== L2: " << l2_size_text(p->device)
                      << ", least recently used tile replaced; each wave's blocks advance over k together ==\n";
            print_l2(*p, *waves_shown, std::cout);
            std::cout << "\n== roofline ==\n";
            print_roofline(*p, std::cout);
            std::cout << "\n== time model ==\n";
            print_time_model(*p, std::cout);
            print_measured_orders(measured, sim::order_name(p->order), std::cout);
            return kExitOk;
          }};
}

}  // namespace gemmlab::cli
