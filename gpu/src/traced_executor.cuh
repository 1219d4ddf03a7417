#pragma once
// The tracing build of the GPU executor: the same description, the same instructions, with the SM's cycle counter read
// around the operations where a warp waits or hands work to the copy engine, and around each phase of the schedule
// (rung_block.cuh's PhaseRunner). Every thread of a sampled block reads the counter, and lane 0 of each warpgroup's
// first warp writes (kernel::TraceSink), by a predicated store: the blocks that are not sampled run the untraced
// kernel's instructions and a test that is the same in all their threads. A launch compiles it only when asked for a
// trace (a variant of the configuration compiled at run time: gpu/src/launch.cpp), so the kernels the benchmark times
// are untouched.
#include <cstddef>
#include <cstdint>

#include "executor.cuh"
#include "gemmlab/kernel/trace_record.hpp"

namespace gemmlab::gpu {

// The low 32 bits of %clock64: read by CS2R, one issue slot at a fixed latency (the 32-bit %clock is an S2R, which
// waits on a scoreboard). Volatile, so it keeps its place among the executor's own volatile instructions, but with no
// memory clobber: the compiler may still move the kernel's loads and stores across it as it would without the trace.
__device__ __forceinline__ std::uint32_t cycle_counter() {
  std::uint64_t now;
  asm volatile("mov.u64 %0, %%clock64;\n" : "=l"(now));
  return static_cast<std::uint32_t>(now);
}

static_assert(offsetof(kernel::TraceEvent, arg) == 8 && offsetof(kernel::TraceEvent, op) == 12 &&
                  offsetof(kernel::TraceEvent, section) == 13 && offsetof(kernel::TraceEvent, phase) == 14,
              "WarpTrace::record packs the event's fields in this order");

// A thread's recorder: where its warpgroup's events go (nullptr in every block that is not sampled: the test on it is
// the same in every thread of the block, so such a block skips each stamp whole), how many it stamped, and how many fit
// (0 in every thread but lane 0 of the warpgroup's first warp, the one that stores). Three registers: the producer of a
// rung that lowers its registers (setmaxnreg) has few to spare.
struct WarpTrace {
  kernel::TraceEvent* events = nullptr;
  std::uint32_t count = 0, capacity = 0;

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
  // At the block's end: how many events, and the clocks there.
  __device__ __forceinline__ void close(const kernel::TraceSink& sink, int block, int tid) {
    if (events == nullptr || tid % 128 != 0) return;
    kernel::TraceWarpHeader& h = sink.headers[sink.slot(block, tid / 128)];
    asm volatile("mov.u64 %0, %%clock64;\n" : "=l"(h.end_cycles)::"memory");
    asm volatile("mov.u64 %0, %%globaltimer;\n" : "=l"(h.end_ns));
    h.events = count;
  }
  // The counter, in a sampled block; else nothing read: the blocks that are not sampled run the untraced kernel's
  // instructions and a test.
  __device__ __forceinline__ std::uint32_t now() const { return events != nullptr ? cycle_counter() : 0u; }
  // An operation's span, where `also` (in lane 0: whether it issued the operation, for the copies). Its section and
  // phase are the enclosing phase's, which the host reads off the nesting (kernel::kTraceSectionOfParent): kept out of
  // the kernel's registers. A sampled block stamps without a branch: every thread reads the counter and computes the
  // event, and only the recording lane's 16-byte store is predicated on, so no warp splits around a stamp (a split
  // warp reconverges before its next wgmma or copy) and the warps of a warpgroup keep in step.
  __device__ __forceinline__ void record(kernel::TraceOp op, std::uint32_t begin, int arg,
                                         std::uint8_t section = kernel::kTraceSectionOfParent, std::uint8_t phase = 0,
                                         bool also = true) {
    if (events == nullptr) return;
    const std::uint32_t end = cycle_counter();
    // The fields in TraceEvent's order, its last four bytes little-endian.
    const unsigned tail =
        static_cast<unsigned>(op) | static_cast<unsigned>(section) << 8 | static_cast<unsigned>(phase) << 16;
    const unsigned store = also && count < capacity;
    asm volatile("{\n.reg .pred p;\nsetp.ne.u32 p, %5, 0;\n@p st.global.v4.u32 [%0], {%1, %2, %3, %4};\n}\n" ::"l"(
                     events + count),
                 "r"(begin), "r"(end), "r"(static_cast<unsigned>(arg)), "r"(tail), "r"(store));
    count += also;
  }
};

template <class In, bool AlignedRows = true>
struct TracedExecutor : GpuExecutor<In, AlignedRows> {
  using Base = GpuExecutor<In, AlignedRows>;
  static constexpr bool traced = true;
  WarpTrace trace;

  __device__ __forceinline__ void stamp(kernel::TraceOp op, std::uint32_t begin, int arg, bool also = true) {
    trace.record(op, begin, arg, kernel::kTraceSectionOfParent, 0, also);
  }

  // The waits.
  __device__ __forceinline__ void mbarrier_wait(int byte, int parity) {
    const std::uint32_t begin = trace.now();
    Base::mbarrier_wait(byte, parity);
    stamp(kernel::TraceOp::MbarrierWait, begin, byte);
  }
  template <int P, int N>
  __device__ __forceinline__ void wgmma_wait(kernel::Pending<P> pending, float (&acc)[N]) {
    const std::uint32_t begin = trace.now();
    Base::wgmma_wait(pending, acc);
    stamp(kernel::TraceOp::WgmmaWait, begin, P);
  }
  template <int P>
  __device__ __forceinline__ void cp_async_wait(kernel::Pending<P> pending) {
    const std::uint32_t begin = trace.now();
    Base::cp_async_wait(pending);
    stamp(kernel::TraceOp::CpAsyncWait, begin, P);
  }
  template <int P>
  __device__ __forceinline__ void tma_store_wait(kernel::Pending<P> pending, bool pred) {
    const std::uint32_t begin = trace.now();
    Base::tma_store_wait(pending, pred);
    stamp(kernel::TraceOp::TmaStoreWait, begin, P, pred);
  }
  __device__ __forceinline__ void split_wait(int tile, int value, bool pred) {
    const std::uint32_t begin = trace.now();
    Base::split_wait(tile, value, pred);
    stamp(kernel::TraceOp::SplitWait, begin, tile, pred);
  }

  // The copies handed to the copy engine: the issuing thread's alone.
  __device__ __forceinline__ void tma_load(const kernel::TmaBox& box, int byte, int barrier, bool pred,
                                           kernel::TmaMulticast multicast = {}) {
    const std::uint32_t begin = trace.now();
    Base::tma_load(box, byte, barrier, pred, multicast);
    stamp(kernel::TraceOp::TmaLoad, begin, barrier, pred && multicast.issued_here);
  }
  __device__ __forceinline__ void tma_store(const kernel::TmaBox& box, int byte, bool pred) {
    const std::uint32_t begin = trace.now();
    Base::tma_store(box, byte, pred);
    stamp(kernel::TraceOp::TmaStore, begin, box.row0, pred);
  }
};

}  // namespace gemmlab::gpu
