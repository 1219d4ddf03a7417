// Rungs 12 to 15 (kernel/rungs/mma_sync.hpp) and 16's sizes: the ldmatrix bank conflicts the layouts promise, the
// tensor-core work, the copies of rows that are not 16-byte aligned, exact GEMMs on FP16 and BF16 inputs at any size,
// and the sentences validate() gives.
#include <gtest/gtest.h>

#include <random>

#include "gemmlab/kernel/layout.hpp"
#include "gemmlab/kernel/mma_atom.hpp"
#include "gemmlab/kernel/rungs/mma_staged_epilogue.hpp"
#include "gemmlab/sim/rounding.hpp"
#include "gemmlab/sim/rung_model.hpp"
#include "rung_test_support.hpp"

namespace gemmlab::sim {
namespace {

using kernel::KernelConfig;
using test_support::multiply_phase;
using test_support::record;
using test_support::warp_ops;


TEST(MmaSyncRung, RowMajorTilesGiveLdmatrixAnEightWayConflict) {
  // A rows of 64 halves (128 bytes), B rows of 128 halves: the 8 rows of each 8 x 8 matrix share one bank group.
  const auto phase = multiply_phase(RungId::MmaRowMajor, rung_model(RungId::MmaRowMajor).defaults);
  const auto ldsm = warp_ops(phase, 0, "ldsm.x4");
  EXPECT_EQ(ldsm.instructions, 4 * (4 + 4));       // 4 k16 slices of 4 A and 4 B ldmatrix.x4
  EXPECT_EQ(ldsm.ideal_wavefronts, 4 * ldsm.instructions);
  EXPECT_EQ(ldsm.wavefronts, 8 * ldsm.ideal_wavefronts);  // 8 wavefronts per matrix
}

TEST(MmaSyncRung, PaddingAndSwizzlingMakeLdmatrixAndTheCopiesConflictFree) {
  for (const RungId rung : {RungId::MmaPadded, RungId::MmaSwizzled, RungId::MmaMultistage}) {
    SCOPED_TRACE(rung_info(rung).slug);
    const auto phase = multiply_phase(rung, rung_model(rung).defaults);
    const auto ldsm = warp_ops(phase, 0, "ldsm.x4");
    EXPECT_GT(ldsm.instructions, 0);
    EXPECT_EQ(ldsm.wavefronts, ldsm.ideal_wavefronts);
    const auto copies = warp_ops(phase, 0, "cp.async.16");
    EXPECT_GT(copies.instructions, 0);
    EXPECT_EQ(copies.wavefronts, copies.ideal_wavefronts);
  }
}

TEST(MmaSyncRung, EachWarpIssuesOneMmaPerAtomAndSlice) {
  const KernelConfig c = rung_model(RungId::MmaSwizzled).defaults;
  const auto phase = multiply_phase(RungId::MmaSwizzled, c);
  const std::int64_t warps = (c.bm / c.wm) * (c.bn / c.wn);
  EXPECT_EQ(phase.counters.mma, warps * (c.wm / 16) * (c.wn / 8) * (c.bk / 16));
  EXPECT_EQ(phase.counters.fma, 0);
  const auto kernel = simulate_kernel(RungId::MmaSwizzled, c, {4096, 4096, 4096});
  ASSERT_TRUE(kernel) << kernel.error().message;
  EXPECT_EQ(kernel->total.mma * kMmaMultiplyAdds, std::int64_t{4096} * 4096 * 4096);
}

TEST(MmaSyncRung, GlobalAddressesAreTwoBytesPerElementOfAAndB) {
  const KernelConfig c = rung_model(RungId::MmaSwizzled).defaults;
  const auto phase = record(RungId::MmaSwizzled, c, {512, 512, 512}, {0, 0}, test_support::prologue(0));
  const auto copies = warp_ops(phase, 0, "cp.async.16");
  // Tile 0 of A (128 x 64 halves) and of B (64 x 128): 16 KiB each, copied by 128 threads in 16-byte chunks; a
  // warp's 32 lanes take 512 consecutive bytes of 4 rows of A (128 bytes each) or 2 rows of B: 16 sectors each.
  EXPECT_EQ(copies.instructions, 16);
  EXPECT_EQ(copies.sectors, 16 * 16);
}

TEST(MmaSyncRung, ComputesTheExactGemmOnFp16AndBf16Inputs) {
  // Small integers are exact in both 16-bit types; odd m, partial tiles in n and k.
  std::mt19937 rng(11);
  const Problem p{37, 136, 72, 2.0f, -1.0f};
  for (const kernel::InputType input : {kernel::InputType::F16, kernel::InputType::BF16}) {
    const auto a = test_support::random_integers(std::size_t(p.m) * p.k, rng);
    const auto b = test_support::random_integers(std::size_t(p.k) * p.n, rng);
    const auto c = test_support::random_integers(std::size_t(p.m) * p.n, rng);
    const auto got = execute(RungId::MmaMultistage, rung_model(RungId::MmaMultistage).defaults, p, a, b, c, input);
    ASSERT_TRUE(got) << got.error().message;
    EXPECT_EQ(*got, test_support::reference_gemm(p, a, b, c)) << kernel::input_name(input);
  }
  for (const int stages : {2, 4}) {
    KernelConfig c = rung_model(RungId::MmaSwizzled).defaults;
    c.stages = stages;
    test_support::expect_exact_gemm(RungId::MmaSwizzled, c, {{200, 264, 200}}, "stages=" + std::to_string(stages));
  }
}

TEST(MmaSyncRung, RowsThatAreNot16ByteAlignedAreCopiedElementByElement) {
  // k odd: A's rows start on any even byte, so its tiles take the ld.global.b16 path; n is a multiple of 8 and B keeps
  // cp.async.16. The prologue copies tiles 0 and 1 (3 stages).
  const KernelConfig c = rung_model(RungId::MmaMultistage).defaults;
  const auto phase = record(RungId::MmaMultistage, c, {512, 512, 511}, {0, 0}, test_support::prologue(0));
  const int threads = 32 * (c.bm / c.wm) * (c.bn / c.wn);
  const int a_chunks = c.bm * c.bk / 8 / threads, b_chunks = c.bk * c.bn / 8 / threads;  // per thread and tile
  const auto loads = warp_ops(phase, 0, "ldg.16");
  EXPECT_EQ(loads.instructions, 2 * a_chunks * 8);  // one per element
  // Lanes 8 apart in elements, 8 lanes per row of A: 128 bytes of each of 4 rows, 4 or 5 sectors each.
  EXPECT_GE(loads.max_sectors, 16);
  EXPECT_LE(loads.max_sectors, 20);
  const auto stores = warp_ops(phase, 0, "sts.128");
  EXPECT_EQ(stores.instructions, 2 * a_chunks);  // one per chunk
  EXPECT_EQ(stores.wavefronts, stores.ideal_wavefronts);  // swizzled 16-byte stores, as the copies': no conflict
  EXPECT_EQ(warp_ops(phase, 0, "cp.async.16").instructions, 2 * b_chunks);
  // n odd as well: B too.
  const auto both = record(RungId::MmaMultistage, c, {512, 511, 511}, {0, 0}, test_support::prologue(0));
  EXPECT_EQ(warp_ops(both, 0, "cp.async.16").instructions, 0);
  EXPECT_EQ(warp_ops(both, 0, "ldg.16").instructions, 2 * (a_chunks + b_chunks) * 8);
}

TEST(MmaSyncRung, TheBestTwoComputeTheExactGemmAtAnySize) {
  // Odd everywhere; n odd only (C's pairs stored one float at a time); k odd only; n % 8 == 4 (rung 16's 128-bit
  // stores of C still aligned, the copies not); a single element.
  const std::vector<Problem> sizes{{67, 45, 33}, {37, 129, 72}, {37, 136, 35}, {33, 260, 36}, {1, 1, 1}};
  for (const RungId rung : {RungId::MmaMultistage, RungId::MmaStagedEpilogue})
    test_support::expect_exact_gemm(rung, rung_model(rung).defaults, sizes, std::string(rung_info(rung).slug));
}

TEST(MmaSyncRung, TheInputsAreRoundedToTheInputType) {
  // 1 + 2^-9 is exact in FP16 (10 mantissa bits) and rounds to 1 in BF16 (7 bits): a 1 x 8 x 8 product shows which.
  const Problem p{1, 8, 8, 1.0f, 0.0f};
  const std::vector<float> a(8, 1.0f + 0x1p-9f), b(64, 1.0f);
  const std::vector<float> c(8, 0.0f);
  const auto f16 = execute(RungId::MmaSwizzled, rung_model(RungId::MmaSwizzled).defaults, p, a, b, c,
                           kernel::InputType::F16);
  const auto bf16 = execute(RungId::MmaSwizzled, rung_model(RungId::MmaSwizzled).defaults, p, a, b, c,
                            kernel::InputType::BF16);
  ASSERT_TRUE(f16 && bf16);
  EXPECT_EQ((*f16)[0], 8.0f + 8 * 0x1p-9f);
  EXPECT_EQ((*bf16)[0], 8.0f);
  const auto fp32 = execute(RungId::MmaSwizzled, rung_model(RungId::MmaSwizzled).defaults, p, a, b, c,
                            kernel::InputType::F32);
  ASSERT_FALSE(fp32);
  EXPECT_NE(fp32.error().message.find("takes fp16/bf16 inputs, not fp32"), std::string::npos) << fp32.error().message;
}

TEST(MmaSyncRung, Fp16AccumulatorsComputeTheExactGemmOnSmallIntegers) {
  // Sums of small integer products stay below 2048, where every integer is an FP16 value: exact in FP16 too.
  KernelConfig c = rung_model(RungId::MmaStagedEpilogue).defaults;
  c.acc = 16;
  EXPECT_EQ(input_types(RungId::MmaStagedEpilogue, c), std::vector<kernel::InputType>{kernel::InputType::F16});
  test_support::expect_exact_gemm(RungId::MmaStagedEpilogue, c, {{67, 45, 33}, {37, 136, 72}, {1, 1, 1}}, "acc=16");
  c.wn = 128;  // a warp tile twice as wide
  test_support::expect_exact_gemm(RungId::MmaStagedEpilogue, c, {{130, 260, 40}}, "acc=16 wn=128");
}

TEST(MmaSyncRung, Fp16AccumulatorsAreRoundedAfterEachMma) {
  // k = 32, two mma: the first sums to 2048, the second adds 1. 2049 is not an FP16 value (its ulp there is 2), so
  // FP16 accumulators hold 2048 (ties to even); FP32 accumulators hold 2049.
  const Problem p{1, 8, 32, 1.0f, 0.0f};
  const std::vector<float> a(32, 1.0f), c(8, 0.0f);
  std::vector<float> b(32 * 8, 0.0f);
  for (int col = 0; col < 8; ++col) b[0 * 8 + col] = 2048.0f, b[16 * 8 + col] = 1.0f;
  KernelConfig fp32 = rung_model(RungId::MmaStagedEpilogue).defaults, fp16 = fp32;
  fp16.acc = 16;
  const auto wide = execute(RungId::MmaStagedEpilogue, fp32, p, a, b, c, kernel::InputType::F16);
  const auto narrow = execute(RungId::MmaStagedEpilogue, fp16, p, a, b, c, kernel::InputType::F16);
  ASSERT_TRUE(wide && narrow);
  EXPECT_EQ((*wide)[0], 2049.0f);
  EXPECT_EQ((*narrow)[0], 2048.0f);
}

TEST(MmaSyncRung, Fp16AccumulatorsTakeFp16InputsAndHalfTheRegisters) {
  KernelConfig c = rung_model(RungId::MmaStagedEpilogue).defaults;
  c.acc = 16;
  const Problem p{16, 16, 16};
  const std::vector<float> a(256, 1.0f), b(256, 1.0f), zero(256, 0.0f);
  const auto bf16 = execute(RungId::MmaStagedEpilogue, c, p, a, b, zero, kernel::InputType::BF16);
  ASSERT_FALSE(bf16);
  EXPECT_NE(bf16.error().message.find("acc=16 accumulates in FP16"), std::string::npos) << bf16.error().message;
  EXPECT_FALSE(validate_input(RungId::MmaStagedEpilogue, c, kernel::InputType::BF16));
  c.acc = 24;
  EXPECT_NE(test_support::validate_message(RungId::MmaStagedEpilogue, c, {64, 64, 64}).find("acc=24"),
            std::string::npos);
  // A 64 x 64 warp tile: 32 atoms of 4 floats, or of 2 registers of halves.
  KernelConfig wide = rung_model(RungId::MmaStagedEpilogue).defaults, narrow = wide;
  narrow.acc = 16;
  EXPECT_EQ(kernel::rungs::MmaStagedEpilogue::live_registers(wide) -
                kernel::rungs::MmaStagedEpilogue::live_registers(narrow),
            32 * 2);
}

TEST(MmaSyncRung, ValidateSaysWhatToChange) {
  const KernelConfig d = rung_model(RungId::MmaSwizzled).defaults;
  const auto message = test_support::validate_message;
  EXPECT_NE(message(RungId::MmaSwizzled, d, {64, 100, 64}).find("multiples of 8"), std::string::npos);
  EXPECT_EQ(message(RungId::MmaMultistage, rung_model(RungId::MmaMultistage).defaults, {64, 100, 63}), "ok");
  KernelConfig padded_and_swizzled = d;
  padded_and_swizzled.a_pad = 8;
  EXPECT_NE(message(RungId::MmaSwizzled, padded_and_swizzled, {64, 64, 64}).find("swizzle=1 replaces padding"),
            std::string::npos);
  KernelConfig misaligned = rung_model(RungId::MmaRowMajor).defaults;
  misaligned.a_pad = 4;
  EXPECT_NE(message(RungId::MmaRowMajor, misaligned, {64, 64, 64}).find("multiples of 8 halves"), std::string::npos);
  KernelConfig odd_warp = d;
  odd_warp.wm = 24;
  EXPECT_NE(message(RungId::MmaSwizzled, odd_warp, {64, 64, 64}).find("16 x 16 blocks"), std::string::npos);
  KernelConfig narrow = d;
  narrow.bk = 32;
  EXPECT_NE(message(RungId::MmaSwizzled, narrow, {64, 64, 64}).find("multiples of 64"), std::string::npos);
  KernelConfig one_stage = d;
  one_stage.stages = 1;
  EXPECT_NE(message(RungId::MmaSwizzled, one_stage, {64, 64, 64}).find("stages=1"), std::string::npos);
  EXPECT_EQ(message(RungId::MmaSwizzled, d, {37, 136, 72}), "ok");
}

TEST(MmaAtom, LdmatrixX4OverA16x16BlockDeliversTheAFragment) {
  // Lane L gives row ldsm_row(L) at column ldsm_col(L); matrix i (lanes 8i..8i+7) lands in register i, lane l getting
  // row l / 4 and columns 2 (l % 4), +1 of its matrix. Those must be the atom's A elements of register i.
  using Atom = kernel::MmaM16N8K16;
  for (int l = 0; l < 32; ++l)
    for (int reg = 0; reg < 4; ++reg)
      for (int half = 0; half < 2; ++half) {
        const int supplier = 8 * reg + l / 4;  // the lane whose row address lane l reads in matrix `reg`
        const int row = Atom::ldsm_row(supplier), col = Atom::ldsm_col(supplier) + 2 * (l % 4) + half;
        EXPECT_EQ(row, Atom::a_row(l, 2 * reg + half));
        EXPECT_EQ(col, Atom::a_col(l, 2 * reg + half));
      }
}

TEST(MmaAtom, LdmatrixX4TransOverARowMajorBBlockDeliversTwoBFragments) {
  // .trans: lane l gets, of matrix i, column l / 4 at rows 2 (l % 4) and +1 - from the rows lanes 8i + 2 (l % 4) and
  // +1 supplied. Matrices 0, 1 are b0, b1 of the n8 tile at column 0; matrices 2, 3 those of the tile at column 8.
  using Atom = kernel::MmaM16N8K16;
  for (int l = 0; l < 32; ++l)
    for (int reg = 0; reg < 4; ++reg)
      for (int half = 0; half < 2; ++half) {
        const int supplier = 8 * reg + 2 * (l % 4) + half;
        const int k = Atom::ldsm_row(supplier), n = Atom::ldsm_col(supplier) + l / 4;
        const int tile = reg / 2, value = 2 * (reg % 2) + half;
        EXPECT_EQ(k, Atom::b_row(l, value));
        EXPECT_EQ(n, 8 * tile + Atom::b_col(l, value));
      }
}

TEST(HalfTileLayout, SwizzleKeepsEightRowsInEightBankGroupsAndTheFootprint) {
  const kernel::HalfTile plain{64}, swizzled{64, 0, true}, padded{64, 8};
  EXPECT_EQ(swizzled.size_bytes(128), plain.size_bytes(128));
  EXPECT_EQ(padded.size_bytes(128), 128 * 144);
  for (int chunk = 0; chunk < 8; ++chunk) {
    int groups_swizzled = 0, groups_padded = 0, groups_plain = 0;
    for (int r = 0; r < 8; ++r) {
      groups_swizzled |= 1 << (swizzled(r, 8 * chunk) / 16 % 8);
      groups_padded |= 1 << (padded(r, 8 * chunk) / 16 % 8);
      groups_plain |= 1 << (plain(r, 8 * chunk) / 16 % 8);
    }
    EXPECT_EQ(groups_swizzled, 0xff);
    EXPECT_EQ(groups_padded, 0xff);
    EXPECT_EQ(__builtin_popcount(static_cast<unsigned>(groups_plain)), 1);  // all 8 rows in one group
  }
  // A row's 8 chunks stay a permutation of the row's 128 bytes.
  for (int r = 0; r < 8; ++r) {
    int chunks = 0;
    for (int chunk = 0; chunk < 8; ++chunk) chunks |= 1 << ((swizzled(r, 8 * chunk) - r * 128) / 16);
    EXPECT_EQ(chunks, 0xff);
  }
}

TEST(Rounding, Fp16AndBf16RoundToNearestEven) {
  using kernel::InputType;
  EXPECT_EQ(to_bits(InputType::F16, 1.0f), 0x3c00);
  EXPECT_EQ(to_bits(InputType::F16, -2.0f), 0xc000);
  EXPECT_EQ(to_bits(InputType::F16, 65504.0f), 0x7bff);
  EXPECT_EQ(to_bits(InputType::F16, 1e6f), 0x7c00);            // overflow: infinity
  EXPECT_EQ(to_bits(InputType::F16, 0x1p-24f), 0x0001);        // the smallest subnormal
  EXPECT_EQ(to_bits(InputType::F16, 1.0f + 0x1p-11f), 0x3c00);  // a tie goes to the even mantissa
  EXPECT_EQ(to_bits(InputType::F16, 1.0f + 3 * 0x1p-11f), 0x3c02);
  EXPECT_EQ(to_bits(InputType::BF16, 1.0f), 0x3f80);
  EXPECT_EQ(to_bits(InputType::BF16, 1.0f + 0x1p-8f), 0x3f80);  // tie to even
  EXPECT_EQ(to_bits(InputType::BF16, 1.0f + 3 * 0x1p-8f), 0x3f82);
  for (const float v : {0.5f, -3.25f, 1000.0f, 0x1p-20f})
    for (const InputType t : {InputType::F16, InputType::BF16}) EXPECT_EQ(round_input(t, v), v);
  EXPECT_EQ(round_input(InputType::F32, 1.0f + 0x1p-20f), 1.0f + 0x1p-20f);
}

}  // namespace
}  // namespace gemmlab::sim
