// The lab's accesses over a tile, costed by the memory model: the cases a learner meets first.
#include "gemmlab/lab/access.hpp"

#include <gtest/gtest.h>

#include "gemmlab/lab/analysis.hpp"
#include "gemmlab/lab/query.hpp"

namespace gemmlab::lab {
namespace {

Report answer(QueryText text) {
  auto q = parse_query(text);
  EXPECT_TRUE(q.ok()) << (q.ok() ? "" : q.error().message);
  auto r = analyse(q->tile, q->access);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return std::move(*r);
}

std::string error_of(QueryText text) {
  auto q = parse_query(text);
  if (!q) return q.error().message;
  auto r = analyse(q->tile, q->access);
  EXPECT_FALSE(r.ok());
  return r.ok() ? "" : r.error().message;
}

QueryText ldmatrix(std::string layout, std::string swizzle = "", std::string op = "ldmatrix.x4",
                   std::string partition = "a") {
  QueryText t;
  t.layout = std::move(layout);
  t.swizzle = std::move(swizzle);
  t.op = std::move(op);
  t.partition = std::move(partition);
  return t;
}

TEST(Access, RowsOf64HalvesAreEightWayAndTheFixesFreeThem) {
  const Report plain = answer(ldmatrix("(64,64):(64,1)"));
  EXPECT_EQ(plain.totals.instructions, 16);
  EXPECT_EQ(plain.totals.wavefronts, 512);
  EXPECT_EQ(plain.totals.conflicts(), 448);
  const Phase& p = plain.instructions[0].phases[0];
  EXPECT_EQ(p.wavefronts, 8);
  EXPECT_EQ(p.colliding_lanes, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(answer(ldmatrix("(64,64):(64,1)", "3,3,3")).totals.conflicts(), 0);
  EXPECT_EQ(answer(ldmatrix("(64,64):(72,1)")).totals.conflicts(), 0);
  EXPECT_EQ(plain.ncu.wavefronts, "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum");
}

TEST(Access, RowsOf32HalvesAreFourWayAndSwizzle233FreesThem) {
  const Report plain = answer(ldmatrix("(64,32):(32,1)"));
  EXPECT_EQ(plain.totals.wavefronts, 128);  // 8 instructions x 4 matrices, each 4-way
  EXPECT_EQ(plain.totals.conflicts(), 96);
  EXPECT_EQ(answer(ldmatrix("(64,32):(32,1)", "2,3,3")).totals.conflicts(), 0);
}

TEST(Access, FragmentOrderAndOrigin) {
  QueryText a = ldmatrix("(64,64):(64,1)", "3,3,3");
  a.at = "16,8";
  const Report r = answer(a);
  ASSERT_EQ(r.access.instructions.size(), 1u);
  const auto& lanes = r.access.instructions[0].first_element;
  EXPECT_EQ(lanes[0], (Coordinate{16, 8}));    // matrix 0: rows 16-23 at column 8
  EXPECT_EQ(lanes[8], (Coordinate{24, 8}));    // matrix 1: rows 24-31 (A's second register pair)
  EXPECT_EQ(lanes[16], (Coordinate{16, 16}));  // matrix 2: the next 8 columns of K
  QueryText b = ldmatrix("(64,64):(64,1)", "3,3,3", "ldmatrix.x4", "b");
  b.at = "0,0";
  const auto& blanes = answer(b).access.instructions[0].first_element;
  EXPECT_EQ(blanes[8], (Coordinate{0, 8}));  // B: the k+8 half of the same n rows first
  EXPECT_EQ(blanes[16], (Coordinate{8, 0}));
}

TEST(Access, TransposedReadsOfAColumnMajorTile) {
  const Report r = answer(ldmatrix("(64,64):(1,64)", "", "ldmatrix.x4.trans", "b"));
  EXPECT_EQ(r.totals.conflicts(), 448);
  EXPECT_NE(error_of(ldmatrix("(64,64):(1,64)", "", "ldmatrix.x4", "b")).find("use ldmatrix.x4.trans"),
            std::string::npos);
}

TEST(Access, StmatrixStoresTheCFragment) {
  EXPECT_EQ(answer(ldmatrix("(64,64):(64,1)", "", "stmatrix.x4", "c")).totals.conflicts(), 448);
  EXPECT_EQ(answer(ldmatrix("(64,64):(64,1)", "3,3,3", "stmatrix.x4", "c")).totals.conflicts(), 0);
  EXPECT_NE(error_of(ldmatrix("(64,64):(64,1)", "", "stmatrix.x4", "a")).find("--partition c"), std::string::npos);
  QueryText fp32 = ldmatrix("(64,64):(64,1)", "", "stmatrix.x4", "c");
  fp32.element = "fp32";
  EXPECT_NE(error_of(fp32).find("stores 16-bit elements"), std::string::npos);
}

TEST(Access, RefusesWhatTheInstructionCannotDo) {
  QueryText tf32 = ldmatrix("(64,32):(32,1)", "", "ldmatrix.x4.trans");
  tf32.element = "tf32";
  EXPECT_NE(error_of(tf32).find("transposes 16-bit elements"), std::string::npos);
  QueryText wide = ldmatrix("(64,64):(64,1)");
  wide.at = "56,0";
  EXPECT_NE(error_of(wide).find("an access wider than the tile"), std::string::npos);
  EXPECT_NE(error_of(ldmatrix("(64,64):(65,1)")).find("misaligned"), std::string::npos);
  EXPECT_NE(error_of(ldmatrix("(40,64):(64,1)")).find("do not tile"), std::string::npos);
}

TEST(Access, TiledCopyAndItsGlobalSide) {
  QueryText t;
  t.layout = "(64,64):(64,1)";
  t.op = "cp.async.16";
  t.threads = "(16,8):(8,1)";
  t.global = "(64,64):(4096,1)";
  const Report r = answer(t);
  EXPECT_EQ(r.totals.instructions, 16);  // 512 vectors of 8 halves, 32 a warp instruction
  EXPECT_EQ(r.totals.conflicts(), 0);
  EXPECT_EQ(r.totals.global_requests, 16);
  EXPECT_EQ(r.totals.global_sectors, 16 * 16);  // each warp: 4 rows of 128 bytes
  t.threads = "(32,4):(1,1)";
  EXPECT_NE(error_of(t).find("once each"), std::string::npos);
  t.threads = "(16,8):(8,1)";
  t.vector = "4";
  EXPECT_NE(error_of(t).find("moves 16 bytes per lane"), std::string::npos);
}

TEST(Access, ExplicitLanesAndTheHopperAccesses) {
  const Report column = answer(find_preset("fp32-column-read")->query);
  EXPECT_EQ(column.totals.wavefronts, 32);
  const Report wgmma = answer(find_preset("tma-128-wgmma")->query);
  EXPECT_EQ(wgmma.totals.conflicts(), 0);
  EXPECT_TRUE(wgmma.access.instructions[0].model_only);
  EXPECT_TRUE(wgmma.ncu.wavefronts.empty());
  QueryText unswizzled = find_preset("tma-128-wgmma")->query;
  unswizzled.tma_swizzle = "none";
  EXPECT_EQ(answer(unswizzled).totals.conflicts(), 7 * 64);  // 8 rows of 128 bytes: 8-way on every core matrix
  const Report box = answer(find_preset("tma-128-box")->query);
  ASSERT_TRUE(box.access.tma.has_value());
  EXPECT_EQ(box.access.tma->bytes, 8192);
  QueryText wide_box = find_preset("tma-128-box")->query;
  wide_box.layout = "(64,128):(128,1)";
  EXPECT_NE(error_of(wide_box).find("at most 128 bytes"), std::string::npos);
}

TEST(Access, EveryPresetAnswers) {
  for (const auto& p : presets()) {
    auto q = parse_query(p.query);
    ASSERT_TRUE(q.ok()) << p.name << ": " << q.error().message;
    auto r = analyse(q->tile, q->access);
    EXPECT_TRUE(r.ok()) << p.name << ": " << (r.ok() ? "" : r.error().message);
  }
}

}  // namespace
}  // namespace gemmlab::lab
