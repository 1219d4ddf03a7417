#pragma once
// The layout lab's tile: a rank-2 CuTe layout (rows, columns) of elements of one type in shared memory, composed
// with a swizzle: element (r, c) lives at byte  swizzle(layout(r, c)) x element bytes  of a window that starts
// 1024-byte aligned (as TMA's 128-byte swizzle needs, and every layout here is then addressed as the kernel's).
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gemmlab/lab/cute_layout.hpp"
#include "gemmlab/lab/swizzle.hpp"
#include "gemmlab/result.hpp"

namespace gemmlab::lab {

enum class Element { Fp32, Tf32, Fp16, Bf16, Fp8, Int8 };
Result<Element> parse_element(std::string_view name);  // fp32, tf32, fp16, bf16, fp8 (e4m3/e5m2), int8
std::string_view element_name(Element e);
int element_bytes(Element e);
inline constexpr std::string_view kElementNames = "fp32, tf32, fp16, bf16, fp8, int8";
std::span<const std::string_view> element_names();  // "fp32", ..., "int8": the names parse_element takes first

inline constexpr std::int64_t kSharedBytesPerBlock = 227 * 1024;  // the H100's opt-in limit per block

struct Tile {
  Layout layout;  // rank 2: (rows, columns)
  Element element = Element::Fp16;
  Swizzle swizzle;  // on element offsets; identity when none

  int bytes() const { return element_bytes(element); }
  std::int64_t rows() const { return layout.extent(0); }
  std::int64_t columns() const { return layout.extent(1); }
  std::int64_t element_offset(std::int64_t row, std::int64_t column) const { return swizzle(layout(row, column)); }
  std::int64_t byte_offset(std::int64_t row, std::int64_t column) const {
    return element_offset(row, column) * bytes();
  }
  // Shared memory the tile spans: its largest byte offset plus one element.
  std::int64_t footprint_bytes() const;
  // What the tile holds without padding (rows x columns x bytes).
  std::int64_t payload_bytes() const { return rows() * columns() * bytes(); }
  // "composition(Swizzle<3,3,3>{}, Layout<Shape<_64,_64>, Stride<_64,_1>>{})", or the layout alone.
  std::string to_cute() const;
  // "Sw<3,3,3> o (64,64):(64,1)": CuTe's printed form.
  std::string to_string() const;
};

// Builds and checks a tile: the layout has two modes and non-negative strides; no two elements share an offset
// (the error names both coordinates); the swizzle is a bijection on the tile's offsets and reads offset bits the
// tile has; the tile fits the 227 KiB of shared memory a block can have.
Result<Tile> make_tile(const Layout& layout, Element element, const Swizzle& swizzle);

// Parses a layout that may carry CuTe's printed swizzle in front: "Sw<3,3,3> o _0 o (64,64):(64,1)" or
// "Sw<3,3,3> o (64,64):(64,1)". `swizzle` receives it (identity when none).
Result<Layout> parse_swizzled_layout(std::string_view text, Swizzle& swizzle);

// Whether the `count` elements from (row, column) along `mode` (1: the columns, 0: the rows) lie inside the tile at
// consecutive byte offsets from an address aligned to their total bytes (what a vector access or an ldmatrix row
// needs).
bool contiguous_run(const Tile& tile, std::int64_t row, std::int64_t column, int mode, int count);
// Which way a vector of `vector_bytes` runs contiguously at (row, column): along the columns (1), along the rows (0),
// or neither (-1).
int contiguous_mode(const Tile& tile, std::int64_t row, std::int64_t column, int vector_bytes);

}  // namespace gemmlab::lab
