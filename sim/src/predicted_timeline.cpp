// The time model's block as timeline tracks (see predicted_timeline.hpp).
#include "gemmlab/sim/predicted_timeline.hpp"

#include <algorithm>
#include <cmath>

#include "gemmlab/sim/occupancy.hpp"

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

}  // namespace gemmlab::sim
