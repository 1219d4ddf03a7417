// gemmlab-cli access: what ONE warp memory instruction costs. Shared memory: wavefronts, bank conflicts, and which
// lanes each wavefront served. Global memory: requests, 32-byte sectors, 128-byte lines, and which sector each lane
// hits. The model and its rules are in sim/src/memory_model.cpp and docs/memory-model.md.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstdio>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <nlohmann/json.hpp>
#include <sstream>

#include "command.hpp"
#include "gemmlab/memory_model.hpp"
#include "common/number_options.hpp"

namespace gemmlab::cli {
namespace {

using sim::MemOp;
using sim::WarpAccess;

constexpr int kLanes = 32;

// One lane list as given on the command line: a byte offset per lane, or '-' for an inactive lane.
struct LaneList {
  std::array<std::uint64_t, 32> address{};
  std::uint32_t given = 0;  // bit l set when lane l has an offset (not '-')
};

std::string trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return "";
  const auto last = text.find_last_not_of(" \t");
  return std::string(text.substr(first, last - first + 1));
}

// Parses "0,4,8,...": exactly 32 entries. Returns an error sentence, or "" when the list is good.
std::string parse_lanes(const std::string& text, LaneList& out) {
  std::vector<std::string> entries;
  std::stringstream stream(text);
  for (std::string entry; std::getline(stream, entry, ',');) entries.push_back(trim(entry));
  if (!text.empty() && text.back() == ',') entries.emplace_back();  // getline drops a trailing empty entry
  if (entries.size() != kLanes)
    return "got " + std::to_string(entries.size()) + " entr" + (entries.size() == 1 ? "y" : "ies") +
           ", but a warp has 32 lanes: give 32 comma-separated byte offsets (lane 0 first), '-' for an inactive "
           "lane, or use --stride";
  out = LaneList{};
  for (int lane = 0; lane < kLanes; ++lane) {
    const auto& entry = entries[static_cast<std::size_t>(lane)];
    if (entry == "-") continue;
    if (!common::parse_unsigned(entry, out.address[static_cast<std::size_t>(lane)]))
      return "lane " + std::to_string(lane) + ": '" + entry +
             "' is not a byte offset (write it in decimal or as 0x-hex, or '-' for an inactive lane)";
    out.given |= 1u << lane;
  }
  return "";
}

// Lane l at base + l x stride. Returns an error sentence when lane 31's address would not fit in 64 bits (it would
// wrap around to a small address), or "" when the lanes are good.
std::string strided_lanes(std::uint64_t base, std::uint64_t stride, LaneList& out) {
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  const std::uint64_t last = kLanes - 1;
  if (stride > kMax / last || base > kMax - stride * last)
    return "lane 31's address, base + 31 x stride = " + std::to_string(base) + " + 31 x " + std::to_string(stride) +
           ", does not fit in 64 bits";
  out = LaneList{};
  for (int lane = 0; lane < kLanes; ++lane)
    out.address[static_cast<std::size_t>(lane)] = base + stride * static_cast<std::uint64_t>(lane);
  out.given = 0xffffffffu;
  return "";
}

std::string hex32(std::uint32_t value) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%08x", value);
  return text;
}

// What the instruction is, in words a newcomer can follow.
std::string describe(const WarpAccess& a) {
  const std::string bytes = std::to_string(a.width_bytes) + " bytes per lane";
  switch (a.op) {
    case MemOp::LoadShared: return "shared-memory load, " + bytes;
    case MemOp::StoreShared: return "shared-memory store, " + bytes;
    case MemOp::LoadGlobal: return "global-memory load, " + bytes;
    case MemOp::StoreGlobal: return "global-memory store, " + bytes;
    case MemOp::LdMatrix: {
      const int rows = 8 * a.ldmatrix_count;
      return "ldmatrix: " + std::to_string(a.ldmatrix_count) + " 8x8 matri" + (a.ldmatrix_count == 1 ? "x" : "ces") +
             " of 16-bit values" + (a.ldmatrix_trans ? ", transposed" : "") + "; lanes 0-" + std::to_string(rows - 1) +
             " give the 16-byte row addresses (8 rows per matrix)" +
             (rows < kLanes ? ", lanes " + std::to_string(rows) + "-31 are ignored" : "");
    }
    case MemOp::CpAsync: return "asynchronous copy global -> shared, " + bytes;
    case MemOp::StMatrix: {
      const int rows = 8 * a.ldmatrix_count;
      return "stmatrix: " + std::to_string(a.ldmatrix_count) + " 8x8 matri" + (a.ldmatrix_count == 1 ? "x" : "ces") +
             " of 16-bit values" + (a.ldmatrix_trans ? ", transposed" : "") + "; lanes 0-" + std::to_string(rows - 1) +
             " give the 16-byte row addresses they are stored at (8 rows per matrix)";
    }
  }
  return "?";
}

