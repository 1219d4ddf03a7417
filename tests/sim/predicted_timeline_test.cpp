// The time model's block as a timeline (gemmlab/sim/predicted_timeline.hpp): its pace from a schedule prediction, and
// tracks that nest, go into the trace file beside the measured ones and stay out of the measured summary.
#include "gemmlab/sim/predicted_timeline.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "gemmlab/sim/device_profile.hpp"
#include "gemmlab/sim/rung_model.hpp"

namespace gemmlab::sim {
namespace {

SchedulePrediction specialised_at_4096() {
  const auto profile = find_device("h100");
  EXPECT_TRUE(profile);
  const auto p = predict_schedule(RungId::TmaWgmmaSpecialized, rung_model(RungId::TmaWgmmaSpecialized).defaults,
                                  {4096, 4096, 4096}, {}, *profile);
  EXPECT_TRUE(p) << p.error().message;
  return *p;
}

int count(const Track& t, kernel::TraceOp op, kernel::Section section) {
  return static_cast<int>(
      std::ranges::count_if(t.spans, [&](const Span& s) { return s.op == op && s.section == section; }));
}

TEST(PredictedTimeline, ABlocksKStepsSpreadThePredictedTimeOverTheWaves) {
  const SchedulePrediction p = specialised_at_4096();
  const int launched = p.shape.blocks;
  const auto pace = block_pace(p, launched);
  ASSERT_TRUE(pace) << pace.error().message;
  EXPECT_EQ(pace->ksteps, p.shape.ksteps);  // a block of one tile
  EXPECT_GT(pace->kstep_ns, 0);
  EXPECT_LE(pace->wait_ns, pace->kstep_ns);
  const int per_wave = p.device.sms * p.occupancy.blocks_per_sm;
  const int waves = (launched + per_wave - 1) / per_wave;
  EXPECT_NEAR(pace->kstep_ns * pace->ksteps * waves + p.time->launch_seconds * 1e9, pace->kernel_ns,
              1e-6 * pace->kernel_ns);
  EXPECT_FALSE(block_pace(p, 0));
  SchedulePrediction untimed = p;
  untimed.time.reset(), untimed.time_note = "this profile has no measured timing";
  const auto none = block_pace(untimed, launched);
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().message, "this profile has no measured timing");
}

TEST(PredictedTimeline, TheModelsBlockNestsAndItsProducerCopiesAheadOfTheConsumers) {
  BlockPace pace;
  pace.kstep_ns = 800, pace.wait_ns = 300, pace.fill_ns = 1500, pace.ksteps = 6, pace.ksteps_in_flight = 3;
  const auto tracks = predicted_tracks(pace, 1000, "consumer", true);
  ASSERT_EQ(tracks.size(), 2u);
  const Track& consumer = tracks[0];
  const Track& producer = tracks[1];
  EXPECT_TRUE(consumer.predicted && producer.predicted);
  EXPECT_EQ(consumer.begin_ns, 1000);
  EXPECT_EQ(consumer.end_ns, 1000 + 1500 + 6 * 800);
  EXPECT_EQ(count(consumer, kernel::TraceOp::Phase, kernel::Section::Mainloop), 6);
  EXPECT_EQ(count(consumer, kernel::TraceOp::MbarrierWait, kernel::Section::Mainloop), 6);
  // Every k-step's copies issued once: three in the prologue, then one a k-step, three k-steps ahead.
  EXPECT_EQ(count(producer, kernel::TraceOp::TmaLoad, kernel::Section::Prologue), 3);
  EXPECT_EQ(count(producer, kernel::TraceOp::TmaLoad, kernel::Section::Mainloop), 3);
  const auto load = std::ranges::find_if(producer.spans, [](const Span& s) {
    return s.op == kernel::TraceOp::TmaLoad && s.section == kernel::Section::Mainloop;
  });
  EXPECT_EQ(load->arg, 3);
  EXPECT_EQ(load->begin_ns, 1000 + 1500);
  Timeline t;
  t.tracks = tracks;
  EXPECT_TRUE(check_nesting(t));
  EXPECT_EQ(predicted_tracks(pace, 0, "warpgroup", false).size(), 1u);
}

TEST(PredictedTimeline, ItIsWrittenBesideTheMeasurementAndLeftOutOfItsSummary) {
  BlockPace pace;
  pace.kstep_ns = 800, pace.wait_ns = 300, pace.ksteps = 4;
  Timeline t;
  t.tracks.push_back(
      {5, 12, 0, "consumer", 0, 4000, 0, {{kernel::TraceOp::Phase, kernel::Section::Mainloop, 0, 0, 100, 900}}, false});
  for (Track& p : predicted_tracks(pace, 0, "consumer", true)) t.tracks.push_back(std::move(p));
  const std::string text = chrome_trace_json(t);
  EXPECT_NE(text.find("predicted by the time model"), std::string::npos);
  const auto back = parse_chrome_trace(text);
  ASSERT_TRUE(back) << back.error().message;
  ASSERT_EQ(back->tracks.size(), 3u);
  EXPECT_EQ(std::ranges::count_if(back->tracks, [](const Track& x) { return x.predicted; }), 2);
  const TimelineSummary s = summarize(*back);
  ASSERT_EQ(s.roles.size(), 1u);
  EXPECT_EQ(s.roles[0].tracks, 1);  // the measured consumer alone
  EXPECT_EQ(s.roles[0].ksteps, 1);
}

// A prediction whose k-step figures are given: the block's own k-step, a copy's latency, and the L2 rate that, with
// the bytes of a k-step in flight, streams a stage in `stream_ns` on one SM; no ring of copies (below for one).
SchedulePrediction paced(double kstep_ns, double latency_ns, double stream_ns, int stages) {
  SchedulePrediction p = specialised_at_4096();
  TimePrediction& t = *p.time;
  t.clock_mhz = 1000;  // a cycle a nanosecond
  t.ring_kstep_cycles = 0;
  t.block_kstep_cycles = kstep_ns, t.copy_latency_cycles = latency_ns;
  t.ksteps_in_flight = stages, t.in_flight_bytes = 1e6 * stages;  // a megabyte a k-step
  t.terms[static_cast<std::size_t>(TimeTerm::L2)].rate = 1e6 / (stream_ns * 1e-9) * p.device.sms;
  return p;
}

TEST(PredictedPipeline, EnoughStagesHideTheCopiesAndTheTensorCoresSetTheKStep) {
  // 800 ns of multiplying a k-step; a stage lands 1000 ns after its issue plus 300 streaming in; 4 stages.
  const auto pipe = predicted_pipeline(paced(800, 1000, 300, 4), 4, 64, true);
  ASSERT_TRUE(pipe) << pipe.error().message;
  EXPECT_NEAR(pipe->median_kstep_ns, 800, 1e-6);
  EXPECT_NEAR(pipe->median_consumer_wait_ns, 0, 1e-6);
  // The consumers release a stage when the group after it is issued, one group behind: its refill goes out two
  // k-steps (stages - 2) before its use.
  EXPECT_NEAR(pipe->median_copy_to_use_ns, 2 * 800, 1e-6);
  EXPECT_NEAR(pipe->median_producer_wait_ns, 800, 1e-6);
  for (const PipelineStep& s : pipe->steps) {
    EXPECT_LE(s.copy_issue_ns + 1000 + 300, s.copy_land_ns + 1e-6) << "a copy lands no sooner than its flight";
    EXPECT_LE(s.copy_land_ns, s.ready_ns + 1e-6) << "the consumers use a stage once it has landed";
    EXPECT_LE(s.ready_ns + 800, s.multiply_end_ns + 1e-6);
  }
}

TEST(PredictedPipeline, TooFewStagesLeaveTheConsumersWaitingAndTheStreamCanSetThePace) {
  // Two stages cannot cover a 2000 ns flight: the consumers wait at every k-step.
  const auto short_ring = predicted_pipeline(paced(800, 2000, 300, 2), 2, 64, true);
  ASSERT_TRUE(short_ring);
  EXPECT_GT(short_ring->median_consumer_wait_ns, 0);
  EXPECT_GT(short_ring->median_kstep_ns, 800);
  // A stage that takes longer to stream in than to multiply: the stream sets the k-step.
  const auto streaming = predicted_pipeline(paced(500, 300, 900, 4), 4, 64, true);
  ASSERT_TRUE(streaming);
  EXPECT_NEAR(streaming->median_kstep_ns, 900, 1e-6);
  EXPECT_GT(streaming->median_consumer_wait_ns, 0);
}

// Where the model has the ring of TMA copies under load, each stage takes the ring's k-step from its turn in the SM's
// stream (its latency is in it): shorter than the block's k-step, the consumers never wait; longer, it sets the pace.
TEST(PredictedPipeline, TheRingOfCopiesSetsEachStagesTurn) {
  const auto ring = [](double ring_ns) {
    SchedulePrediction p = paced(800, 1000, 300, 4);
    p.time->ring_kstep_cycles = ring_ns;
    return p;
  };
  const auto hidden = predicted_pipeline(ring(600), 4, 64, true);
  ASSERT_TRUE(hidden) << hidden.error().message;
  EXPECT_NEAR(hidden->median_kstep_ns, 800, 1e-6);
  EXPECT_NEAR(hidden->median_consumer_wait_ns, 0, 1e-6);
  const auto pacing = predicted_pipeline(ring(1000), 4, 64, true);
  ASSERT_TRUE(pacing);
  EXPECT_NEAR(pacing->median_kstep_ns, 1000, 1e-6);
  EXPECT_GT(pacing->median_consumer_wait_ns, 0);
  for (std::size_t i = 1; i < pacing->steps.size(); ++i)
    EXPECT_GE(pacing->steps[i].copy_land_ns, pacing->steps[i - 1].copy_land_ns + 1000 - 1e-6);
}

TEST(PredictedPipeline, TheBusiestSmWalksItsTilesWithTheRingTheModelCountsAndItsRungsCopier) {
  const auto h100 = find_device("h100");
  ASSERT_TRUE(h100);
  for (const RungId rung : {RungId::TmaWgmma, RungId::TmaWgmmaSpecialized}) {
    const kernel::KernelConfig& config = rung_model(rung).defaults;
    const auto p = predict_schedule(rung, config, {4096, 4096, 4096}, {}, *h100);
    ASSERT_TRUE(p && p->time) << rung_info(rung).slug;
    const auto pipe = busiest_sm_pipeline(*p);
    ASSERT_TRUE(pipe) << pipe.error().message;
    EXPECT_EQ(pipe->stages, p->time->ksteps_in_flight);
    EXPECT_EQ(pipe->producer, warp_roles(rung, config).has_value()) << rung_info(rung).slug;
    EXPECT_EQ(static_cast<double>(pipe->steps.size()), std::round(p->time->tiles_on_busiest_sm * p->shape.ksteps));
  }
  const auto rung17 =
      predict_schedule(RungId::TmaWgmma, rung_model(RungId::TmaWgmma).defaults, {4096, 4096, 4096}, {}, *h100);
  ASSERT_TRUE(rung17 && rung17->time);
  EXPECT_FALSE(busiest_sm_pipeline(*rung17)->producer);  // rung 17's thread 0 refills after the block barrier
  SchedulePrediction untimed = specialised_at_4096();
  untimed.time.reset(), untimed.time_note = "this profile has no measured timing";
  EXPECT_FALSE(busiest_sm_pipeline(untimed));
}

TEST(PredictedPipeline, BadInputIsASentence) {
  SchedulePrediction untimed = specialised_at_4096();
  untimed.time.reset(), untimed.time_note = "this profile has no measured timing";
  EXPECT_FALSE(predicted_pipeline(untimed, 4, 8, true));
  EXPECT_FALSE(predicted_pipeline(specialised_at_4096(), 0, 8, true));
  EXPECT_FALSE(predicted_pipeline(specialised_at_4096(), 4, 0, true));
}

}  // namespace
}  // namespace gemmlab::sim
