// The lab's tile in CuTe C++, TMA's and Triton's terms, each checked element by element.
#include "gemmlab/lab/expressions.hpp"

#include <bit>
#include <utility>

namespace gemmlab::lab {
namespace {

bool power_of_two(std::int64_t v) { return v > 0 && (v & (v - 1)) == 0; }
int log2_of(std::int64_t v) { return std::countr_zero(static_cast<std::uint64_t>(v)); }

bool is_compact_row_major(const Tile& tile) {
  return !tile.layout.shape_of(0).tuple && !tile.layout.shape_of(1).tuple &&
         tile.layout.stride_of(1) == IntTuple::leaf(1) && tile.layout.stride_of(0) == IntTuple::leaf(tile.columns());
}

}  // namespace

std::string TritonShared::to_string() const {
  return "vec=" + std::to_string(vec) + ", perPhase=" + std::to_string(per_phase) +
         ", maxPhase=" + std::to_string(max_phase);
}

Result<Swizzle> triton_as_cute(const TritonShared& t, std::int64_t columns) {
  for (const auto& [name, v] : {std::pair{"vec", t.vec}, {"perPhase", t.per_phase}, {"maxPhase", t.max_phase}})
    if (!power_of_two(v))
      return Error{std::string("Triton's ") + name + " must be a power of two, not " + std::to_string(v)};
  if (!power_of_two(columns))
    return Error{"Triton's swizzled layout needs rows of a power-of-two number of elements, not " +
                 std::to_string(columns)};
  const int m = log2_of(t.vec), b = log2_of(t.max_phase);
  if (std::int64_t{t.vec} * t.max_phase > columns)
    return Error{"vec x maxPhase = " + std::to_string(std::int64_t{t.vec} * t.max_phase) +
                 " elements is more than a row of " + std::to_string(columns) +
                 ": the XOR would move vectors into another row"};
  // The phase is the row (bit log2(columns) of the offset) divided by perPhase.
  return Swizzle{b, m, log2_of(columns) + log2_of(t.per_phase) - m};
}

Expressions expressions_of(const Tile& tile) {
  Expressions out;
  out.cute = tile.to_cute();
  out.printed = tile.to_string();
  const int e = tile.bytes();
  // TMA: a dense row-major box in one of its modes, rows no wider than the mode.
  const auto mode = cute_as_tma_swizzle(tile.swizzle, e);
  if (!is_compact_row_major(tile)) {
    out.tma_why_not = "TMA writes a box densely, row after row: the layout must be (rows, columns):(columns, 1)";
  } else if (!mode) {
    out.tma_why_not = tile.swizzle.to_string() + " is not one of TMA's 32-, 64- or 128-byte swizzles on " +
                      std::string(element_name(tile.element));
  } else if (*mode > 0 && tile.columns() * e != *mode) {
    out.tma_why_not = "TMA's " + std::to_string(*mode) + "-byte mode swizzles rows of " + std::to_string(*mode) +
                      " bytes; this tile's rows are " + std::to_string(tile.columns() * e);
  } else {
    out.tma_mode = *mode;
  }
  // Triton: a row-major tile of a power-of-two width, the swizzle's permuted units inside a row, its phase bits in
  // the row index.
  if (!is_compact_row_major(tile) || !power_of_two(tile.columns())) {
    out.triton_why_not = "Triton's swizzled shared layout is row-major with a power-of-two row: (rows, C):(C, 1)";
  } else if (tile.swizzle.identity()) {
    out.triton = TritonShared{1, 1, 1};
  } else {
    const Swizzle& s = tile.swizzle;
    const int row_bit = log2_of(tile.columns());
    if (s.shift <= 0 || s.base + s.bits > row_bit || s.base + s.shift < row_bit) {
      out.triton_why_not = s.to_string() + " on rows of " + std::to_string(tile.columns()) +
                           " elements does not XOR row bits into column units, which is all Triton's layout does";
    } else {
      out.triton = TritonShared{1 << s.base, 1 << (s.base + s.shift - row_bit), 1 << s.bits};
    }
  }
  if (out.triton) {  // checked, not trusted
    const auto t = *out.triton;
    for (std::int64_t r = 0; r < tile.rows() && out.triton; ++r)
      for (std::int64_t c = 0; c < tile.columns(); ++c) {
        const std::int64_t triton =
            r * tile.columns() + (((c / t.vec) ^ ((r / t.per_phase) % t.max_phase)) * t.vec) + c % t.vec;
        if (triton != tile.element_offset(r, c)) {
          out.triton.reset();
          out.triton_why_not = "no Triton layout (vec, perPhase, maxPhase) matches this tile element by element";
          break;
        }
      }
  }
  return out;
}

std::string explain_swizzle(const Swizzle& s, int element_bytes) {
  if (s.identity()) return "no swizzle";
  const std::int64_t unit = std::int64_t{1} << s.base;
  const std::int64_t period = std::int64_t{1} << (s.base + s.shift);
  return s.to_string() + ": M=" + std::to_string(s.base) + " keeps " + std::to_string(unit) +
         " consecutive elements (" + std::to_string(unit * element_bytes) +
         " bytes) together; B=" + std::to_string(s.bits) + " permutes " + std::to_string(1 << s.bits) +
         " such units (" + std::to_string((1 << s.bits) * unit * element_bytes) +
         " bytes) by XOR; S=" + std::to_string(s.shift) + " takes the XOR from the offset bits " +
         std::to_string(s.shift) + " higher, which change every " + std::to_string(period) + " elements (" +
         std::to_string(period * element_bytes) + " bytes)";
}

}  // namespace gemmlab::lab
