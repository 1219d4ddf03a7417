// The fix: every swizzle and padding of the tile, scored on both of its accesses.
#include "gemmlab/lab/suggest.hpp"

#include <algorithm>
#include <set>

namespace gemmlab::lab {
namespace {

// Whether an access writes the tile (the store side) rather than reads it.
bool is_store(const AccessSpec& spec) {
  if (spec.op == "tma") return true;
  const auto model = sim::parse_op(spec.op);
  return model && (model->op == sim::MemOp::StoreShared || model->op == sim::MemOp::StMatrix ||
                   model->op == sim::MemOp::CpAsync);
}

// The offsets a tile's elements take, in order: two candidates with the same offsets are the same layout.
std::vector<std::int64_t> image(const Tile& tile) {
  std::vector<std::int64_t> out;
  out.reserve(static_cast<std::size_t>(tile.rows() * tile.columns()));
  for (std::int64_t r = 0; r < tile.rows(); ++r)
    for (std::int64_t c = 0; c < tile.columns(); ++c) out.push_back(tile.element_offset(r, c));
  return out;
}

std::optional<Totals> score(const Tile& tile, const AccessSpec& spec) {
  auto access = build_access(tile, spec);
  if (!access) return std::nullopt;
  auto totals = totals_of(*access);
  if (!totals) return std::nullopt;
  return *totals;
}

}  // namespace

AccessSpec complementary_access(const Tile& tile, const AccessSpec& given) {
  AccessSpec other;
  const bool store = is_store(given);
  const int vector_bytes = 16;
  other.op = store ? "lds.128" : "cp.async.16";
  other.vector = vector_bytes / tile.bytes();
  return other;
}

Result<Suggestions> suggest(const Tile& tile, const AccessSpec& first, const std::optional<AccessSpec>& second_given) {
  const AccessSpec second = second_given ? *second_given : complementary_access(tile, first);
  Suggestions out;
  out.first = first;
  out.second = second;
  auto first_access = build_access(tile, first);
  if (!first_access) return Error{"the access to fix: " + first_access.error().message};
  auto given_first = totals_of(*first_access);
  if (!given_first) return given_first.error();
  out.given_first = *given_first;
  auto second_access = build_access(tile, second);
  if (!second_access) return Error{"the other side (" + second.op + "): " + second_access.error().message};
  out.second_description = second_access->description;
  auto given_second = totals_of(*second_access);
  if (!given_second) return given_second.error();
  out.given_second = *given_second;

  // The unswizzled, unpadded tile the candidates start from.
  std::vector<std::pair<Tile, std::string>> tiles;
  std::set<std::vector<std::int64_t>> seen;
  const auto add = [&](Result<Tile> t, std::string label) {
    if (!t) return;
    if (!seen.insert(image(*t)).second) return;
    tiles.emplace_back(std::move(*t), std::move(label));
  };
  add(make_tile(tile.layout, tile.element, Swizzle{}), "no swizzle, no padding");
  // TMA's modes first, so that a swizzle that is one of them carries its name.
  for (const int mode : {32, 64, 128}) {
    auto s = tma_swizzle_as_cute(mode, tile.bytes());
    if (s)
      add(make_tile(tile.layout, tile.element, *s),
          "TMA " + std::to_string(mode) + "-byte swizzle (" + s->to_string() + ")");
  }
  for (int b = 1; b <= 4; ++b)
    for (int m = 0; m <= 6; ++m)
      for (int s = b; s <= 8; ++s) {
        const Swizzle sw{b, m, s};
        add(make_tile(tile.layout, tile.element, sw), sw.to_string());
      }
  // Paddings of a plain (rows, columns) tile's leading stride, in steps of 4 bytes up to 128.
  const bool plain = !tile.layout.shape_of(0).tuple && !tile.layout.shape_of(1).tuple;
  if (plain) {
    const std::int64_t s0 = tile.layout.stride_of(0).value, s1 = tile.layout.stride_of(1).value;
    const int padded_mode = s1 == 1 ? 0 : s0 == 1 ? 1 : -1;
    if (padded_mode >= 0) {
      const std::int64_t base = padded_mode == 0 ? tile.columns() : tile.rows();
      const std::int64_t step = std::max<std::int64_t>(1, 4 / tile.bytes());
      for (std::int64_t pad = step; pad * tile.bytes() <= 128; pad += step) {
        Layout padded = tile.layout;
        (padded_mode == 0 ? padded.stride.children[0] : padded.stride.children[1]) = IntTuple::leaf(base + pad);
        add(make_tile(padded, tile.element, Swizzle{}),
            "pad " + std::to_string(pad) + " element" + (pad == 1 ? "" : "s") + " (" +
                std::to_string(pad * tile.bytes()) + " bytes) a " + (padded_mode == 0 ? "row" : "column"));
      }
    }
  }
  int first_free = 0, second_free = 0;
  for (auto& [candidate, label] : tiles) {
    const auto a = score(candidate, first);
    const auto b = score(candidate, second);
    if (!a || !b) continue;  // the access cannot run on this layout (a vector split by the swizzle, say)
    Candidate c{candidate, label, candidate.footprint_bytes() - candidate.payload_bytes(), *a, *b};
    first_free += a->conflicts() == 0;
    second_free += b->conflicts() == 0;
    out.conflict_free += c.conflict_free();
    out.candidates.push_back(std::move(c));
  }
  std::stable_sort(out.candidates.begin(), out.candidates.end(), [](const Candidate& x, const Candidate& y) {
    if (x.conflict_free() != y.conflict_free()) return x.conflict_free();
    if (!x.conflict_free()) {
      const auto cx = x.first.conflicts() + x.second.conflicts(), cy = y.first.conflicts() + y.second.conflicts();
      if (cx != cy) return cx < cy;
    }
    if (x.extra_bytes != y.extra_bytes) return x.extra_bytes < y.extra_bytes;
    return x.tile.swizzle.bits < y.tile.swizzle.bits;
  });
  if (out.conflict_free == 0) {
    out.why_none =
        "of " + std::to_string(out.candidates.size()) + " layouts tried, " + std::to_string(first_free) + " make the " +
        first.op + " side conflict-free and " + std::to_string(second_free) + " the " + second.op +
        " side, but none both: " +
        (first_free == 0 || second_free == 0
             ? std::string("no swizzle or padding of this shape frees the ") +
                   (first_free == 0 ? first.op : second.op) +
                   " side (its lanes ask one bank for more words than any permutation of the tile can spread)"
             : "the two accesses need different bank groups for the same elements");
  }
  return out;
}

}  // namespace gemmlab::lab
