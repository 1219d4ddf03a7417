// Rung 9 (warptile): block -> warp -> lane tiles on rung 8's cp.async pipeline. Defaults: a 128 x 256 block tile,
// bk = 32, 8 warps of 32 x 128 results, a 4 x 8 lane grid of 8 x 16 results per lane, a_pad = 4, 3 stages.
#include "gemmlab/kernel/rungs/warptile.hpp"

#include <gtest/gtest.h>

#include <set>
#include <utility>

#include "gemmlab/sim/rung_model.hpp"
#include "rung_test_support.hpp"

namespace gemmlab::sim {
namespace {

using namespace test_support;
using kernel::KernelConfig;
using kernel::rungs::WarpTile;

constexpr RungId kRung = RungId::WarpTile;
// A function, not a global: the rung models are themselves built during static initialisation.
KernelConfig default_config() { return rung_model(kRung).defaults; }
const Problem kAligned{256, 512, 256};  // 2 x 2 tiles, 8 k-steps; k and n multiples of 32
constexpr int kWarp = 2;

TEST(WarpTileRung, LanesPairUpSoThatFragmentReadsAreShared) {
  // Lanes n and n ^ 1 share their lane column (the same B chunks), lanes n and n ^ 2 their lane row (the same A
  // chunks), and the 32 lanes cover the 4 x 8 lane grid once.
  std::set<std::pair<int, int>> grid;
  for (int lane = 0; lane < 32; ++lane) {
    EXPECT_EQ(WarpTile::lane_col(default_config(), lane), WarpTile::lane_col(default_config(), lane ^ 1)) << lane;
    EXPECT_EQ(WarpTile::lane_row(default_config(), lane), WarpTile::lane_row(default_config(), lane ^ 2)) << lane;
    grid.insert({WarpTile::lane_row(default_config(), lane), WarpTile::lane_col(default_config(), lane)});
  }
  EXPECT_EQ(grid.size(), 32u);
  EXPECT_EQ(WarpTile::lane_rows(default_config()), 4);
  EXPECT_EQ(WarpTile::lane_cols(default_config()), 8);
}

TEST(WarpTileRung, ThreadTilesCoverTheBlockTileOnce) {
  // Every (thread, result row, result column) names a different element of the 128 x 256 block tile.
  std::set<std::pair<int, int>> owned;
  for (int tid = 0; tid < WarpTile::threads(default_config()); ++tid)
    for (int i = 0; i < default_config().tm; ++i)
      for (int j = 0; j < default_config().tn; ++j)
        owned.insert({WarpTile::thread_row(default_config(), tid, i), WarpTile::thread_col(default_config(), tid, j)});
  EXPECT_EQ(owned.size(), std::size_t(default_config().bm) * std::size_t(default_config().bn));
  EXPECT_EQ(owned.begin()->first, 0);
  EXPECT_EQ(owned.rbegin()->first, default_config().bm - 1);
}

TEST(WarpTileRung, PrologueCopiesTwoTilesThenLoadsTheFirstFragments) {
  const auto copies = record(kRung, default_config(), kAligned, {0, 0}, prologue(0));
  EXPECT_TRUE(copies.barrier_after);
  // Per tile and thread: A 128 x 32 floats / 256 = 16 cp.async.4, B 32 x 256 / 4 / 256 = 8 cp.async.16. Tiles 0, 1.
  EXPECT_EQ(warp_ops(copies, kWarp, "cp.async.4").instructions, 2 * 16);
  EXPECT_EQ(warp_ops(copies, kWarp, "cp.async.16").instructions, 2 * 8);
  const auto first = record(kRung, default_config(), kAligned, {0, 0}, prologue(1));
  EXPECT_FALSE(first.barrier_after);
  EXPECT_EQ(warp_ops(first, kWarp, "lds.128").instructions, 6);  // 2 of A and 4 of B: the fragments of k index 0
}

TEST(WarpTileRung, FragmentReadsAreConflictFreeAtTwoWavefronts) {
  const auto step = record(kRung, default_config(), kAligned, {0, 0}, mainloop(3, 0));
  EXPECT_TRUE(step.barrier_after);
  // Phase 0 multiplies k indices 0..30 and loads the fragments of 1..31: 31 x (tm / 4 + tn / 4) = 31 x 6 lds.128.
  // A: the 4 lane rows read 4 consecutive 16-byte chunks of one shared row (64 bytes); lanes n and n ^ 2 agree, so
  //    two quarter-warps share a wavefront (rule L1): 2 wavefronts, no conflict.
  // B: the 8 lane columns read 8 consecutive chunks (128 bytes, every bank once); lanes n and n ^ 1 agree: 2.
  const WarpOps lds = warp_ops(step, kWarp, "lds.128");
  EXPECT_EQ(lds.instructions, 31 * 6);
  EXPECT_EQ(lds.wavefronts, 31 * 6 * 2);
  EXPECT_EQ(lds.bank_conflicts(), 0);
  EXPECT_EQ(step.fma, 256 * 31 * 128);  // 256 threads x 31 k indices x 8 x 16
  const auto last = record(kRung, default_config(), kAligned, {0, 0}, mainloop(3, 1));
  EXPECT_FALSE(last.barrier_after);
  EXPECT_EQ(warp_ops(last, kWarp, "lds.128").instructions, 6);  // fragment 0 of tile 4
  EXPECT_EQ(last.fma, 256 * 128);                                // k index 31
}

TEST(WarpTileRung, CopiesOfAKstep) {
  const auto step = record(kRung, default_config(), kAligned, {0, 0}, mainloop(3, 0));
  // Tile 3 + 2 = 5. A, 16 cp.async.4 per thread: 8 consecutive lanes copy the 8 floats of a row of a 8-float slab
  // (one 32-byte sector), the warp 4 rows: 4 sectors per instruction, all of them used.
  //   Shared side: element (m, k) goes to row k, column m of the transposed tile, rows 128 + 4 floats: bank
  //   (4k + m) % 32, 32 different banks for the 8 k x 4 m of the warp - 1 wavefront.
  //   Source side (rule C1: a copy reads through L1's banks): the 4 rows are 256 floats apart, a multiple of 32, so
  //   they use the same 8 banks, 4 lanes on each: 4 wavefronts. The instruction takes 4, ideal 1.
  const WarpOps a = warp_ops(step, kWarp, "cp.async.4");
  EXPECT_EQ(a.instructions, 16);
  EXPECT_EQ(a.sectors, 16 * 4);
  EXPECT_EQ(a.wavefronts, 16 * 4);
  EXPECT_EQ(a.bank_conflicts(), 16 * 3);
  // B, 8 cp.async.16 per thread: the warp copies 512 contiguous bytes of a row into 512 contiguous bytes: 16 sectors,
  // 4 wavefronts, no conflict.
  const WarpOps b = warp_ops(step, kWarp, "cp.async.16");
  EXPECT_EQ(b.instructions, 8);
  EXPECT_EQ(b.sectors, 8 * 16);
  EXPECT_EQ(b.wavefronts, 8 * 4);
  EXPECT_EQ(b.bank_conflicts(), 0);
}

TEST(WarpTileRung, WithoutPaddingTheTransposedCopiesConflict) {
  // a_pad = 0: shared rows of 128 floats put column m of every row in bank m % 32, so the warp's 32 copies (4 columns
  // x 8 rows) write 8 words into each of 4 banks: 8 wavefronts, more than the source side's 4.
  KernelConfig c = default_config();
  c.a_pad = 0;
  const WarpOps a = warp_ops(record(kRung, c, kAligned, {0, 0}, mainloop(3, 0)), kWarp, "cp.async.4");
  EXPECT_EQ(a.wavefronts, 16 * 8);
}

TEST(WarpTileRung, PipelineEndsWithoutCopiesOrFragmentsPastK) {
  // 8 k-steps, 3 stages: k-steps 6 and 7 would copy tiles 8 and 9; k-step 7 has no tile 8 to preload.
  for (int kstep : {6, 7}) {
    const auto step = record(kRung, default_config(), kAligned, {0, 0}, mainloop(kstep, 0));
    EXPECT_EQ(warp_instructions(step, kWarp), 31 * 6) << kstep;  // fragment loads only
  }
  EXPECT_EQ(warp_instructions(record(kRung, default_config(), kAligned, {0, 0}, mainloop(7, 1)), kWarp), 0);
}

TEST(WarpTileRung, EpilogueWritesWholeLinesFromTheLaneGrid) {
  const auto epi = record(kRung, default_config(), kAligned, {0, 0}, epilogue(0));
  // tm x tn / 4 = 32 stg.128 per thread. In one instruction the 8 lanes of a lane row write 8 consecutive 16-byte
  // chunks: 128 bytes, one whole line; 4 lane rows: 4 lines, 16 sectors, all of each used.
  const WarpOps stg = warp_ops(epi, kWarp, "stg.128");
  EXPECT_EQ(stg.instructions, 32);
  EXPECT_EQ(stg.sectors, 32 * 16);
  EXPECT_EQ(stg.lines, 32 * 4);
  // An 8 x 4 lane grid (wm = wn = 64) writes 64 bytes per lane row: still whole sectors, but 8 half lines.
  KernelConfig tall = default_config();
  tall.wm = 64, tall.wn = 64;
  const WarpOps half = warp_ops(record(kRung, tall, kAligned, {0, 0}, epilogue(0)), kWarp, "stg.128");
  EXPECT_EQ(half.sectors, 32 * 16);
  EXPECT_EQ(half.lines, 32 * 8);
}

TEST(WarpTileRung, UnalignedCIsStoredOneFloatPerLane) {
  // n % 4 != 0: every result is a 32-bit store, 128 per thread; lanes of a lane row are 16 bytes apart, so one store
  // instruction writes 32 floats over at least 16 sectors of 4 rows.
  const WarpOps stg = warp_ops(record(kRung, default_config(), {256, 510, 256}, {0, 0}, epilogue(0)), kWarp, "stg.32");
  EXPECT_EQ(stg.instructions, 128);
  EXPECT_GE(stg.sectors, 128 * 16);
}

TEST(WarpTileRung, ValidationSaysWhatToChange) {
  KernelConfig c = default_config();
  c.wm = 48;  // 48 / 8 = 6 lane rows: 48 lanes
  auto r = validate(kRung, c, kAligned);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("lane grid"), std::string::npos) << r.error().message;
  c = default_config();
  c.bk = 12;
  r = validate(kRung, c, kAligned);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("bk=12"), std::string::npos) << r.error().message;
  c = default_config();
  c.stages = 1;
  EXPECT_FALSE(validate(kRung, c, kAligned));
  c = default_config();
  c.swizzle = 1;  // not a knob of this rung
  EXPECT_FALSE(validate(kRung, c, kAligned));
}

TEST(WarpTileRung, ComputesTheExactGemmAtOddSizes) {
  const std::vector<Problem> sizes = {{1, 1, 1}, {7, 7, 7}, {33, 33, 33}, {127, 127, 127}, {129, 257, 17},
                                      {64, 260, 300}};
  expect_exact_gemm(kRung, default_config(), sizes, "warptile");
  KernelConfig small = default_config();  // the 2-blocks-per-SM shape: 128 x 128 x 8, 8 x 8 per lane
  small.bn = 128, small.bk = 8, small.tn = 8, small.wn = 64;
  expect_exact_gemm(kRung, small, sizes, "warptile 128x128x8");
  KernelConfig tall = default_config();  // an 8 x 4 lane grid
  tall.wm = 64, tall.wn = 64;
  expect_exact_gemm(kRung, tall, sizes, "warptile 8x4 lanes");
  for (int stages : {2, 4}) {
    KernelConfig c = default_config();
    c.stages = stages;
    expect_exact_gemm(kRung, c, sizes, "warptile stages=" + std::to_string(stages));
  }
}

}  // namespace
}  // namespace gemmlab::sim
