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

// The time model's figures laid out operation by operation: one block's k-steps as its warps run them. A stage's copies
// go out when the stage is free (a producer's wait on its mbarrier, or, without a producer, when the block barrier
// that ends the k-step before lets thread 0 refill it), start landing a latency later, and stream in one stage after
// another at the SM's share of the L2 (TimePrediction::copy_latency_cycles, copy_stream_cycles). The consumers wait
// for a stage to land, issue its k-step of multiplications (the block's own k-step, block_kstep_cycles, one group after
// another) and wait for the group before, whose stage they then release. `stages` is the ring's size; the time model
// counts stages - 1 k-steps of copies in flight ahead, where this schedule shows how many the release point leaves.
struct PipelineStep {
  double copy_issue_ns = 0, copy_land_ns = 0;  // the stage's copies: issued, landed
  double wait_begin_ns = 0, ready_ns = 0;      // the consumers: at the stage's mbarrier, from and to
  double multiply_end_ns = 0;                  // its group of multiplications done
  double producer_wait_ns = 0;                 // the copier's wait for the stage to be free
};
struct PredictedPipeline {
  int stages = 0;                   // the ring laid out
  bool producer = false;            // a copier of its own (else thread 0 after the block barrier)
  std::vector<PipelineStep> steps;  // a block's k-steps
  double median_kstep_ns = 0;       // from one k-step's ready to the next's
  double median_copy_to_use_ns = 0, median_consumer_wait_ns = 0, median_producer_wait_ns = 0;
};
// From a schedule prediction that has a time model, for `ksteps` k-steps (at least one) of a ring of `stages`;
// `producer`: a warp-specialised block (a copier of its own) or one whose thread 0 refills after the barrier.
Result<PredictedPipeline> predicted_pipeline(const SchedulePrediction& prediction, int stages, int ksteps,
                                             bool producer);
// The busiest SM's pipeline: its k-steps one block after another, as a persistent block walks its tiles (the epilogues
// between them left out), enough of them for the medians; the ring the time model counts in flight, and a copier of
// its own where the time model has the copies issued by a producer warp (TimePrediction::copies_beside).
Result<PredictedPipeline> busiest_sm_pipeline(const SchedulePrediction& prediction);

}  // namespace gemmlab::sim