int active_lane_count(const WarpAccess& a) {
  if (sim::is_matrix_op(a.op)) return 8 * a.ldmatrix_count;
  return std::popcount(a.active_mask);
}

// ----- shared memory -------------------------------------------------------------------------------------------

// One wavefront's hits as "lane->bank" entries, runs compressed: "0-31->0-31" (consecutive lanes on consecutive
// banks), "0-15->0" (lanes sharing one word), "3->12-15" (one 16-byte access).
std::vector<std::string> lane_bank_entries(const sim::Wavefront& w) {
  struct LaneBanks {
    int lane, first_bank, last_bank;
    std::uint64_t first_word;
  };
  std::vector<LaneBanks> per_lane;
  for (const auto& hit : w.hits) {
    if (!per_lane.empty() && per_lane.back().lane == hit.lane) {
      per_lane.back().last_bank = hit.bank;
      continue;
    }
    per_lane.push_back({hit.lane, hit.bank, hit.bank, hit.word});
  }
  auto banks_text = [](int first, int last) {
    return first == last ? std::to_string(first) : std::to_string(first) + "-" + std::to_string(last);
  };
  std::vector<std::string> entries;
  for (std::size_t i = 0; i < per_lane.size();) {
    std::size_t j = i;
    const auto span = [&](std::size_t k) { return per_lane[k].last_bank - per_lane[k].first_bank + 1; };
    // Lanes sharing the same word(s): a broadcast run.
    while (j + 1 < per_lane.size() && per_lane[j + 1].lane == per_lane[j].lane + 1 &&
           per_lane[j + 1].first_word == per_lane[j].first_word && span(j + 1) == span(j))
      ++j;
    if (j == i) {  // otherwise, lanes on back-to-back banks: a coalesced run
      while (j + 1 < per_lane.size() && per_lane[j + 1].lane == per_lane[j].lane + 1 &&
             per_lane[j + 1].first_bank == per_lane[j].last_bank + 1)
        ++j;
    }
    const std::string lanes = j == i ? std::to_string(per_lane[i].lane)
                                     : std::to_string(per_lane[i].lane) + "-" + std::to_string(per_lane[j].lane);
    const bool shared_word = j > i && per_lane[j].first_word == per_lane[i].first_word;
    const int last_bank = shared_word ? per_lane[i].last_bank : per_lane[j].last_bank;
    entries.push_back(lanes + "->" + banks_text(per_lane[i].first_bank, last_bank));
    i = j + 1;
  }
  return entries;
}

void print_wrapped(std::ostream& out, const std::vector<std::string>& entries, std::size_t indent,
                   std::size_t width = 100) {
  std::size_t column = indent;
  bool first = true;
  for (const auto& entry : entries) {
    if (!first && column + 1 + entry.size() > width) {
      out << "\n" << std::string(indent, ' ');
      column = indent;
      first = true;
    }
    if (!first) {
      out << ' ';
      ++column;
    }
    out << entry;
    column += entry.size();
    first = false;
  }
  out << "\n";
}

// Prose wrapped at 100 columns, every line after the first indented by `indent` (the first starts there too).
void print_paragraph(std::ostream& out, const std::string& text, std::size_t indent) {
  std::vector<std::string> words;
  std::istringstream stream(text);
  for (std::string word; stream >> word;) words.push_back(word);
  print_wrapped(out, words, indent);
}

// One "way" row per bank: 1 = no conflict, . = unused.
void print_way_row(std::ostream& out, const std::array<int, 32>& way_per_bank) {
  out << "  bank";
  for (int b = 0; b < 32; ++b) out << (b < 10 ? "  " : " ") << b;
  out << "\n  way ";
  for (int b = 0; b < 32; ++b) {
    const int way = way_per_bank[static_cast<std::size_t>(b)];
    const std::string text = way == 0 ? "." : std::to_string(way);
    out << std::string(3 - std::min<std::size_t>(text.size(), 2), ' ') << text;
  }
  out << "\n";
}

