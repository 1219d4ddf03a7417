#pragma once
// The tracing build of the GPU executor: the same description, the same instructions, with the SM's cycle counter read
// around the operations where a warp waits or hands work to the copy engine, and around each phase of the schedule
// (rung_block.cuh's PhaseRunner). Every thread of a sampled block reads the counter, and lane 0 of each warpgroup's
// first warp writes (kernel::TraceSink), by a predicated store. Only the sampled blocks run it, and a persistent one
// only for its first tiles: a traced launch holds the block twice, and the blocks that are not sampled, and a sampled
// block's later tiles, run the untraced one (rung_block.cuh's run_block and walk_role). A launch
// compiles it only when asked for a trace (a variant of the configuration compiled at run time: gpu/src/launch.cpp), so
// the kernels the benchmark times are untouched.
#include <cstddef>
#include <cstdint>

#include "executor.cuh"
#include "gemmlab/kernel/trace_record.hpp"

namespace gemmlab::gpu {

// The low 32 bits of %clock64: ptxas reads them by CS2R, one issue slot at a fixed latency (the 32-bit %clock is an
// S2R, which waits on a scoreboard), or by S2UR where the value can live in a uniform register. Volatile, so it keeps
// its place among the executor's own volatile instructions, but with no memory clobber: the compiler may still move the
// kernel's loads and stores across it as it would without the trace.
__device__ __forceinline__ std::uint32_t cycle_counter() {
  std::uint64_t now;
  asm volatile("mov.u64 %0, %%clock64;\n" : "=l"(now));
  return static_cast<std::uint32_t>(now);
}

static_assert(offsetof(kernel::TraceEvent, arg) == 8 && offsetof(kernel::TraceEvent, op) == 12 &&
                  offsetof(kernel::TraceEvent, section) == 13 && offsetof(kernel::TraceEvent, phase) == 14,
              "WarpTrace::record packs the event's fields in this order");

// A thread's recorder, in a sampled block: where its warpgroup's events go, how many it stamped, and how many fit (0 in
// every thread but lane 0 of the warpgroup's first warp, the one that stores).
//
// An operation's event is held in registers and stored when the warp's next operation begins or its phase ends,
// not when the operation ends: the end of a wait is where the warp's next work starts (a producer's copies into the
// stage just freed, a consumer's wgmma on the stage just filled), so storing there would delay it, while the start of
// the next wait is where the warp would idle anyway. Consecutive TMA copies onto one mbarrier are held apart, as one
// span: the fill of a stage, what the consumers wait for and what the host's summary matches with their waits. It
// begins where the wait held ended (a producer's, for the stage it fills), or else where it is first issued, and ends
// where the warp's next span begins: so a stage's copies go out back to back, with no counter read or store between
// them. (Neither the stores nor the counter's reads cost the traced kernel much; a test around each stamp did, which is
// why only the sampled blocks run this build: scripts/trace-cost, docs/timeline.md.)
struct WarpTrace {
  kernel::TraceEvent* events = nullptr;
  std::uint32_t count = 0, capacity = 0;
  // The operation held: its op (kNothingHeld when none), whether the recording lane stores it, its span and argument.
  static constexpr unsigned kNothingHeld = 0xffu;
  std::uint32_t held_begin = 0, held_end = 0;
  int held_arg = 0;
  unsigned held_op = kNothingHeld;
  bool held_stored = false;
  // The copies held: their start, their mbarrier (-1 when none), whether this block issued any of them.
  std::uint32_t copies_begin = 0;
  int copies_barrier = -1;
  bool copies_issued = false;

  // At the block's start: every thread of a sampled block takes its warpgroup's slot, so that the warps of a
  // warpgroup run the same stamps (one slower warp would hold back the warpgroup's wgmma); lane 0 of the warpgroup's
  // first warp writes the header and is the one that stores.
  __device__ __forceinline__ void open(const kernel::TraceSink& sink, int block, int tid) {
    const int slot = sink.slot(block, tid / 128);
    if (slot < 0) return;
    events = sink.events + static_cast<std::size_t>(slot) * sink.capacity;
    if (tid % 128 != 0) return;
    kernel::TraceWarpHeader& h = sink.headers[slot];
    h.block = block, h.warpgroup = tid / 128;
    asm volatile("mov.u32 %0, %%smid;\n" : "=r"(h.sm));
    asm volatile("mov.u64 %0, %%globaltimer;\n" : "=l"(h.start_ns));
    asm volatile("mov.u64 %0, %%clock64;\n" : "=l"(h.start_cycles)::"memory");
    capacity = static_cast<std::uint32_t>(sink.capacity);
  }
  // At the end of the stamped tiles (the block's end, unless a persistent block stamps only its first tiles): what is
  // held, how many events, and the clocks there. (The header's place is found again from the launch's parameters
  // rather than kept: a pointer held in registers through the stamped tiles made ptxas spill more of the rung's.)
  __device__ __forceinline__ void close(const kernel::TraceSink& sink, int block, int tid) {
    release(now());
    if (events == nullptr || tid % 128 != 0) return;
    kernel::TraceWarpHeader& h = sink.headers[sink.slot(block, tid / 128)];
    asm volatile("mov.u64 %0, %%clock64;\n" : "=l"(h.end_cycles)::"memory");
    asm volatile("mov.u64 %0, %%globaltimer;\n" : "=l"(h.end_ns));
    h.events = count;
  }
  __device__ __forceinline__ std::uint32_t now() const { return cycle_counter(); }

