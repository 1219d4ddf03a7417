#include "gemmlab/gpu/shapes.hpp"

#include <charconv>

#include "gemmlab/comma_items.hpp"

namespace gemmlab::gpu {
namespace {

Error not_a_size(std::string_view item) {
  std::string message = "not a size: '";
  message.append(item).append("' (write N for an N x N x N problem, or MxNxK; positive integers)");
  return Error{message};
}

Result<int> parse_dimension(std::string_view text, std::string_view item) {
  int value = 0;
  const auto [end, code] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (code != std::errc{} || end != text.data() + text.size() || value < 1)
    return not_a_size(item);
  return value;
}

}  // namespace

Result<std::vector<Shape>> parse_shapes(std::string_view list) {
  std::vector<Shape> shapes;
  for (const std::string_view item : comma_items(list)) {
    std::vector<int> dims;
    std::string_view rest = item;
    while (true) {
      const std::size_t x = rest.find('x');
      auto dim = parse_dimension(rest.substr(0, x), item);
      if (!dim) return dim.error();
      dims.push_back(*dim);
      if (x == std::string_view::npos) break;
      rest = rest.substr(x + 1);
    }
    if (dims.size() == 1) shapes.push_back({dims[0], dims[0], dims[0]});
    else if (dims.size() == 3) shapes.push_back({dims[0], dims[1], dims[2]});
    else return not_a_size(item);
  }
  return shapes;
}

std::string to_string(const Shape& s) {
  if (s.m == s.n && s.n == s.k) return std::to_string(s.m);
  return std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k);
}

}  // namespace gemmlab::gpu
