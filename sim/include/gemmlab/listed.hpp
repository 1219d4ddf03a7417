#pragma once
// Items in a sentence for a learner: "a", "a and b", "a, b and c".
#include <cstddef>
#include <string>

namespace gemmlab {

// Each item of `items` as `word(item)` writes it, joined by commas and a last "and".
template <class Items, class Word>
std::string listed(const Items& items, Word word) {
  std::string out;
  const std::size_t n = std::size(items);
  std::size_t i = 0;
  for (const auto& item : items) {
    if (i > 0) out += i + 1 == n ? " and " : ", ";
    out += word(item);
    ++i;
  }
  return out;
}

}  // namespace gemmlab
