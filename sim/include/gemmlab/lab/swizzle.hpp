#pragma once
// CuTe's Swizzle<B,M,S> on an offset, and TMA's swizzle modes written as one. Swizzle<B,M,S> takes the B bits of the
// offset that start at bit M+S and XORs them into the B bits that start at bit M:
//     offset ^ ((offset >> S) & (((1 << B) - 1) << M))        (S > 0; a negative S shifts left)
// So 2^M consecutive offsets stay together (a vector), and the B bits above them are permuted by the offset's bits
// 2^S positions higher (the row, when a row is 2^(M+S) elements). TMA's 32-, 64- and 128-byte modes are
// Swizzle<1,4,3>, Swizzle<2,4,3> and Swizzle<3,4,3> on BYTE offsets (16-byte units, permuted by the 128-byte row);
// on elements of 2^k bytes they are Swizzle<B,4-k,3>.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "gemmlab/result.hpp"

namespace gemmlab::lab {

struct Swizzle {
  int bits = 0;   // B: how many bits are permuted (2^B units)
  int base = 0;   // M: how many low bits stay put (2^M elements per unit)
  int shift = 0;  // S: how far above them the bits that permute them lie

  bool identity() const { return bits == 0; }
  std::int64_t yyy_mask() const { return ((std::int64_t{1} << bits) - 1) << (base + (shift > 0 ? shift : 0)); }
  std::int64_t zzz_mask() const { return ((std::int64_t{1} << bits) - 1) << (base - (shift < 0 ? shift : 0)); }
  std::int64_t operator()(std::int64_t offset) const {
    const std::int64_t y = offset & yyy_mask();
    return offset ^ (shift >= 0 ? y >> shift : y << -shift);
  }
  // The highest offset bit the swizzle reads or writes, plus one.
  int bits_used() const { return bits == 0 ? 0 : base + bits + (shift > 0 ? shift : -shift); }
  std::string to_string() const;  // "Swizzle<3,3,3>"
  bool operator==(const Swizzle&) const = default;
};

// "3,3,3", "Swizzle<3,3,3>" or CuTe's printed "Sw<3,3,3>". B at most 8, M at most 16, |S| >= B (CuTe's own rule: the
// bits read and the bits written must not overlap).
Result<Swizzle> parse_swizzle(std::string_view text);
Status check_swizzle(const Swizzle& s);

// TMA's swizzle modes (bytes of the pattern's span: 32, 64, 128; 0 is none), as the Swizzle they apply to offsets
// in elements of `element_bytes`. Errors for a mode TMA lacks or an element TMA cannot swizzle this way.
Result<Swizzle> tma_swizzle_as_cute(int mode_bytes, int element_bytes);
// The TMA mode a swizzle on elements of `element_bytes` is, if it is one of them.
std::optional<int> cute_as_tma_swizzle(const Swizzle& s, int element_bytes);

}  // namespace gemmlab::lab
