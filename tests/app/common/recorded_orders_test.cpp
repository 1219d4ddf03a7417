// The recorded runs of one GPU in two launch orders (assets/results/order-runs.txt): they load, and the launch-order
// panel finds a kernel's time in each (issue 32, item 6: the model predicts rung 17 alike in both, the H100 did not).
#include "common/recorded_orders.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "gemmlab/sim/rung_model.hpp"

namespace gemmlab::common {
namespace {

TEST(RecordedOrders, TheShippedRunsLoadAndGiveEachOrdersTime) {
  const auto reports = load_order_reports({std::filesystem::path(GEMMLAB_SOURCE_DIR)});
  ASSERT_EQ(reports.size(), 2u) << "every report assets/results/order-runs.txt names loads";
  const auto measured =
      measured_orders(reports, RungId::TmaWgmma, sim::rung_model(RungId::TmaWgmma).defaults, {8192, 8192, 8192});
  const auto of = [&](const std::string& order) {
    return std::ranges::find_if(measured, [&](const MeasuredOrder& m) { return m.order == order; });
  };
  ASSERT_NE(of("row"), measured.end());
  ASSERT_NE(of("groupm:8"), measured.end());
  EXPECT_EQ(of("row")->device, of("groupm:8")->device);
  EXPECT_GT(of("row")->median_ms, 0.0);
  EXPECT_GT(of("groupm:8")->ratio_to_cublas, 0.0);
  EXPECT_EQ(of("row")->input, "fp16");  // the rung's first input type
  const auto pair = measured_pair(measured, "row", "groupm:8");
  ASSERT_TRUE(pair.has_value());
  EXPECT_EQ(pair->first.order, "row");
  EXPECT_EQ(pair->second.order, "groupm:8");
  EXPECT_FALSE(measured_pair(measured, "row", "row").has_value());      // one order is no comparison
  EXPECT_FALSE(measured_pair(measured, "row", "hilbert").has_value());  // never recorded
  // A size nobody timed has nothing to show.
  EXPECT_TRUE(measured_orders(reports, RungId::TmaWgmma, sim::rung_model(RungId::TmaWgmma).defaults, {1000, 1000, 1000})
                  .empty());
}

TEST(RecordedOrders, NoFolderIsNoRuns) {
  EXPECT_TRUE(load_order_reports({std::filesystem::path("/nonexistent")}).empty());
}

}  // namespace
}  // namespace gemmlab::common
