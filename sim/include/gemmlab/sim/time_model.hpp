#pragma once
// The time model: how long a kernel takes, predicted from what the simulator counts and the device's measured timing
// parameters (DeviceProfile::timing, measured by tests/calibration/timing.cu). Unlike the roofline (roofline.hpp),
// which is an upper bound on speed, it aims at the measured time; docs/fidelity.md compares the two with the GPU.
//
// Each term is one resource, costed alone at its measured rate. Four are busy inside each SM, costed for the
// busiest SM (the one that runs the most blocks):
//   issue       every warp instruction a warp executes, 4 a clock: the compiled SASS's count where the build recorded
//               it (compiled_code.hpp: address arithmetic and loop control included), else the description's own
//               (FFMA/32, mma, wgmma per warp, memory)
//   data pipe   the L1/shared-memory data pipe: shared-memory wavefronts plus the 128-byte lines of global accesses,
//               each at its measured rate, one a clock on the H100 (ncu counts both in l1tex__data_pipe_lsu_wavefronts);
//               what uncoalesced loads and bank conflicts cost
//   tensor      the tensor cores' multiply-adds (mma.sync at its measured rate, wgmma at the whitepaper's)
//   copies      the TMA copies one thread issues: a fixed number of cycles per copy plus its bytes at a rate, both
//               measured by tests/calibration/tma_rate.cu, and at least a cycle a row of each box (what the many
//               small boxes of narrow swizzle modes cost)
// These share the SM's warps and its shared memory and overlap only in part (a warp waiting on one cannot feed
// another), so the SM's time is their p-norm with p = kOverlapNorm: the largest term when one dominates, more than it
// when several are close. Where a producer warp of its own issues the copies (the warp-specialised rungs), they run
// beside the consumers' work, and the SM's time is the longer of the copies and the others' p-norm. More bound the
// kernel from outside the SM: the L2 (the bytes it delivers into the SMs, at
// the measured bandwidth: a resource the SMs share, on its own clock; the L2 model's sectors, or where TMA multicasts a
// copy into several SMs, every SM's landed bytes, since multicast halves the L2's reads but not the SMs' intake, as
// ncu showed for rung 19), DRAM (the L2 model's misses and writes) and
// the k-step chain, latency (a block's k-steps one after another: each its own work, its barriers, each draining its
// warps, and the wait for its tiles from L2 that the k-steps in flight leave: a stage is refilled once the next k-step
// lets it go, so all in flight but one cover its wait; the other resident blocks overlap). DRAM's
// term is its bandwidth's, combined with what each SM's bytes in flight bring in where the profile measured that
// (tests/calibration/tma_dram.cu). The prediction is the largest of the L2, the chain, and the SM's combined terms
// with DRAM's (their p from the k-steps in flight: dram_overlap_norm), plus the launch (what an empty kernel takes,
// timed as the benchmark times a run), filling the pipeline (the first k-step of each round of blocks waits for its
// tiles whatever is in flight, and at the start DRAM serves every SM's first requests at its bandwidth) and the drain
// (the tiles computed last store C with no k-step left to overlap them; split-K's and Stream-K's turns at C instead).
// The SM's clock is the one the card holds under sustained FP32 or tensor-core load, or where the profile has the
// line of its wgmma kernels' clocks, the line's at the share of the time the kernel keeps the tensor cores busy.
//
// What it leaves out (docs/fidelity.md measures what that costs): dependencies inside a warp, the compiler's unrolling
// of loops that load without shared memory, and the clock's variation with the card's thermal history.
#include <string>
#include <string_view>
#include <vector>

#include "gemmlab/kernel/config.hpp"
#include "gemmlab/result.hpp"
#include "gemmlab/rungs.hpp"
#include "gemmlab/sim/compiled_code.hpp"
#include "gemmlab/sim/device_profile.hpp"
#include "gemmlab/sim/l2_model.hpp"
#include "gemmlab/sim/occupancy.hpp"
#include "gemmlab/sim/problem.hpp"
#include "gemmlab/sim/simulate.hpp"

