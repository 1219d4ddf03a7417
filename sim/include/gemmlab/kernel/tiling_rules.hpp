#pragma once
// Rules that several rungs' validate() share, each with the sentence it gives (host only). A rung's own rules stay
// in its header; these are the ones its tiling has in common with others.
#include <string>
#include <string_view>

#include "gemmlab/kernel/config.hpp"
#include "gemmlab/result.hpp"

namespace gemmlab::kernel {

// Each thread takes tm whole rows of the block's C tile.
inline Status whole_thread_rows(const KernelConfig& c) {
  if (c.bm % c.tm != 0)
    return Error{"bm=" + std::to_string(c.bm) + " is not a multiple of tm=" + std::to_string(c.tm) +
                 ": each thread takes tm whole rows"};
  return Ok{};
}

// ... and tn whole columns.
inline Status whole_thread_columns(const KernelConfig& c) {
  if (c.bn % c.tn != 0)
    return Error{"bn=" + std::to_string(c.bn) + " is not a multiple of tn=" + std::to_string(c.tn) +
                 ": each thread takes tn whole columns"};
  return Ok{};
}

// Padding of `unit` elements (4 floats, 8 halves: 16 bytes) keeps every shared row 16-byte aligned for `accesses`.
inline Status padding_keeps_rows_aligned(const KernelConfig& c, int unit, std::string_view elements,
                                         std::string_view accesses) {
  if (c.a_pad % unit != 0 || c.b_pad % unit != 0)
    return Error{"a_pad=" + std::to_string(c.a_pad) + " and b_pad=" + std::to_string(c.b_pad) + " must be multiples of " +
                 std::to_string(unit) + " " + std::string(elements) + ", so every shared row stays 16-byte aligned for " +
                 std::string(accesses)};
  return Ok{};
}

// Every thread issues the same number of 16-byte copies of each tile.
inline Status copies_share_evenly(int threads, int a_chunks, int b_chunks) {
  if (a_chunks % threads != 0 || b_chunks % threads != 0)
    return Error{"the " + std::to_string(threads) + " threads must share the tile copies evenly, but the A tile has " +
                 std::to_string(a_chunks) + " and the B tile " + std::to_string(b_chunks) +
                 " 16-byte chunks: change bk (or the tile sizes) so both are multiples of " + std::to_string(threads)};
  return Ok{};
}

// Rows of 16-bit A (k elements) and B (n elements) that start a multiple of 16 bytes apart: n and k multiples of 8.
// `why` ends the sentence: what needs it.
inline Status sixteen_byte_rows(int n, int k, std::string_view why) {
  if (n % 8 != 0 || k % 8 != 0)
    return Error{"n=" + std::to_string(n) + " and k=" + std::to_string(k) + " must be multiples of 8" + std::string(why)};
  return Ok{};
}

}  // namespace gemmlab::kernel
