// Rung 6 (vectorized): 128-bit global loads, A transposed in shared memory, fragments read with lds.128.
// Default configuration: a 128 x 128 block tile, bk = 8, 256 threads of 8 x 8 results, no padding.
#include "gemmlab/kernel/rungs/vectorized.hpp"

#include <gtest/gtest.h>

#include "gemmlab/sim/rung_model.hpp"
#include "rung_test_support.hpp"

namespace gemmlab::sim {
namespace {

using namespace test_support;
using kernel::KernelConfig;

constexpr RungId kRung = RungId::Vectorized;
// A function, not a global: the rung models are themselves built during static initialisation.
KernelConfig default_config() { return rung_model(kRung).defaults; }
const Problem kAligned{256, 256, 256};  // k and n multiples of 32: rows of A and B start 128-byte aligned
constexpr int kWarp = 3;                // any warp of the block: all 8 do the same work

TEST(VectorizedRung, LoadPhaseCopiesEachTileWithOne128BitLoadPerThread) {
  const auto load = record(kRung, default_config(), kAligned, {0, 0}, mainloop(1, 0));
  EXPECT_TRUE(load.barrier_after);
  // The A tile is 128 x 8 floats = 256 float4s, the B tile 8 x 128 = 256: one ldg.128 of each per thread.
  // A: lanes 2j and 2j+1 read the two float4s of row j, 16 rows of 32 bytes each: 16 sectors in 16 lines.
  // B: the 32 lanes read 512 consecutive bytes of one row: 16 sectors in 4 lines.
  const WarpOps ldg = warp_ops(load, kWarp, "ldg.128");
  EXPECT_EQ(ldg.instructions, 2);
  EXPECT_EQ(ldg.requests, 2);
  EXPECT_EQ(ldg.sectors, 16 + 16);
  EXPECT_EQ(ldg.lines, 16 + 4);
  // A goes in transposed: the 4 floats of a float4 are 4 consecutive k, stored in 4 shared rows: 4 sts.32. Lanes 2j
  // and 2j+1 write column j of rows k and k + 4; rows are 128 floats, a multiple of the 32 banks, so both words land in
  // bank j % 32: 16 banks with 2 words each, 2 wavefronts per store where 1 would do.
  const WarpOps sts_a = warp_ops(load, kWarp, "sts.32");
  EXPECT_EQ(sts_a.instructions, 4);
  EXPECT_EQ(sts_a.wavefronts, 4 * 2);
  EXPECT_EQ(sts_a.bank_conflicts(), 4);
  // B keeps its shape: one sts.128 of 512 consecutive bytes, 4 wavefronts, all ideal.
  const WarpOps sts_b = warp_ops(load, kWarp, "sts.128");
  EXPECT_EQ(sts_b.instructions, 1);
  EXPECT_EQ(sts_b.wavefronts, 4);
  EXPECT_EQ(sts_b.bank_conflicts(), 0);
}

TEST(VectorizedRung, PaddingOrSwizzlingTheATileRemovesTheStoreConflicts) {
  // a_pad = 4: rows are 132 floats, so row k + 4 starts 4 * 132 = 528 floats later, 16 banks over.
  KernelConfig padded = default_config();
  padded.a_pad = 4;
  EXPECT_EQ(warp_ops(record(kRung, padded, kAligned, {0, 0}, mainloop(1, 0)), kWarp, "sts.32").bank_conflicts(), 0);
  // swizzle = 1: chunk c of row k is stored at chunk c ^ (k % 8); rows k and k + 4 differ in bit 2 of the chunk,
  // which moves the word 16 banks over.
  KernelConfig swizzled = default_config();
  swizzled.swizzle = 1;
  EXPECT_EQ(warp_ops(record(kRung, swizzled, kAligned, {0, 0}, mainloop(1, 0)), kWarp, "sts.32").bank_conflicts(), 0);
}

TEST(VectorizedRung, MultiplyReadsBothFragmentsWith128BitLoads) {
  const auto multiply = record(kRung, default_config(), kAligned, {0, 0}, mainloop(1, 1));
  EXPECT_TRUE(multiply.barrier_after);
  EXPECT_EQ(multiply.fma, 256 * 8 * 64);  // 256 threads, 8 k indices, 8 x 8 FMAs
  // Per k index tm / 4 + tn / 4 = 4 lds.128; 8 k indices.
  const WarpOps lds = warp_ops(multiply, kWarp, "lds.128");
  EXPECT_EQ(lds.instructions, 32);
  // A (16 loads): the warp is 2 thread rows; lanes 0-15 read one 16-byte chunk, lanes 16-31 another. Lanes agree in
  // pairs, so two quarter-warps share a wavefront (rule L1): 2 wavefronts, which is also the ideal.
  // B (16 loads): a quarter-warp is 8 thread columns reading chunks 32 bytes apart, 256 bytes in all: every bank group
  // it touches is asked for two chunks - 2 wavefronts per quarter, 8 per load where 4 would do.
  EXPECT_EQ(lds.wavefronts, 16 * 2 + 16 * 8);
  EXPECT_EQ(lds.ideal_wavefronts, 16 * 2 + 16 * 4);
  EXPECT_EQ(lds.bank_conflicts(), 16 * 4);
}

TEST(VectorizedRung, EpilogueStoresFourColumnsPerInstruction) {
  const auto epi = record(kRung, default_config(), kAligned, {0, 0}, epilogue(0));
  // tm x tn / 4 = 16 stg.128 per thread. Each covers 2 rows x 16 lanes, lanes 32 bytes apart: half of each sector.
  const WarpOps stg = warp_ops(epi, kWarp, "stg.128");
  EXPECT_EQ(stg.instructions, 16);
  EXPECT_EQ(stg.sectors, 16 * 32);
  EXPECT_EQ(warp_ops(epi, kWarp, "ldg.128").instructions, 0);  // beta = 0: C is not read
}

TEST(VectorizedRung, UnalignedRowsFallBackToScalarAccesses) {
  // k % 4 != 0: rows of A are not 16-byte aligned, so each float4 of A is 4 predicated ldg.32; B stays 128-bit.
  const auto load = record(kRung, default_config(), {256, 256, 255}, {0, 0}, mainloop(1, 0));
  EXPECT_EQ(warp_ops(load, kWarp, "ldg.32").instructions, 4);
  EXPECT_EQ(warp_ops(load, kWarp, "ldg.128").instructions, 1);
  // n % 4 != 0: B falls back too, and C is written with 32-bit stores: 4 per float4, 64 per thread.
  const auto narrow = record(kRung, default_config(), {256, 254, 256}, {0, 0}, mainloop(1, 0));
  EXPECT_EQ(warp_ops(narrow, kWarp, "ldg.32").instructions, 4);
  const auto epi = record(kRung, default_config(), {256, 254, 256}, {0, 0}, epilogue(0));
  EXPECT_EQ(warp_ops(epi, kWarp, "stg.32").instructions, 64);
  EXPECT_EQ(warp_ops(epi, kWarp, "stg.128").instructions, 0);
}

TEST(VectorizedRung, ComputesTheExactGemmAtOddSizes) {
  const std::vector<Problem> sizes = {{1, 1, 1}, {127, 127, 127}, {1, 260, 5}, {129, 4, 33}};
  KernelConfig padded = default_config(), swizzled = default_config();
  padded.a_pad = 4;
  swizzled.swizzle = 1;
  expect_exact_gemm(kRung, default_config(), sizes, "vectorized");
  expect_exact_gemm(kRung, padded, sizes, "vectorized+a_pad4");
  expect_exact_gemm(kRung, swizzled, sizes, "vectorized+swizzle");
}

}  // namespace
}  // namespace gemmlab::sim
