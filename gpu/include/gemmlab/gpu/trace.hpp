#pragma once
// Tracing a kernel on the GPU: the same description with the tracing build of the executor (gpu/src/
// traced_executor.cuh), which stamps each phase of the schedule and each wait and issue of a few sampled blocks' warps
// into a buffer sized before the launch. What comes back is a timeline (gemmlab/sim/timeline.hpp) and what the tracing
// cost: the traced kernel's time against the untraced one's, runs alternating in the same process.
//
// Validate, then trace, then time: the untraced kernel is first checked against the FP64 reference (random inputs, C
// poisoned), and the traced kernel's C must equal the untraced one's bit for bit, so the trace is of a kernel that
// computes the right thing the same way.
#include <cstdint>
#include <string>
#include <vector>

#include "gemmlab/gpu/instances.hpp"
#include "gemmlab/gpu/shapes.hpp"
#include "gemmlab/kernel/block_order.hpp"
#include "gemmlab/kernel/element.hpp"
#include "gemmlab/result.hpp"
#include "gemmlab/sim/timeline.hpp"

namespace gemmlab::gpu {

inline constexpr int kMaxTracedBlocks = 1024;
inline constexpr int kMaxTraceEventsPerWarp = 1 << 20;
// One: the stamps slow the block they are in, and the slowest persistent block sets the kernel's end, so the cost
// grows with the share of a block's tiles stamped (docs/timeline.md, "What tracing costs"). Two or more show how a
// tile's epilogue overlaps the next tile's copies.
inline constexpr int kDefaultStampedTiles = 1;

struct TraceOptions {
  GpuInstance kernel;
  Shape shape{4096, 4096, 4096};
  float alpha = 1.0f, beta = 0.0f;
  kernel::InputType input = kernel::InputType::BF16;
  kernel::BlockOrder order{};  // row-major unless the caller names another (as bench and verify)
  int device = 0;
  int blocks = 2;           // blocks sampled, spread evenly over the launch (1 to kMaxTracedBlocks)
  int events_per_warp = 0;  // 0: enough for the phases a block runs on this shape (four spans each), and more
  // Of a sampled block that walks several tiles (a persistent grid; Stream-K's segments), how many it stamps from its
  // first; the rest run untraced. 0: every tile. A block of one tile stamps it whatever this says. The count is
  // compiled into the tracing build, so each count is a compile of its own (cached).
  int tiles = kDefaultStampedTiles;
  int runs = 20;  // timed runs of each kernel, alternating
  std::uint64_t seed = 7;
};

struct TraceRun {
  sim::Timeline timeline;
  std::string device, driver, cuda, measured_at;  // "NVIDIA H200", "580.159.04", "13.0", "2026-11-28T13:36:43Z"
  int blocks_sampled = 0, events_per_warp = 0;
  int tiles_per_block = 1, tiles_stamped = 1;         // the most tiles a block walks, and how many of them were stamped
  int traced_registers = -1, traced_spill_bytes = 0;  // ptxas's figures for the tracing build
  std::vector<std::string> traced_ptxas_warnings;     // and what it said: a setmaxnreg it had to ignore, say
  int runs = 0;
  double untraced_ms = 0, traced_ms = 0;  // medians
  double overhead() const { return untraced_ms > 0 ? traced_ms / untraced_ms - 1.0 : 0.0; }
};

// An error says what stopped it: a configuration the rung or the device refuses, a kernel that fails verification,
// a traced kernel whose C differs, no GPU, memory for the buffers, nvcc's error compiling the tracing build.
Result<TraceRun> trace_kernel(const TraceOptions& options);

}  // namespace gemmlab::gpu
