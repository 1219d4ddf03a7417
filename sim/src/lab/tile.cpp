// The layout lab's tile: a CuTe layout of typed elements composed with a swizzle, and the checks that make it one.
#include "gemmlab/lab/tile.hpp"

#include <algorithm>
#include <bit>
#include <cctype>

namespace gemmlab::lab {
namespace {

struct ElementInfo {
  Element element;
  std::string_view name;
  int bytes;
};
constexpr ElementInfo kElements[] = {
    {Element::Fp32, "fp32", 4}, {Element::Tf32, "tf32", 4}, {Element::Fp16, "fp16", 2},
    {Element::Bf16, "bf16", 2}, {Element::Fp8, "fp8", 1},   {Element::Int8, "int8", 1},
};

std::string coordinate(std::int64_t row, std::int64_t column) {
  return "(" + std::to_string(row) + "," + std::to_string(column) + ")";
}

std::string bit_range(std::int64_t mask) {
  const int low = std::countr_zero(static_cast<std::uint64_t>(mask));
  const int high = 63 - std::countl_zero(static_cast<std::uint64_t>(mask));
  return low == high ? "bit " + std::to_string(low) : "bits " + std::to_string(low) + "-" + std::to_string(high);
}

}  // namespace

Result<Element> parse_element(std::string_view name) {
  std::string lower(name);
  for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "e4m3" || lower == "e5m2" || lower == "fp8_e4m3" || lower == "fp8_e5m2") lower = "fp8";
  if (lower == "half" || lower == "f16") lower = "fp16";
  if (lower == "float" || lower == "f32") lower = "fp32";
  for (const auto& e : kElements)
    if (e.name == lower) return e.element;
  return Error{"unknown element type '" + std::string(name) + "'; known: " + std::string(kElementNames)};
}

std::span<const std::string_view> element_names() {
  static constexpr std::string_view kNames[] = {"fp32", "tf32", "fp16", "bf16", "fp8", "int8"};
  return kNames;
}

std::string_view element_name(Element e) {
  for (const auto& info : kElements)
    if (info.element == e) return info.name;
  return "?";
}

int element_bytes(Element e) {
  for (const auto& info : kElements)
    if (info.element == e) return info.bytes;
  return 1;
}

std::int64_t Tile::footprint_bytes() const {
  std::int64_t highest = 0;
  for (std::int64_t r = 0; r < rows(); ++r)
    for (std::int64_t c = 0; c < columns(); ++c) highest = std::max(highest, element_offset(r, c));
  return (highest + 1) * bytes();
}

std::string Tile::to_cute() const {
  if (swizzle.identity()) return layout.to_cute();
  return "composition(" + swizzle.to_string() + "{}, " + layout.to_cute() + ")";
}

std::string Tile::to_string() const {
  if (swizzle.identity()) return layout.to_string();
  return "Sw<" + std::to_string(swizzle.bits) + "," + std::to_string(swizzle.base) + "," +
         std::to_string(swizzle.shift) + "> o " + layout.to_string();
}

Result<Layout> parse_swizzled_layout(std::string_view text, Swizzle& swizzle) {
  swizzle = Swizzle{};
  std::string_view rest = text;
  while (!rest.empty() && std::isspace(static_cast<unsigned char>(rest.front()))) rest.remove_prefix(1);
  if (rest.substr(0, 3) == "Sw<" || rest.substr(0, 8) == "Swizzle<") {
    const auto close = rest.find('>');
    if (close == std::string_view::npos)
      return Error{"layout '" + std::string(text) + "': the swizzle has no closing '>'"};
    auto s = parse_swizzle(rest.substr(0, close + 1));
    if (!s) return s.error();
    swizzle = *s;
    rest.remove_prefix(close + 1);
    // CuTe prints a swizzled layout as "Sw<B,M,S> o _0 o layout": the middle term is an offset, which must be 0.
    const auto compose = [&]() {
      while (!rest.empty() && std::isspace(static_cast<unsigned char>(rest.front()))) rest.remove_prefix(1);
      if (rest.empty() || rest.front() != 'o') return false;
      rest.remove_prefix(1);
      while (!rest.empty() && std::isspace(static_cast<unsigned char>(rest.front()))) rest.remove_prefix(1);
      return true;
    };
    if (!compose())
      return Error{"layout '" + std::string(text) +
                   "': expected 'o' after the swizzle, as CuTe prints "
                   "Sw<3,3,3> o _0 o (64,64):(64,1)"};
    if (rest.substr(0, 2) == "_0" ||
        (rest.size() > 1 && rest[0] == '0' && std::isspace(static_cast<unsigned char>(rest[1])))) {
      rest.remove_prefix(rest[0] == '_' ? 2 : 1);
      if (!compose()) return Error{"layout '" + std::string(text) + "': expected 'o' after the offset _0"};
    }
  }
  return parse_layout(rest);
}

