#pragma once
// CuTe's layouts, as CuTe prints them: a shape and a stride, each an integer or a parenthesised tuple of them, nested
// to any depth: "(64,64):(64,1)", "((8,8),(8,8)):((64,512),(1,8))", "(_64,_64):(_64,_1)". A layout maps a coordinate
// to an offset: an index into a mode is split colexicographically (first sub-mode fastest) over that mode's shape,
// and each part is multiplied by its stride. The layout lab gives a tile two modes, (rows, columns).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gemmlab/result.hpp"

namespace gemmlab::lab {

// An integer, or a tuple of IntTuples (CuTe's IntTuple).
struct IntTuple {
  std::int64_t value = 0;          // a leaf's integer
  std::vector<IntTuple> children;  // a tuple's elements
  bool tuple = false;

  static IntTuple leaf(std::int64_t v) { return IntTuple{v, {}, false}; }
  static IntTuple of(std::vector<IntTuple> elements) { return IntTuple{0, std::move(elements), true}; }
  bool operator==(const IntTuple&) const = default;
};

// The leaves, depth first.
std::vector<std::int64_t> flatten(const IntTuple& t);
// The product of the leaves (a shape's size).
std::int64_t product(const IntTuple& t);
// "(64,(8,8))", as CuTe prints it (without the static '_').
std::string to_string(const IntTuple& t);
// "Shape<_64,Shape<_8,_8>>" (kind "Shape" or "Stride"): CuTe C++ with static integers.
std::string to_cute_type(const IntTuple& t, std::string_view kind);

struct Layout {
  IntTuple shape;
  IntTuple stride;

  int rank() const { return shape.tuple ? static_cast<int>(shape.children.size()) : 1; }
  const IntTuple& shape_of(int mode) const {
    return shape.tuple ? shape.children[static_cast<std::size_t>(mode)] : shape;
  }
  const IntTuple& stride_of(int mode) const {
    return stride.tuple ? stride.children[static_cast<std::size_t>(mode)] : stride;
  }
  std::int64_t size() const { return product(shape); }
  std::int64_t extent(int mode) const { return product(shape_of(mode)); }
  // The offset of index i (0 <= i < extent) along one mode.
  std::int64_t mode_offset(int mode, std::int64_t index) const;
  // The offset of the coordinate (row, column) of a rank-2 layout.
  std::int64_t operator()(std::int64_t row, std::int64_t column) const {
    return mode_offset(0, row) + mode_offset(1, column);
  }
  // The offset of a linear index (colexicographic over the whole shape).
  std::int64_t at(std::int64_t index) const;
  std::string to_string() const;  // "(64,64):(64,1)"
  std::string to_cute() const;    // "Layout<Shape<_64,_64>, Stride<_64,_1>>{}"
  bool operator==(const Layout&) const = default;
};

// Parses CuTe's printed notation. A shape alone ("(64,64)") gets CuTe's default compact column-major stride. Errors
// name the character (counted from 1) and what was expected there.
Result<Layout> parse_layout(std::string_view text);
// The same for an IntTuple alone ("(8,8)", "4").
Result<IntTuple> parse_int_tuple(std::string_view text);

// CuTe's default (LayoutLeft) compact strides for a shape: the first leaf 1, each next one the product before it.
IntTuple compact_column_major(const IntTuple& shape);
// Compact row-major strides for a rank-2 shape (the last mode fastest).
IntTuple compact_row_major(const IntTuple& shape);

}  // namespace gemmlab::lab