int max_of(const std::array<int, 32>& values) { return *std::max_element(values.begin(), values.end()); }

// A copy's conflicts can come from either side (Rule C1); the N-way row of the destination alone does not show
// where, so the source side gets its row and a sentence, as in the desktop's banks panel.
void print_copy_sides(std::ostream& out, const sim::SharedDetail& d, const WarpAccess& a,
                      const sim::GlobalDetail* source) {
  out << "\nN-way per bank on the source side (lanes of one phase whose global source falls in the bank; cp.async\n"
         "reads its source through L1's 32 banks, addressed like shared memory: bank = (address / 4) mod 32):\n";
  print_way_row(out, d.max_source_way_per_bank);
  const int destination = max_of(d.max_way_per_bank), from_source = max_of(d.max_source_way_per_bank);
  std::ostringstream why;
  why << "A copy's lanes take a wavefront slot on both sides, and lanes sharing a bank on either side never share a "
         "wavefront, even when they read the same source address: each phase takes as many wavefronts as its busiest "
         "bank on either side (here up to "
      << destination << " on the destination, " << from_source << " on the source).";
  if (d.cost.bank_conflicts() > 0 && from_source != destination)
    why << " So the " << (from_source > destination ? "source" : "destination") << " side sets the count of "
        << d.cost.wavefronts << " wavefronts here"
        << (destination == 1 ? ", though the destination's row shows no conflict." : ".");
  out << "\n";
  print_paragraph(out, why.str(), 0);
  if (a.cache_global) {
    out << "ncu: the hardware does not count a .cg copy's shared writes (its conflict counter shows 0); the model\n"
           "applies the same rule as to .ca (docs/memory-model.md, \"What the counters do with cp.async\").\n";
  } else if (source != nullptr) {
    const int counted_ideal = sim::copy_counted_ideal(a).value();  // a validated copy
    out << "ncu: its hardware conflict counter for copies (l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts)\n"
           "subtracts, phase by phase, one wavefront or one per 4 source lines, whichever is more: "
        << d.cost.wavefronts << " - " << counted_ideal << " = " << d.cost.wavefronts - counted_ideal
        << " (docs/memory-model.md).\n";
  }
}

void print_shared(std::ostream& out, const sim::SharedDetail& d, const WarpAccess& a, const char* title,
                  const sim::GlobalDetail* copy_source) {
  const auto& c = d.cost;
  const bool copy = a.op == MemOp::CpAsync;
  const std::string ideal = "  ideal           " + std::to_string(c.ideal_wavefronts) + "    ";
  out << title << "\n"
      << "  wavefronts      " << c.wavefronts << "\n"
      << ideal;
  print_paragraph(out, "(" + sim::ideal_rule(a, d) + ")", ideal.size());
  out << "  bank conflicts  " << c.bank_conflicts()
      << (copy ? "    (wavefronts - ideal, from either side of the copy: see below)\n"
               : "    (wavefronts - ideal, as ncu counts them)\n")
      << "\n";

  out << "Wavefronts: each moves at most one 4-byte word per bank; lanes asking for the same word share it.\n"
         "Entries read lanes->banks: 0-31->0-31 is lane i on bank i, 0-15->4 lanes sharing a word of bank 4,\n"
         "3->12-15 lane 3's 16-byte access on banks 12-15.\n";
  const std::size_t digits = std::max<std::size_t>(std::to_string(d.wavefronts.size() - 1).size(), 2);
  out << "  " << std::string(digits - 1, ' ') << "#  lanes->banks\n";
  for (std::size_t i = 0; i < d.wavefronts.size(); ++i) {
    const std::string number = std::to_string(i);
    const std::string label = "  " + std::string(digits - number.size(), ' ') + number + "  ";
    out << label;
    print_wrapped(out, lane_bank_entries(d.wavefronts[i]), label.size());
  }

  if (copy)
    out << "\nN-way per bank on the destination (lanes of one phase writing the bank; 1 = no conflict, . = unused):\n";
  else
    out << "\nN-way per bank (the most distinct words one phase asked of the bank; 1 = no conflict, . = unused):\n";
  print_way_row(out, d.max_way_per_bank);
  if (copy) print_copy_sides(out, d, a, copy_source);
}