Result<Tile> make_tile(const Layout& layout, Element element, const Swizzle& swizzle) {
  if (auto ok = check_swizzle(swizzle); !ok) return ok.error();
  if (layout.rank() != 2)
    return Error{"the tile " + layout.to_string() + " has " + std::to_string(layout.rank()) +
                 " mode(s); the lab needs two, (rows, columns), each of which may be nested: e.g. (64,64):(64,1)"};
  for (const auto s : flatten(layout.stride))
    if (s < 0)
      return Error{"the layout " + layout.to_string() + " has a negative stride; shared tiles here need strides >= 0"};
  Tile tile{layout, element, swizzle};
  const int bytes = tile.bytes();
  // The largest offset bounds everything below: refuse what cannot fit before allocating for it.
  std::int64_t highest = 0;
  for (const auto& mode : {0, 1}) {
    const auto shape = flatten(layout.shape_of(mode));
    const auto stride = flatten(layout.stride_of(mode));
    for (std::size_t i = 0; i < shape.size(); ++i) highest += (shape[i] - 1) * stride[i];
  }
  if ((highest + 1) * bytes > kSharedBytesPerBlock)
    return Error{"the tile " + layout.to_string() + " of " + std::string(element_name(element)) + " spans " +
                 std::to_string((highest + 1) * bytes) +
                 " bytes, more than the 232448 bytes (227 KiB) of shared "
                 "memory a block can have"};
  std::vector<std::int64_t> owner(static_cast<std::size_t>(highest + 1), -1);  // offset -> row * columns + column
  const std::int64_t columns = tile.columns();
  for (std::int64_t r = 0; r < tile.rows(); ++r)
    for (std::int64_t c = 0; c < columns; ++c) {
      auto& o = owner[static_cast<std::size_t>(layout(r, c))];
      if (o >= 0)
        return Error{"the layout " + layout.to_string() + " puts elements " + coordinate(o / columns, o % columns) +
                     " and " + coordinate(r, c) + " at the same offset " + std::to_string(layout(r, c)) +
                     ": a stride makes two elements overlap"};
      o = r * columns + c;
    }
  if (swizzle.identity()) return tile;
  const int offset_bits = 64 - std::countl_zero(static_cast<std::uint64_t>(highest));
  if ((swizzle.yyy_mask() >> offset_bits) != 0 && (swizzle.yyy_mask() & ((std::int64_t{1} << offset_bits) - 1)) == 0)
    return Error{swizzle.to_string() + " reads offset " + bit_range(swizzle.yyy_mask()) +
                 ", but this tile's offsets "
                 "stop at bit " +
                 std::to_string(offset_bits - 1) +
                 ": it needs more bits than the offsets have and "
                 "would never change one"};
  for (std::int64_t r = 0; r < tile.rows(); ++r)
    for (std::int64_t c = 0; c < columns; ++c) {
      const std::int64_t moved = swizzle(layout(r, c));
      if (moved > highest || owner[static_cast<std::size_t>(moved)] < 0)
        return Error{swizzle.to_string() + " moves element " + coordinate(r, c) + " from offset " +
                     std::to_string(layout(r, c)) + " to " + std::to_string(moved) + ", which no element of " +
                     layout.to_string() + " occupies: it is not a bijection on this tile (it reads offset " +
                     bit_range(swizzle.yyy_mask()) + " into " + bit_range(swizzle.zzz_mask()) + ")"};
    }
  return tile;
}

bool contiguous_run(const Tile& tile, std::int64_t row, std::int64_t column, int mode, int count) {
  if ((mode == 1 ? column : row) + count > (mode == 1 ? tile.columns() : tile.rows())) return false;
  const std::int64_t first = tile.byte_offset(row, column);
  if (first % (static_cast<std::int64_t>(count) * tile.bytes()) != 0) return false;
  for (int i = 1; i < count; ++i) {
    const std::int64_t at = mode == 1 ? tile.byte_offset(row, column + i) : tile.byte_offset(row + i, column);
    if (at != first + static_cast<std::int64_t>(i) * tile.bytes()) return false;
  }
  return true;
}

int contiguous_mode(const Tile& tile, std::int64_t row, std::int64_t column, int vector_bytes) {
  const int count = vector_bytes / tile.bytes();
  if (contiguous_run(tile, row, column, 1, count)) return 1;
  if (contiguous_run(tile, row, column, 0, count)) return 0;
  return -1;
}

}  // namespace gemmlab::lab
