#pragma once
// What a traced kernel writes (gpu/src/traced_executor.cuh) and the host reads back (sim/timeline.hpp): plain structs,
// the same bytes on both sides.
//
// A traced launch records the first warp of each warpgroup of a few sampled blocks, from its lane 0 (the lane that
// issues a warp-specialised rung's copies and stores): a header per recorded warp and a fixed number of events after
// it. Times are the SM's cycle counter, 32 bits of it in an event (fewer registers in the traced kernel); the header
// keeps the 64-bit counter and the global timer (%globaltimer, nanoseconds) at the warp's start and end, which puts the
// warps of different SMs on one time line.
#include <cstdint>

#include "gemmlab/hd.hpp"
#include "gemmlab/kernel/context.hpp"
#include "gemmlab/kernel/trace_ops.def"

namespace gemmlab::kernel {

enum class TraceOp : std::uint8_t {
#define GEMMLAB_TRACE_OP_ENUM(ident, name, kind) ident,
  GEMMLAB_TRACE_OPS(GEMMLAB_TRACE_OP_ENUM)
#undef GEMMLAB_TRACE_OP_ENUM
};

// One span: [begin, end], the low 32 bits of the SM's cycle counter (the host unwraps them from the header's start:
// a warp runs for less than 2^32 cycles, two seconds). `arg` says which: a phase's k-step (or tile, in the
// epilogue), a barrier's shared byte offset (an mbarrier's: full[s] and empty[s] are told apart by it), a TMA
// copy's mbarrier, a split-K flag's tile.
// An operation's section as the kernel writes it: the enclosing phase's, which the host reads off the nesting (the
// barrier after a phase: that phase's).
inline constexpr std::uint8_t kTraceSectionOfParent = 0xff;

struct alignas(16) TraceEvent {  // aligned: the tracing build writes one with a single 16-byte store
  std::uint32_t begin = 0, end = 0;
  std::int32_t arg = 0;
  std::uint8_t op = 0;       // TraceOp
  std::uint8_t section = 0;  // a phase's kernel::Section; an op's is kTraceSectionOfParent
  std::uint8_t phase = 0;    // a phase's number
  std::uint8_t pad = 0;
};
static_assert(sizeof(TraceEvent) == 16);

// Per recorded warp. `block` is -1 where the slot was never written (the host fills the headers with 0xff bytes: a
// sampled block that ended before its first phase, an idle slot of a rounded-up grid). `events` counts every event the
// warp stamped, also those past the buffer: more than the capacity says it ran out.
struct TraceWarpHeader {
  std::int32_t block = -1;
  std::int32_t sm = -1;
  std::int32_t warpgroup = -1;
  std::uint32_t events = 0;
  std::uint64_t start_cycles = 0, end_cycles = 0;  // clock64 at the warp's start and end
  std::uint64_t start_ns = 0, end_ns = 0;          // %globaltimer there
};
static_assert(sizeof(TraceWarpHeader) == 48);

// Where a traced launch writes, and which blocks it samples: blocks 0, stride, 2 * stride, ... up to `blocks` of them,
// every warpgroup of each, and of a block that walks several tiles (a persistent grid, Stream-K's segments) its first
// `tiles`: the rest run untraced, and the warps' headers end where the stamped tiles do. Slot (sample, warpgroup) has
// its header at headers[slot] and its events at events[slot * capacity ...]. A launch that is not traced has headers ==
// nullptr.
struct TraceSink {
  TraceWarpHeader* headers = nullptr;
  TraceEvent* events = nullptr;
  int capacity = 0;    // events per recorded warp
  int stride = 1;      // sample every stride-th block
  int blocks = 0;      // how many blocks are sampled
  int warpgroups = 0;  // warpgroups per block (threads / 128, rounded up)
  // The slot of a block's warpgroup, or -1 where the block is not sampled.
  GEMMLAB_HD int slot(int block, int warpgroup) const {
    if (block % stride != 0 || block / stride >= blocks) return -1;
    return block / stride * warpgroups + warpgroup;
  }
  GEMMLAB_HD int slots() const { return blocks * warpgroups; }
};

}  // namespace gemmlab::kernel
