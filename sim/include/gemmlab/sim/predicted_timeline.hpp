#pragma once
// The time model's view of one block as a timeline, in the measured timeline's terms (sim/timeline.hpp), so that a
// trace file holds both, one above the other: the model's k-steps beside the k-steps the GPU ran.
//
// The time model is not a schedule of single operations: it gives a kernel's time and, per k-step, the part of the
// wait for tiles that the k-steps in flight leave exposed. So the model's block is drawn from three figures:
//   - its k-step: the predicted time, less the launch, spread over the waves and each block's k-steps;
//   - in each k-step, the consumers' wait for its tiles: the exposed wait, at the model's clock;
//   - before the first k-step, the wait for the first tiles (the fill term's).
// The producer, where the block has one, issues a k-step's copies `ksteps_in_flight` k-steps before the consumers use
// them (the first ones in the prologue).
#include <string>
#include <vector>

#include "gemmlab/result.hpp"
#include "gemmlab/sim/schedule_prediction.hpp"
#include "gemmlab/sim/timeline.hpp"

namespace gemmlab::sim {

struct BlockPace {
  double kstep_ns = 0;  // a block's k-step
  double wait_ns = 0;   // of which a consumer waits for the stage's tiles
  double fill_ns = 0;   // the wait for the first tiles, before the first k-step
  int ksteps = 0;       // a block's k-steps (a persistent block's, over its tiles)
  int ksteps_in_flight = 1;
  double kernel_ns = 0;  // the predicted kernel
};

// From a schedule prediction that has a time model, for a launch of `launched_blocks` blocks; an error (the
// prediction's time note) where the profile has no measured timing.
Result<BlockPace> block_pace(const SchedulePrediction& prediction, int launched_blocks);

// The model's block as tracks starting at `begin_ns`, marked predicted: a consumer track (named `consumer_role`:
// "consumer", or "warpgroup" for a rung without roles) and, with a producer, a producer track.
std::vector<Track> predicted_tracks(const BlockPace& pace, std::int64_t begin_ns, const std::string& consumer_role,
                                    bool producer);

}  // namespace gemmlab::sim
