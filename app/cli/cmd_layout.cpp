// gemmlab-cli layout: the layout lab. The user's own shared-memory tile (a CuTe layout of typed elements, with a
// swizzle) and the access their kernel makes (ldmatrix/stmatrix fragments, a tiled copy, wgmma's core matrices, a
// TMA box, or lanes given one by one), through the calibrated memory model: the wavefronts and bank conflicts of every
// instruction and phase as ncu counts them, the global side of copies, the fix (--suggest) and the same layout in
// CuTe C++, TMA's and Triton's terms (--cute). The library is sim/include/gemmlab/lab/.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <utility>
#include <vector>

#include "command.hpp"
#include "gemmlab/lab/analysis.hpp"
#include "gemmlab/lab/expressions.hpp"
#include "gemmlab/lab/query.hpp"
#include "gemmlab/lab/rung_tiles.hpp"
#include "gemmlab/lab/suggest.hpp"
#include "gemmlab/sim/rung_model.hpp"
#include "report_output.hpp"

namespace gemmlab::cli {
namespace {

using namespace gemmlab::lab;

struct Options {
  QueryText query;
  std::string preset;
  std::string rung;         // open a rung's own tile
  std::string rung_config;  // "bm=128,bk=64": knobs of that rung
  std::string operand = "a";
  bool list_presets = false;
  bool suggest = false;
  bool cute = false;
  bool all_phases = false;
  std::string map;   // "offsets" or "banks": print the tile as a grid
  std::string json;  // path, "-" for stdout
  int show = 10;     // suggestions listed
};

int usage_error(const std::string& message) {
  std::cerr << "gemmlab-cli layout: " << message << "\n(gemmlab-cli layout --help lists the options and examples)\n";
  return kExitUsage;
}

int query_error(const Options& o, const std::string& message) {
  if (!o.json.empty()) {
    const std::string text = nlohmann::json{{"error", message}}.dump(2) + "\n";
    if (o.json == "-") std::cout << text;
  }
  std::cerr << "gemmlab-cli layout: " << message << "\n";
  return kExitFailed;
}

// "0>0 1>4 ..." : each lane's first bank, as compact as a phase allows.
std::string lane_banks(const InstructionReport& r, const Phase& p) {
  std::string out;
  for (int lane = p.first_lane; lane < p.first_lane + p.lanes; ++lane) {
    const int bank = r.first_bank[static_cast<std::size_t>(lane)];
    if (bank < 0) continue;
    if (!out.empty()) out += ' ';
    out += std::to_string(lane) + ">" + std::to_string(bank);
  }
  return out.empty() ? "no active lane" : out;
}

void print_phases(std::ostream& out, const InstructionReport& r, int width_banks) {
  for (const auto& p : r.phases) {
    out << "    lanes " << p.first_lane << "-" << p.first_lane + p.lanes - 1 << ": " << p.wavefronts << " wavefront"
        << (p.wavefronts == 1 ? "" : "s") << " (ideal " << p.ideal << ", " << p.conflicts() << " conflict"
        << (p.conflicts() == 1 ? "" : "s") << ")";
    if (p.worst_way > 1)
      out << "; bank " << p.worst_bank << " is asked for " << p.worst_way << " words by lanes "
          << sim::lane_ranges(p.colliding_lanes);
    out << "\n      lane>first bank"
        << (width_banks > 1 ? " (each lane " + std::to_string(width_banks) + " banks)" : "") << ": " << lane_banks(r, p)
        << "\n";
  }
}

nlohmann::json totals_json(const Totals& t) {
  return {{"instructions", t.instructions},
          {"wavefronts", t.wavefronts},
          {"ideal_wavefronts", t.ideal},
          {"bank_conflicts", t.conflicts()}};
}

nlohmann::json report_json(const Report& report, const Expressions& ex) {
  nlohmann::json j;
  j["tile"] = {{"layout", report.tile.layout.to_string()},
               {"element", element_name(report.tile.element)},
               {"element_bytes", report.tile.bytes()},
               {"swizzle", report.tile.swizzle.identity() ? nlohmann::json(nullptr)
                                                          : nlohmann::json(report.tile.swizzle.to_string())},
               {"rows", report.tile.rows()},
               {"columns", report.tile.columns()},
               {"footprint_bytes", report.tile.footprint_bytes()},
               {"payload_bytes", report.tile.payload_bytes()}};
  j["access"] = {{"op", report.access.op}, {"description", report.access.description}};
  if (report.access.tma)
    j["tma"] = {{"rows", report.access.tma->rows},
                {"inner_bytes", report.access.tma->inner_bytes},
                {"bytes", report.access.tma->bytes},
                {"swizzle_bytes", report.access.tma->swizzle_mode}};
  nlohmann::json instructions = nlohmann::json::array();
  for (std::size_t i = 0; i < report.instructions.size(); ++i) {
    const auto& ins = report.access.instructions[i];
    const auto& r = report.instructions[i];
    nlohmann::json phases = nlohmann::json::array();
    for (const auto& p : r.phases) {
      std::vector<int> banks;
      for (int lane = p.first_lane; lane < p.first_lane + p.lanes; ++lane)
        banks.push_back(r.first_bank[static_cast<std::size_t>(lane)]);
      phases.push_back({{"first_lane", p.first_lane},
                        {"lanes", p.lanes},
                        {"wavefronts", p.wavefronts},
                        {"ideal", p.ideal},
                        {"bank_conflicts", p.conflicts()},
                        {"worst_bank", p.worst_bank},
                        {"worst_way", p.worst_way},
                        {"colliding_lanes", p.colliding_lanes},
                        {"first_bank_of_lane", banks}});
    }
    nlohmann::json entry{{"what", ins.what},
                         {"op", sim::op_name(ins.shared)},
                         {"active_mask", ins.shared.active_mask},
                         {"model_only", ins.model_only},
                         {"wavefronts", r.shared.cost.wavefronts},
                         {"ideal_wavefronts", r.shared.cost.ideal_wavefronts},
                         {"bank_conflicts", r.shared.cost.bank_conflicts()},
                         {"phases", phases}};
    const bool cp_async = ins.shared.op == sim::MemOp::CpAsync;
    entry["shared_addresses"] = cp_async ? ins.shared.shared_address : ins.shared.address;
    if (ins.global) {
      entry["global_addresses"] = ins.global->address;
      entry["global"] = {{"op", sim::op_name(*ins.global)},
                         {"requests", r.global->cost.requests},
                         {"sectors", r.global->cost.sectors},
                         {"ideal_sectors", r.global->cost.ideal_sectors}};
    }
    instructions.push_back(std::move(entry));
  }
  j["instructions"] = std::move(instructions);
  j["totals"] = totals_json(report.totals);
  if (report.totals.global_requests > 0)
    j["totals"]["global"] = {{"requests", report.totals.global_requests},
                             {"sectors", report.totals.global_sectors},
                             {"ideal_sectors", report.totals.global_ideal_sectors}};
  nlohmann::json ncu = nlohmann::json::object();
  if (!report.ncu.wavefronts.empty()) {
    ncu[report.ncu.wavefronts] = report.totals.wavefronts;
    ncu[report.ncu.conflicts] = report.totals.conflicts();
  }
  if (!report.ncu.requests.empty() && report.totals.global_requests > 0) {
    ncu[report.ncu.requests] = report.totals.global_requests;
    ncu[report.ncu.sectors] = report.totals.global_sectors;
  }
  j["ncu"] = std::move(ncu);
  j["cute"] = {{"expression", ex.cute},
               {"printed", ex.printed},
               {"tma_swizzle_bytes", ex.tma_mode ? nlohmann::json(*ex.tma_mode) : nlohmann::json(nullptr)},
               {"triton", ex.triton ? nlohmann::json{{"vec", ex.triton->vec},
                                                     {"perPhase", ex.triton->per_phase},
                                                     {"maxPhase", ex.triton->max_phase}}
                                    : nlohmann::json(nullptr)}};
  return j;
}

void print_expressions(std::ostream& out, const Tile& tile) {
  const auto ex = expressions_of(tile);
  out << "  CuTe C++:  " << ex.cute << "\n";
  out << "  printed:   " << ex.printed << "\n";
  out << "  TMA:       "
      << (ex.tma_mode ? (*ex.tma_mode == 0 ? std::string("CU_TENSOR_MAP_SWIZZLE_NONE")
                                           : "CU_TENSOR_MAP_SWIZZLE_" + std::to_string(*ex.tma_mode) + "B")
                      : "none (" + ex.tma_why_not + ")")
      << "\n";
  out << "  Triton:    " << (ex.triton ? ex.triton->to_string() : "none (" + ex.triton_why_not + ")") << "\n";
  if (!tile.swizzle.identity()) out << "  why:       " << explain_swizzle(tile.swizzle, tile.bytes()) << "\n";
}

void print_report(std::ostream& out, const Report& report, bool all_phases) {
  const Tile& tile = report.tile;
  out << "tile: " << tile.to_string() << " of " << element_name(tile.element) << ": " << tile.rows() << " x "
      << tile.columns() << " elements, " << tile.payload_bytes() << " bytes";
  if (tile.footprint_bytes() != tile.payload_bytes())
    out << " in " << tile.footprint_bytes() << " bytes of shared memory";
  out << "\naccess: " << report.access.description << "\n\n";
  if (report.access.tma) {
    const auto& t = *report.access.tma;
    out << "TMA box: " << t.rows << " rows of " << t.inner_bytes << " bytes, " << t.bytes << " bytes in one copy\n";
    return;
  }
  const bool single = report.instructions.size() == 1;
  int width_banks = 1;
  if (!report.access.instructions.empty()) {
    const auto& a = report.access.instructions.front().shared;
    width_banks = sim::is_matrix_op(a.op) ? 4 : a.width_bytes / 4;
  }
  // The instruction with the most conflicts, whose phases are shown when not all are.
  std::size_t worst = 0;
  for (std::size_t i = 0; i < report.instructions.size(); ++i)
    if (report.instructions[i].shared.cost.bank_conflicts() > report.instructions[worst].shared.cost.bank_conflicts())
      worst = i;
  for (std::size_t i = 0; i < report.instructions.size(); ++i) {
    const auto& ins = report.access.instructions[i];
    const auto& r = report.instructions[i];
    out << "[" << i << "] " << sim::op_name(ins.shared) << " " << ins.what << ": " << r.shared.cost.wavefronts
        << (r.shared.cost.wavefronts == 1 ? " wavefront" : " wavefronts") << ", ideal "
        << r.shared.cost.ideal_wavefronts << ", " << r.shared.cost.bank_conflicts()
        << (r.shared.cost.bank_conflicts() == 1 ? " bank conflict" : " bank conflicts");
    if (r.global)
      out << "; global " << sim::op_name(*ins.global) << ": " << r.global->cost.requests << " request, "
          << r.global->cost.sectors << " sectors (ideal " << r.global->cost.ideal_sectors << ")";
    out << "\n";
    if (single || all_phases || i == worst) print_phases(out, r, width_banks);
  }
  if (!single && !all_phases)
    out << "  (phases shown for [" << worst
        << "], the instruction with the most conflicts; --all-phases shows every one)\n";
  const auto& t = report.totals;
  out << "\ntotal over " << t.instructions << " instruction" << (t.instructions == 1 ? "" : "s") << ": " << t.wavefronts
      << (t.wavefronts == 1 ? " wavefront" : " wavefronts") << ", ideal " << t.ideal << ", " << t.conflicts()
      << (t.conflicts() == 1 ? " bank conflict" : " bank conflicts");
  if (t.ideal > 0) {
    std::ostringstream ratio;
    ratio.precision(2);
    ratio << std::fixed << static_cast<double>(t.wavefronts) / static_cast<double>(t.ideal);
    out << " (" << ratio.str() << "x the ideal)";
  }
  out << "\n";
  if (t.global_requests > 0)
    out << "global side: " << t.global_requests << " requests, " << t.global_sectors << " sectors (ideal "
        << t.global_ideal_sectors << ")\n";
  if (!report.ncu.wavefronts.empty()) {
    out << "as ncu counts them:\n  " << report.ncu.wavefronts << " = " << t.wavefronts << "\n  " << report.ncu.conflicts
        << " = " << t.conflicts() << "\n";
    if (t.global_requests > 0)
      out << "  " << report.ncu.requests << " = " << t.global_requests << "\n  " << report.ncu.sectors << " = "
          << t.global_sectors << "\n";
    if (report.access.op == "cp.async.cg.16")
      out << "  (the hardware does not count a .cg copy's shared writes; ncu's SASS-level estimate above equals the\n"
             "  model where every 32-byte source sector is copied whole into one shared sector, and is higher\n"
             "  elsewhere: docs/memory-model.md)\n";
  } else if (report.access.kind == AccessKind::CoreMatrices) {
    out << "(ncu has no counter of wgmma's shared reads: these figures are the model's)\n";
  }
}

nlohmann::json suggestions_json(const Suggestions& s, int show) {
  nlohmann::json list = nlohmann::json::array();
  int n = 0;
  for (const auto& c : s.candidates) {
    if (n++ >= show) break;
    list.push_back({{"label", c.label},
                    {"layout", c.tile.to_string()},
                    {"cute", c.tile.to_cute()},
                    {"extra_bytes", c.extra_bytes},
                    {"conflict_free", c.conflict_free()},
                    {"first_conflicts", c.first.conflicts()},
                    {"second_conflicts", c.second.conflicts()}});
  }
  return {{"first", s.first.op},
          {"second", s.second.op},
          {"second_description", s.second_description},
          {"given", {{"first_conflicts", s.given_first.conflicts()}, {"second_conflicts", s.given_second.conflicts()}}},
          {"conflict_free", s.conflict_free},
          {"candidates_tried", s.candidates.size()},
          {"why_none", s.why_none},
          {"candidates", list}};
}

void print_suggestions(std::ostream& out, const Suggestions& s, int show) {
  out << "\nthe fix (--suggest): every swizzle that is a bijection on this tile, TMA's modes and paddings, scored on\n"
      << "  " << s.first.op << " (the access above: " << s.given_first.conflicts() << " conflicts on your layout)\n"
      << "  " << s.second.op << " (" << s.second_description << ": " << s.given_second.conflicts() << " conflicts)\n";
  out << s.conflict_free << " of " << s.candidates.size() << " layouts tried are conflict-free on both.\n";
  if (!s.why_none.empty()) out << "none is conflict-free on both: " << s.why_none << "\n";
  int n = 0;
  for (const auto& c : s.candidates) {
    if (n++ >= show) break;
    out << (c.conflict_free() ? "  ok  " : "  --  ") << c.label << ": " << c.first.conflicts() << " + "
        << c.second.conflicts() << " conflicts, " << c.extra_bytes << " extra bytes\n      " << c.tile.to_cute()
        << "\n";
  }
}

// The tile as a grid: each element's offset (after the swizzle) or the bank of its first byte.
void print_map(std::ostream& out, const Tile& tile, bool banks) {
  constexpr std::int64_t kMaxColumns = 64, kMaxRows = 256;
  out << (banks ? "bank of each element's first byte" : "element offset of each element (after the swizzle)")
      << ", rows down, columns across:\n";
  const std::int64_t rows = std::min(tile.rows(), kMaxRows), columns = std::min(tile.columns(), kMaxColumns);
  std::size_t width = 1;
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t c = 0; c < columns; ++c)
      width =
          std::max(width, std::to_string(banks ? tile.byte_offset(r, c) / 4 % 32 : tile.element_offset(r, c)).size());
  for (std::int64_t r = 0; r < rows; ++r) {
    for (std::int64_t c = 0; c < columns; ++c) {
      const std::string v = std::to_string(banks ? tile.byte_offset(r, c) / 4 % 32 : tile.element_offset(r, c));
      out << std::string(width - v.size() + (c ? 1 : 0), ' ') << v;
    }
    out << "\n";
  }
  if (rows < tile.rows() || columns < tile.columns())
    out << "(the first " << rows << " rows and " << columns << " columns of " << tile.rows() << " x " << tile.columns()
        << ")\n";
  out << "\n";
}

// The query's fields by flag, so that flags given beside --preset replace the preset's values.
std::vector<std::pair<const char*, std::string QueryText::*>> query_flags() {
  return {{"--layout", &QueryText::layout},       {"--element", &QueryText::element},
          {"--swizzle", &QueryText::swizzle},     {"--tma-swizzle", &QueryText::tma_swizzle},
          {"--triton", &QueryText::triton},       {"--op", &QueryText::op},
          {"--partition", &QueryText::partition}, {"--at", &QueryText::at},
          {"--threads", &QueryText::threads},     {"--vector", &QueryText::vector},
          {"--global", &QueryText::global},       {"--lanes", &QueryText::lanes},
          {"--other", &QueryText::other_op}};
}

int run_layout(const CLI::App& sub, const Options& given) {
  Options o = given;
  if (o.list_presets) {
    for (const auto& p : presets()) std::cout << p.name << "\n    " << p.title << "\n";
    return kExitOk;
  }
  if (!o.preset.empty()) {
    const auto* p = find_preset(o.preset);
    if (!p) {
      std::string names;
      for (const auto& preset : presets()) names += (names.empty() ? "" : ", ") + std::string(preset.name);
      return usage_error("--preset: no preset '" + o.preset + "'; known: " + names);
    }
    o.query = p->query;
    for (const auto& [flag, field] : query_flags())
      if (sub.count(flag) > 0) o.query.*field = given.query.*field;
  }
  if (!o.map.empty() && o.map != "offsets" && o.map != "banks")
    return usage_error("--map '" + o.map + "': expected offsets or banks");
  if (!o.rung.empty()) {
    if (!o.preset.empty()) return usage_error("--rung and --preset both give the tile: give one");
    const auto id = find_rung(o.rung);
    if (!id) return usage_error("--rung: no rung '" + o.rung + "' (gemmlab-cli list shows the ladder)");
    auto config = o.rung_config.empty() ? Result<kernel::KernelConfig>(sim::rung_model(*id).defaults)
                                        : sim::apply_knob_text(*id, sim::rung_model(*id).defaults, o.rung_config);
    if (!config) return query_error(o, "--rung-config \"" + o.rung_config + "\": " + config.error().message);
    auto operand = parse_operand(o.operand);
    if (!operand) return usage_error("--operand: " + operand.error().message);
    auto tile = rung_tile(*id, *config, *operand);
    if (!tile) return query_error(o, tile.error().message);
    o.query = *tile;
    for (const auto& [flag, field] : query_flags())
      if (sub.count(flag) > 0) o.query.*field = given.query.*field;
  }
  auto query = parse_query(o.query);
  if (!query) return query_error(o, query.error().message);
  const auto started = std::chrono::steady_clock::now();
  auto report = analyse(query->tile, query->access);
  if (!report) return query_error(o, report.error().message);
  std::optional<Suggestions> suggestions;
  if (o.suggest) {
    auto s = suggest(query->tile, query->access, query->other);
    if (!s) return query_error(o, s.error().message);
    suggestions = std::move(*s);
  }
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  if (!o.json.empty()) {
    auto j = report_json(*report, expressions_of(query->tile));
    if (suggestions) j["suggestions"] = suggestions_json(*suggestions, o.show);
    if (!write_report(o.json, j.dump(2) + "\n", "the layout report")) return kExitFailed;
    if (o.json == "-") return kExitOk;
  }
  if (!o.map.empty()) print_map(std::cout, query->tile, o.map == "banks");
  print_report(std::cout, *report, o.all_phases);
  if (o.cute) {
    std::cout << "\nthe same tile:\n";
    print_expressions(std::cout, query->tile);
  }
  if (suggestions) print_suggestions(std::cout, *suggestions, o.show);
  std::cout << "\n(modelled in " << (ms < 1 ? "under 1" : std::to_string(static_cast<int>(ms))) << " ms)\n";
  return kExitOk;
}

}  // namespace

