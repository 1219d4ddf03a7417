// Rung 11 (kernel/rungs/wmma.hpp, kernel/wmma.hpp): what the simulator makes of the WMMA API - the ldmatrix and
// mma.sync nvcc compiles it into, so the same counters as rung 12's hand-written main loop - exact GEMMs through the
// API's fragments, and the sentences validate() gives.
#include <gtest/gtest.h>

#include <random>

#include "gemmlab/kernel/wmma.hpp"
#include "gemmlab/sim/rung_model.hpp"
#include "rung_test_support.hpp"

namespace gemmlab::sim {
namespace {

using kernel::KernelConfig;
using test_support::multiply_phase;
using test_support::record;
using test_support::warp_ops;


TEST(WmmaRung, LoadsAndMmaAreRung12sInstructions) {
  // The same tiles, layouts and pipeline as mma-rowmajor: one ldmatrix.x4 per 16 x 16 fragment of A or B (8-way
  // conflicts on 128-byte rows), two mma.m16n8k16 per 16 x 16 x 16 product.
  const KernelConfig c = rung_model(RungId::Wmma).defaults;
  const auto wmma = multiply_phase(RungId::Wmma, c);
  const auto hand = multiply_phase(RungId::MmaRowMajor, rung_model(RungId::MmaRowMajor).defaults);
  const auto ldsm = warp_ops(wmma, 0, "ldsm.x4");
  EXPECT_EQ(ldsm.instructions, (c.bk / 16) * (c.wm / 16 + c.wn / 16));
  EXPECT_EQ(ldsm.wavefronts, 8 * ldsm.ideal_wavefronts);
  EXPECT_EQ(wmma.counters.mma, hand.counters.mma);
  const auto hand_ldsm = warp_ops(hand, 0, "ldsm.x4");
  EXPECT_EQ(ldsm.wavefronts, hand_ldsm.wavefronts);
  EXPECT_EQ(ldsm.instructions, hand_ldsm.instructions);
}

TEST(WmmaRung, PaddingIsTheCureTheApiAllows) {
  KernelConfig padded = rung_model(RungId::Wmma).defaults;
  padded.a_pad = padded.b_pad = 8;
  const auto ldsm = warp_ops(multiply_phase(RungId::Wmma, padded), 0, "ldsm.x4");
  EXPECT_GT(ldsm.instructions, 0);
  EXPECT_EQ(ldsm.wavefronts, ldsm.ideal_wavefronts);
}

TEST(WmmaRung, StoreMatrixSyncWritesFourPairsPerLaneAndBlock) {
  // 16 x 16 floats per fragment, 8 per lane: four 64-bit stores, each covering 8 rows x 32 bytes (8 sectors).
  const KernelConfig c = rung_model(RungId::Wmma).defaults;
  const auto phase = record(RungId::Wmma, c, {512, 512, 512}, {0, 0}, test_support::epilogue(0));
  const auto stores = warp_ops(phase, 0, "stg.64");
  EXPECT_EQ(stores.instructions, 4 * (c.wm / 16) * (c.wn / 16));
  EXPECT_EQ(stores.sectors, 8 * stores.instructions);
}

TEST(WmmaRung, ComputesTheExactGemmThroughTheFragments) {
  // Partial block tiles in m and n (multiples of 16), a partial k-step, beta 0 and -1; FP16 and BF16.
  test_support::expect_exact_gemm(RungId::Wmma, rung_model(RungId::Wmma).defaults, {{80, 176, 72}, {16, 16, 8}},
                                  "wmma");
  std::mt19937 rng(16);
  const Problem p{48, 32, 40, 1.0f, 0.5f};
  const auto a = test_support::random_integers(std::size_t(p.m) * p.k, rng);
  const auto b = test_support::random_integers(std::size_t(p.k) * p.n, rng);
  const auto c = test_support::random_integers(std::size_t(p.m) * p.n, rng);
  const auto got = execute(RungId::Wmma, rung_model(RungId::Wmma).defaults, p, a, b, c, kernel::InputType::BF16);
  ASSERT_TRUE(got) << got.error().message;
  EXPECT_EQ(*got, test_support::reference_gemm(p, a, b, c));
}

TEST(WmmaRung, ValidateSaysWhatTheApiCannotDo) {
  const KernelConfig d = rung_model(RungId::Wmma).defaults;
  const auto message = [](const KernelConfig& c, const Problem& p) {
    return test_support::validate_message(RungId::Wmma, c, p);
  };
  EXPECT_NE(message(d, {40, 64, 64}).find("multiples of 16"), std::string::npos);
  EXPECT_NE(message(d, {64, 40, 64}).find("store_matrix_sync"), std::string::npos);
  EXPECT_NE(message(d, {64, 64, 36}).find("multiples of 8"), std::string::npos);
  KernelConfig swizzled = d;
  swizzled.swizzle = 1;
  EXPECT_NE(message(swizzled, {64, 64, 64}).find("pointer and a row stride"), std::string::npos);
  KernelConfig misaligned = d;
  misaligned.a_pad = 4;
  EXPECT_NE(message(misaligned, {64, 64, 64}).find("multiples of 8 halves"), std::string::npos);
  EXPECT_EQ(message(d, {80, 176, 72}), "ok");
}

}  // namespace
}  // namespace gemmlab::sim
