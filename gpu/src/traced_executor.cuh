#pragma once
// The tracing build of the GPU executor: the same description, the same instructions, with the SM's cycle counter read
// around the operations where a warp waits or hands work to the copy engine, and around each phase of the schedule
// (rung_block.cuh's PhaseRunner). Only lane 0 of the first warp of each warpgroup of a sampled block reads the counter
// and writes (kernel::TraceSink), by predicated instructions where the compiler can: the other threads run the
// untraced kernel's instructions and a test. A launch compiles it only when asked for a trace (a variant
// of the configuration compiled at run time: gpu/src/launch.cpp), so the kernels the benchmark times are untouched.
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

// One warp's recorder: where its events go (nullptr in every thread that does not record), how many it stamped, and
// how many fit. Three registers: the producer of a rung that lowers its registers (setmaxnreg) has few to spare.
struct WarpTrace {
  kernel::TraceEvent* events = nullptr;
  std::uint32_t count = 0, capacity = 0;

  // At the block's start: lane 0 of the first warp of a sampled block's warpgroup takes its slot.
  __device__ __forceinline__ void open(const kernel::TraceSink& sink, int block, int tid) {
    const int slot = tid % 128 == 0 ? sink.slot(block, tid / 128) : -1;
    if (slot < 0) return;
    kernel::TraceWarpHeader& h = sink.headers[slot];
    h.block = block, h.warpgroup = tid / 128;
    asm volatile("mov.u32 %0, %%smid;\n" : "=r"(h.sm));
    asm volatile("mov.u64 %0, %%globaltimer;\n" : "=l"(h.start_ns));
    asm volatile("mov.u64 %0, %%clock64;\n" : "=l"(h.start_cycles)::"memory");
    events = sink.events + static_cast<std::size_t>(slot) * sink.capacity;
    capacity = static_cast<std::uint32_t>(sink.capacity);
  }
  // At the block's end: how many events, and the clocks there.
  __device__ __forceinline__ void close(const kernel::TraceSink& sink, int block, int tid) {
    if (events == nullptr) return;
    kernel::TraceWarpHeader& h = sink.headers[sink.slot(block, tid / 128)];
    asm volatile("mov.u64 %0, %%clock64;\n" : "=l"(h.end_cycles)::"memory");
    asm volatile("mov.u64 %0, %%globaltimer;\n" : "=l"(h.end_ns));
    h.events = count;
  }
  // The counter where this thread records, else nothing read: the blocks that are not sampled run the untraced
  // kernel's instructions and a few predicated ones.
  __device__ __forceinline__ std::uint32_t now() const { return events != nullptr ? cycle_counter() : 0u; }
  // An operation's span. Its section and phase are the enclosing phase's, which the host reads off the nesting
  // (kernel::kTraceSectionOfParent): kept out of the kernel's registers.
  __device__ __forceinline__ void record(kernel::TraceOp op, std::uint32_t begin, int arg,
                                         std::uint8_t section = kernel::kTraceSectionOfParent, std::uint8_t phase = 0) {
    if (events == nullptr) return;
    const std::uint32_t end = cycle_counter();
    // One 16-byte store, not four of 4 bytes: the fields in TraceEvent's order, its last four bytes little-endian.
    const unsigned tail =
        static_cast<unsigned>(op) | static_cast<unsigned>(section) << 8 | static_cast<unsigned>(phase) << 16;
    if (count < capacity)
      *reinterpret_cast<uint4*>(events + count) = make_uint4(begin, end, static_cast<unsigned>(arg), tail);
    ++count;
  }
};

template <class In, bool AlignedRows = true>
struct TracedExecutor : GpuExecutor<In, AlignedRows> {
  using Base = GpuExecutor<In, AlignedRows>;
  static constexpr bool traced = true;
  WarpTrace trace;

  __device__ __forceinline__ void stamp(kernel::TraceOp op, std::uint32_t begin, int arg) {
    trace.record(op, begin, arg);
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
    if (pred) stamp(kernel::TraceOp::TmaStoreWait, begin, P);
  }
  __device__ __forceinline__ void split_wait(int tile, int value, bool pred) {
    const std::uint32_t begin = trace.now();
    Base::split_wait(tile, value, pred);
    if (pred) stamp(kernel::TraceOp::SplitWait, begin, tile);
  }

  // The copies handed to the copy engine: the issuing thread's alone.
  __device__ __forceinline__ void tma_load(const kernel::TmaBox& box, int byte, int barrier, bool pred,
                                           kernel::TmaMulticast multicast = {}) {
    const std::uint32_t begin = trace.now();
    Base::tma_load(box, byte, barrier, pred, multicast);
    if (pred && multicast.issued_here) stamp(kernel::TraceOp::TmaLoad, begin, barrier);
  }
  __device__ __forceinline__ void tma_store(const kernel::TmaBox& box, int byte, bool pred) {
    const std::uint32_t begin = trace.now();
    Base::tma_store(box, byte, pred);
    if (pred) stamp(kernel::TraceOp::TmaStore, begin, box.row0);
  }
};

}  // namespace gemmlab::gpu
