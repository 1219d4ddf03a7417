#pragma once
// The build's rung kernels: each gpu/kernels/<slug>.cu compiles its rung's lines of the instance list
// (gemmlab/gpu/instances.def) from rung_block.cuh's kernel, and gives the launch path (launch.cpp) their addresses. A
// configuration not in the list is compiled at run time from rung_block.cuh instead (runtime_source.cpp).
#include <cstddef>
#include <utility>

#include "gemmlab/gpu/instances.hpp"
#include "launch.hpp"
#include "rung_block.cuh"

namespace gemmlab::gpu {

// Whether configuration C of rung K takes BF16 inputs: the description's rule where it has one (FP16 accumulators
// take FP16 only), else every 16-bit configuration does.
template <class K, class C>
constexpr bool takes_bf16() {
  if constexpr (requires { K::takes_input(C{}, kernel::InputType::BF16); })
    return K::takes_input(C{}, kernel::InputType::BF16);
  else return true;
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
      if (v.aligned_rows) return reinterpret_cast<const void*>(rung_kernel_of<K, C, In, true>());
      if constexpr (any_size) return reinterpret_cast<const void*>(rung_kernel_of<K, C, In, false>());
      else return nullptr;
    };
    if (v.input == kernel::InputType::F16) return pick.template operator()<__half>();
    if constexpr (takes_bf16<K, C>())
      if (v.input == kernel::InputType::BF16) return pick.template operator()<__nv_bfloat16>();
    return nullptr;
  } else {
    return v.input == kernel::InputType::F32 ? reinterpret_cast<const void*>(rung_kernel_of<K, C, float, true>())
                                             : nullptr;
  }
}

// The FixedConfig of instance I: the instance list's run-time numbers as compile-time constants.
#define GEMMLAB_INSTANCE_KNOB(name, ...) , kGpuInstances[I].config.name
template <std::size_t I>
using ConfigOf = kernel::FixedConfig<GEMMLAB_KNOB_LIST(GEMMLAB_KNOBS(GEMMLAB_INSTANCE_KNOB))>;
#undef GEMMLAB_INSTANCE_KNOB

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
