// The layout lab's questions as text, and the gallery.
#include "gemmlab/lab/query.hpp"

#include <cctype>
#include <charconv>
#include <vector>

#include "gemmlab/lab/expressions.hpp"

namespace gemmlab::lab {
namespace {

std::string trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return std::string(s);
}

std::optional<std::int64_t> number(std::string_view s) {
  const std::string t = trim(s);
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc{} || end != t.data() + t.size() || t.empty()) return std::nullopt;
  return v;
}

// "ROW,COLUMN" or "(ROW,COLUMN)".
Result<Coordinate> coordinate(std::string_view text, std::string_view field) {
  std::string t = trim(text);
  if (t.size() >= 2 && t.front() == '(' && t.back() == ')') t = t.substr(1, t.size() - 2);
  const auto comma = t.find(',');
  const auto fail = [&]() {
    return Error{std::string(field) + " '" + std::string(text) +
                 "': expected ROW,COLUMN (two numbers from 0, as 16,0)"};
  };
  if (comma == std::string::npos) return fail();
  const auto r = number(std::string_view(t).substr(0, comma));
  const auto c = number(std::string_view(t).substr(comma + 1));
  if (!r || !c || *r < 0 || *c < 0) return fail();
  return Coordinate{*r, *c};
}

Result<std::vector<std::optional<Coordinate>>> lane_list(std::string_view text) {
  std::vector<std::optional<Coordinate>> lanes;
  std::string token;
  const auto flush = [&]() -> Status {
    const std::string t = trim(token);
    token.clear();
    if (t.empty()) return Ok{};
    if (t == "-") {
      lanes.emplace_back();
      return Ok{};
    }
    auto c = coordinate(t, "--lanes entry " + std::to_string(lanes.size()));
    if (!c) return c.error();
    lanes.emplace_back(*c);
    return Ok{};
  };
  int depth = 0;
  for (const char ch : text) {
    if (ch == '(') ++depth;
    if (ch == ')') --depth;
    if ((ch == ';' || std::isspace(static_cast<unsigned char>(ch))) && depth == 0) {
      if (auto ok = flush(); !ok) return ok.error();
    } else {
      token += ch;
    }
  }
  if (auto ok = flush(); !ok) return ok.error();
  if (lanes.size() != 32)
    return Error{"--lanes: got " + std::to_string(lanes.size()) +
                 " entries, but a warp has 32 lanes: give 32 "
                 "coordinates ROW,COLUMN (lane 0 first) separated by spaces or ';', '-' for an inactive lane"};
  return lanes;
}

