#pragma once
// The one CUDA kernel every rung runs: it builds the thread's ThreadContext, keeps the rung's State in registers and
// walks the rung's phase schedule exactly as the simulator does (sim/src/simulate.cpp), with __syncthreads where
// the rung's barrier_after says. A rung file (gpu/kernels/<slug>.cu) only names its rung; which configurations it
// compiles comes from the instance list. A configuration not in the list is compiled at run time from this same
// header (runtime_source.cpp writes the one-line source). The launch itself is host code: launch.cpp.
#include <cstddef>
#include <utility>

#include "executor.cuh"
#include "gemmlab/gpu/instances.hpp"
#include "gemmlab/kernel/block_order.hpp"
#include "gemmlab/kernel/config.hpp"
#include "gemmlab/kernel/context.hpp"
#include "gemmlab/kernel/element.hpp"
#include "gemmlab/kernel/rung_kernels.hpp"
#include "gemmlab/kernel/schedule.hpp"
#include "launch.hpp"

namespace gemmlab::gpu {

// One phase of the schedule, then the barrier the rung asks for after it. A function object rather than a lambda so
// that it is force-inlined at each of for_each_phase's three call sites: a call that stayed a call would take the
// State by address and move it to local memory.
//
// ByRole: the warp-specialised rungs walk the schedule once per role (run_block), so a barrier is reached from
// different instructions by different warps. __syncthreads (barrier.sync.aligned) promises the same instruction in
// every thread, which synccheck reports as a divergent barrier; these rungs take the barriers without .aligned.
template <class K, class C, class In, bool AlignedRows, bool ByRole = false>
struct PhaseRunner {
  GpuExecutor<In, AlignedRows>& x;
  const kernel::ThreadContext& t;
  typename K::template State<C>& s;
  __device__ __forceinline__ void operator()(kernel::Section section, int kstep, int phase) const {
    kernel::run_phase<K>(x, C{}, t, s, section, kstep, phase);
    if (!K::barrier_after(section, phase)) return;
    if constexpr (C::cluster > 1) {  // every thread of every block of the cluster: what the blocks' mbarriers reach
      asm volatile("barrier.cluster.arrive.release;\nbarrier.cluster.wait.acquire;\n" ::: "memory");
    } else if constexpr (ByRole) {
      asm volatile("barrier.sync 0;\n" ::: "memory");
    } else {
      __syncthreads();
    }
  }
};

template <class K, class C, class In, bool AlignedRows>
__device__ __forceinline__ void run_block(const KernelParams& p) {
  extern __shared__ float4 shared_storage[];  // float4: 16-byte aligned for LDS.128 and cp.async.16
  constexpr C c{};
  const int launch = static_cast<int>(blockIdx.x + blockIdx.y * gridDim.x);
  const kernel::TileCoord tile = kernel::tile_of_launch(launch, p.tiles_m, p.tiles_n, p.g.order, c.cluster);
  // An idle slot of CUTLASS's rounded-up grid (a whole cluster's: its blocks share the tile column). A persistent
  // block computes such a tile instead: its copies read nothing and its stores are predicated off.
  if (c.grid == 0 && (tile.row >= p.tiles_m || tile.col >= p.tiles_n)) return;

  kernel::ThreadContext t = kernel::tile_context(c, tile, p.g.m, p.g.n, p.g.k, p.g.alpha, p.g.beta);
  if (c.grid > 0)
    kernel::walk_launches(t, launch, static_cast<int>(gridDim.x * gridDim.y), p.slots, p.tiles_m, p.tiles_n, p.g.order);
  t.tid = static_cast<int>(threadIdx.x);
  if constexpr (requires { K::consumers(c); })  // warp-specialised: lane 0's, provably the same in every lane of a warp
    t.warpgroup = __shfl_sync(0xffffffffu, t.tid / 128, 0);
  else
    t.warpgroup = t.tid / 128;

  GpuExecutor<In, AlignedRows> x{static_cast<const In*>(p.g.a), static_cast<const In*>(p.g.b), p.g.c,
                                 reinterpret_cast<float*>(shared_storage), &p.a_map, &p.b_map};
  typename K::template State<C> s;  // registers: every index into it is a constant once the loops unroll
  if constexpr (requires { K::consumers(c); }) {
    const PhaseRunner<K, C, In, AlignedRows, true> run{x, t, s};
    // A warp-specialised rung branches on the role of the thread's warpgroup in every phase. The schedule is walked
    // once per role instead, the same calls in each copy, so that in each copy the compiler resolves the rung's
    // branch (the same t.warpgroup test) and the k-step loop holds one role's code. Left inside the loop, the branch
    // made ptxas serialise every wgmma ("C7518: wgmma.mma_async instructions are serialized due to program
    // dependence on compiler-inserted WG.DP in divergent path").
    if (t.warpgroup < K::consumers(c)) kernel::for_each_phase<K>(c, t.ksteps, t.tiles, run);
    else kernel::for_each_phase<K>(c, t.ksteps, t.tiles, run);
  } else {
    kernel::for_each_phase<K>(c, t.ksteps, t.tiles, PhaseRunner<K, C, In, AlignedRows>{x, t, s});
  }
}

// No __launch_bounds__: measured on the H100 (docs/results.md), __launch_bounds__(threads, 1) let nvcc spend
// registers freely on the small rungs (naive 29 -> 58, smem-tiling 32 -> 44, blocktile-1d -> 120 per thread), which
// halved their resident blocks and slowed blocktile-1d from 10.0 to 5.9 TFLOPS at 8192^3; the large rungs reach 255
// registers either way. Without it no default configuration uses local memory (scripts/sass-report checks).
// __grid_constant__: the tensor maps are used where they are, in the parameter space, by address.
template <class K, class C, class In, bool AlignedRows>
__global__ void rung_kernel(const __grid_constant__ KernelParams p) {
  run_block<K, C, In, AlignedRows>(p);
}

// The build's kernel of configuration C for a variant (launch.hpp): the address launch_gemm launches. A 16-bit rung
// compiles the kernel for rows that start on 16-byte boundaries, and where it takes any size (K::any_size) the one
// with the copy of other rows compiled in; an FP32 rung compiles one kernel.
template <class K, class C>
const void* kernel_address(KernelVariant v) {
  if constexpr (kernel::operand_bytes<K>(kernel::Operand::A) == 2) {
    constexpr bool any_size = [] {
      if constexpr (requires { K::any_size; }) return K::any_size;
      else return false;
    }();
    const auto pick = [&]<class In>() -> const void* {
      if (v.aligned_rows) return reinterpret_cast<const void*>(&rung_kernel<K, C, In, true>);
      if constexpr (any_size) return reinterpret_cast<const void*>(&rung_kernel<K, C, In, false>);
      else return nullptr;
    };
    if (v.input == kernel::InputType::F16) return pick.template operator()<__half>();
    if (v.input == kernel::InputType::BF16) return pick.template operator()<__nv_bfloat16>();
    return nullptr;
  } else {
    return v.input == kernel::InputType::F32 ? reinterpret_cast<const void*>(&rung_kernel<K, C, float, true>) : nullptr;
  }
}

// The FixedConfig of instance I: the instance list's run-time numbers as compile-time constants.
template <std::size_t I>
using ConfigOf = kernel::FixedConfig<kGpuInstances[I].config.bm, kGpuInstances[I].config.bn,
                                     kGpuInstances[I].config.bk, kGpuInstances[I].config.tm,
                                     kGpuInstances[I].config.tn, kGpuInstances[I].config.wm,
                                     kGpuInstances[I].config.wn, kGpuInstances[I].config.a_pad,
                                     kGpuInstances[I].config.b_pad, kGpuInstances[I].config.swizzle,
                                     kGpuInstances[I].config.conflicting, kGpuInstances[I].config.stages,
                                     kGpuInstances[I].config.cluster, kGpuInstances[I].config.grid>;

template <RungId Rung, std::size_t I>
constexpr CompiledKernelFn kernel_entry() {
  if constexpr (kGpuInstances[I].rung == Rung)
    return &kernel_address<typename kernel::KernelOf<Rung>::type, ConfigOf<I>>;
  else
    return nullptr;
}

template <RungId Rung, std::size_t... I>
CompiledKernelFn rung_kernels(std::size_t index, std::index_sequence<I...>) {
  static constexpr CompiledKernelFn table[] = {kernel_entry<Rung, I>()...};
  return index < sizeof...(I) ? table[index] : nullptr;
}

}  // namespace gemmlab::gpu

// In gpu/kernels/<slug>.cu, inside namespace gemmlab::gpu: compiles every instance of rung `Ident` listed in
// instances.def, and gives launcher_for<RungId::Ident> its table.
#define GEMMLAB_GPU_RUNG_KERNELS(Ident)                                                                 \
  template <>                                                                                          \
  CompiledKernelFn launcher_for<::gemmlab::RungId::Ident>(std::size_t index) {                         \
    return rung_kernels<::gemmlab::RungId::Ident>(index, std::make_index_sequence<std::size(kGpuInstances)>{}); \
  }