nlohmann::json shared_json(const sim::SharedDetail& d, const WarpAccess& a) {
  auto wavefronts = nlohmann::json::array();
  for (const auto& w : d.wavefronts) {
    auto hits = nlohmann::json::array();
    for (const auto& h : w.hits) hits.push_back({{"lane", h.lane}, {"bank", h.bank}, {"word", h.word}});
    wavefronts.push_back({{"lanes", w.lanes}, {"hits", hits}});
  }
  nlohmann::json out{{"wavefronts", d.cost.wavefronts},
                     {"ideal_wavefronts", d.cost.ideal_wavefronts},
                     {"ideal_rule", sim::ideal_rule(a, d)},
                     {"bank_conflicts", d.cost.bank_conflicts()},
                     {"max_way_per_bank", d.max_way_per_bank},
                     {"wavefront_detail", wavefronts}};
  if (a.op == MemOp::CpAsync) out["max_source_way_per_bank"] = d.max_source_way_per_bank;
  return out;
}

// ----- global memory -------------------------------------------------------------------------------------------

void print_global(std::ostream& out, const sim::GlobalDetail& d, const char* title) {
  const auto& c = d.cost;
  char efficiency[64];
  std::snprintf(efficiency, sizeof efficiency, "%.2f (%.0f%%)", c.efficiency(), 100.0 * c.efficiency());
  out << title << "\n"
      << "  requests        " << c.requests << "    (one per warp instruction)\n"
      << "  sectors         " << c.sectors << "    (distinct 32-byte sectors moved)\n"
      << "  lines           " << c.lines << "    (distinct 128-byte cache lines)\n"
      << "  wavefronts      " << c.wavefronts
      << "    (L1 data-pipe cycles: one per line; a load, at least one per 128 bytes its lanes receive)\n"
      << "  ideal sectors   " << c.ideal_sectors << "    (active bytes / 32, rounded up)\n"
      << "  efficiency      " << efficiency << "    (ideal / sectors"
      << (c.efficiency() > 1.0 ? "; above 1: lanes share sectors, the warp gets more bytes than are moved)\n"
                               : ")\n");
  if (c.split_sectors > 0)  // Rule G5
    out << "  split sectors   " << c.split_sectors << "    (the L2 sends " << d.sectors_from_l2()
        << " sectors, one per source sector and shared destination sector: these are sent a second time)\n";
  out << "\n";

  // Group lanes by the sector they hit: a newcomer sees at once which lanes share a sector.
  std::map<std::uint64_t, std::vector<int>> lanes_of;
  for (int lane = 0; lane < kLanes; ++lane) {
    const auto s = d.lane_sector[static_cast<std::size_t>(lane)];
    if (s >= 0) lanes_of[static_cast<std::uint64_t>(s)].push_back(lane);
  }
  out << "Sectors touched (sector = address / 32, line = address / 128):\n";
  std::vector<std::array<std::string, 4>> rows{{"sector", "line", "bytes", "lanes"}};
  for (const auto& [sector, lanes] : lanes_of)
    rows.push_back({std::to_string(sector), std::to_string(sector / 4),
                    std::to_string(sector * 32) + "-" + std::to_string(sector * 32 + 31), sim::lane_ranges(lanes)});
  std::array<std::size_t, 4> widths{};
  for (const auto& row : rows)
    for (std::size_t i = 0; i < 4; ++i) widths[i] = std::max(widths[i], row[i].size());
  for (const auto& row : rows) {
    out << " ";
    for (std::size_t i = 0; i < 3; ++i) out << " " << std::string(widths[i] - row[i].size(), ' ') << row[i];
    out << "  " << row[3] << "\n";
  }
}

nlohmann::json global_json(const sim::GlobalDetail& d) {
  auto lane_sector = nlohmann::json::array();
  for (auto s : d.lane_sector) lane_sector.push_back(s < 0 ? nlohmann::json(nullptr) : nlohmann::json(s));
  return {{"requests", d.cost.requests},
          {"sectors", d.cost.sectors},
          {"lines", d.cost.lines},
          {"data_pipe_wavefronts", d.cost.wavefronts},
          {"ideal_sectors", d.cost.ideal_sectors},
          {"split_sectors", d.cost.split_sectors},
          {"efficiency", d.cost.efficiency()},
          {"sector_list", d.sectors},
          {"line_list", d.lines},
          {"lane_sector", lane_sector}};
}

// ----- the command ---------------------------------------------------------------------------------------------

