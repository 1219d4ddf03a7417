#include "phase_listing.hpp"

#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "command.hpp"
#include "gemmlab/memory_model.hpp"
#include "gemmlab/sim/block_walker.hpp"
#include "table.hpp"

namespace gemmlab::cli {
namespace {

// Shared loads and stores name what their shared words hold; global ones and copies what they read or write.
std::string what_it_moves(const sim::InstructionView& iv, const sim::BlockOutline& outline) {
  const auto op = iv.instruction.access.op;
  const bool shared_side = op == sim::MemOp::LoadShared || op == sim::MemOp::StoreShared || sim::is_matrix_op(op);
  const std::string what = sim::describe_elements(iv, shared_side, outline.operand_bytes);
  if (!what.empty()) return what;
  return op == sim::MemOp::StoreShared ? "computed values" : "nothing (its lanes are predicated off)";
}

}  // namespace

int print_phase_listing(RungId rung, const kernel::KernelConfig& config, const sim::Problem& problem, int phase,
                        int warp, bool json) {
  auto walker = sim::BlockWalker::open(rung, config, problem, {0, 0});
  if (!walker) {
    std::cerr << "gemmlab-cli: " << walker.error().message << "\n";
    return kExitFailed;
  }
  const sim::BlockOutline& outline = *(*walker)->outline();
  const int phases = static_cast<int>(outline.schedule.size());
  if (phase >= phases) {
    std::cerr << "gemmlab-cli: --list-phase: phase " << phase << " does not exist: the block has phases "
              << sim::index_range(phases) << " (indices count from 0)\n";
    return kExitUsage;
  }
  if (warp >= outline.shape.warps_per_block) {
    std::cerr << "gemmlab-cli: --warp: warp " << warp << " does not exist: the block has warps "
              << sim::index_range(outline.shape.warps_per_block) << " (indices count from 0)\n";
    return kExitUsage;
  }
  auto view = (*walker)->view(static_cast<std::size_t>(phase), nullptr);
  if (!view) {
    std::cerr << "gemmlab-cli: " << view.error().message << "\n";
    return kExitFailed;
  }
  const sim::PhaseView& v = **view;
  const int count = v.instruction_count(warp);
  const std::string step = sim::step_name(v.ref, outline.shape.ksteps);

  if (json) {
    nlohmann::json list = nlohmann::json::array();
    for (int i = 0; i < count; ++i) {
      const sim::InstructionView& iv = *v.find(warp, i);
      const auto& w = iv.instruction;
      nlohmann::json entry{{"index", i}, {"op", sim::op_name(w.access)}, {"moves", what_it_moves(iv, outline)}};
      if (sim::touches_shared(w.access.op))
        entry["shared"] = {{"wavefronts", w.shared.wavefronts}, {"ideal_wavefronts", w.shared.ideal_wavefronts},
                           {"bank_conflicts", w.shared.bank_conflicts()}};
      if (sim::touches_global(w.access.op))
        entry["global"] = {{"requests", w.global.requests}, {"sectors", w.global.sectors},
                           {"ideal_sectors", w.global.ideal_sectors}};
      list.push_back(entry);
    }
    std::cout << nlohmann::json{{"rung", rung_info(rung).slug}, {"block", {0, 0}}, {"phase", phase},
                                {"phases", phases}, {"step", step}, {"barrier_after", v.barrier_after},
                                {"barrier_threads", v.barrier_threads},
                                {"warp", warp}, {"instructions", list}}
                     .dump(2)
              << "\n";
    return kExitOk;
  }

  std::cout << rung_info(rung).slug << ", block (0, 0), phase " << phase << " of " << sim::index_range(phases) << " ("
            << step
            << (!v.barrier_after               ? ""
                : v.barrier_threads == 0       ? ", then a barrier"
                                               : ", then a barrier of threads 0-" + std::to_string(v.barrier_threads - 1))
            << "): warp " << warp << " issues " << count
            << " memory instruction" << (count == 1 ? "" : "s") << "\n";
  if (count == 0) {
    std::cout << "(it works in registers here; try another phase: the block has phases " << sim::index_range(phases)
              << ")\n";
    return kExitOk;
  }
  using A = TextTable::Align;
  TextTable table({{"#", A::Right}, {"instruction"}, {"wavefronts", A::Right}, {"ideal", A::Right},
                   {"sectors", A::Right}, {"ideal", A::Right}, {"moves"}});
  for (int i = 0; i < count; ++i) {
    const sim::InstructionView& iv = *v.find(warp, i);
    const auto& w = iv.instruction;
    const bool shared = sim::touches_shared(w.access.op), global = sim::touches_global(w.access.op);
    table.add_row({std::to_string(i), sim::op_name(w.access), shared ? std::to_string(w.shared.wavefronts) : "",
                   shared ? std::to_string(w.shared.ideal_wavefronts) : "",
                   global ? std::to_string(w.global.sectors) : "", global ? std::to_string(w.global.ideal_sectors) : "",
                   what_it_moves(iv, outline)});
  }
  table.print(std::cout);
  std::cout << "(gemmlab --panel banks --rung " << rung_info(rung).slug << " --phase " << phase << " --warp " << warp
            << " --instruction N, with the same size and knob flags, shows instruction N lane by lane)\n";
  return kExitOk;
}

}  // namespace gemmlab::cli
