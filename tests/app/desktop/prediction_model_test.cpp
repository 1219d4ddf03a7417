// The predictions of the selection: the kernel's counters, occupancy and roofline on the device, and the ladder's
// figures, filled in one rung at a time after the work of the panel on show.
#include "model/app_model.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "app_model_support.hpp"
#include "gemmlab/gpu/instances.hpp"

namespace gemmlab::desktop {
namespace {

using namespace std::chrono_literals;
using test_support::options;
using test_support::settle;

TEST(PredictionModel, PredictsEveryRungOnTheDevice) {
  AppModel model(options());
  const PredictionModel& predictions = model.predictions();
  settle(model);
  ASSERT_NE(model.device(), nullptr);
  ASSERT_EQ(predictions.ladder_predictions().size(), rungs().size());
  const auto& selected = predictions.ladder_predictions()[static_cast<std::size_t>(rung_info(model.rung()).number - 1)];
  ASSERT_TRUE(selected.tflops.has_value()) << selected.note;
  ASSERT_TRUE(predictions.prediction().has_value()) << predictions.prediction_error();
  EXPECT_DOUBLE_EQ(*selected.tflops, predictions.prediction()->roofline.predicted_tflops);
  EXPECT_GT(predictions.prediction()->occupancy.blocks_per_sm, 0);
}

// The ladder's figures fill in one rung at a time, after the work of what is on show (the block, the kernel's
// counters) and the selected rung first; the others stay pending ("...") until their turn.
TEST(PredictionModel, LadderFillsInAfterThePanelSelectedRungFirst) {
  Settings s;
  s.rung = "warptile";
  AppModel model(options(s));
  const PredictionModel& predictions = model.predictions();
  const auto selected = static_cast<std::size_t>(rung_info(RungId::WarpTile).number - 1);
  const auto done = [&] {
    return std::ranges::count_if(predictions.ladder_predictions(), [](const RungPrediction& p) { return !p.pending; });
  };
  const auto deadline = std::chrono::steady_clock::now() + 30s;
  while (done() == 0 && std::chrono::steady_clock::now() < deadline) {
    model.update(0.0);
    model.jobs().wait_idle(10ms);
  }
  ASSERT_EQ(done(), 1);
  EXPECT_FALSE(predictions.ladder_predictions()[selected].pending) << "the selected rung comes first";
  EXPECT_TRUE(predictions.kernel_counters_current()) << "the panel's own work comes before the ladder";
  settle(model);
  EXPECT_EQ(done(), static_cast<std::ptrdiff_t>(rungs().size()));
}

// The occupancy panel's registers: the build's count for a compiled configuration (in a CUDA build), the estimate
// for one that is not compiled; the panel prints which.
TEST(PredictionModel, OccupancyUsesTheBuildsRegistersWhereTheConfigurationIsCompiled) {
  AppModel model(options());
  const PredictionModel& predictions = model.predictions();
  model.select_rung(RungId::BlockTile2D);
  settle(model);
  ASSERT_NE(model.device(), nullptr);
  ASSERT_TRUE(predictions.prediction().has_value()) << predictions.prediction_error();
  const auto measured = gpu::measured_registers(RungId::BlockTile2D, model.config(), *model.device());
  const sim::RegisterCount& used = predictions.prediction()->occupancy.block.registers;
  EXPECT_EQ(used.source, measured ? sim::RegisterSource::Measured : sim::RegisterSource::Estimated);
  if (measured) {
    EXPECT_EQ(used.per_thread, measured->per_thread);
  }

  // Not compiled: a CUDA build starts from the nearest compiled configuration (a layout knob apart, so the count does
  // not move and occupancy does not halve); a build without CUDA estimates alone. Either way it says "estimated".
  model.select_rung(RungId::SmemTiling);
  settle(model);
  const auto compiled = gpu::measured_registers(RungId::SmemTiling, model.config(), *model.device());
  const int blocks_compiled = predictions.prediction()->occupancy.blocks_per_sm;
  model.set_knob("a_pad", 1);
  settle(model);
  ASSERT_TRUE(predictions.prediction().has_value()) << predictions.prediction_error();
  const sim::RegisterCount& padded = predictions.prediction()->occupancy.block.registers;
  if (compiled) {
    EXPECT_EQ(padded.source, sim::RegisterSource::NearestCompiled);
    EXPECT_EQ(padded.per_thread, compiled->per_thread);
    EXPECT_EQ(predictions.prediction()->occupancy.blocks_per_sm, blocks_compiled);
  } else {
    EXPECT_EQ(padded.source, sim::RegisterSource::Estimated);
  }
  EXPECT_NE(std::string(sim::to_string(padded.source)).find("estimated"), std::string::npos);
}

}  // namespace
}  // namespace gemmlab::desktop
