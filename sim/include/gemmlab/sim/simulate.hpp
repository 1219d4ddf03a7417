#pragma once
// The simulator's entry points: a rung's instruction stream for a configuration and a problem, its counters per
// k-step, block and kernel, and functional execution on the CPU.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gemmlab/kernel/block_order.hpp"
#include "gemmlab/kernel/config.hpp"
#include "gemmlab/kernel/stream_k.hpp"
#include "gemmlab/kernel/context.hpp"
#include "gemmlab/kernel/element.hpp"
#include "gemmlab/memory_model.hpp"
#include "gemmlab/result.hpp"
#include "gemmlab/rungs.hpp"
#include "gemmlab/kernel/wgmma.hpp"
#include "gemmlab/sim/counters.hpp"
#include "gemmlab/sim/problem.hpp"
#include "gemmlab/sim/progress.hpp"

namespace gemmlab::sim {

// Where a phase sits in a block's schedule.
struct PhaseRef {
  kernel::Section section = kernel::Section::Mainloop;
  int kstep = 0;
  int phase = 0;
};

// One warp memory instruction of the stream, with its cost.
struct WarpInstruction {
  int warp = 0;
  int index = 0;  // position in the warp's stream within the phase
  WarpAccess access;
  // The lanes that read or write global memory: the active ones, less cp.async lanes that only zero-fill shared
  // memory (predicate off; their access.address is 0). Use it as the active mask of the instruction's global side.
  std::uint32_t global_mask = 0;
  SharedCost shared;  // zero for global-only instructions
  GlobalCost global;  // zero for shared-only instructions
};

struct PhaseStream {
  PhaseRef ref;
  bool barrier_after = false;
  int barrier_threads = 0;  // who takes that barrier: 0 the whole block, else its first n threads (kernel/schedule.hpp)
  std::vector<WarpInstruction> instructions;  // warp-major: warp 0's instructions in order, then warp 1's, ...
  std::int64_t fma = 0;                       // thread-level FMAs of the whole block in this phase
  Counters counters;
  std::vector<kernel::TmaBox> copies;         // the phase's TMA copies, in issue order (kept with the instructions)
};

// The geometry of a launch.
struct LaunchShape {
  int tiles_m = 0, tiles_n = 0;  // output tiles (tiles_m rounded up to whole clusters)
  int blocks = 0;                // tiles_m * tiles_n * splits
  int splits = 1;                // split-K: the blocks of each tile, one range of its k-steps each
  int cluster = 1;               // blocks per thread-block cluster, along M
  int threads_per_block = 0, warps_per_block = 0;
  int smem_bytes = 0;
  int ksteps = 0;                // a block's: a tile's, or under split-K one range's
  std::vector<PhaseRef> schedule_of_one_kstep;  // the mainloop phases of one k-step, in order
  // A persistent rung's (KernelConfig::grid > 0): the blocks the GPU launches, each walking several of the `blocks`
  // tiles; under Stream-K (rung 23) their shares of the k-steps (`plan`, in units of whole clusters). 0: one per tile.
  int persistent_blocks = 0;
  bool stream_k = false;
  kernel::StreamKPlan plan{};
};

Result<LaunchShape> launch_shape(RungId rung, const kernel::KernelConfig& config, const Problem& problem);

// The launch in words, as the CLI and the app say it: "2 x 32 = 64 blocks", or under split-K "2 x 32 tiles x 4
// k-ranges = 256 blocks", or for persistent blocks "32 x 16 = 512 tiles walked by 128 persistent blocks (4 each)" and
// under Stream-K how the blocks share the k-steps; and a block's k-steps, "64 k-steps" or "16 k-steps each (a range of
// a tile's 64)".
std::string blocks_text(const LaunchShape& shape);
std::string ksteps_text(const LaunchShape& shape, int k, int bk);

// The stream of one phase of one block (tile coordinates in tiles): generated on demand, so any problem size
// needs memory for one phase only.
Result<PhaseStream> phase_stream(RungId rung, const kernel::KernelConfig& config, const Problem& problem,
                                 kernel::TileCoord tile, PhaseRef phase);

// One block's whole stream, phase by phase, for a viewer that steps through it: the schedule is listed up front
// and each phase is recorded when asked for, into storage reused from the previous phase.
class BlockStream {
 public:
  // `split`: under split-K, which of the tile's ranges of k-steps the block computes.
  static Result<BlockStream> open(RungId rung, const kernel::KernelConfig& config, const Problem& problem,
                                  kernel::TileCoord tile, int split = 0);
  BlockStream(BlockStream&&) noexcept;
  BlockStream& operator=(BlockStream&&) noexcept;
  ~BlockStream();

  const LaunchShape& shape() const;
  const std::vector<PhaseRef>& schedule() const;  // every phase of the block, in order
  // The phase at position `index` of the schedule; the reference stays valid until the next call.
  Result<const PhaseStream*> phase(std::size_t index);

  class Impl;

 private:
  explicit BlockStream(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

struct BlockCounters {
  kernel::TileCoord tile;
  Counters prologue, epilogue, total;
  std::vector<Counters> per_kstep;  // mainloop counters of each k-step
};

// Exact counters of one block, k-step by k-step.
Result<BlockCounters> simulate_block(RungId rung, const kernel::KernelConfig& config, const Problem& problem,
                                     kernel::TileCoord tile);

// Blocks whose counters are provably equal (same edge clipping, same address alignment modulo 128 bytes) form a
// class; each class is simulated once.
struct BlockClass {
  kernel::TileCoord example;
  int split = 0;  // split-K: the example's range of its tile's k-steps; Stream-K: the engine's index of its segment
  std::int64_t count = 0;
  Counters per_block;
};

struct KernelCounters {
  LaunchShape shape;
  Counters total;
  std::vector<BlockClass> classes;
};

// Exact counters of the whole kernel. Big problems take seconds to minutes: `progress` is told how far it is and can
// stop it (the error then says "cancelled").
Result<KernelCounters> simulate_kernel(RungId rung, const kernel::KernelConfig& config, const Problem& problem,
                                       const Progress& progress = {});

// Runs the stream on the CPU - every global load, shared store, shared load and FMA of every thread - and returns C.
// `c` holds C's initial values (read only where beta != 0). Checks, as it goes, that every access stays inside its
// matrix and its shared buffer, that no two threads touch the same shared word between barriers unless both only
// read, and that every element of C is written exactly once. For problems up to 512 in each dimension.
//
// `input`: the element type A and B are given to the kernel in (a and b are rounded to it): FP32 for the FP32
// rungs, FP16 or BF16 for the tensor-core rungs; empty: the rung's first (FP32, or FP16).
inline constexpr int kMaxFunctionalDimension = 512;
Result<std::vector<float>> execute(RungId rung, const kernel::KernelConfig& config, const Problem& problem,
                                   const std::vector<float>& a, const std::vector<float>& b, std::vector<float> c,
                                   std::optional<kernel::InputType> input = std::nullopt);

// The element types a rung takes its A and B in: {F32}, or {F16, BF16}; and those one configuration of it takes
// (an mma.sync rung's acc=16: {F16}).
std::vector<kernel::InputType> input_types(RungId rung);
std::vector<kernel::InputType> input_types(RungId rung, const kernel::KernelConfig& config);

}  // namespace gemmlab::sim
