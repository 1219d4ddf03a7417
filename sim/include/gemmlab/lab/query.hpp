#pragma once
// A layout-lab question as text (what the CLI's flags and the panel's fields hold), parsed into a tile and its
// accesses; and the gallery of questions from real kernels that both faces offer.
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "gemmlab/lab/access.hpp"
#include "gemmlab/lab/tile.hpp"
#include "gemmlab/result.hpp"

namespace gemmlab::lab {

struct QueryText {
  std::string layout = "(64,64):(64,1)";  // CuTe notation; may start with CuTe's printed "Sw<B,M,S> o"
  std::string element = "fp16";
  std::string swizzle;      // "3,3,3" or "Swizzle<3,3,3>" (on element offsets); empty: none
  std::string tma_swizzle;  // "32", "64", "128" (bytes) or "none"; empty: not given
  std::string triton;       // Triton's swizzled shared layout "vec,perPhase,maxPhase"; empty: none
  std::string op = "ldmatrix.x4";
  std::string partition = "a";  // ldmatrix/stmatrix: a, b or c
  std::string at;               // "ROW,COLUMN"; empty: the whole tile
  std::string threads;          // copies: CuTe thread layout; empty: 128 threads along the contiguous mode
  std::string vector;           // copies: elements per thread; empty: the instruction's width
  std::string global;           // copies: global layout; empty: compact
  std::string lanes;            // explicit: 32 entries "r,c" or "-", separated by spaces or ';'
  std::string other_op;         // --suggest's other side (empty: the usual one)
  bool operator==(const QueryText&) const = default;
};

struct Query {
  Tile tile;
  AccessSpec access;
  std::optional<AccessSpec> other;  // --suggest's other side when given
};

// Every error names the field ("--layout", "--at", ...) and what was wrong in it.
Result<Query> parse_query(const QueryText& text);

// A question from a real kernel, for the gallery and the checks against the hardware.
struct Preset {
  std::string_view name;
  std::string_view title;  // one line: where it comes from
  QueryText query;
};
std::span<const Preset> presets();
const Preset* find_preset(std::string_view name);

}  // namespace gemmlab::lab
