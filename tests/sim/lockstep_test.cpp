// The lanes of a warp in lockstep (sim/src/lockstep.hpp): every lane reaches a warp-wide operation before it is
// carried out, all lanes then go on, and lanes that do not meet at the same operations are an error.
#include "lockstep.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace gemmlab::sim {
namespace {

TEST(WarpLockstep, EveryLaneArrivesBeforeTheOperationAndSeesItsResult) {
  WarpLockstep lockstep;
  int arrived = 0, result = 0;
  std::vector<int> arrived_at_operation, seen(32, -1), entered;
  const auto status = lockstep.run(
      32,
      [&](int lane) {
        for (int step = 0; step < 3; ++step) {
          ++arrived;
          lockstep.wait_for_warp();
          if (step == 0) seen[static_cast<std::size_t>(lane)] = result;  // what the first operation left
        }
      },
      [&](int lane) { entered.push_back(lane); },
      [&] {
        arrived_at_operation.push_back(arrived);
        result = 1000 + static_cast<int>(arrived_at_operation.size());
      });
  ASSERT_TRUE(status) << status.error().message;
  EXPECT_EQ(arrived_at_operation, (std::vector<int>{32, 64, 96}));  // every lane, before each operation
  for (int lane = 0; lane < 32; ++lane) EXPECT_EQ(seen[static_cast<std::size_t>(lane)], 1001) << lane;
  EXPECT_EQ(entered.size(), 4u * 32u);  // each lane runs up to each of its 3 waits, then to its end
}

TEST(WarpLockstep, LanesThatDoNotMeetAtTheSameOperationsAreAnError) {
  WarpLockstep lockstep;
  const auto status = lockstep.run(
      32, [&](int lane) { if (lane < 16) lockstep.wait_for_warp(); }, [](int) {}, [] {});
  ASSERT_FALSE(status);
  EXPECT_NE(status.error().message.find("16 lanes of a warp ended while 16 waited"), std::string::npos)
      << status.error().message;
}

TEST(WarpLockstep, APartialWarpRunsItsLanesOnly) {
  WarpLockstep lockstep;
  int ran = 0;
  const auto status = lockstep.run(5, [&](int) { ++ran; lockstep.wait_for_warp(); ++ran; }, [](int) {}, [] {});
  ASSERT_TRUE(status);
  EXPECT_EQ(ran, 10);
}

}  // namespace
}  // namespace gemmlab::sim
