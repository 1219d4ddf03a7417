#pragma once
// What the per-rung tests share: one phase of one block summed per warp and instruction class, and the exact-GEMM
// check at sizes a test chooses.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "../reference_gemm.hpp"
#include "gemmlab/sim/counters.hpp"
#include "gemmlab/sim/rung_model.hpp"
#include "gemmlab/sim/simulate.hpp"

namespace gemmlab::sim::test_support {

// One phase of one block. A phase that cannot be recorded fails the test and gives an empty stream.
inline PhaseStream record(RungId rung, const kernel::KernelConfig& config, const Problem& problem,
                          kernel::TileCoord tile, PhaseRef phase) {
  auto stream = phase_stream(rung, config, problem, tile, phase);
  EXPECT_TRUE(stream) << (stream ? std::string() : stream.error().message);
  return stream ? std::move(*stream) : PhaseStream{};
}

inline PhaseRef prologue(int phase) { return {kernel::Section::Prologue, 0, phase}; }
inline PhaseRef mainloop(int kstep, int phase) { return {kernel::Section::Mainloop, kstep, phase}; }
inline PhaseRef epilogue(int phase) { return {kernel::Section::Epilogue, 0, phase}; }

// k-step 0's multiply phase (phase 1 of rungs 8 and 11 to 16) of block (0, 0) at 512^3: every instruction of a
// k-step, no edge.
inline PhaseStream multiply_phase(RungId rung, const kernel::KernelConfig& config) {
  return record(rung, config, {512, 512, 512}, {0, 0}, mainloop(0, 1));
}

// The instructions of one class ("lds.128", "cp.async.4", ...) that one warp issues in a phase, costs summed.
struct WarpOps {
  std::int64_t instructions = 0, wavefronts = 0, ideal_wavefronts = 0, requests = 0, sectors = 0, lines = 0;
  std::int64_t max_sectors = 0;  // of a single instruction
  std::int64_t bank_conflicts() const { return wavefronts - ideal_wavefronts; }
};

inline WarpOps warp_ops(const PhaseStream& stream, int warp, std::string_view op) {
  WarpOps out;
  for (const auto& w : stream.instructions) {
    if (w.warp != warp || op_class_name(op_class(w.access)) != op) continue;
    ++out.instructions;
    out.wavefronts += w.shared.wavefronts;
    out.ideal_wavefronts += w.shared.ideal_wavefronts;
    out.requests += w.global.requests;
    out.sectors += w.global.sectors;
    out.lines += w.global.lines;
    out.max_sectors = std::max<std::int64_t>(out.max_sectors, w.global.sectors);
  }
  return out;
}

// All instructions of one warp in a phase, whatever their class.
inline std::int64_t warp_instructions(const PhaseStream& stream, int warp) {
  std::int64_t n = 0;
  for (const auto& w : stream.instructions) n += w.warp == warp;
  return n;
}

// Runs the rung on the CPU at each size, with beta = 0 (C poisoned with NaN: an element never written stays NaN)
// and beta = -1, and expects exactly the reference C (integer inputs make every order of summation exact).
inline void expect_exact_gemm(RungId rung, const kernel::KernelConfig& config, const std::vector<Problem>& sizes,
                              const std::string& what) {
  std::mt19937 rng(20261122);
  for (Problem p : sizes)
    for (const float beta : {0.0f, -1.0f}) {
      p.alpha = 2.0f;
      p.beta = beta;
      const auto a = random_integers(std::size_t(p.m) * p.k, rng);
      const auto b = random_integers(std::size_t(p.k) * p.n, rng);
      const auto c = beta != 0.0f ? random_integers(std::size_t(p.m) * p.n, rng)
                                  : std::vector<float>(std::size_t(p.m) * p.n, std::numeric_limits<float>::quiet_NaN());
      const auto expected = reference_gemm(p, a, b, c);
      const auto got = execute(rung, config, p, a, b, c);
      const std::string where = what + " " + std::to_string(p.m) + "x" + std::to_string(p.n) + "x" +
                                std::to_string(p.k) + " beta=" + std::to_string(beta);
      ASSERT_TRUE(got) << where << ": " << got.error().message;
      std::size_t wrong = 0;
      for (std::size_t i = 0; i < expected.size(); ++i) wrong += (*got)[i] != expected[i];
      EXPECT_EQ(wrong, 0u) << where;
    }
}

// The exact GEMM for each configuration `base` with the knobs of one text ("grid=4 bm=128 ...") changed.
inline void expect_exact_gemms(RungId rung, const kernel::KernelConfig& base, const std::vector<std::string>& knob_texts,
                               const std::vector<Problem>& sizes) {
  for (const std::string& text : knob_texts) {
    const auto config = apply_knob_text(rung, base, text);
    ASSERT_TRUE(config) << text << ": " << config.error().message;
    expect_exact_gemm(rung, *config, sizes, text);
  }
}

// Two rungs' counts of the same GEMM: the same TMA copies and their sectors, the same wgmma and the same stored sectors
// of C (a later rung that adds a technique moves none of them).
inline void expect_same_copies_wgmma_and_stores(RungId rung, const kernel::KernelConfig& config, RungId other,
                                                const kernel::KernelConfig& other_config, const Problem& problem) {
  const auto mine = simulate_kernel(rung, config, problem);
  const auto theirs = simulate_kernel(other, other_config, problem);
  ASSERT_TRUE(mine && theirs);
  EXPECT_EQ(mine->total.tma_copies, theirs->total.tma_copies);
  EXPECT_EQ(mine->total.tma_sectors, theirs->total.tma_sectors);
  EXPECT_EQ(mine->total.wgmma, theirs->total.wgmma);
  EXPECT_EQ(mine->total.global_stores().sectors, theirs->total.global_stores().sectors);
}

// validate()'s sentence for a configuration and size, or "ok".
inline std::string validate_message(RungId rung, const kernel::KernelConfig& config, const Problem& problem) {
  const auto valid = validate(rung, config, problem);
  return valid ? std::string("ok") : valid.error().message;
}

}  // namespace gemmlab::sim::test_support
