// The fragments panel's data: every element of A, B and C of the m16n8k16 atom has exactly one lane and register,
// each lane holds 8 of A, 4 of B and 4 of C, and ldmatrix.x4's 32 row addresses come from 32 different lanes.
#include "model/fragment_layout.hpp"

#include <gtest/gtest.h>

#include <set>
#include <utility>

namespace gemmlab::desktop {
namespace {

void expect_each_lane_holds(const FragmentMatrix& m, int per_lane, const char* what) {
  int held[32] = {};
  std::set<std::pair<int, int>> registers;  // (lane, reg * 2 + half): no two elements in the same place
  for (const FragmentCell& cell : m.cells) {
    ASSERT_GE(cell.lane, 0) << what;
    ASSERT_LT(cell.lane, 32) << what;
    ++held[cell.lane];
    EXPECT_TRUE(registers.insert({cell.lane, cell.reg * 2 + cell.half}).second) << what << " lane " << cell.lane;
  }
  for (int lane = 0; lane < 32; ++lane) EXPECT_EQ(held[lane], per_lane) << what << " lane " << lane;
}

TEST(FragmentLayout, EveryElementHasOneLaneAndRegister) {
  const FragmentLayout& l = m16n8k16_layout();
  ASSERT_EQ(l.a.cells.size(), 256u);
  ASSERT_EQ(l.b.cells.size(), 128u);
  ASSERT_EQ(l.c.cells.size(), 128u);
  expect_each_lane_holds(l.a, 8, "A");
  expect_each_lane_holds(l.b, 4, "B");
  expect_each_lane_holds(l.c, 4, "C");
  // The PTX ISA's figure for A: lane 5 (g = 1, t = 1) holds A(1, 2..3) in a0 and A(9, 10..11) in a3.
  EXPECT_EQ(l.a.at(1, 2).lane, 5);
  EXPECT_EQ(l.a.at(1, 2).reg, 0);
  EXPECT_EQ(l.a.at(9, 11).lane, 5);
  EXPECT_EQ(l.a.at(9, 11).reg, 3);
  EXPECT_EQ(l.a.at(9, 11).half, 1);
  EXPECT_EQ(l.b.at(3, 6).lane, 25);  // k 3 = 2t + 1 with t = 1, n 6 = g
  EXPECT_EQ(l.c.at(8, 6).reg, 2);    // row g + 8: c2 at the even column,
  EXPECT_EQ(l.c.at(8, 7).reg, 3);    // c3 at the odd one
}

TEST(FragmentLayout, LdmatrixRowAddressesComeFromEveryLaneOnce) {
  const FragmentLayout& l = m16n8k16_layout();
  std::set<int> lanes;
  for (int r = 0; r < 16; ++r)
    for (int cb = 0; cb < 2; ++cb) lanes.insert(l.ldsm_lane[r][cb]);
  EXPECT_EQ(lanes.size(), 32u);
  EXPECT_EQ(l.ldsm_lane[0][0], 0);
  EXPECT_EQ(l.ldsm_lane[8][0], 8);
  EXPECT_EQ(l.ldsm_lane[0][1], 16);
}

TEST(WgmmaLayout, EachThreadHoldsFourPerEightColumnsOfD) {
  // Rows 0-63, columns 0-15 of D: every element has one thread; warp w (threads 32w..32w+31) holds rows 16w..16w+15,
  // in mma.sync's C layout per 8 columns: thread 37 (warp 1, lane 5: g = 1, t = 1) holds D(17, 2..3) in d0, d1.
  const WgmmaLayout& l = wgmma_layout();
  ASSERT_EQ(l.d.cells.size(), 64u * 16u);
  int held[128] = {};
  for (int r = 0; r < 64; ++r)
    for (int c = 0; c < 16; ++c) {
      const FragmentCell& cell = l.d.at(r, c);
      ASSERT_GE(cell.lane, 0);
      ASSERT_LT(cell.lane, 128);
      ++held[cell.lane];
      EXPECT_EQ(cell.lane / 32, r / 16) << r << ", " << c;
    }
  for (int thread = 0; thread < 128; ++thread) EXPECT_EQ(held[thread], 8) << thread;  // 2 column blocks x 4
  EXPECT_EQ(l.d.at(17, 2).lane, 37);
  EXPECT_EQ(l.d.at(17, 3).reg, 1);
  EXPECT_EQ(l.d.at(25, 10).reg, 6);  // row g + 8 of the second 8 columns: d4 + 2
}

TEST(WgmmaLayout, TheSwizzlePlacesChunkCOfRowRAtCXorR) {
  const WgmmaLayout& l = wgmma_layout();
  for (int r = 0; r < 8; ++r) {
    std::set<int> places;
    for (int c = 0; c < 8; ++c) {
      EXPECT_EQ(l.placed_chunk[r][c], c ^ r);
      places.insert(l.placed_chunk[r][c]);
    }
    EXPECT_EQ(places.size(), 8u);  // a permutation of the row's 8 chunks
  }
}

}  // namespace
}  // namespace gemmlab::desktop
