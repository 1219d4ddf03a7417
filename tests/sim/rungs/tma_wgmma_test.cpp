// Rung 17 (kernel/rungs/tma_wgmma.hpp, kernel/wgmma.hpp): the shared image TMA writes is the one wgmma's descriptors
// read, exact GEMMs through TMA boxes, mbarriers and wgmma on FP16 and BF16, what the simulator counts per k-step,
// and the sentences validate() gives.
#include <gtest/gtest.h>

#include <random>

#include "gemmlab/kernel/layout.hpp"
#include "gemmlab/kernel/rungs/tma_wgmma.hpp"
#include "gemmlab/kernel/wgmma.hpp"
#include "gemmlab/sim/rung_model.hpp"
#include "rung_test_support.hpp"

namespace gemmlab::sim {
namespace {

using kernel::KernelConfig;
using kernel::Major;
using kernel::TmaBox;
using kernel::WgmmaOperand;

// A box of `mode`-byte rows, as the rung's a_box and b_box make them (only its row width and mode matter here).
TmaBox box_of_mode(int mode) {
  TmaBox box{};
  box.cols = mode / 2, box.swizzle_bytes = mode;
  return box;
}

TEST(TmaWgmma, The128ByteSwizzleIsRung14sXorLayout) {
  // TMA's image of a box with 64-element rows is HalfTile's swizzled layout of 64-half rows: chunk c of row r at c ^ r.
  const kernel::HalfTile swizzled{64, 0, true};
  const TmaBox box = box_of_mode(128);
  for (int r = 0; r < 24; ++r)
    for (int c = 0; c < 64; ++c) EXPECT_EQ(box.shared_offset(r, c), swizzled(r, c)) << r << ", " << c;
}

TEST(TmaWgmma, DescriptorsReadWhereTheCopiesWrote) {
  // In each swizzle mode (rows of R bytes, R / 2 elements): A, rows of a bm x R/2 box, the k16 slice j starting 32
  // bytes further along a row, or in the next box; B, panels of R/2 columns and bk rows, the k16 slice j starting 16
  // rows down. Every element the wgmma reads is the element TMA put there.
  for (const int mode : {128, 64, 32}) {
    const TmaBox box = box_of_mode(mode);
    const int bm = 128, bk = 64, columns = mode / 2, a_box = bm * mode, panel = bk * mode;
    for (int j = 0; j < bk / 16; ++j) {
      const int k0 = 16 * j;
      const WgmmaOperand a{64 * mode + k0 / columns * a_box + 2 * (k0 % columns), 16, 8 * mode, Major::K, mode};
      for (int m = 0; m < 64; ++m)  // the second warpgroup's rows
        for (int k = 0; k < 16; ++k)
          EXPECT_EQ(a.offset(m, k), (k0 + k) / columns * a_box + box.shared_offset(64 + m, (k0 + k) % columns))
              << mode << " " << m << " " << k;
      const WgmmaOperand b{k0 * mode, panel, 8 * mode, Major::MN, mode};
      for (int k = 0; k < 16; ++k)
        for (int n = 0; n < 256; ++n)
          EXPECT_EQ(b.offset(k, n), n / columns * panel + box.shared_offset(k0 + k, n % columns)) << mode;
    }
  }
}

TEST(TmaWgmma, DescriptorFieldsAreTheIsaBits) {
  const WgmmaOperand b{2048, 8192, 1024, Major::MN};
  const std::uint64_t d = b.descriptor(0x400);
  EXPECT_EQ(d & 0x3FFF, (0x400u + 2048) >> 4);
  EXPECT_EQ(d >> 16 & 0x3FFF, 8192u >> 4);
  EXPECT_EQ(d >> 32 & 0x3FFF, 1024u >> 4);
  EXPECT_EQ(d >> 62, 1u);  // 128-byte swizzle
  EXPECT_EQ(WgmmaOperand({0, 16, 512, Major::K, 64}).descriptor(0) >> 62, 2u);
  EXPECT_EQ(WgmmaOperand({0, 16, 256, Major::K, 32}).descriptor(0) >> 62, 3u);
}

TEST(TmaWgmma, EachThreadHoldsItsPartOfD) {
  // Every element of a 64 x 256 block of D is held by exactly one (thread, register).
  using Atom = kernel::WgmmaM64K16<256>;
  std::vector<int> owners(64 * 256, 0);
  for (int t = 0; t < 128; ++t)
    for (int i = 0; i < Atom::d_values; ++i) ++owners[static_cast<std::size_t>(Atom::d_row(t, i) * 256 + Atom::d_col(t, i))];
  for (const int n : owners) EXPECT_EQ(n, 1);
}

TEST(TmaWgmma, ComputesTheExactGemm) {
  // Odd m, partial tiles in n and k (TMA's zero fill), 1 to 3 warpgroups, every N, 2 to 4 stages.
  const KernelConfig d = rung_model(RungId::TmaWgmma).defaults;
  test_support::expect_exact_gemm(RungId::TmaWgmma, d, {{67, 40, 72}, {130, 264, 200}, {1, 8, 8}}, "default");
  for (const auto& [bm, bn, bk, stages] : {std::tuple{64, 128, 64, 2}, std::tuple{192, 64, 64, 3},
                                           std::tuple{128, 256, 128, 2}}) {
    KernelConfig c = d;
    c.bm = bm, c.bn = bn, c.bk = bk, c.stages = stages;
    test_support::expect_exact_gemm(RungId::TmaWgmma, c, {{200, 136, 264}}, "bm=" + std::to_string(bm));
  }
  // TMA's narrower swizzle modes: more, narrower boxes, and descriptors of the same mode.
  for (const int mode : {32, 64}) {
    KernelConfig c = d;
    c.swizzle = mode;
    test_support::expect_exact_gemm(RungId::TmaWgmma, c, {{67, 40, 72}, {200, 136, 264}}, "swizzle=" + std::to_string(mode));
    c.bm = 64, c.bn = 128, c.bk = 128, c.stages = 2;
    test_support::expect_exact_gemm(RungId::TmaWgmma, c, {{130, 264, 200}}, "small swizzle=" + std::to_string(mode));
  }
  std::mt19937 rng(17);
  const Problem p{37, 136, 72, 2.0f, -1.0f};
  const auto a = test_support::random_integers(std::size_t(p.m) * p.k, rng);
  const auto b = test_support::random_integers(std::size_t(p.k) * p.n, rng);
  const auto c = test_support::random_integers(std::size_t(p.m) * p.n, rng);
  const auto bf16 = execute(RungId::TmaWgmma, d, p, a, b, c, kernel::InputType::BF16);
  ASSERT_TRUE(bf16) << bf16.error().message;
  EXPECT_EQ(*bf16, test_support::reference_gemm(p, a, b, c));
}

TEST(TmaWgmma, CountsCopiesAndWgmmaPerKStep) {
  // K-step 0 at 512^3: its phase 1 refills one stage (1 box of A, bn / 64 of B); its phase 0 issues bk / 16 wgmma per
  // warpgroup. No thread issues a load or store instruction in the main loop.
  const KernelConfig c = rung_model(RungId::TmaWgmma).defaults;
  const auto copy = test_support::record(RungId::TmaWgmma, c, {512, 512, 512}, {0, 0}, test_support::mainloop(0, 1));
  EXPECT_EQ(copy.counters.tma_copies, c.bk / 64 + c.bn / 64);
  EXPECT_EQ(copy.counters.tma_bytes, (c.bm + c.bn) * c.bk * 2);
  EXPECT_EQ(copy.counters.tma_sectors, (c.bm + c.bn) * c.bk * 2 / 32);
  EXPECT_TRUE(copy.instructions.empty());
  const auto multiply = test_support::multiply_phase(RungId::TmaWgmma, c);  // phase 1 of rungs 11-16 is phase 0 here
  const auto math = test_support::record(RungId::TmaWgmma, c, {512, 512, 512}, {0, 0}, test_support::mainloop(0, 0));
  EXPECT_EQ(math.counters.wgmma, c.bm / 64 * c.bk / 16);
  EXPECT_EQ(math.counters.wgmma_multiply_adds, std::int64_t{c.bm} * c.bn * c.bk);
  EXPECT_TRUE(math.instructions.empty());
  EXPECT_EQ(multiply.counters.wgmma, 0);
  const auto kernel = simulate_kernel(RungId::TmaWgmma, c, {4096, 4096, 4096});
  ASSERT_TRUE(kernel) << kernel.error().message;
  EXPECT_EQ(kernel->total.tensor_multiply_adds(), std::int64_t{22 * 192} * 4096 * 4096);  // 4096 rows: 22 tiles of 192
}

// The copy engine's floor of a cycle a row needs each box's rows (Counters::tma_boxes): a k-step's refill holds bk / R
// boxes of A, bm rows of R bytes each, and bn / (R / 2) boxes of B, bk rows each, in each swizzle mode of R bytes.
TEST(TmaWgmma, CountsItsBoxesByShape) {
  // A panelled box (rung 20's stores of C: 4 panels of 8 FP32 columns) walks each panel's rows on its own.
  kernel::TmaBox panelled{};
  panelled.rows = 128, panelled.cols = 32, panelled.panel_cols = 8;
  EXPECT_EQ(panelled.engine_rows(), 4 * 128);
  panelled.panel_cols = 0;
  EXPECT_EQ(panelled.engine_rows(), 128);
  for (const int mode : {128, 64, 32}) {
    KernelConfig c = rung_model(RungId::TmaWgmma).defaults;
    c.swizzle = mode;
    const int row = mode, cols = row / 2;
    const auto copy = test_support::record(RungId::TmaWgmma, c, {512, 512, 512}, {0, 0}, test_support::mainloop(0, 1));
    const std::vector<TmaBoxShape> expected = {{c.bm, c.bm * row, c.bk / cols}, {c.bk, c.bk * row, c.bn / cols}};
    ASSERT_EQ(copy.counters.tma_boxes.size(), expected.size()) << "swizzle=" << mode;
    for (std::size_t i = 0; i < expected.size(); ++i) {
      EXPECT_EQ(copy.counters.tma_boxes[i].rows, expected[i].rows) << "swizzle=" << mode;
      EXPECT_EQ(copy.counters.tma_boxes[i].bytes, expected[i].bytes) << "swizzle=" << mode;
      EXPECT_EQ(copy.counters.tma_boxes[i].copies, expected[i].copies) << "swizzle=" << mode;
    }
    // Counted again, scaled, each shape keeps its own entry.
    Counters twice = copy.counters;
    twice += copy.counters.scaled(2);
    ASSERT_EQ(twice.tma_boxes.size(), expected.size());
    EXPECT_EQ(twice.tma_boxes[0].copies, 3 * expected[0].copies);
  }
}

TEST(TmaWgmma, EdgeBoxesReadOnlyWhatIsInside) {
  // 128 x 104 x 64: one k-tile, so the prologue copies tile 0 only. The matrix has 128 rows where the block has room
  // for 192, so A's box is those 128 rows (128-byte rows, aligned: 4 sectors each); B's first panel is whole, its
  // second holds 40 of 64 columns, the last two lie outside n and read nothing - yet every box of B brings its full
  // size into shared memory (zeros).
  const KernelConfig c = rung_model(RungId::TmaWgmma).defaults;
  const auto copy = test_support::record(RungId::TmaWgmma, c, {128, 104, 64}, {0, 0}, test_support::prologue(1));
  EXPECT_EQ(copy.counters.tma_copies, c.bk / 64 + c.bn / 64);
  EXPECT_EQ(copy.counters.tma_bytes, (128 + c.bn) * c.bk * 2);
  std::int64_t b_sectors = 0;
  for (std::int64_t k = 0; k < 64; ++k) {
    const std::int64_t row = k * 104 * 2;
    b_sectors += (row + 127) / 32 - row / 32 + 1;              // columns 0..63
    b_sectors += (row + 207) / 32 - (row + 128) / 32 + 1;      // columns 64..103
  }
  EXPECT_EQ(copy.counters.tma_sectors, 128 * 4 + b_sectors);
}

TEST(TmaWgmma, AMatrixShorterThanTheBlockIsCopiedWithoutRowsOfZeros) {
  // Decode: 16 rows of A against a 64-row block. The box is the 16 rows (13 round up to 16), the stage's mbarrier
  // counts those bytes, and the rows of the room past them reach only accumulators that are never stored.
  KernelConfig c = rung_model(RungId::TmaWgmma).defaults;
  c.bm = 64, c.bn = 128, c.bk = 128;
  for (const int m : {16, 13}) {
    const auto copy = test_support::record(RungId::TmaWgmma, c, {m, 256, 256}, {0, 0}, test_support::prologue(1));
    ASSERT_FALSE(copy.counters.tma_boxes.empty());
    EXPECT_EQ(copy.counters.tma_boxes[0].rows, 16) << "m=" << m;
    EXPECT_EQ(copy.counters.tma_boxes[0].bytes, 16 * 128) << "m=" << m;
  }
  KernelConfig specialized = rung_model(RungId::TmaWgmmaSpecialized).defaults;
  specialized.bm = 64, specialized.bn = 128, specialized.bk = 128;
  test_support::expect_exact_gemm(RungId::TmaWgmmaSpecialized, specialized, {{16, 256, 512}, {13, 136, 264}, {1, 64, 64}},
                                  "short A");
}

TEST(TmaWgmma, ValidateSaysWhatToChange) {
  const KernelConfig d = rung_model(RungId::TmaWgmma).defaults;
  const auto message = [](const KernelConfig& c, const Problem& p) {
    return test_support::validate_message(RungId::TmaWgmma, c, p);
  };
  EXPECT_EQ(message(d, {67, 40, 72}), "ok");
  EXPECT_NE(message(d, {64, 100, 64}).find("multiples of 8"), std::string::npos);
  KernelConfig odd = d;
  odd.bm = 96;
  EXPECT_NE(message(odd, {64, 64, 64}).find("64 rows"), std::string::npos);
  KernelConfig wide = d;
  wide.bn = 192;
  EXPECT_NE(message(wide, {64, 64, 64}).find("is not one of this rung's values (64, 128, 256): the block's width, "
                                            "wgmma's N"),
            std::string::npos);
  KernelConfig deep = d;
  deep.stages = 5;
  EXPECT_FALSE(validate(RungId::TmaWgmma, deep, {64, 64, 64}));  // out of the knob's range (and of shared memory)
  KernelConfig bk = d;
  bk.bk = 32;
  EXPECT_NE(message(bk, {64, 64, 64}).find("one or two TMA boxes"), std::string::npos);
}

}  // namespace
}  // namespace gemmlab::sim

namespace gemmlab::sim {
namespace {

// The epilogue's stores inside the matrix take each thread's first register's place and add the register's own
// (TmaWgmma::store_accumulators): the accumulator layout must be that sum, for every thread and register.
TEST(TmaWgmma, AnAccumulatorsPlaceIsItsThreadsPlusItsRegisters) {
  using Atom = kernel::WgmmaM64K16<256>;
  for (int t = 0; t < 128; ++t)
    for (int i = 0; i < Atom::d_values; ++i) {
      EXPECT_EQ(Atom::d_row(t, i), Atom::d_row(t, 0) + Atom::d_row(0, i)) << t << ", " << i;
      EXPECT_EQ(Atom::d_col(t, i), Atom::d_col(t, 0) + Atom::d_col(0, i)) << t << ", " << i;
    }
}

}  // namespace
}  // namespace gemmlab::sim