namespace gemmlab::sim {

enum class TimeTerm { Issue, DataPipe, TensorCores, L2, Dram, Latency, Copies };
inline constexpr TimeTerm kTimeTerms[] = {TimeTerm::Issue, TimeTerm::DataPipe, TimeTerm::TensorCores, TimeTerm::L2,
                                          TimeTerm::Dram,  TimeTerm::Latency,  TimeTerm::Copies};
std::string_view to_string(TimeTerm term);
// What a term counts: "warp instructions", "wavefronts", "multiply-adds", "bytes" (L2, DRAM), "k-steps", "TMA copies".
std::string_view unit_of(TimeTerm term);

// How the SM's own terms combine: the p of their p-norm. 1 would add them (no overlap), infinity take the largest
// (perfect overlap). 2, the same for every rung, configuration and size.
inline constexpr double kOverlapNorm = 2.0;
// How the SM's combined terms and DRAM's combine: each SM's k-steps wait for stages that DRAM fills, so they overlap
// only in part too, and the more k-steps a block has coming while it multiplies one, the more (dram_overlap_norm). A
// rule like kOverlapNorm, not a probe's figure: p = 3 with two k-steps coming (three stages) put the most of the LLM
// sweep's Llama 3 pairs within 20% of their measured times (of 2, 3 and 4), and half more per k-step coming ranked each
// shape's configurations closer to their measured order in all four recorded `--tuned 6` sweeps (docs/time-model.md,
// "Deeper rings overlap DRAM more").
inline constexpr double kDramOverlapBase = 2.0, kDramOverlapPerKstep = 0.5, kDramOverlapMax = 4.0;
// What one of a turn at C's trips to the L2 takes (split-K's and Stream-K's serial reduction), in the L2's latency as
// the pointer chase measures it (DeviceTiming::latency_l2_cycles): a range's turns traced one after another on the GPU
// (every block sampled) took twice what their trips at that latency and their tile's bytes add up to (the poll's
// back-off, the fence that waits for the stores' acknowledgements: docs/rungs/23-tma-wgmma-streamk.md, "A decode
// step's turns at C, traced").
inline constexpr double kTurnTripLatencies = 2.0;
// Split-K's serial turns at C, block by block: the launch's blocks take the first free slot (room for one resident
// block on an SM) in launch order, a tile's `splits` ranges one after another; each runs its range of k-steps
// (`range_seconds`), then every range after the first takes its turn at C (`turn_seconds`) once its k-steps and the
// turn before are done, and frees its slot when its own turn ends. Returns how much later the last turn ends than
// the k-steps alone would have (their rounds of `range_seconds`): in the first round the whole chain of turns; later,
// what a tile's ranges, started apart, still wait, holding their slots.
double split_turns_seconds(int tiles, int splits, int slots, double range_seconds, double turn_seconds);
// The p of the SM's combined terms and DRAM's for a kernel with `ksteps_in_flight` k-steps in flight (its stages, the
// one it multiplies among them): kDramOverlapBase + kDramOverlapPerKstep per k-step coming, at most kDramOverlapMax.
double dram_overlap_norm(int ksteps_in_flight);

struct TermTime {
  TimeTerm term = TimeTerm::Issue;
  double seconds = 0;  // the kernel's time if this were its only cost
  double work = 0;     // what the busiest SM does of it (L2, DRAM: the whole kernel's bytes; latency: its k-steps)
  double rate = 0;     // per clock per SM (L2, DRAM: bytes per second; latency: cycles a k-step waits; copies: copies
                       // a clock on one SM, their bytes included)
};

struct TimePrediction {
  std::vector<TermTime> terms;  // one per TimeTerm, in kTimeTerms' order
  double clock_mhz = 0;         // the clock assumed: FP32 or tensor-core load, or the line's (below)
  // The share of the predicted time the SMs' tensor cores work, on average over the SMs (what ncu's
  // sm__pipe_tensor_cycles_active averages), and whether it set the clock (a wgmma kernel on a profile with the
  // clock's line: wgmma_clock_mhz).
  double tensor_busy_share = 0;
  bool clock_follows_tensor_load = false;
  double sm_seconds = 0;        // issue, data pipe, tensor cores and copy engine combined (kOverlapNorm)
  bool copies_beside = false;   // a producer warp issues the copies: they overlap the rest wholly (the longer counts)
  double launch_seconds = 0;    // the launch, as events time it
  double fill_seconds = 0;      // each round of blocks waiting for its first tiles
  double split_seconds = 0;     // split-K: each round's tiles' ranges adding up in C one after another
  double drain_seconds = 0;     // the tiles computed last storing C, with no k-step left to overlap them
  // A data-parallel block that stores its tile from registers after its last k-step does nothing else meanwhile, nor
  // does a Stream-K block storing the pieces of the tiles it cuts: the busiest SM's tiles' (pieces') stores
  // (tile_stores_seconds), after its k-steps (stores_after_ksteps_seconds: the SM's work, the chain or the L2's
  // reads, the longest), with the launch, the fills and the turns' waits at C (stores_after_turn_waits_seconds: the
  // turns without their writes of C, which the pieces' stores are), make a path the kernel takes at least
  // (stores_after_seconds; 0 where it does not apply). A persistent block that walks whole tiles takes the same path,
  // its tiles' switches (MachineTiming::tile_switch_seconds each) in place of their stores (tile_switches: true); a
  // Stream-K block's pieces add a switch each beside their stores. after_ksteps names what tile_stores_seconds counts.
  double tile_stores_seconds = 0, stores_after_ksteps_seconds = 0, stores_after_turn_waits_seconds = 0;
  double stores_after_seconds = 0;
  bool tile_switches = false;
  std::string_view after_ksteps = "";  // "the tiles' stores", "the tiles' switches", "the pieces' stores and switches"
  bool stores_after_limit = false;  // that path is the prediction
  double l2_store_bytes = 0;  // of the L2 term's bytes, the stores: C's, and split-K's and Stream-K's partial sums
  double sm_and_dram_seconds = 0;  // sm_seconds and DRAM's term combined (dram_overlap_norm)
  double in_flight_bytes = 0;      // what an SM keeps in flight: its k-steps in flight, of each resident block
  double dram_in_flight_bytes = 0;  // of those, what DRAM brings in while a k-step waits (the stages but the one
                                    // held, the L2's misses): the DRAM stream's bytes
  // The busiest SM's DRAM reads at what its bytes in flight bring in, and that rate (0: the profile has not measured it).
  double dram_stream_seconds = 0, dram_stream_bytes_per_second = 0;
  // What split_seconds is: the ranges' (Stream-K's pieces') turns at C, or (workspace = 1) each tile's last range
  // adding the others' sums.
  std::string_view split_wording = "split-K's ranges taking turns at C";
  double seconds = 0;           // the prediction: the largest of sm_seconds and DRAM combined (dram_overlap_norm), L2
                                // and latency, plus the fixed costs above and the drain
  double tflops = 0;            // useful FLOPs (2 m n k) / seconds
  TimeTerm limit = TimeTerm::Issue;  // what sets the prediction: L2, DRAM, the chain, or the SM's largest term
  // Where the issue term's instructions come from: the SASS of this configuration, of its nearest compiled neighbour
  // (estimated), or the description alone; the whole kernel's warp instructions so counted (ncu's
  // smsp__inst_executed.sum), and the description's own count among them.
  enum class IssueSource { Description, Sass, NeighbourSass } issue_source = IssueSource::Description;
  double kernel_instructions = 0, kernel_description_instructions = 0;
  // Tiles the busiest SM computes: its blocks, or a persistent rung's blocks' tiles (under Stream-K, k-steps in tiles:
  // a fraction where its range ends mid-tile).
  double tiles_on_busiest_sm = 0;
  int ksteps_in_flight = 1;
  // Where the compiled loop's waits for its global loads set the chain (a kernel without shared memory): how many a
  // warp makes per k-step, each the whole wait for tiles; 0 where the description's stages set it.
  double load_waits_per_kstep = 0;
  MainLoop main_loop;           // the compiled main loop as the build recorded it (default: none recorded)
  int barriers_per_kstep = 0;   // block-wide barriers in a k-step of the main loop (latency: each drains the block)
  double block_kstep_cycles = 0;   // a block's own k-step: its resources' p-norm and its barriers
  double exposed_wait_cycles = 0;  // what the k-steps in flight leave of the wait for tiles, per k-step
  // A TMA kernel's k-step as its ring of copies under load brings it in (the profile's tma_ring_alone_seconds and
  // l2_tma_queue_bytes_per_second): the ring's latency over its stages, and its bytes through the L2's queue; 0 where
  // the profile lacks them or the kernel copies without TMA. The chain takes it where it is the longer.
  double ring_kstep_cycles = 0;
  // Of fill_seconds, the clusters' barriers on entry and before exit, one pair for each round of resident blocks (the
  // profile's cluster_barriers_seconds; 0 for blocks without a cluster).
  double cluster_barrier_seconds = 0;
  // That wait's two parts: its first sector's latency (the L2's, and DRAM's for the misses), and the rest of a k-step's
  // tiles streaming in at the SM's share of the L2 (predicted_pipeline lays them out copy by copy).
  double copy_latency_cycles = 0, copy_stream_cycles = 0;
  double copy_bytes_per_copy = 0;  // the TMA copies' average bytes (what the matrices give them; the copies term)
  double l2_split_bytes = 0;  // of the L2 term's bytes, those it sends a second time to cp.async copies (Rule G5)
  double copy_stores = 0;     // of the copies term's copies on the busiest SM, the TMA stores of C (rung 20's tma_store)
  double copy_partner = 0;    // and a cluster partner's multicast copies that land there
  std::string explanation;      // the limit with its numbers, in words a learner reads

  const TermTime& term(TimeTerm t) const { return terms[static_cast<std::size_t>(t)]; }
};

struct TimeModelInput {
  RungId rung;
  kernel::KernelConfig config;
  Problem problem;
  const KernelCounters* counters = nullptr;  // simulate_kernel's, for this rung, configuration and problem
  const Occupancy* occupancy = nullptr;
  const L2Result* l2 = nullptr;
  const CompiledCode* code = nullptr;  // the kernel's SASS regions, where the build recorded them
};

// An error when the profile has no measured timing (only the roofline is then available) or an input is missing.
Result<TimePrediction> predict_time(const TimeModelInput& input, const DeviceProfile& device);

// The full-load clock of a wgmma kernel whose tensor cores work this share of its time, on the profile's line
// (MachineTiming::wgmma_clock_mhz_pipe_idle and _busy; the share is clamped to [0, 1]).
double wgmma_clock_mhz(const MachineTiming& timing, double tensor_busy_share);

}  // namespace gemmlab::sim
