#pragma once
// The same tile written the ways other tools write it: CuTe C++ that compiles, TMA's swizzle mode, and Triton's
// swizzled shared layout (vec, perPhase, maxPhase): element (r, c) of a row-major tile of C columns at
//     r x C + (((c / vec) ^ ((r / perPhase) % maxPhase)) x vec) + c % vec.
#include <cstdint>
#include <optional>
#include <string>

#include "gemmlab/lab/tile.hpp"
#include "gemmlab/result.hpp"

namespace gemmlab::lab {

struct TritonShared {
  int vec = 1, per_phase = 1, max_phase = 1;
  std::string to_string() const;  // "vec=8, perPhase=1, maxPhase=8"
};

struct Expressions {
  std::string cute;                    // composition(Swizzle<3,3,3>{}, Layout<...>{})
  std::string printed;                 // Sw<3,3,3> o (64,64):(64,1)
  std::optional<int> tma_mode;         // bytes (0: none) when TMA can write this tile
  std::string tma_why_not;             // otherwise, why
  std::optional<TritonShared> triton;  // when Triton's swizzled layout is this tile
  std::string triton_why_not;
};

// The Swizzle that is Triton's layout on a row-major tile of `columns` elements (a power of two), or why none is.
Result<Swizzle> triton_as_cute(const TritonShared& t, std::int64_t columns);

// Each form is checked element by element against the tile before it is given.
Expressions expressions_of(const Tile& tile);

// Why a swizzle's numbers are what they are, in words: "B=3: 8 units permuted ...".
std::string explain_swizzle(const Swizzle& s, int element_bytes);

}  // namespace gemmlab::lab
