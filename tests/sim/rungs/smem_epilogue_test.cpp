// Rung 10 (smem-epilogue): rung 9's prologue and mainloop, and C staged through shared memory on its way out.
#include "gemmlab/kernel/rungs/smem_epilogue.hpp"

#include <gtest/gtest.h>

#include "gemmlab/sim/rung_model.hpp"
#include "rung_test_support.hpp"

namespace gemmlab::sim {
namespace {

using namespace test_support;
using kernel::KernelConfig;
using kernel::rungs::SmemEpilogue;

constexpr RungId kRung = RungId::SmemEpilogue;
// A function, not a global: the rung models are themselves built during static initialisation.
KernelConfig default_config() { return rung_model(kRung).defaults; }
const Problem kAligned{256, 512, 256};
constexpr int kWarp = 4;

TEST(SmemEpilogueRung, MainloopIsRungNines) {
  EXPECT_EQ(default_config().bm, rung_model(RungId::WarpTile).defaults.bm);
  for (const PhaseRef ref : {prologue(0), prologue(1), mainloop(2, 0), mainloop(2, 1)}) {
    const auto mine = record(kRung, default_config(), kAligned, {1, 1}, ref);
    const auto nine = record(RungId::WarpTile, default_config(), kAligned, {1, 1}, ref);
    ASSERT_EQ(mine.instructions.size(), nine.instructions.size());
    for (std::size_t i = 0; i < mine.instructions.size(); ++i) {
      EXPECT_EQ(mine.instructions[i].access.op, nine.instructions[i].access.op) << i;
      EXPECT_EQ(mine.instructions[i].access.address, nine.instructions[i].access.address) << i;
    }
    EXPECT_EQ(mine.fma, nine.fma);
    EXPECT_EQ(mine.barrier_after, nine.barrier_after);
  }
}

TEST(SmemEpilogueRung, EpilogueIsADrainThenTwoPhasesPerResultRow) {
  EXPECT_EQ(SmemEpilogue::epilogue_phases(default_config()), 1 + 2 * default_config().tm);
  const auto drain = record(kRung, default_config(), kAligned, {0, 0}, epilogue(0));
  EXPECT_TRUE(drain.barrier_after);
  EXPECT_EQ(drain.instructions.size(), 0u);
  const auto barrier_after = [](int phase) {
    return record(kRung, default_config(), kAligned, {0, 0}, epilogue(phase)).barrier_after;
  };
  EXPECT_TRUE(barrier_after(1));    // slab 0 written: it may be read back
  EXPECT_FALSE(barrier_after(2));   // pass 1 writes the other slab, no wait needed
  EXPECT_TRUE(barrier_after(3));
  EXPECT_FALSE(barrier_after(16));  // the last phase
  EXPECT_FALSE(phase_stream(kRung, default_config(), kAligned, {0, 0}, epilogue(17)));
}

TEST(SmemEpilogueRung, SlabWritesAreConflictFree) {
  const auto write = record(kRung, default_config(), kAligned, {0, 0}, epilogue(1));
  // A thread writes its result row 0: tn / 4 = 4 sts.128. A quarter-warp's 8 lanes are 2 lane rows (lane bit 0) x 4
  // lane columns: 4 chunks in each of 2 neighbouring slab rows. Slab rows are 256 + 16 floats, 16 banks apart, so the
  // 2 rows fill opposite halves of the banks: 1 wavefront per quarter, 4 per store, all ideal.
  const WarpOps sts = warp_ops(write, kWarp, "sts.128");
  EXPECT_EQ(sts.instructions, 4);
  EXPECT_EQ(sts.wavefronts, 4 * 4);
  EXPECT_EQ(sts.bank_conflicts(), 0);
  // Pass 1 writes the other slab (16 rows of 272 floats further on).
  const auto write1 = record(kRung, default_config(), kAligned, {0, 0}, epilogue(3));
  std::uint64_t lowest = ~std::uint64_t{0};
  for (const auto& w : write1.instructions)
    for (int lane = 0; lane < 32; ++lane) lowest = std::min(lowest, w.access.address[std::size_t(lane)]);
  EXPECT_EQ(lowest, std::uint64_t{16 * 272 * 4});
}

TEST(SmemEpilogueRung, StoresLeaveInRowsOf512Bytes) {
  const auto store = record(kRung, default_config(), kAligned, {0, 0}, epilogue(2));
  // The slab (16 rows x 256 floats) is read back along its rows: 64 chunks per row, consecutive lanes on consecutive
  // chunks, 4 per thread. Each lds.128 reads 512 contiguous bytes (4 wavefronts, ideal); each stg.128 writes them
  // to one row of C: 16 sectors in 4 whole lines. Rung 9 writes the same 16 sectors per store, spread over 4 rows.
  const WarpOps lds = warp_ops(store, kWarp, "lds.128");
  EXPECT_EQ(lds.instructions, 4);
  EXPECT_EQ(lds.wavefronts, 4 * 4);
  EXPECT_EQ(lds.bank_conflicts(), 0);
  const WarpOps stg = warp_ops(store, kWarp, "stg.128");
  EXPECT_EQ(stg.instructions, 4);
  EXPECT_EQ(stg.sectors, 4 * 16);
  EXPECT_EQ(stg.lines, 4 * 4);
  EXPECT_EQ(warp_ops(store, kWarp, "ldg.128").instructions, 0);  // beta = 0: C is not read
  // With beta != 0 C is read with the same shape before it is written.
  Problem with_beta = kAligned;
  with_beta.beta = 1.0f;
  const WarpOps ldg = warp_ops(record(kRung, default_config(), with_beta, {0, 0}, epilogue(2)), kWarp, "ldg.128");
  EXPECT_EQ(ldg.instructions, 4);
  EXPECT_EQ(ldg.sectors, 4 * 16);
}

TEST(SmemEpilogueRung, UnalignedCIsStoredInLinesOf32Floats) {
  // n % 4 != 0: the slab is read back one float per lane, tn = 16 lds.32 + 16 stg.32 per thread and pass. A store
  // writes 32 consecutive floats of one row: 128 bytes over at most 5 sectors (the row need not start on a sector).
  // Rung 9's 32-bit stores take at least 16 sectors each (WarpTileRung.UnalignedCIsStoredOneFloatPerLane).
  const Problem unaligned{256, 510, 256};
  const auto store = record(kRung, default_config(), unaligned, {0, 0}, epilogue(2));
  const WarpOps stg = warp_ops(store, kWarp, "stg.32");
  EXPECT_EQ(stg.instructions, 16);
  EXPECT_LE(stg.max_sectors, 5);
  EXPECT_EQ(warp_ops(store, kWarp, "lds.32").instructions, 16);
  EXPECT_EQ(warp_ops(store, kWarp, "stg.128").instructions, 0);
}

TEST(SmemEpilogueRung, ComputesTheExactGemmAtOddSizes) {
  const std::vector<Problem> sizes = {{1, 1, 1}, {7, 7, 7}, {33, 33, 33}, {127, 127, 127}, {129, 257, 17},
                                      {64, 260, 300}};
  expect_exact_gemm(kRung, default_config(), sizes, "smem-epilogue");
  KernelConfig tall = default_config();  // an 8 x 4 lane grid
  tall.wm = 64, tall.wn = 64;
  expect_exact_gemm(kRung, tall, sizes, "smem-epilogue 8x4 lanes");
  KernelConfig two = default_config();
  two.stages = 2;
  expect_exact_gemm(kRung, two, sizes, "smem-epilogue stages=2");
}

}  // namespace
}  // namespace gemmlab::sim