  // A phase's span (or the barrier after it), stored at once, after what is held. (An operation's event carries no
  // section or phase, kernel::kTraceSectionOfParent: the host reads them off the nesting, and they stay out of the
  // kernel's registers.)
  __device__ __forceinline__ void record(kernel::TraceOp op, std::uint32_t begin, int arg, std::uint8_t section,
                                         std::uint8_t phase) {
    const std::uint32_t end = now();
    release(end);
    store(static_cast<unsigned>(op) | static_cast<unsigned>(section) << 8 | static_cast<unsigned>(phase) << 16, begin,
          end, arg, true);
  }
  // Before an operation, or at a phase's end (`at`: the counter read there, where the copies held end): what is held
  // is stored now. Where the compiler can see what the description did before a call (a stage's second copy joins the
  // first), it drops the tests.
  __device__ __forceinline__ void release(std::uint32_t at) {
    store(held_op | kOfParent, held_begin, held_end, held_arg, held_op != kNothingHeld && held_stored);
    held_op = kNothingHeld;
    release_copies(at);
  }
  // After an operation: its span, held (`stored`: whether the recording lane stores it).
  __device__ __forceinline__ void hold(kernel::TraceOp op, std::uint32_t begin, int arg, bool stored = true) {
    held_end = now();
    held_op = static_cast<unsigned>(op), held_begin = begin, held_arg = arg, held_stored = stored;
  }
  // At a TMA copy onto `barrier` (`issued_here`: whether this block issued it): it joins the copies held if they went
  // onto the same mbarrier, else those are stored and it starts anew.
  __device__ __forceinline__ void copied(int barrier, bool issued_here) {
    if (copies_barrier != barrier) {
      // They begin where the wait held ended (a producer's, for the stage it fills), else now.
      const std::uint32_t begin = copies_barrier < 0 && held_op != kNothingHeld ? held_end : now();
      release_copies(begin);
      copies_begin = begin, copies_barrier = barrier, copies_issued = false;
    }
    copies_issued = copies_issued || issued_here;
  }

 private:
  static constexpr unsigned kOfParent = unsigned{kernel::kTraceSectionOfParent} << 8;

  __device__ __forceinline__ void release_copies(std::uint32_t end) {
    store(static_cast<unsigned>(kernel::TraceOp::TmaLoad) | kOfParent, copies_begin, end, copies_barrier,
          copies_barrier >= 0 && copies_issued);
    copies_barrier = -1;
  }
  // One event, the fields in TraceEvent's order (its last four bytes little-endian), by the recording lane alone: a
  // predicated 16-byte store, so that no warp splits around it (a split warp reconverges before its next wgmma or
  // copy) and the warps of a warpgroup keep in step.
  __device__ __forceinline__ void store(unsigned tail, std::uint32_t begin, std::uint32_t end, int arg, bool also) {
    const unsigned stored = also && count < capacity;
    asm volatile("{\n.reg .pred p;\nsetp.ne.u32 p, %5, 0;\n@p st.global.v4.u32 [%0], {%1, %2, %3, %4};\n}\n" ::"l"(
                     events + count),
                 "r"(begin), "r"(end), "r"(static_cast<unsigned>(arg)), "r"(tail), "r"(stored));
    count += also;
  }
};

template <class In, bool AlignedRows = true>
struct TracedExecutor : GpuExecutor<In, AlignedRows> {
  using Base = GpuExecutor<In, AlignedRows>;
  static constexpr bool traced = true;
  WarpTrace trace;

  // The barrier after a phase (rung_block.cuh's PhaseRunner).
  __device__ __forceinline__ void stamp(kernel::TraceOp op, std::uint32_t begin, int arg) {
    trace.record(op, begin, arg, kernel::kTraceSectionOfParent, 0);
  }

  // A wait, or a TMA store, stamped: what the warp holds is stored as the operation begins, and its own span is held
  // (`stored`: whether the recording lane stores it).
  template <class Operation>
  __device__ __forceinline__ void stamped(kernel::TraceOp op, int arg, bool stored, Operation&& operation) {
    const std::uint32_t begin = trace.now();
    trace.release(begin);
    operation();
    trace.hold(op, begin, arg, stored);
  }

  // The waits.
  __device__ __forceinline__ void mbarrier_wait(int byte, int parity) {
    stamped(kernel::TraceOp::MbarrierWait, byte, true, [&] { Base::mbarrier_wait(byte, parity); });
  }
  template <int P, int N>
  __device__ __forceinline__ void wgmma_wait(kernel::Pending<P> pending, float (&acc)[N]) {
    stamped(kernel::TraceOp::WgmmaWait, P, true, [&] { Base::wgmma_wait(pending, acc); });
  }
  template <int P>
  __device__ __forceinline__ void cp_async_wait(kernel::Pending<P> pending) {
    stamped(kernel::TraceOp::CpAsyncWait, P, true, [&] { Base::cp_async_wait(pending); });
  }
  template <int P>
  __device__ __forceinline__ void tma_store_wait(kernel::Pending<P> pending, bool pred) {
    stamped(kernel::TraceOp::TmaStoreWait, P, pred, [&] { Base::tma_store_wait(pending, pred); });
  }
  __device__ __forceinline__ void split_wait(int tile, int value, bool pred) {
    stamped(kernel::TraceOp::SplitWait, tile, pred, [&] { Base::split_wait(tile, value, pred); });
  }

  // The work handed to the copy engine: the issuing thread's alone.
  __device__ __forceinline__ void tma_load(const kernel::TmaBox& box, int byte, int barrier, bool pred,
                                           kernel::TmaMulticast multicast = {}) {
    Base::tma_load(box, byte, barrier, pred, multicast);
    trace.copied(barrier, pred && multicast.issued_here);
  }
  __device__ __forceinline__ void tma_store(const kernel::TmaBox& box, int byte, bool pred) {
    stamped(kernel::TraceOp::TmaStore, box.row0, pred, [&] { Base::tma_store(box, byte, pred); });
  }
};

}  // namespace gemmlab::gpu
