#pragma once
// The one CUDA kernel every rung runs: it builds the thread's ThreadContext, keeps the rung's State in registers and
// walks the rung's phase schedule exactly as the simulator does (sim/src/simulate.cpp), with __syncthreads where
// the rung's barrier_after says. Device code only, and only what it needs: the build's kernels (rung_kernel.cuh) and
// the run-time compiled ones (runtime_source.cpp's one-line source) both include it, and for the latter every header
// costs compile time (the instance list and the host's launch declarations are not here).
#include "executor.cuh"
#include "traced_executor.cuh"
#include "gemmlab/kernel/block_order.hpp"
#include "gemmlab/kernel/config.hpp"
#include "gemmlab/kernel/context.hpp"
#include "gemmlab/kernel/element.hpp"
#include "gemmlab/kernel/rung_kernels.hpp"
#include "gemmlab/kernel/schedule.hpp"
#include "gemmlab/kernel/stream_k.hpp"
#include "kernel_params.hpp"

namespace gemmlab::gpu {

// One phase of the schedule, then the barrier the rung asks for after it. A function object rather than a lambda so
// that it is force-inlined at each of the schedule walk's call sites (prologue, k-step, epilogue): a call that stayed a
// call would take the State by address and move it to local memory.
//
// ByRole: the warp-specialised rungs walk the schedule once per role (walk_schedule), so a barrier is reached from
// different instructions by different warps. __syncthreads (barrier.sync.aligned) promises the same instruction in
// every thread, which synccheck reports as a divergent barrier; these rungs take the barriers without .aligned. A
// barrier of some threads alone (kernel::barrier_threads: rung 20's TMA-store epilogue, its consumers) is named
// barrier 1, which the others pass by.
__device__ __forceinline__ void cluster_barrier() {
  asm volatile("barrier.cluster.arrive.release;\nbarrier.cluster.wait.acquire;\n" ::: "memory");
}

__device__ __forceinline__ int block_index() { return static_cast<int>(blockIdx.x + blockIdx.y * gridDim.x); }

// X: the executor, GpuExecutor or (a sampled block of a traced launch) TracedExecutor, which stamps each phase and each
// barrier too.
template <class K, class C, class X, bool ByRole = false>
struct PhaseRunner {
  X& x;
  const kernel::ThreadContext& t;
  typename K::template State<C>& s;
  __device__ __forceinline__ void operator()(kernel::Section section, int kstep, int phase) const {
    if constexpr (X::traced) {
      const std::uint32_t begin = x.trace.now();
      kernel::run_phase<K>(x, C{}, t, s, section, kstep, phase);
      x.trace.record(kernel::TraceOp::Phase, begin, kstep, static_cast<std::uint8_t>(section),
                     static_cast<std::uint8_t>(phase));
    } else {
      kernel::run_phase<K>(x, C{}, t, s, section, kstep, phase);
    }
    // Only a rung that walks segments asks its block (kernel::takes_barrier): asking every rung the same question,
    // answered by barrier_after alone, still changed rung 1's SASS (compared on 2026-11-28), as walking every rung's
    // phases through kernel::for_each_block_phase did below.
    if constexpr (kernel::WalksSegments<K>) {
      if (!kernel::takes_barrier<K>(C{}, t, section, kstep, phase)) return;
    } else if (!K::barrier_after(section, phase)) {
      return;
    }
    [[maybe_unused]] std::uint32_t begin = 0;
    if constexpr (X::traced) begin = x.trace.now();
    const int threads = kernel::barrier_threads<K>(C{}, section, phase);
    if (threads > 0) {
      if (t.warpgroup < threads / 128)  // whole warpgroups: the test walk_schedule's role branch made
        asm volatile("barrier.sync 1, %0;\n" ::"r"(threads) : "memory");
    } else if constexpr (C::cluster > 1) {
      cluster_barrier();  // every thread of every block of the cluster: what the blocks' mbarriers reach
    } else if constexpr (ByRole) {
      asm volatile("barrier.sync 0;\n" ::: "memory");
    } else {
      __syncthreads();
    }
    if constexpr (X::traced)
      if (threads == 0 || t.warpgroup < threads / 128) x.stamp(kernel::TraceOp::Barrier, begin, threads);
  }
};

// One role's walk of the block's schedule (every role's, where the rung has none), with the executor x: GpuExecutor,
// or in a sampled block of a traced launch the TracedExecutor, which stamps each phase and operation of the block's
// first Stamped tiles (a constant: the launch's count read from its parameters made ptxas spill Stream-K's
// accumulators in the tiles after them). A rung whose blocks walk several tiles (a persistent grid, Stream-K) then
// walks the rest with x's untraced base, the State and the ring of stages going on: the stamps slow a persistent block,
// and the slowest block sets the kernel's end, so a window of its tiles costs the kernel that window's lag, not every
// tile's (docs/timeline.md, "What tracing costs").
template <class K, class C, class Run>
__device__ __forceinline__ void walk_tiles(const kernel::ThreadContext& t, const Run& run, kernel::TileRange range = {}) {
  constexpr C c{};
  if constexpr (kernel::WalksSegments<K>) kernel::for_each_block_phase<K>(c, t, run, range);
  else if constexpr (kernel::TakesTurns<K>) kernel::for_each_thread_phase<K>(c, t, run, range);
  else kernel::for_each_phase<K>(c, t.ksteps, t.tiles, run, range);
}
template <class K, class C, class X, bool ByRole, int Stamped>
__device__ __forceinline__ void walk_role(X& x, const kernel::ThreadContext& t, typename K::template State<C>& s,
                                          const kernel::TraceSink& sink) {
  if constexpr (X::traced && C::grid > 0 && Stamped > 0) {
    walk_tiles<K, C>(t, PhaseRunner<K, C, X, ByRole>{x, t, s}, kernel::TileRange{0, Stamped});
    x.trace.close(sink, block_index(), t.tid);
    using Untraced = typename X::Base;
    walk_tiles<K, C>(t, PhaseRunner<K, C, Untraced, ByRole>{static_cast<Untraced&>(x), t, s},
                     kernel::TileRange{Stamped, -1});
  } else {
    walk_tiles<K, C>(t, PhaseRunner<K, C, X, ByRole>{x, t, s});
    if constexpr (X::traced) x.trace.close(sink, block_index(), t.tid);
  }
}

// The block's schedule. A warp-specialised rung branches on the role of the thread's warpgroup in every phase; the
// schedule is walked once per role instead, the same calls in each copy, so that in each copy the compiler resolves
// the rung's branch (the same t.warpgroup test) and the k-step loop holds one role's code. Left inside the loop, the
// branch made ptxas serialise every wgmma ("C7518: wgmma.mma_async instructions are serialized due to program
// dependence on compiler-inserted WG.DP in divergent path").
template <class K, class C, int Stamped, class X>
__device__ __forceinline__ void walk_schedule(X& x, const kernel::ThreadContext& t, const kernel::TraceSink& sink) {
  constexpr C c{};
  typename K::template State<C> s;  // registers: every index into it is a constant once the loops unroll
  if constexpr (requires { K::consumers(c); }) {
    if (t.warpgroup < K::consumers(c)) walk_role<K, C, X, true, Stamped>(x, t, s, sink);
    else walk_role<K, C, X, true, Stamped>(x, t, s, sink);
  } else {
    walk_role<K, C, X, false, Stamped>(x, t, s, sink);
  }
}

// Traced: the tracing build (traced_executor.cuh), for a launch that asks for a trace, stamping a sampled block's first
// StampedTiles tiles (the launch's TraceRequest::stamped_tiles; 0: every tile).
template <class K, class C, class In, bool AlignedRows, bool Traced = false, int StampedTiles = 0>
__device__ __forceinline__ void run_block(const KernelParams& p) {
  extern __shared__ float4 shared_storage[];  // float4: 16-byte aligned for LDS.128 and cp.async.16
  constexpr C c{};
  const int block = block_index();
  // Split-K (rung 22): consecutive blocks are the k-ranges of one launch index of the order. (A constant test: the
  // other rungs' code is what it was.)
  kernel::SplitLaunch at{block, 0};
  if constexpr (C::splits > 1) at = kernel::split_of_launch(block, kernel::split_count(kernel::ceil_div(p.g.k, c.bk), c.splits));
  const int launch = at.tile_launch;
  const kernel::TileCoord tile = kernel::tile_of_launch(launch, p.tiles_m, p.tiles_n, p.g.order, c.cluster);
  // An idle slot of CUTLASS's rounded-up grid (a whole cluster's: its blocks share the tile column). A persistent
  // block computes such a tile instead: its copies read nothing and its stores are predicated off.
  if (c.grid == 0 && (tile.row >= p.tiles_m || tile.col >= p.tiles_n)) return;

  kernel::ThreadContext t = kernel::tile_context(c, tile, p.g.m, p.g.n, p.g.k, p.g.alpha, p.g.beta);
  if constexpr (C::splits > 1) kernel::take_split(t, at.split);
  if constexpr (kernel::WalksSegments<K>)  // Stream-K (rung 23): its share of the k-steps
    kernel::walk_stream_k(t, launch, static_cast<int>(gridDim.x * gridDim.y), p.slots, p.tiles_m, p.tiles_n, p.g.order,
                          c.cluster, c.shared_waves);
  else if (c.grid > 0)
    kernel::walk_launches(t, launch, static_cast<int>(gridDim.x * gridDim.y), p.slots, p.tiles_m, p.tiles_n, p.g.order,
                          c.cluster);
  t.tid = static_cast<int>(threadIdx.x);
  if constexpr (requires { K::consumers(c); })  // warp-specialised: lane 0's, provably the same in every lane of a warp
    t.warpgroup = __shfl_sync(0xffffffffu, t.tid / 128, 0);
  else
    t.warpgroup = t.tid / 128;

  const GpuExecutor<In, AlignedRows> untraced{static_cast<const In*>(p.g.a), static_cast<const In*>(p.g.b), p.g.c,
                                             reinterpret_cast<float*>(shared_storage), &p.a_map, &p.b_map, &p.c_map,
                                             p.split_flags, p.workspace};
  if constexpr (Traced) {
    // A traced launch holds the block twice: a block that is not sampled runs the untraced block's code as it is, and
    // a sampled one the tracing build's (for its first StampedTiles tiles: walk_role), which then tests nothing of its
    // own (a test around each stamp cost the blocks their pace: docs/timeline.md, "What tracing costs"). Lane 0's
    // answer, so provably the same in every lane.
    const bool sampled = __shfl_sync(0xffffffffu, p.trace.slot(block, 0) >= 0 ? 1 : 0, 0) != 0;
    if (sampled) {
      TracedExecutor<In, AlignedRows> x{untraced};
      x.trace.open(p.trace, block, t.tid);
      walk_schedule<K, C, StampedTiles>(x, t, p.trace);
    } else {
      GpuExecutor<In, AlignedRows> x{untraced};
      walk_schedule<K, C, StampedTiles>(x, t, p.trace);
    }
  } else {
    GpuExecutor<In, AlignedRows> x{untraced};
    walk_schedule<K, C, StampedTiles>(x, t, p.trace);
  }
  // The blocks of a cluster leave together: until its partner is done, a block's shared memory may still receive the
  // partner's arrivals on its mbarriers (rungs 19 and 21). The simulator runs a cluster's blocks as one and needs none.
  if constexpr (C::cluster > 1) cluster_barrier();
}

// No __launch_bounds__: measured on the H100, __launch_bounds__(threads, 1) let nvcc spend registers freely on the
// small rungs, which halved their resident blocks and slowed them (docs/results.md, "No __launch_bounds__,
// measured", has the figures); the large rungs reach the register limit either way. Without it no default configuration uses local memory (scripts/sass-report checks).
// __grid_constant__: the tensor maps are used where they are, in the parameter space, by address.
template <class K, class C, class In, bool AlignedRows>
__global__ void rung_kernel(const __grid_constant__ KernelParams p) {
  run_block<K, C, In, AlignedRows>(p);
}

// A warp-specialised configuration that moves registers between its roles (setmaxnreg = 1). The instruction needs
// the register count the block launches with, so ptxas is given it: the most registers per thread that one block of
// threads(c) can hold (K::register_moves). Without the bound ptxas warns "setmaxnreg ignored" and ignores it.
template <class K, class C, class In, bool AlignedRows>
__global__ void __launch_bounds__(K::threads(C{}), 1) rung_kernel_setmaxnreg(const __grid_constant__ KernelParams p) {
  static_assert(K::register_moves(C{}).valid(K::consumers(C{})),
                "register_moves gives counts setmaxnreg cannot take, or more than the pool holds");
  run_block<K, C, In, AlignedRows>(p);
}

// The kernel a configuration compiles to: bounded where it moves registers.
template <class K, class C, class In, bool AlignedRows>
constexpr auto rung_kernel_of() {
  if constexpr (C::setmaxnreg != 0) return &rung_kernel_setmaxnreg<K, C, In, AlignedRows>;
  else return &rung_kernel<K, C, In, AlignedRows>;
}

}  // namespace gemmlab::gpu
