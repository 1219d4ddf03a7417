#include "gemmlab/gpu/shapes.hpp"

#include <charconv>

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
  while (true) {
    const std::size_t comma = list.find(',');
    const std::string_view item = list.substr(0, comma);
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
    if (comma == std::string_view::npos) break;
    list = list.substr(comma + 1);
  }
  return shapes;
}

std::string to_string(const Shape& s) {
  if (s.m == s.n && s.n == s.k) return std::to_string(s.m);
  return std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k);
}

Result<kernel::BlockOrder> parse_block_order(std::string_view text) {
  const auto usage = [&] {
    std::string message = "not a block order: '";
    message.append(text).append("' (use row, col, cutlass:N with a swizzle width of 2^N, N in 0..5, or groupm:N, N >= 1)");
    return Error{message};
  };
  if (text == "row") return kernel::BlockOrder{kernel::OrderKind::RowMajor, 0};
  if (text == "col") return kernel::BlockOrder{kernel::OrderKind::ColumnMajor, 0};
  const std::size_t colon = text.find(':');
  if (colon == std::string_view::npos) return usage();
  const std::string_view kind = text.substr(0, colon), number = text.substr(colon + 1);
  int value = 0;
  const auto [end, code] = std::from_chars(number.data(), number.data() + number.size(), value);
  if (code != std::errc{} || end != number.data() + number.size()) return usage();
  if (kind == "cutlass" && value >= 0 && value <= 5) return kernel::BlockOrder{kernel::OrderKind::Cutlass, value};
  if (kind == "groupm" && value >= 1) return kernel::BlockOrder{kernel::OrderKind::GroupM, value};
  return usage();
}

std::string to_string(const kernel::BlockOrder& order) {
  switch (order.kind) {
    case kernel::OrderKind::RowMajor: return "row";
    case kernel::OrderKind::ColumnMajor: return "col";
    case kernel::OrderKind::Cutlass: return "cutlass:" + std::to_string(order.param);
    case kernel::OrderKind::GroupM: return "groupm:" + std::to_string(order.param);
  }
  return "?";
}

}  // namespace gemmlab::gpu