struct Options {
  std::string op;
  std::string lanes, shared_lanes;
  std::uint64_t stride = 0, base = 0, shared_stride = 0, shared_base = 0;
  std::string mask = "0xffffffff";
  bool json = false;
};

CLI::Validator lane_list_validator() {
  return CLI::Validator(
      [](std::string& text) {
        LaneList ignored;
        return parse_lanes(text, ignored);
      },
      "LIST", "lane list");
}

CLI::Validator op_validator() {
  return CLI::Validator(
      [](std::string& text) {
        auto parsed = sim::parse_op(text);
        return parsed ? std::string() : parsed.error().message;
      },
      "OP", "instruction");
}

CLI::Validator mask_validator() {
  return CLI::Validator(
      [](std::string& text) {
        std::uint64_t value = 0;
        if (!common::parse_unsigned(text, value) || value > 0xffffffffu)
          return "'" + text + "' is not a 32-bit lane mask (write it as 0x-hex, e.g. 0x0000ffff for lanes 0-15)";
        return std::string();
      },
      "MASK", "lane mask");
}

int usage_error(const std::string& message) {
  std::cerr << "gemmlab-cli access: " << message << "\n(gemmlab-cli access --help lists the options and examples)\n";
  return kExitUsage;
}

int model_error(const Options& o, const std::string& message) {
  if (o.json) std::cout << nlohmann::json{{"op", o.op}, {"error", message}}.dump(2) << "\n";
  std::cerr << "gemmlab-cli access: " << message << "\n";
  return kExitFailed;
}

int run_access(CLI::App* sub, const Options& o) {
  WarpAccess access = sim::parse_op(o.op).value();  // validated while parsing
  std::uint64_t mask = 0;
  common::parse_unsigned(o.mask, mask);  // validated while parsing
  access.active_mask = static_cast<std::uint32_t>(mask);

  // The addresses: --lanes or --stride/--base (CLI11 keeps the two apart).
  const bool is_cp_async = access.op == MemOp::CpAsync;
  LaneList lanes;
  if (sub->count("--lanes")) parse_lanes(o.lanes, lanes);
  else if (sub->count("--stride") || sub->count("--base")) {
    if (const auto error = strided_lanes(o.base, o.stride, lanes); !error.empty())
      return usage_error("--stride/--base: " + error);
  } else return usage_error("give the lanes' byte offsets with --lanes (32 of them) or --stride [--base]");
  access.address = lanes.address;
  access.active_mask &= lanes.given;

  const bool shared_given = sub->count("--shared-lanes") || sub->count("--shared-stride") || sub->count("--shared-base");
  if (is_cp_async) {
    if (!shared_given)
      return usage_error(o.op + " copies global -> shared: give the global source offsets with --lanes/--stride "
                                     "and the shared destination offsets with --shared-lanes/--shared-stride");
    LaneList shared;
    if (sub->count("--shared-lanes")) parse_lanes(o.shared_lanes, shared);
    else if (const auto error = strided_lanes(o.shared_base, o.shared_stride, shared); !error.empty())
      return usage_error("--shared-stride/--shared-base: " + error);
    access.shared_address = shared.address;
    access.active_mask &= shared.given;
  } else if (shared_given) {
    return usage_error("--shared-lanes, --shared-stride and --shared-base are for cp.async only; " + o.op +
                                " takes its addresses from --lanes or --stride");
  }

  // A block's shared memory spans at most 227 KiB: an offset past it is no address the instruction can have.
  constexpr std::uint64_t kSharedWindowBytes = 232448;
  const auto& shared_offsets = is_cp_async ? access.shared_address : access.address;
  if (sim::touches_shared(access.op))
    for (int lane = 0; lane < kLanes; ++lane)
      if (((access.active_mask >> lane) & 1u) && shared_offsets[static_cast<std::size_t>(lane)] >= kSharedWindowBytes)
        return model_error(o, "lane " + std::to_string(lane) + ": shared offset " +
                                  std::to_string(shared_offsets[static_cast<std::size_t>(lane)]) +
                                  " is past the 232448 bytes (227 KiB) a block's shared memory can span");

  const bool shared_side = sim::touches_shared(access.op);
  const bool global_side = sim::touches_global(access.op);
  std::optional<sim::SharedDetail> shared_detail;
  std::optional<sim::GlobalDetail> global_detail;
  if (shared_side) {
    auto detail = sim::shared_detail(access);
    if (!detail) return model_error(o, detail.error().message);
    shared_detail = std::move(detail.value());
  }
  if (global_side) {
    auto detail = sim::global_detail(access);
    if (!detail) return model_error(o, detail.error().message);
    global_detail = std::move(detail.value());
  }

  if (o.json) {
    nlohmann::json out{{"op", sim::op_name(access)},
                       {"active_mask", hex32(access.active_mask)},
                       {"active_lanes", active_lane_count(access)},
                       {"addresses", access.address}};
    if (is_cp_async) out["shared_addresses"] = access.shared_address;
    if (shared_detail) out["shared"] = shared_json(*shared_detail, access);
    if (global_detail) out["global"] = global_json(*global_detail);
    std::cout << out.dump(2) << "\n";
    return kExitOk;
  }

  std::cout << sim::op_name(access) << ": " << describe(access) << "\n";
  if (!sim::is_matrix_op(access.op))
    std::cout << "active lanes: " << active_lane_count(access) << " (mask " << hex32(access.active_mask) << ")\n";
  std::cout << "\n";
  if (global_detail)
    print_global(std::cout, *global_detail,
                 is_cp_async ? "Global memory (the copy's source):" : "Global memory:");
  if (global_detail && shared_detail) std::cout << "\n";
  if (shared_detail)
    print_shared(std::cout, *shared_detail, access,
                 is_cp_async ? "Shared memory (the copy's destination, a store):" : "Shared memory:",
                 global_detail ? &*global_detail : nullptr);
  return kExitOk;
}

}  // namespace

