#include "gemmlab/sim/schedule_prediction.hpp"

#include <gtest/gtest.h>

#include "gemmlab/sim/launch_order.hpp"
#include "gemmlab/sim/rung_model.hpp"

namespace gemmlab::sim {
namespace {

DeviceProfile device(std::string_view name) { return *find_device(name); }

// The speed the faces show: the time model's on a profile with measured timing, the roofline's bound on one without.
TEST(SchedulePrediction, TheSpeedShownIsTheTimeModelsWhereTheProfileHasTiming) {
  const RungId rung = RungId::BlockTile2D;
  const Problem problem{1024, 1024, 512};
  const auto h100 = predict_schedule(rung, rung_model(rung).defaults, problem, {}, device("h100"));
  const auto a100 = predict_schedule(rung, rung_model(rung).defaults, problem, {}, device("a100"));
  ASSERT_TRUE(h100.ok() && a100.ok());
  ASSERT_TRUE(h100->time.has_value()) << h100->time_note;
  const PredictedSpeed timed = predicted_speed(*h100);
  EXPECT_TRUE(timed.from_time_model);
  EXPECT_DOUBLE_EQ(timed.tflops, h100->time->tflops);
  EXPECT_DOUBLE_EQ(timed.dram_seconds, h100->time->term(TimeTerm::Dram).seconds);
  EXPECT_EQ(timed.limit, std::string(to_string(h100->time->limit)));
  ASSERT_FALSE(a100->time.has_value());
  EXPECT_NE(a100->time_note.find("no measured timing"), std::string::npos) << a100->time_note;
  const PredictedSpeed bound = predicted_speed(*a100);
  EXPECT_FALSE(bound.from_time_model);
  EXPECT_DOUBLE_EQ(bound.tflops, a100->roofline.predicted_tflops);
  EXPECT_EQ(bound.limit, std::string(to_string(a100->roofline.bottleneck)));
}

TEST(SchedulePrediction, PutsOccupancyWavesL2AndRooflineTogether) {
  const RungId rung = RungId::BlockTile2D;
  const auto config = rung_model(rung).defaults;
  const Problem problem{2048, 2048, 1024};
  const auto p = predict_schedule(rung, config, problem, *parse_order("groupm:4"), device("h100"));
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_EQ(p->device.id, "h100-sxm");
  EXPECT_EQ(p->shape.blocks, 256);
  EXPECT_EQ(p->occupancy.block.registers.source, RegisterSource::Estimated);
  EXPECT_EQ(p->occupancy.block.threads, 256);
  const int per_wave = 132 * p->occupancy.blocks_per_sm;
  EXPECT_EQ(p->l2.waves.blocks_per_wave, per_wave);
  EXPECT_EQ(p->l2.waves.waves, (256 + per_wave - 1) / per_wave);
  EXPECT_EQ(p->roofline.wave_seconds.size(), static_cast<std::size_t>(p->l2.waves.waves));
  EXPECT_GT(p->roofline.predicted_tflops, 0);
  EXPECT_LE(p->roofline.predicted_tflops, 66.9) << "never above the FP32 peak";
  EXPECT_FALSE(p->roofline.explanation.empty());
}

TEST(SchedulePrediction, MeasuredRegistersReplaceTheEstimate) {
  const RungId rung = RungId::BlockTile2D;
  const auto config = rung_model(rung).defaults;
  const Problem problem{1024, 1024, 256};
  const auto few = predict_schedule(rung, config, problem, {}, device("h100"),
                                    CompiledFacts{RegisterCount{64, RegisterSource::Measured}, std::nullopt});
  const auto many = predict_schedule(rung, config, problem, {}, device("h100"),
                                     CompiledFacts{RegisterCount{255, RegisterSource::Measured}, std::nullopt});
  ASSERT_TRUE(few.ok() && many.ok());
  EXPECT_EQ(few->occupancy.block.registers.source, RegisterSource::Measured);
  EXPECT_EQ(few->occupancy.blocks_per_sm, 4);
  EXPECT_EQ(many->occupancy.blocks_per_sm, 1);
  EXPECT_LT(many->l2.waves.blocks_per_wave, few->l2.waves.blocks_per_wave);
}

TEST(SchedulePrediction, TheSameConfigurationOnOtherDevices) {
  const RungId rung = RungId::CpAsync;
  const auto config = rung_model(rung).defaults;
  const Problem problem{1024, 1024, 1024};
  const auto h100 = predict_schedule(rung, config, problem, {}, device("h100"));
  const auto gtx = predict_schedule(rung, config, problem, {}, device("gtx-1070"));
  ASSERT_TRUE(h100.ok() && gtx.ok());
  EXPECT_GT(h100->roofline.predicted_tflops, 4 * gtx->roofline.predicted_tflops);
  EXPECT_LT(gtx->l2.waves.blocks_per_wave, h100->l2.waves.blocks_per_wave);

  // 4 stages of 128 x 128 x 32 tiles need 128 KiB of shared memory: fine on the H100, not on the GTX 1070.
  auto big = config;
  big.bk = 32;
  big.stages = 4;
  EXPECT_TRUE(predict_schedule(rung, big, problem, {}, device("h100")).ok());
  const auto refused = predict_schedule(rung, big, problem, {}, device("gtx-1070"));
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("the device allows 49152"), std::string::npos) << refused.error().message;
}

TEST(SchedulePrediction, AnOrderLargerThanTheGridIsAnError) {
  const auto config = rung_model(RungId::BlockTile2D).defaults;
  const auto r = predict_schedule(RungId::BlockTile2D, config, {512, 512, 64}, *parse_order("cutlass:8"), device("h100"));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("larger than the grid's 4 tile columns"), std::string::npos) << r.error().message;
}

}  // namespace
}  // namespace gemmlab::sim
