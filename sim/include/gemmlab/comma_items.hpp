#pragma once
// A flag's comma-separated list ("17,21", "64,16x4096x4096", "preferred,groupm:8") as its items, in order. Every
// item between commas is kept, an empty one too, so that "1," names an empty item its reader can refuse by name; the
// items are not trimmed (a reader that allows spaces trims them).
#include <string_view>
#include <vector>

namespace gemmlab {

inline std::vector<std::string_view> comma_items(std::string_view list) {
  std::vector<std::string_view> items;
  while (true) {
    const std::size_t comma = list.find(',');
    items.push_back(list.substr(0, comma));
    if (comma == std::string_view::npos) return items;
    list = list.substr(comma + 1);
  }
}

}  // namespace gemmlab