Command add_access_command(CLI::App& parent) {
  auto* sub = parent.add_subcommand(
      "access", "Model one warp memory instruction: shared-memory bank conflicts or global-memory coalescing");
  auto o = std::make_shared<Options>();
  std::string names;
  for (auto name : sim::op_names()) names += (names.empty() ? "" : ", ") + std::string(name);
  sub->add_option("--op", o->op, "The instruction: " + names)->required()->check(op_validator());
  auto* lanes = sub->add_option("--lanes", o->lanes,
                                "32 comma-separated byte offsets, lane 0 first (decimal or 0x-hex; '-' = inactive "
                                "lane). Shared ops: offsets in shared memory; cp.async: the global source")
                    ->check(lane_list_validator());
  auto* stride = sub->add_option("--stride", o->stride, "Instead of --lanes: lane l at base + l x stride bytes")
                     ->transform(common::byte_offset());
  auto* base = sub->add_option("--base", o->base, "With --stride: the byte offset of lane 0 (default 0)")
                   ->transform(common::byte_offset());
  stride->excludes(lanes);
  base->excludes(lanes);
  auto* shared_lanes = sub->add_option("--shared-lanes", o->shared_lanes,
                                       "cp.async only: the 32 shared-memory destination offsets")
                           ->check(lane_list_validator());
  auto* shared_stride =
      sub->add_option("--shared-stride", o->shared_stride, "cp.async only, instead of --shared-lanes: l x stride")
          ->transform(common::byte_offset());
  auto* shared_base = sub->add_option("--shared-base", o->shared_base, "With --shared-stride: lane 0's offset")
                               ->transform(common::byte_offset());
  shared_stride->excludes(shared_lanes);
  shared_base->excludes(shared_lanes);
  sub->add_option("--mask", o->mask, "Active lanes, one bit per lane (default 0xffffffff)")->check(mask_validator());
  sub->add_flag("--json", o->json, "Print JSON instead of text");
  sub->footer(
      "Examples:\n"
      "  gemmlab-cli access --op lds.32 --stride 128          # every lane in bank 0: 32-way conflict\n"
      "  gemmlab-cli access --op lds.32 --stride 132          # rows padded by one word: conflict-free\n"
      "  gemmlab-cli access --op ldg.32 --stride 4 --base 4   # coalesced but misaligned: 5 sectors\n"
      "  gemmlab-cli access --op cp.async.16 --stride 16 --shared-stride 128\n"
      "  gemmlab-cli access --op ldsm.x4 --stride 128         # ldmatrix rows 128 bytes apart: 8-way (rung 12)\n"
      "  gemmlab-cli access --op ldsm.x4 --stride 144         # rows padded by 16 bytes: conflict-free (rung 13)\n"
      "  gemmlab-cli access --op lds.64 --lanes 0,8,16,-,32,... (32 entries)");
  return {sub, [sub, o] { return run_access(sub, *o); }};
}

}  // namespace gemmlab::cli