// "8,1,8" -> {8, 1, 8}; an entry that is not a number from 1 gives an empty list.
std::vector<std::int64_t> split_numbers(std::string_view text) {
  std::vector<std::int64_t> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto comma = text.find(',', start);
    const auto v = number(text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (!v || *v < 1) return {};
    out.push_back(*v);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

std::string field_error(std::string_view field, const Error& e) { return std::string(field) + ": " + e.message; }

}  // namespace

Result<Query> parse_query(const QueryText& text) {
  Swizzle printed;
  auto layout = parse_swizzled_layout(text.layout, printed);
  if (!layout) return Error{field_error("--layout", layout.error())};
  auto element = parse_element(text.element);
  if (!element) return Error{field_error("--element", element.error())};
  Swizzle swizzle = printed;
  int given = printed.identity() ? 0 : 1;
  if (!trim(text.swizzle).empty() && trim(text.swizzle) != "none") {
    auto s = parse_swizzle(text.swizzle);
    if (!s) return Error{field_error("--swizzle", s.error())};
    swizzle = *s;
    ++given;
  }
  if (!trim(text.tma_swizzle).empty()) {
    const std::string t = trim(text.tma_swizzle);
    const auto mode = t == "none" ? std::optional<std::int64_t>(0) : number(t);
    if (!mode) return Error{"--tma-swizzle '" + t + "': expected 32, 64, 128 (bytes) or none"};
    auto s = tma_swizzle_as_cute(static_cast<int>(*mode), element_bytes(*element));
    if (!s) return Error{field_error("--tma-swizzle", s.error())};
    if (!s->identity()) {
      swizzle = *s;
      ++given;
    }
  }
  if (!trim(text.triton).empty()) {
    const auto parts = split_numbers(text.triton);
    if (parts.size() != 3)
      return Error{"--triton '" + text.triton + "': expected vec,perPhase,maxPhase (three numbers, as 8,1,8)"};
    if (layout->rank() != 2 || layout->stride_of(1) != IntTuple::leaf(1) ||
        layout->stride_of(0) != IntTuple::leaf(layout->extent(1)))
      return Error{"--triton: Triton's swizzled shared layout is row-major, (rows, C):(C, 1); the layout is " +
                   layout->to_string()};
    auto s =
        triton_as_cute(TritonShared{static_cast<int>(parts[0]), static_cast<int>(parts[1]), static_cast<int>(parts[2])},
                       layout->extent(1));
    if (!s) return Error{field_error("--triton", s.error())};
    if (!s->identity()) {
      swizzle = *s;
      ++given;
    }
  }
  if (given > 1)
    return Error{
        "the tile has two swizzles (from --layout's Sw<...>, --swizzle, --tma-swizzle and --triton): give one"};
  auto tile = make_tile(*layout, *element, swizzle);
  if (!tile) return Error{field_error("--layout", tile.error())};

  Query query{*tile, {}, std::nullopt};
  AccessSpec& a = query.access;
  a.op = trim(text.op);
  if (auto kind = access_kind(a.op); !kind) return Error{field_error("--op", kind.error())};
  auto operand = parse_operand(trim(text.partition).empty() ? "a" : trim(text.partition));
  if (!operand) return Error{field_error("--partition", operand.error())};
  a.operand = *operand;
  if (!trim(text.at).empty()) {
    auto at = coordinate(text.at, "--at");
    if (!at) return at.error();
    a.at = *at;
  }
  if (!trim(text.threads).empty()) {
    auto threads = parse_layout(text.threads);
    if (!threads) return Error{field_error("--threads", threads.error())};
    a.threads = *threads;
  }
  if (!trim(text.vector).empty()) {
    const auto v = number(text.vector);
    if (!v || *v < 1 || *v > 16) return Error{"--vector '" + text.vector + "': expected elements per thread, 1 to 16"};
    a.vector = static_cast<int>(*v);
  }
  if (!trim(text.global).empty()) {
    auto global = parse_layout(text.global);
    if (!global) return Error{field_error("--global", global.error())};
    a.global = *global;
  }
  if (!trim(text.lanes).empty()) {
    auto lanes = lane_list(text.lanes);
    if (!lanes) return lanes.error();
    a.lanes = std::move(*lanes);
  }
  if (!trim(text.other_op).empty()) {
    AccessSpec other;
    other.op = trim(text.other_op);
    if (auto kind = access_kind(other.op); !kind) return Error{field_error("--other", kind.error())};
    other.operand = a.operand;
    query.other = other;
  }
  return query;
}

namespace {
QueryText q(std::string layout, std::string element, std::string op, std::string partition = "a",
            std::string swizzle = "", std::string tma = "", std::string threads = "", std::string global = "") {
  QueryText t;
  t.layout = std::move(layout);
  t.element = std::move(element);
  t.op = std::move(op);
  t.partition = std::move(partition);
  t.swizzle = std::move(swizzle);
  t.tma_swizzle = std::move(tma);
  t.threads = std::move(threads);
  t.global = std::move(global);
  return t;
}
}  // namespace

std::span<const Preset> presets() {
  static const std::vector<Preset> list = {
      {"rows-of-64-halves", "a 64x64 fp16 A tile, rows of 128 bytes, read by ldmatrix.x4: the 8-way conflict",
       q("(64,64):(64,1)", "fp16", "ldmatrix.x4")},
      {"swizzle-333", "the same tile with CuTe's Swizzle<3,3,3> (CUTLASS's SM80 fp16 K-major layout): conflict-free",
       q("(64,64):(64,1)", "fp16", "ldmatrix.x4", "a", "3,3,3")},
      {"padded-72", "the same tile padded to rows of 72 halves: conflict-free at 12.5% more memory",
       q("(64,64):(72,1)", "fp16", "ldmatrix.x4")},
      {"rows-of-32-halves", "rows of 32 halves (64 bytes): two rows share a 128-byte line, 4-way with ldmatrix",
       q("(64,32):(32,1)", "fp16", "ldmatrix.x4")},
      {"swizzle-233", "rows of 32 halves with Swizzle<2,3,3> (CUTLASS's 32-wide fp16 K-major layout)",
       q("(64,32):(32,1)", "fp16", "ldmatrix.x4", "a", "2,3,3")},
      {"cutlass-sm80-fp16-atom",
       "CUTLASS's SM80 fp16 K-major shared atom, Swizzle<3,3,3> o (8,64):(64,1), as a "
       "128x64 tile read for the B operand",
       q("Sw<3,3,3> o _0 o (128,64):(64,1)", "fp16", "ldmatrix.x4", "b")},
      {"cutlass-sm80-tf32-atom", "CUTLASS's SM80 tf32 K-major shared layout, Swizzle<3,2,3> on rows of 32 tf32",
       q("(64,32):(32,1)", "tf32", "ldmatrix.x4", "a", "3,2,3")},
      {"cutlass-sm80-int8-343",
       "the 3-4-3 question: CUTLASS's SM80 int8 K-major layout, Swizzle<3,4,3> on rows of "
       "128 int8 (16-byte units of 16 elements)",
       q("(64,128):(128,1)", "int8", "ldmatrix.x4", "a", "3,4,3")},
      {"b-trans-row-major", "a row-major K x N B tile (N contiguous) read with ldmatrix.x4.trans",
       q("(64,64):(1,64)", "fp16", "ldmatrix.x4.trans", "b")},
      {"c-stmatrix-epilogue", "an epilogue storing a 64x64 bf16 C tile with stmatrix.x4, rows of 128 bytes",
       q("(64,64):(64,1)", "bf16", "stmatrix.x4", "c")},
      {"c-stmatrix-swizzled", "the same epilogue through Swizzle<3,3,3>: conflict-free stores",
       q("(64,64):(64,1)", "bf16", "stmatrix.x4", "c", "3,3,3")},
      {"cp-async-rows-64", "the global->shared side: 128 threads copy the 64x64 fp16 tile with cp.async.16",
       q("(64,64):(64,1)", "fp16", "cp.async.16", "a", "", "", "(16,8):(8,1)", "(64,64):(4096,1)")},
      {"tma-128-wgmma", "a TMA 128-byte-swizzled 64x64 bf16 tile, read by wgmma in core matrices (K-major)",
       q("(64,64):(64,1)", "bf16", "wgmma", "a", "", "128")},
      {"tma-128-box", "the TMA box write of the same tile", q("(64,64):(64,1)", "bf16", "tma", "a", "", "128")},
      {"fp32-column-read", "rung 3's 32x32 fp32 B tile read down a column: a 32-way conflict",
       [] {
         QueryText t = q("(32,32):(32,1)", "fp32", "lds.32");
         t.lanes =
             "0,0 1,0 2,0 3,0 4,0 5,0 6,0 7,0 8,0 9,0 10,0 11,0 12,0 13,0 14,0 15,0 16,0 17,0 18,0 19,0 20,0 "
             "21,0 22,0 23,0 24,0 25,0 26,0 27,0 28,0 29,0 30,0 31,0";
         return t;
       }()},
  };
  return list;
}

const Preset* find_preset(std::string_view name) {
  for (const auto& p : presets())
    if (p.name == name) return &p;
  return nullptr;
}

}  // namespace gemmlab::lab
