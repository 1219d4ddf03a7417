#include "gemmlab/rungs.hpp"

#include <algorithm>

namespace gemmlab {
namespace {

constexpr auto kRungs = [] {
  std::array table{
#define GEMMLAB_RUNG(ident, slug, title, precision, change) \
  RungInfo{RungId::ident, 0, slug, title, Precision::precision, change},
#include "gemmlab/rungs.def"
#undef GEMMLAB_RUNG
  };
  for (std::size_t i = 0; i < table.size(); ++i) table[i].number = static_cast<int>(i) + 1;
  return table;
}();

// The enum and the table come from the same expansion, so a rung's enum value is its index in the table.
static_assert([] {
  for (std::size_t i = 0; i < kRungs.size(); ++i)
    if (static_cast<std::size_t>(kRungs[i].id) != i) return false;
  return true;
}());

}  // namespace

std::string_view to_string(Precision precision) {
  switch (precision) {
    case Precision::FP32: return "fp32";
    case Precision::FP16BF16: return "fp16/bf16";
  }
  return "?";
}

std::span<const RungInfo> rungs() { return kRungs; }

const RungInfo& rung_info(RungId id) { return kRungs[static_cast<std::size_t>(id)]; }

std::optional<RungId> find_rung(std::string_view slug) {
  const auto it = std::ranges::find(kRungs, slug, &RungInfo::slug);
  if (it == kRungs.end()) return std::nullopt;
  return it->id;
}

}  // namespace gemmlab
