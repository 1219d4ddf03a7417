// The time model's block as timeline tracks (see predicted_timeline.hpp).
#include "gemmlab/sim/predicted_timeline.hpp"

#include <algorithm>
#include <cmath>

#include "gemmlab/sim/occupancy.hpp"
#include "gemmlab/sim/statistics.hpp"

namespace gemmlab::sim {

Result<BlockPace> block_pace(const SchedulePrediction& p, int launched_blocks) {
  if (!p.time) return Error{p.time_note.empty() ? "the profile has no measured timing" : p.time_note};
  if (launched_blocks < 1) return Error{"a launch of no blocks has no pace"};
  const TimePrediction& t = *p.time;
  BlockPace pace;
  const int per_wave = std::max(1, blocks_per_wave(p.device, p.occupancy));
  const int waves = (launched_blocks + per_wave - 1) / per_wave;
  pace.ksteps = std::max(1, (p.shape.blocks + launched_blocks - 1) / launched_blocks * p.shape.ksteps);
  pace.kstep_ns = (t.seconds - t.launch_seconds) * 1e9 / (waves * pace.ksteps);
  pace.wait_ns = t.clock_mhz > 0 ? std::min(pace.kstep_ns, t.exposed_wait_cycles * 1e3 / t.clock_mhz) : 0;
  pace.fill_ns = t.fill_seconds * 1e9;
  pace.ksteps_in_flight = std::max(1, t.ksteps_in_flight);
  pace.kernel_ns = t.seconds * 1e9;
  return pace;
}

std::vector<Track> predicted_tracks(const BlockPace& pace, std::int64_t begin_ns, const std::string& consumer_role,
                                    bool producer) {
  const auto at = [&](double ns) { return begin_ns + std::llround(ns); };
  const double first_kstep = pace.fill_ns;
  const auto kstep_begin = [&](int step) { return first_kstep + step * pace.kstep_ns; };
  const auto phase = [](kernel::Section section, int number, int arg, std::int64_t begin, std::int64_t end) {
    return Span{kernel::TraceOp::Phase, section, number, arg, begin, end};
  };
  const auto op = [](kernel::TraceOp what, const Span& in, int arg, std::int64_t begin, std::int64_t end) {
    return Span{what, in.section, in.phase, arg, begin, end};
  };
  const std::int64_t end_ns = at(kstep_begin(pace.ksteps));
  Track consumer{-1, -1, 0, consumer_role, begin_ns, end_ns, 0, {}, true};
  const Span prologue = phase(kernel::Section::Prologue, 0, 0, begin_ns, at(first_kstep));
  consumer.spans.push_back(prologue);
  if (pace.fill_ns > 0)
    consumer.spans.push_back(op(kernel::TraceOp::MbarrierWait, prologue, 0, begin_ns, prologue.end_ns));
  for (int step = 0; step < pace.ksteps; ++step) {
    const Span k = phase(kernel::Section::Mainloop, 0, step, at(kstep_begin(step)), at(kstep_begin(step + 1)));
    consumer.spans.push_back(k);
    if (pace.wait_ns > 0)
      consumer.spans.push_back(
          op(kernel::TraceOp::MbarrierWait, k, step, k.begin_ns, at(kstep_begin(step) + pace.wait_ns)));
  }
  std::vector<Track> out{consumer};
  if (!producer) return out;
  // The producer copies k-step t during k-step t - ksteps_in_flight (the first ones in the prologue).
  Track copier{-1, -1, 1, "producer", begin_ns, end_ns, 0, {}, true};
  const Span first = phase(kernel::Section::Prologue, 0, 0, begin_ns, at(first_kstep));
  copier.spans.push_back(first);
  for (int step = 0; step < std::min(pace.ksteps_in_flight, pace.ksteps); ++step)
    copier.spans.push_back(op(kernel::TraceOp::TmaLoad, first, step, begin_ns, begin_ns));
  for (int step = 0; step < pace.ksteps; ++step) {
    const Span k = phase(kernel::Section::Mainloop, 0, step, at(kstep_begin(step)), at(kstep_begin(step + 1)));
    copier.spans.push_back(k);
    if (step + pace.ksteps_in_flight < pace.ksteps)
      copier.spans.push_back(op(kernel::TraceOp::TmaLoad, k, step + pace.ksteps_in_flight, k.begin_ns, k.begin_ns));
  }
  out.push_back(std::move(copier));
  return out;
}

Result<PredictedPipeline> predicted_pipeline(const SchedulePrediction& p, int stages, int ksteps, bool producer) {
  if (!p.time) return Error{p.time_note.empty() ? "the profile has no measured timing" : p.time_note};
  if (stages < 1 || ksteps < 1) return Error{"a pipeline needs at least one stage and one k-step"};
  const TimePrediction& t = *p.time;
  const double ns_per_cycle = 1e3 / t.clock_mhz;
  // A k-step's bytes streaming in at the SM's share of what the L2 delivers to this kernel's copies (TMA's faster rate
  // where it copies by TMA: the L2 term's). The chain takes its stream at the loads' rate, as a part of the wait that
  // the k-steps in flight hide; laid out stage after stage it is a rate, and the copies' own is the one they get.
  // Where the model has the ring of TMA copies under load (TimePrediction::ring_kstep_cycles), a stage's turn in the
  // SM's stream is the ring's k-step, its latency over the stages already in it: the probe's ring held its copies'
  // latency in its time alone.
  const bool ring = t.ring_kstep_cycles > 0;
  const double latency = ring ? 0.0 : t.copy_latency_cycles * ns_per_cycle;
  const auto stage_stream_ns = [&] {
    if (ring) return t.ring_kstep_cycles * ns_per_cycle;
    const double l2_rate = t.term(TimeTerm::L2).rate;
    if (l2_rate <= 0) return t.copy_stream_cycles * ns_per_cycle;
    return t.in_flight_bytes / std::max(1, t.ksteps_in_flight) / (l2_rate / std::max(1, p.device.sms)) * 1e9;
  };
  const double stream = stage_stream_ns();
  const double multiply = t.block_kstep_cycles * ns_per_cycle;
  PredictedPipeline out;
  out.stages = stages, out.producer = producer;
  out.steps.resize(static_cast<std::size_t>(ksteps));
  // released[j]: when step j's stage is free again (the consumers' wait for the group after it has returned).
  std::vector<double> released(static_cast<std::size_t>(ksteps), 0.0);
  double copier = 0, delivered = 0;  // the copier's clock, and when the SM's stream of copies is next free
  const auto copy = [&](int j, double free_at) {
    PipelineStep& s = out.steps[static_cast<std::size_t>(j)];
    s.producer_wait_ns = std::max(0.0, free_at - copier);
    s.copy_issue_ns = copier = std::max(copier, free_at);
    s.copy_land_ns = delivered = std::max(s.copy_issue_ns + latency, delivered) + stream;
  };
  for (int j = 0; j < std::min(stages, ksteps); ++j) copy(j, 0.0);  // the prologue fills the ring
  int copied = std::min(stages, ksteps);
  double consumer = 0, previous_end = 0;
  for (int i = 0; i < ksteps; ++i) {
    PipelineStep& s = out.steps[static_cast<std::size_t>(i)];
    s.wait_begin_ns = consumer;
    s.ready_ns = std::max(consumer, s.copy_land_ns);
    s.multiply_end_ns = std::max(s.ready_ns, previous_end) + multiply;
    // The wait for the group before: its stage is then free, and the consumers go on to the next k-step.
    consumer = std::max(s.ready_ns, previous_end);
    if (i > 0) released[static_cast<std::size_t>(i - 1)] = consumer;
    previous_end = s.multiply_end_ns;
    // A producer refills a stage as soon as it is released; thread 0 of a block without one, at the end of the k-step.
    while (copied < ksteps && copied - stages <= i - 1) {
      const double free_at = released[static_cast<std::size_t>(copied - stages)];
      copy(copied, producer ? free_at : std::max(free_at, consumer));
      ++copied;
    }
  }
  std::vector<double> kstep, to_use, waited, producer_waits;
  for (int i = 0; i < ksteps; ++i) {
    const PipelineStep& s = out.steps[static_cast<std::size_t>(i)];
    if (i + 1 < ksteps) kstep.push_back(out.steps[static_cast<std::size_t>(i + 1)].ready_ns - s.ready_ns);
    to_use.push_back(s.ready_ns - s.copy_issue_ns);
    waited.push_back(s.ready_ns - s.wait_begin_ns);
    if (i >= stages) producer_waits.push_back(s.producer_wait_ns);
  }
  out.median_kstep_ns = median(kstep);
  out.median_copy_to_use_ns = median(to_use);
  out.median_consumer_wait_ns = median(waited);
  out.median_producer_wait_ns = median(producer_waits);
  return out;
}

Result<PredictedPipeline> busiest_sm_pipeline(const SchedulePrediction& p) {
  if (!p.time) return Error{p.time_note.empty() ? "the profile has no measured timing" : p.time_note};
  const int ksteps = std::clamp(static_cast<int>(std::lround(p.time->tiles_on_busiest_sm * p.shape.ksteps)), 1, 4096);
  return predicted_pipeline(p, p.time->ksteps_in_flight, ksteps, p.time->copies_beside);
}

}  // namespace gemmlab::sim
