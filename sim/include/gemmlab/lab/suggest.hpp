#pragma once
// The fix: layouts of the same tile (every CuTe Swizzle<B,M,S> that is a bijection on it, TMA's modes, paddings of
// its leading stride) scored by the memory model on two accesses at once (the one that writes the tile and the one
// that reads it), the conflict-free ones first, each with its memory cost and its CuTe expression. Where none frees
// both, it says which side each candidate fails.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gemmlab/lab/access.hpp"
#include "gemmlab/lab/analysis.hpp"
#include "gemmlab/lab/tile.hpp"
#include "gemmlab/result.hpp"

namespace gemmlab::lab {

struct Candidate {
  Tile tile;
  std::string label;             // "Swizzle<3,3,3>", "TMA 128-byte swizzle (Swizzle<3,3,3>)", "pad 8 elements a row"
  std::int64_t extra_bytes = 0;  // shared memory beyond the unpadded tile
  Totals first, second;          // the two accesses
  bool conflict_free() const { return first.conflicts() == 0 && second.conflicts() == 0; }
};

struct Suggestions {
  AccessSpec first, second;  // what was scored (the second filled in when not given)
  std::string second_description;
  Totals given_first, given_second;   // the user's own tile
  std::vector<Candidate> candidates;  // conflict-free first, then by memory cost, then fewest conflicts
  int conflict_free = 0;
  std::string why_none;  // when none is conflict-free on both sides
};

// The access on the other side of the tile from `given`, as kernels usually make it: a 16-byte copy by 128 threads
// (cp.async.16) for a tile that is read, a 16-byte read (lds.128) for one that is written.
AccessSpec complementary_access(const Tile& tile, const AccessSpec& given);

// Scores every candidate layout on `first` and `second` (none: complementary_access).
Result<Suggestions> suggest(const Tile& tile, const AccessSpec& first, const std::optional<AccessSpec>& second);

}  // namespace gemmlab::lab