Command add_layout_command(CLI::App& parent) {
  auto* sub = parent.add_subcommand(
      "layout",
      "The layout lab: your shared-memory tile (CuTe layout, swizzle) and your kernel's access, through the "
      "calibrated bank model: conflicts as ncu counts them, the fix, the CuTe expression");
  auto o = std::make_shared<Options>();
  QueryText& q = o->query;
  sub->add_option("--layout", q.layout,
                  "The tile in CuTe notation, (rows, columns): (64,64):(64,1), "
                  "((8,8),(8,8)):((64,512),(1,8)), (64,64):(72,1) (padding is a stride), or as "
                  "CuTe prints a swizzled one: 'Sw<3,3,3> o _0 o (64,64):(64,1)'")
      ->capture_default_str();
  sub->add_option("--element", q.element, "fp32, tf32, fp16, bf16, fp8, int8")->capture_default_str();
  sub->add_option("--swizzle", q.swizzle, "CuTe's Swizzle<B,M,S> on element offsets: 3,3,3 or Swizzle<3,3,3>");
  sub->add_option("--tma-swizzle", q.tma_swizzle, "TMA's swizzle mode in bytes: 32, 64, 128 or none");
  sub->add_option("--triton", q.triton, "Triton's swizzled shared layout of a row-major tile: vec,perPhase,maxPhase");
  sub->add_option("--op", q.op,
                  "The access: ldmatrix.x1/x2/x4[.trans], stmatrix.x1/x2/x4[.trans], lds.32/64/128, "
                  "sts.32/64/128, cp.async.4/8/16, cp.async.cg.16, wgmma (core-matrix reads), tma (a box write)")
      ->capture_default_str();
  sub->add_option("--partition", q.partition,
                  "ldmatrix/stmatrix: the mma.sync operand the tile holds: a (rows M, "
                  "columns K), b (rows N, columns K), c (rows M, columns N)")
      ->capture_default_str();
  sub->add_option("--at", q.at,
                  "ldmatrix/stmatrix: one instruction at ROW,COLUMN (default: every instruction of the tile)");
  sub->add_option("--threads", q.threads,
                  "Copies: CuTe thread layout, (rows, columns) of threads -> thread index, e.g. "
                  "(32,4):(4,1) (default: 128 threads along the contiguous mode)");
  sub->add_option("--vector", q.vector, "Copies: elements per thread access (default: the instruction's width)");
  sub->add_option("--global", q.global,
                  "Copies: the tile's global layout, e.g. (64,64):(4096,1) for a row of 4096 "
                  "(default: compact)");
  sub->add_option("--lanes", q.lanes,
                  "Explicit lanes: 32 element coordinates ROW,COLUMN (lane 0 first) separated by "
                  "spaces or ';', '-' for an inactive lane");
  sub->add_option("--other", q.other_op,
                  "--suggest: the access on the other side of the tile (default: cp.async.16 "
                  "for a tile that is read, lds.128 for one that is written)");
  sub->add_option("--preset", o->preset, "Start from a question of the gallery (--list-presets)");
  sub->add_option("--rung", o->rung,
                  "Open a rung's own shared tile (rungs 11 to 20): its layout in CuTe's notation, "
                  "read as the rung reads it");
  sub->add_option("--rung-config", o->rung_config, "With --rung: knobs of its configuration, e.g. \"bk=64,a_pad=8\"");
  sub->add_option("--operand", o->operand, "With --rung: the rung's a or b tile (default a)");
  sub->add_flag("--list-presets", o->list_presets, "List the gallery of layouts from real kernels");
  sub->add_flag("--suggest", o->suggest, "Search swizzles and paddings conflict-free on both sides of the tile");
  sub->add_option("--show", o->show, "--suggest: how many candidates to list (default 10)")->check(CLI::Range(1, 1000));
  sub->add_flag("--cute", o->cute, "Print the tile as CuTe C++, TMA's mode and Triton's (vec, perPhase, maxPhase)");
  sub->add_option("--map", o->map,
                  "Print the tile as a grid first: each element's offset (offsets) or its bank (banks)");
  sub->add_flag("--all-phases", o->all_phases, "Show every instruction's phases, not only the worst one's");
  sub->add_option("--json", o->json, "Write the report as JSON to FILE ('-': stdout)");
  sub->footer(
      "Examples:\n"
      "  gemmlab-cli layout --layout '(64,64):(64,1)' --element fp16 --op ldmatrix.x4 --partition a\n"
      "  gemmlab-cli layout --layout '(64,64):(64,1)' --op ldmatrix.x4 --suggest --cute\n"
      "  gemmlab-cli layout --layout '(64,64):(64,1)' --swizzle 3,3,3 --op ldmatrix.x4 --at 16,0\n"
      "  gemmlab-cli layout --layout '(64,64):(64,1)' --op cp.async.16 --threads '(16,8):(8,1)' --global "
      "'(64,64):(4096,1)'\n"
      "  gemmlab-cli layout --layout '(64,64):(64,1)' --element bf16 --op stmatrix.x4 --partition c\n"
      "  gemmlab-cli layout --layout '(64,64):(64,1)' --element bf16 --tma-swizzle 128 --op wgmma\n"
      "  gemmlab-cli layout --preset cutlass-sm80-int8-343 --cute      # why CUTLASS uses Swizzle<3,4,3>\n"
      "  gemmlab-cli layout --rung mma-rowmajor --suggest               # a rung's own A tile, and its fix\n"
      "Exit codes: 0 answered, 1 the query is invalid (the sentence says why), 2 the command line is wrong.");
  return {sub, [sub, o] { return run_layout(*sub, *o); }};
}

}  // namespace gemmlab::cli
