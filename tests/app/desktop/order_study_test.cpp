// The launch-order panel's data: order choices and their names, and a study's launch positions, wave footprints and
// per-strip DRAM fetches, checked against the launch order and the L2 model they come from.
#include "model/order_study.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "gemmlab/gpu/instances.hpp"
#include "gemmlab/sim/launch_order.hpp"
#include "gemmlab/sim/rung_model.hpp"

namespace gemmlab::desktop {
namespace {

using kernel::OrderKind;

sim::DeviceProfile h100() {
  auto device = sim::find_device(sim::kDefaultDevice);
  EXPECT_TRUE(device.ok());
  return *device;
}

std::shared_ptr<const OrderStudy> study(const sim::Problem& problem, std::string_view order) {
  const auto config = sim::rung_model(RungId::BlockTile2D).defaults;  // 128 x 128 tiles, 2 blocks per SM
  auto result = study_order(RungId::BlockTile2D, config, problem, *sim::parse_order(order), h100());
  EXPECT_TRUE(result.ok()) << result.error().message;
  return *result;
}

TEST(OrderChoice, NamesAreWhatTheCliReads) {
  EXPECT_EQ((OrderChoice{OrderKind::RowMajor, 8}.name()), "row");
  EXPECT_EQ((OrderChoice{OrderKind::ColumnMajor, 8}.name()), "col");
  EXPECT_EQ((OrderChoice{OrderKind::Cutlass, 4}.name()), "cutlass:4");
  EXPECT_EQ((OrderChoice{OrderKind::GroupM, 6}.name()), "groupm:6");
}

TEST(OrderChoice, ABadSizeIsParseOrdersSentence) {
  const auto width = OrderChoice{OrderKind::Cutlass, 6}.order();
  ASSERT_FALSE(width.ok());
  EXPECT_NE(width.error().message.find("power of two"), std::string::npos) << width.error().message;
  EXPECT_FALSE((OrderChoice{OrderKind::GroupM, 0}.order().ok()));
  EXPECT_TRUE((OrderChoice{OrderKind::RowMajor, 0}.order().ok())) << "row has no size to be wrong";
}

TEST(OrderChoice, ParsesAWholeOrderNameAndKeepsTheSizeForRow) {
  const auto cutlass = parse_order_choice("cutlass:4");
  ASSERT_TRUE(cutlass.ok());
  EXPECT_EQ(*cutlass, (OrderChoice{OrderKind::Cutlass, 4}));
  EXPECT_EQ(*parse_order_choice("row", 16), (OrderChoice{OrderKind::RowMajor, 16}));
  EXPECT_EQ(*parse_order_choice("groupm:3", 16), (OrderChoice{OrderKind::GroupM, 3}));
  EXPECT_FALSE(parse_order_choice("groupm:x").ok());
}

TEST(OrderStudy, UsesTheBuildsRegistersWhereTheConfigurationIsCompiled) {
  const auto measured = gpu::measured_registers(RungId::BlockTile2D, sim::rung_model(RungId::BlockTile2D).defaults, h100());
  const auto s = study({1024, 1024, 256}, "row");
  ASSERT_NE(s, nullptr);
  const sim::RegisterCount& used = s->prediction.occupancy.block.registers;
  EXPECT_EQ(used.source, measured ? sim::RegisterSource::Measured : sim::RegisterSource::Estimated);
  if (measured) {
    EXPECT_EQ(used.per_thread, measured->per_thread);
  }
}

TEST(OrderStudy, LaunchPositionsFollowTheOrder) {
  const auto s = study({4096, 4096, 512}, "cutlass:4");
  ASSERT_EQ(s->tiles_m(), 32);
  ASSERT_EQ(s->tiles_n(), 32);
  const auto order = *sim::parse_order("cutlass:4");
  for (int launch = 0; launch < 32 * 32; ++launch) {
    const auto tile = kernel::tile_of_launch(launch, 32, 32, order);
    EXPECT_EQ(s->position_of(tile.row, tile.col), launch);
  }
  EXPECT_EQ(s->blocks_per_wave(), 264);
  EXPECT_EQ(s->wave_of(0, 0), 0);
}

TEST(OrderStudy, WaveFootprintsCountTheTileRowsAndColumnsTogether) {
  const auto row = study({4096, 4096, 512}, "row");
  ASSERT_EQ(row->waves.size(), 4u);  // 1024 blocks, 264 at a time
  EXPECT_EQ(row->waves[0].blocks, 264);
  EXPECT_EQ(row->waves[0].tile_rows(), 9);  // 8 whole rows of 32 and 8 tiles of the ninth
  EXPECT_EQ(row->waves[0].tile_columns(), 32);
  EXPECT_EQ(row->waves[3].first_block, 792);
  EXPECT_EQ(row->waves[3].blocks, 232);
  // Grouped, a wave is nearly square (docs/scheduling.md, section 2): 16 rows x 17 columns.
  const auto grouped = study({4096, 4096, 512}, "groupm:16");
  EXPECT_EQ(grouped->waves[0].tile_rows(), 16);
  EXPECT_EQ(grouped->waves[0].tile_columns(), 17);
}

TEST(OrderStudy, StripFetchesAddUpToTheL2ModelsMisses) {
  const sim::Problem problem{4096, 4096, 4096};
  const auto s = study(problem, "row");
  const auto& l2 = s->prediction.l2;
  const double strip_a = 128.0 * problem.k * 4, strip_b = 128.0 * problem.k * 4;  // bytes of one strip
  const auto times = [](const std::vector<sim::StripFetches>& strips) {
    std::vector<double> out;
    for (const auto& strip : strips) out.push_back(strip.times());
    return out;
  };
  const auto a_times = times(s->a_row_fetches), b_times = times(s->b_column_fetches);
  const double a_bytes = std::accumulate(a_times.begin(), a_times.end(), 0.0) * strip_a;
  const double b_bytes = std::accumulate(b_times.begin(), b_times.end(), 0.0) * strip_b;
  EXPECT_NEAR(a_bytes, 32.0 * static_cast<double>(l2.a.misses()), 1.0);
  EXPECT_NEAR(b_bytes, 32.0 * static_cast<double>(l2.b.misses()), 1.0);
  // Every byte comes from DRAM at least once; row-major re-fetches B, whose columns every wave reads again.
  EXPECT_GE(*std::min_element(a_times.begin(), a_times.end()), 1.0);
  EXPECT_GT(*std::max_element(b_times.begin(), b_times.end()), 2.0);
}

TEST(OrderStudy, WhenEverythingFitsEachStripComesOnce) {
  const auto s = study({1024, 1024, 1024}, "groupm:2");
  for (const auto& strip : s->a_row_fetches) EXPECT_DOUBLE_EQ(strip.times(), 1.0);
  for (const auto& strip : s->b_column_fetches) EXPECT_DOUBLE_EQ(strip.times(), 1.0);
}

// Rows of A that do not start on a sector boundary (k = 100: 400 bytes per row) share a sector with their
// neighbour; a strip read once still counts once (the former strip arithmetic, in elements, said 1.04).
TEST(OrderStudy, UnalignedRowsStillComeOnceWhenEverythingFits) {
  const auto s = study({1024, 1024, 100}, "row");
  for (const auto& strip : s->a_row_fetches) EXPECT_DOUBLE_EQ(strip.times(), 1.0);
  for (const auto& strip : s->b_column_fetches) EXPECT_DOUBLE_EQ(strip.times(), 1.0);
}

TEST(OrderStudy, ReportsProgressAndStopsWhenTold) {
  const auto config = sim::rung_model(RungId::BlockTile2D).defaults;
  double last = 0.0;
  const auto done = study_order(RungId::BlockTile2D, config, {4096, 4096, 512}, {}, h100(), [&](double fraction) {
    last = fraction;
    return true;
  });
  ASSERT_TRUE(done.ok());
  EXPECT_DOUBLE_EQ(last, 1.0);
  const auto stopped = study_order(RungId::BlockTile2D, config, {4096, 4096, 512}, {}, h100(), [](double) { return false; });
  ASSERT_FALSE(stopped.ok());
  EXPECT_NE(stopped.error().message.find("cancelled"), std::string::npos);
}

TEST(OrderStudy, AnOrderLargerThanTheGridIsAnError) {
  const auto config = sim::rung_model(RungId::BlockTile2D).defaults;
  const auto r = study_order(RungId::BlockTile2D, config, {1024, 1024, 256}, *sim::parse_order("groupm:16"), h100());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("larger than the grid's 8 tile rows"), std::string::npos) << r.error().message;
}

}  // namespace
}  // namespace gemmlab::desktop
