// CuTe's Swizzle<B,M,S>, and TMA's modes written as one.
#include "gemmlab/lab/swizzle.hpp"

#include <bit>
#include <cctype>
#include <cstdlib>
#include <vector>

namespace gemmlab::lab {

std::string Swizzle::to_string() const {
  return "Swizzle<" + std::to_string(bits) + "," + std::to_string(base) + "," + std::to_string(shift) + ">";
}

Status check_swizzle(const Swizzle& s) {
  if (s.bits < 0 || s.bits > 8) return Error{s.to_string() + ": B (the bits permuted) must be 0 to 8"};
  if (s.base < 0 || s.base > 16) return Error{s.to_string() + ": M (the bits kept together) must be 0 to 16"};
  if (s.bits > 0 && std::abs(s.shift) < s.bits)
    return Error{s.to_string() +
                 ": |S| must be at least B, or the bits read overlap the bits written (CuTe asserts "
                 "the same)"};
  if (std::abs(s.shift) > 24) return Error{s.to_string() + ": S must be between -24 and 24"};
  return Ok{};
}

Result<Swizzle> parse_swizzle(std::string_view text) {
  std::string_view body = text;
  const auto strip = [&](std::string_view prefix) {
    if (body.substr(0, prefix.size()) == prefix) {
      body.remove_prefix(prefix.size());
      return true;
    }
    return false;
  };
  while (!body.empty() && std::isspace(static_cast<unsigned char>(body.front()))) body.remove_prefix(1);
  while (!body.empty() && std::isspace(static_cast<unsigned char>(body.back()))) body.remove_suffix(1);
  if (strip("Swizzle<") || strip("Sw<")) {
    if (body.size() >= 2 && body.substr(body.size() - 2) == "{}") body.remove_suffix(2);
    if (body.empty() || body.back() != '>')
      return Error{"swizzle '" + std::string(text) + "': expected '>' at the end, as in Swizzle<3,3,3>"};
    body.remove_suffix(1);
  }
  std::vector<int> numbers;
  std::string current;
  for (std::size_t i = 0; i <= body.size(); ++i) {
    const char c = i < body.size() ? body[i] : ',';
    if (c == ',') {
      if (current.empty() || current == "-")
        return Error{"swizzle '" + std::string(text) +
                     "': expected a number before ',' or the end; write B,M,S as in "
                     "3,3,3 or Swizzle<3,3,3>"};
      numbers.push_back(std::atoi(current.c_str()));
      current.clear();
    } else if (std::isdigit(static_cast<unsigned char>(c)) || (c == '-' && current.empty())) {
      current += c;
    } else if (!std::isspace(static_cast<unsigned char>(c))) {
      return Error{"swizzle '" + std::string(text) + "': unexpected '" + std::string(1, c) +
                   "'; write B,M,S as in 3,3,3 or Swizzle<3,3,3>"};
    } else if (current.size() > 1 && current.size() > 3) {
      return Error{"swizzle '" + std::string(text) + "': a number is too large"};
    }
    if (current.size() > 3) return Error{"swizzle '" + std::string(text) + "': a number is too large"};
  }
  if (numbers.size() != 3)
    return Error{"swizzle '" + std::string(text) + "': expected three numbers B,M,S, found " +
                 std::to_string(numbers.size())};
  Swizzle s{numbers[0], numbers[1], numbers[2]};
  if (auto ok = check_swizzle(s); !ok) return ok.error();
  return s;
}

Result<Swizzle> tma_swizzle_as_cute(int mode_bytes, int element_bytes) {
  if (mode_bytes == 0) return Swizzle{};
  if (mode_bytes != 32 && mode_bytes != 64 && mode_bytes != 128)
    return Error{"TMA swizzles in spans of 32, 64 or 128 bytes (0: none), not " + std::to_string(mode_bytes)};
  if (element_bytes != 1 && element_bytes != 2 && element_bytes != 4)
    return Error{"TMA's swizzle modes are defined here for elements of 1, 2 or 4 bytes"};
  const int bits = std::countr_zero(static_cast<unsigned>(mode_bytes / 16));    // 32: 1, 64: 2, 128: 3
  const int base = 4 - std::countr_zero(static_cast<unsigned>(element_bytes));  // 16-byte units in elements
  return Swizzle{bits, base, 3};
}

std::optional<int> cute_as_tma_swizzle(const Swizzle& s, int element_bytes) {
  if (s.identity()) return 0;
  for (const int mode : {32, 64, 128}) {
    auto t = tma_swizzle_as_cute(mode, element_bytes);
    if (t && *t == s) return mode;
  }
  return std::nullopt;
}

}  // namespace gemmlab::lab
