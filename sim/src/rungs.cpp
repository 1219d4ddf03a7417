#include "gemmlab/rungs.hpp"

#include <algorithm>
#include <charconv>

namespace gemmlab {
namespace {

constexpr auto kRungs = [] {
  std::array table{
#define GEMMLAB_RUNG(ident, slug, description, arch, title, precision, change) \
  RungInfo{RungId::ident, 0, slug, title, Precision::precision, Arch::arch, change},
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
  if (it != kRungs.end()) return it->id;
  // Or the ladder number, as the docs and the rung pages name them ("rung 9"): digits only, no sign or spaces.
  int number = 0;
  const auto [end, code] = std::from_chars(slug.data(), slug.data() + slug.size(), number);
  if (slug.empty() || code != std::errc{} || end != slug.data() + slug.size() || slug.front() == '0' || number < 1 ||
      number > static_cast<int>(kRungs.size()))
    return std::nullopt;
  return kRungs[static_cast<std::size_t>(number - 1)].id;
}

}  // namespace gemmlab
