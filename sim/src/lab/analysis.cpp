// The layout lab's answer: each instruction through the memory model, phase by phase.
#include "gemmlab/lab/analysis.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace gemmlab::lab {
namespace {

constexpr int kBanks = 32;

std::vector<Phase> phases_of(const sim::WarpAccess& access, const sim::SharedDetail& detail) {
  const bool matrix = sim::is_matrix_op(access.op);
  const int phase_lanes = matrix ? 8 : detail.phase_lanes;
  const int lanes = matrix ? 8 * access.ldmatrix_count : 32;
  std::vector<Phase> phases;
  for (int first = 0; first < lanes; first += phase_lanes) {
    Phase phase;
    phase.first_lane = first;
    phase.lanes = phase_lanes;
    const auto in_phase = [&](int lane) { return lane >= first && lane < first + phase_lanes; };
    bool any = false;
    for (const auto& w : detail.wavefronts)
      if (std::any_of(w.lanes.begin(), w.lanes.end(), in_phase)) ++phase.wavefronts;
    std::array<std::set<std::uint64_t>, kBanks> words;
    std::array<std::set<int>, kBanks> lanes_on;
    for (const auto& w : detail.wavefronts)
      for (const auto& hit : w.hits)
        if (in_phase(hit.lane)) {
          any = true;
          words[static_cast<std::size_t>(hit.bank)].insert(hit.word);
          lanes_on[static_cast<std::size_t>(hit.bank)].insert(hit.lane);
        }
    phase.ideal = any ? 1 : 0;
    for (int bank = 0; bank < kBanks; ++bank) {
      const int way = static_cast<int>(words[static_cast<std::size_t>(bank)].size());
      if (way > phase.worst_way) {
        phase.worst_way = way;
        phase.worst_bank = bank;
      }
    }
    if (phase.worst_way > 1)
      phase.colliding_lanes.assign(lanes_on[static_cast<std::size_t>(phase.worst_bank)].begin(),
                                   lanes_on[static_cast<std::size_t>(phase.worst_bank)].end());
    phases.push_back(std::move(phase));
  }
  // Rule L1 merges two phases into one wavefront's worth: the model's ideal is then per merged phase.
  int ideal = 0;
  for (const auto& p : phases) ideal += p.ideal;
  if (ideal != detail.cost.ideal_wavefronts && !phases.empty()) {
    for (auto& p : phases) p.ideal = 0;
    for (int i = 0; i < detail.cost.ideal_wavefronts && i < static_cast<int>(phases.size()); ++i)
      phases[static_cast<std::size_t>(i)].ideal = 1;
  }
  return phases;
}

}  // namespace

NcuNames ncu_names(const Access& access) {
  const std::string sh = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_";
  const std::string bc = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_";
  const std::string ssh = "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_";
  const std::string sbc = "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_";
  const std::string req = "l1tex__t_requests_pipe_lsu_mem_global_op_";
  const std::string sec = "l1tex__t_sectors_pipe_lsu_mem_global_op_";
  const std::string& op = access.op;
  if (access.kind == AccessKind::CoreMatrices || access.kind == AccessKind::TmaBox) return {};
  if (op.rfind("ldsm", 0) == 0) return {ssh + "ldsm.sum", sbc + "ldsm.sum", "", ""};
  if (op.rfind("stsm", 0) == 0) return {sh + "st.sum", bc + "st.sum", "", ""};
  if (op.rfind("lds", 0) == 0) return {sh + "ld.sum", bc + "ld.sum", req + "st.sum", sec + "st.sum"};
  if (op.rfind("sts", 0) == 0) return {sh + "st.sum", bc + "st.sum", req + "ld.sum", sec + "ld.sum"};
  return {ssh + "ldgsts.sum", sbc + "ldgsts.sum", req + "ld.sum", sec + "ld.sum"};  // cp.async
}

Result<Report> analyse(const Tile& tile, const AccessSpec& spec) {
  auto access = build_access(tile, spec);
  if (!access) return access.error();
  Report report{tile, std::move(*access), {}, {}, {}};
  report.ncu = ncu_names(report.access);
  for (const auto& instruction : report.access.instructions) {
    auto detail = sim::shared_detail(instruction.shared);
    if (!detail) return Error{instruction.what + ": " + detail.error().message};
    InstructionReport r;
    r.phases = phases_of(instruction.shared, *detail);
    r.first_bank.fill(-1);
    const auto& addresses =
        instruction.shared.op == sim::MemOp::CpAsync ? instruction.shared.shared_address : instruction.shared.address;
    for (int lane = 0; lane < 32; ++lane)
      if (instruction.first_element[static_cast<std::size_t>(lane)])
        r.first_bank[static_cast<std::size_t>(lane)] =
            static_cast<int>(addresses[static_cast<std::size_t>(lane)] / 4 % 32);
    report.totals.wavefronts += detail->cost.wavefronts;
    report.totals.ideal += detail->cost.ideal_wavefronts;
    if (instruction.global) {
      auto g = sim::global_detail(*instruction.global);
      if (!g) return Error{instruction.what + " (global side): " + g.error().message};
      report.totals.global_requests += g->cost.requests;
      report.totals.global_sectors += g->cost.sectors;
      report.totals.global_ideal_sectors += g->cost.ideal_sectors;
      r.global = std::move(*g);
    }
    r.shared = std::move(*detail);
    report.instructions.push_back(std::move(r));
  }
  report.totals.instructions = static_cast<std::int64_t>(report.access.instructions.size());
  return report;
}

Result<Totals> totals_of(const Access& access) {
  Totals totals;
  for (const auto& instruction : access.instructions) {
    auto cost = sim::shared_cost(instruction.shared);
    if (!cost) return cost.error();
    totals.wavefronts += cost->wavefronts;
    totals.ideal += cost->ideal_wavefronts;
  }
  totals.instructions = static_cast<std::int64_t>(access.instructions.size());
  return totals;
}

}  // namespace gemmlab::lab
