#pragma once
// The GPU executor: carries out a rung description's memory operations as the instructions they name. Every call
// inlines into one predicated instruction (or a few, for the copies' bookkeeping), so the SASS of a rung is the
// instruction stream the simulator records:
//
//   ldg<N>      LDG.E / LDG.E.64 / LDG.E.128 (a lane whose predicate is off loads nothing and gets zeros)
//   stg<N>      STG.E / .64 / .128
//   lds<N>      LDS / LDS.64 / LDS.128 on the block's dynamic shared memory
//   sts<N>      STS / .64 / .128
//   cp_async<N> LDGSTS: cp.async.cg (16 bytes, L2 only) or cp.async.ca (4 or 8 bytes); a lane whose predicate is
//               off copies 0 source bytes, which fills its shared bytes with zeros
//   fma         FFMA
//   cp_async16  LDGSTS.E.BYPASS.128 (cp.async.cg, 16 bytes) of 16-bit elements
//   ldg_element LDG.E.U16: one 16-bit element of A or B (the copy of rows that are not 16-byte aligned)
//   sts_chunk   STS.128 of 16 bytes held in registers
//   ldmatrix    LDSM.16.M88.{1,2,4}[.T] (ldmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared.b16)
//   mma         HMMA.16816.F32[.BF16] (the atom's PTX, kernel/mma_atom.hpp)
//   mbarrier_*  mbarrier.init / arrive.expect_tx / try_wait.parity (SYNCS in the SASS)
//   tma_load    cp.async.bulk.tensor.2d (UTMALDG): one box, issued by one thread, through the launch's tensor map
//   tma_store   cp.async.bulk.tensor.3d.global.shared::cta (UTMASTG), its bulk_group's commit and wait_group.read;
//               fence_async_shared is fence.proxy.async.shared::cta
//   wgmma*      wgmma.fence / mma_async / commit_group / wait_group (WARPGROUP, HGMMA): sm_90a only
//   wmma_*      the WMMA API itself (nvcuda::wmma, 16 x 16 x 16): the simulator counts what nvcc makes of it
//               (kernel/wmma.hpp); the fragments live in the description's storage, copied in and out by value
//
// `In` is the element type of A and B: float for the FP32 rungs, __half or __nv_bfloat16 for the tensor-core rungs.
// `AlignedRows`: the launch guarantees n and k are multiples of 8, so every row of 16-bit A and B starts on a 16-byte
// boundary (rows_aligned is then a constant, and a description's path for other rows is not compiled in).
#include <cuda.h>  // CUtensorMap (the type only: no driver call here)
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>

#include <cstdint>
#include <type_traits>
#include <utility>

#include "gemmlab/kernel/context.hpp"
#include "gemmlab/kernel/executor.hpp"
#include "gemmlab/kernel/vec.hpp"
#include "gemmlab/kernel/wgmma.hpp"
#include "gemmlab/kernel/wmma.hpp"
#include "wgmma_instructions.cuh"

namespace gemmlab::gpu {

// The CUDA vector type one instruction moves for Vec<N>.
template <int N> struct Native;
template <> struct Native<1> { using type = float; };
template <> struct Native<2> { using type = float2; };
template <> struct Native<4> { using type = float4; };

template <int N>
__device__ __forceinline__ kernel::Vec<N> from_native(const typename Native<N>::type& v) {
  kernel::Vec<N> out;
  if constexpr (N == 1) {
    out[0] = v;
  } else if constexpr (N == 2) {
    out[0] = v.x, out[1] = v.y;
  } else {
    out[0] = v.x, out[1] = v.y, out[2] = v.z, out[3] = v.w;
  }
  return out;
}

template <int N>
__device__ __forceinline__ typename Native<N>::type to_native(const kernel::Vec<N>& v) {
  if constexpr (N == 1) return v[0];
  else if constexpr (N == 2) return make_float2(v[0], v[1]);
  else return make_float4(v[0], v[1], v[2], v[3]);
}

template <class In, bool AlignedRows = true>
struct GpuExecutor {
  static constexpr bool traced = false;  // traced_executor.cuh's build stamps its operations
  const In* __restrict__ a;
  const In* __restrict__ b;
  float* __restrict__ c;
  float* smem;  // the block's dynamic shared memory
  const CUtensorMap* a_map = nullptr;  // the launch's tensor maps of A and B (TMA rungs only)
  const CUtensorMap* b_map = nullptr;
  const CUtensorMap* c_map = nullptr;  // and of C, where a TMA store writes it (tma_store = 1)
  int* split_flags = nullptr;          // split-K: the launch's flag per tile (rung 22)
  float* workspace = nullptr;          // split-K with workspace = 1: the ranges' sums (launch.cpp's buffer)

  // The FP32 operations' view of an operand (only C where A and B are 16-bit: no description loads them as floats).
  __device__ __forceinline__ const float* source(kernel::Operand operand) const {
    if (operand == kernel::Operand::W) return workspace;
    if constexpr (std::is_same_v<In, float>) return operand == kernel::Operand::A ? a : operand == kernel::Operand::B ? b : c;
    else return c;
  }
  __device__ __forceinline__ unsigned shared_address(int byte) const {
    return static_cast<unsigned>(__cvta_generic_to_shared(reinterpret_cast<char*>(smem) + byte));
  }

  template <int N>
  __device__ __forceinline__ void ldg(kernel::Vec<N>& out, kernel::Operand operand, kernel::Index index, bool pred) {
    using T = typename Native<N>::type;
    T v{};
    if (pred) v = *reinterpret_cast<const T*>(source(operand) + index);
    out = from_native<N>(v);
  }

  template <int N>
  __device__ __forceinline__ void stg(kernel::Operand operand, kernel::Index index, const kernel::Vec<N>& v, bool pred) {
    using T = typename Native<N>::type;
    float* to = operand == kernel::Operand::W ? workspace : c;  // only C and split-K's workspace are ever stored
    if (pred) *reinterpret_cast<T*>(to + index) = to_native<N>(v);
  }

  // Narrow shared loads are spelled in PTX: from plain C++, nvcc fuses a thread's loads of consecutive floats into
  // LDS.64/LDS.128 (rungs 3 to 5 read a row of their tile one float at a time), and the kernel would then run fewer,
  // wider instructions than the description names - and than the simulator counts (docs/fidelity.md). ptxas fuses
  // plain ld.shared of neighbouring addresses too, so the PTX load is .volatile: one PTX load, one LDS (the asm is
  // volatile as well, which keeps it in order with the barriers around it). 128-bit loads have nothing wider to
  // become, and stay plain C++ for the best rungs' schedulers.
  template <int N>
  __device__ __forceinline__ void lds(kernel::Vec<N>& out, int offset) {
    using T = typename Native<N>::type;
    if constexpr (N == 4) {
      out = from_native<N>(*reinterpret_cast<const T*>(smem + offset));
    } else {
      const unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(smem + offset));
      if constexpr (N == 1) {
        asm volatile("ld.volatile.shared.f32 %0, [%1];\n" : "=f"(out[0]) : "r"(address));
      } else {
        asm volatile("ld.volatile.shared.v2.f32 {%0, %1}, [%2];\n" : "=f"(out[0]), "=f"(out[1]) : "r"(address));
      }
    }
  }

  template <int N>
  __device__ __forceinline__ void sts(int offset, const kernel::Vec<N>& v) {
    using T = typename Native<N>::type;
    *reinterpret_cast<T*>(smem + offset) = to_native<N>(v);
  }

  template <int N>
  __device__ __forceinline__ void cp_async(int offset, kernel::Operand operand, kernel::Index index, bool pred,
                                           kernel::Width<N>) {
    const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(smem + offset));
    const float* src = source(operand) + index;
    const int src_bytes = pred ? 4 * N : 0;  // 0: read nothing, fill the destination with zeros
    // No "memory" clobber here: issuing a copy must not pin the surrounding shared loads in place, or the compiler
    // cannot interleave the next tile's copies with this tile's fragment loads. Ordering is kept where it matters:
    // cp_async_wait below is a compiler barrier, and every buffer a copy overwrites was freed by a __syncthreads.
    if constexpr (N == 4) {
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(src_bytes));
    } else {
      asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(dst), "l"(src), "n"(4 * N),
                   "r"(src_bytes));
    }
  }

  __device__ __forceinline__ void cp_async16(int byte, kernel::Operand operand, kernel::Index index, bool pred) {
    const In* src = (operand == kernel::Operand::A ? a : b) + index;
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(shared_address(byte)), "l"(src),
                 "r"(pred ? 16 : 0));
  }

  __device__ __forceinline__ bool rows_aligned(int cols) const { return AlignedRows || cols % 8 == 0; }

  __device__ __forceinline__ void ldg_element(std::uint16_t& out, kernel::Operand operand, kernel::Index index,
                                              bool pred) {
    const In* src = (operand == kernel::Operand::A ? a : b) + index;
    out = pred ? *reinterpret_cast<const std::uint16_t*>(src) : std::uint16_t{0};
  }

  __device__ __forceinline__ void sts_chunk(int byte, const std::uint32_t (&words)[4]) {
    *reinterpret_cast<uint4*>(reinterpret_cast<char*>(smem) + byte) = make_uint4(words[0], words[1], words[2], words[3]);
  }

  // Volatile, like the loads above: it must stay after the barrier that makes the copies it reads visible.
  template <int R, bool Trans, class RowAddress>
  __device__ __forceinline__ void ldmatrix(kernel::Ldsm<R, Trans>, std::uint32_t* out, RowAddress&& row_address) {
    const unsigned address = shared_address(row_address(static_cast<int>(threadIdx.x % 32)));
    if constexpr (R == 4 && Trans) {
      asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                   : "=r"(out[0]), "=r"(out[1]), "=r"(out[2]), "=r"(out[3]) : "r"(address));
    } else if constexpr (R == 4) {
      asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                   : "=r"(out[0]), "=r"(out[1]), "=r"(out[2]), "=r"(out[3]) : "r"(address));
    } else if constexpr (R == 2 && Trans) {
      asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];\n"
                   : "=r"(out[0]), "=r"(out[1]) : "r"(address));
    } else if constexpr (R == 2) {
      asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];\n"
                   : "=r"(out[0]), "=r"(out[1]) : "r"(address));
    } else if constexpr (Trans) {
      asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];\n" : "=r"(out[0]) : "r"(address));
    } else {
      asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];\n" : "=r"(out[0]) : "r"(address));
    }
  }

  // D: four floats, or two registers of two halves for an atom that accumulates in FP16.
  template <class Atom, class D>
  __device__ __forceinline__ void mma(Atom, D* d, const std::uint32_t* a_regs, const std::uint32_t* b_regs) {
    static_assert(!std::is_same_v<In, float>, "mma takes 16-bit A and B");
    Atom::template issue<std::is_same_v<In, __nv_bfloat16>>(d, a_regs, b_regs);
  }

  // ---- Hopper: mbarriers, TMA, wgmma (kernel/wgmma.hpp). ----
  // setmaxnreg takes its count as an immediate: one instruction per legal count (kernel::setmaxnreg_count), of which
  // the constant `count` of a compiled configuration leaves one.
  template <int Count>
  __device__ __forceinline__ static void set_max_registers_to(bool raise) {
    if (raise) asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(Count));
    else asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(Count));
  }
  __device__ __forceinline__ void set_max_registers(int count, bool raise) {
    constexpr int first = kernel::kSetmaxnregMin, step = kernel::kSetmaxnregStep;
    [&]<int... I>(std::integer_sequence<int, I...>) {
      ((count == first + step * I ? set_max_registers_to<first + step * I>(raise) : void()), ...);
    }(std::make_integer_sequence<int, (kernel::kSetmaxnregMax - first) / step + 1>{});
  }
  __device__ __forceinline__ void mbarrier_init(int byte, int arrivals, bool pred) {
    if (pred)  // the fence makes the initialised barrier visible to the copy engine (the async proxy)
      asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\nfence.mbarrier_init.release.cluster;\n"
                   ::"r"(shared_address(byte)), "r"(arrivals) : "memory");
  }
  __device__ __forceinline__ void mbarrier_expect_bytes(int byte, int bytes, bool pred) {
    if (pred)
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(shared_address(byte)), "r"(bytes)
                   : "memory");
  }
  __device__ __forceinline__ void mbarrier_arrive(int byte, bool pred) {
    if (pred) asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(shared_address(byte)) : "memory");
  }
  __device__ __forceinline__ void tma_load(const kernel::TmaBox& box, int byte, int barrier, bool pred,
                                           kernel::TmaMulticast multicast = {}) {
    if (!pred || !multicast.issued_here) return;  // a partner's multicast lands here without this block's instruction
    const CUtensorMap* map = box.operand == kernel::Operand::A ? a_map : b_map;
    if (multicast.ctas == 1) {
      asm volatile(
          "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n"
          ::"r"(shared_address(byte)), "l"(map), "r"(box.col0), "r"(box.row0), "r"(shared_address(barrier))
          : "memory");
      return;
    }
    const auto ctas = static_cast<unsigned short>((1u << multicast.ctas) - 1);  // ranks 0 .. ctas - 1
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
        " [%0], [%1, {%2, %3}], [%4], %5;\n"
        ::"r"(shared_address(byte)), "l"(map), "r"(box.col0), "r"(box.row0), "r"(shared_address(barrier)), "h"(ctas)
        : "memory");
  }
  // Split-K's flags. The wait polls with an acquire load at GPU scope, backing off between polls so that the waiting
  // thread takes few issue slots from the SM's other blocks; the release is a store with release semantics, after the
  // consumers' barrier that orders their stores of C before it (the description's epilogue).
  __device__ __forceinline__ void split_wait(int tile, int value, bool pred) {
    if (!pred) return;
    int now;
    for (;;) {
      asm volatile("ld.acquire.gpu.global.b32 %0, [%1];\n" : "=r"(now) : "l"(split_flags + tile) : "memory");
      if (now == value) break;
      __nanosleep(64);
    }
  }
  __device__ __forceinline__ void split_release(int tile, int value, bool pred) {
    if (pred) asm volatile("st.release.gpu.global.b32 [%0], %1;\n" ::"l"(split_flags + tile), "r"(value) : "memory");
  }
  __device__ __forceinline__ void split_arrive(int tile, bool pred) {
    if (pred) asm volatile("red.release.gpu.global.add.s32 [%0], 1;\n" ::"l"(split_flags + tile) : "memory");
  }
  __device__ __forceinline__ void sync_warp() { __syncwarp(); }
  __device__ __forceinline__ void fence_async_shared() {
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  }
  // A box of C is always panels (kernel::TmaWgmmaPersistent::c_box), the 3-D view of C the launch's map gives: {column
  // within the panel, row, panel} (kernel::TmaBox::first_panel).
  __device__ __forceinline__ void tma_store(const kernel::TmaBox& box, int byte, bool pred) {
    if (pred)
      asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [%0, {%1, %2, %3}], [%4];\n"
                   ::"l"(c_map), "r"(0), "r"(box.row0), "r"(box.first_panel()), "r"(shared_address(byte))
                   : "memory");
  }
  __device__ __forceinline__ void tma_store_commit(bool pred) {
    if (pred) asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
  }
  template <int P>
  __device__ __forceinline__ void tma_store_wait(kernel::Pending<P>, bool pred) {
    if (pred) asm volatile("cp.async.bulk.wait_group.read %0;\n" ::"n"(P) : "memory");
  }
  // The same shared offset in each block of the cluster (mapa). The arrival's default semantics (release at the
  // CTA's scope) suffice: what it releases are the thread's finished wgmma reads, not writes a partner would read.
  __device__ __forceinline__ void mbarrier_arrive_cluster(int byte, bool pred, int ctas) {
    if (!pred) return;
    if (ctas == 1) return mbarrier_arrive(byte, true);
    for (int rank = 0; rank < ctas; ++rank)
      asm volatile(
          "{\n.reg .b32 remote;\nmapa.shared::cluster.u32 remote, %0, %1;\n"
          "mbarrier.arrive.shared::cluster.b64 _, [remote];\n}\n"
          ::"r"(shared_address(byte)), "r"(rank) : "memory");
  }
  __device__ __forceinline__ void mbarrier_wait(int byte, int parity) {
    asm volatile(
        "{\n.reg .pred done;\nwait_again:\n"
        "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n@!done bra wait_again;\n}\n"
        ::"r"(shared_address(byte)), "r"(parity) : "memory");
  }
  // The accumulators pinned in place: no read or write of them moves across the asynchronous wgmma's fence or wait.
  template <int N>
  __device__ __forceinline__ static void pin(float (&acc)[N]) {
    GEMMLAB_UNROLL
    for (int i = 0; i < N; ++i) asm volatile("" : "+f"(acc[i])::"memory");
  }
  template <int N>
  __device__ __forceinline__ void wgmma_fence(float (&acc)[N]) {
    pin(acc);
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
  }
  template <int N>
  __device__ __forceinline__ void wgmma(kernel::WgmmaM64K16<N>, float* d, const kernel::WgmmaOperand& a,
                                        const kernel::WgmmaOperand& b, bool accumulate = true) {
    static_assert(!std::is_same_v<In, float>, "wgmma takes 16-bit A and B here");
    const std::uint32_t base = shared_address(0);
    WgmmaInstruction<N, std::is_same_v<In, __nv_bfloat16>>::issue(d, a.descriptor(base), b.descriptor(base), accumulate);
  }
  __device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
  template <int P, int N>
  __device__ __forceinline__ void wgmma_wait(kernel::Pending<P>, float (&acc)[N]) {
    asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(P) : "memory");
    pin(acc);
  }

  // ---- The WMMA API (kernel/wmma.hpp). ----
  static constexpr bool has_wmma_api = true;
  template <class Use, class Layout = void>
  using WmmaFragment =
      nvcuda::wmma::fragment<Use, 16, 16, 16,
                             std::conditional_t<std::is_same_v<Use, nvcuda::wmma::accumulator>, float, In>, Layout>;
  using WmmaA = WmmaFragment<nvcuda::wmma::matrix_a, nvcuda::wmma::row_major>;
  using WmmaB = WmmaFragment<nvcuda::wmma::matrix_b, nvcuda::wmma::row_major>;
  using WmmaC = WmmaFragment<nvcuda::wmma::accumulator>;

  // The API's fragment in the description's storage and back: plain copies of registers, which the compiler drops.
  template <class Fragment, class Storage>
  __device__ __forceinline__ static Fragment unpack(const Storage& storage) {
    static_assert(sizeof(Fragment::x) <= sizeof(storage), "the description's fragment storage is too small");
    Fragment f;
    memcpy(&f.x, &storage, sizeof(f.x));
    return f;
  }
  template <class Fragment, class Storage>
  __device__ __forceinline__ static void pack(Storage& storage, const Fragment& f) {
    memcpy(&storage, &f.x, sizeof(f.x));
  }

  // load_matrix_sync of A or B from shared memory. For BF16, CUDA 13's header reaches PTX as a generic-address
  // wmma.load (FP16's becomes wmma.load...shared.f16); ptxas then cannot use ldmatrix, and the BF16 kernel spills. So
  // BF16 issues the PTX instruction itself, wmma.load...shared.bf16. Volatile, like ldmatrix above: it stays after the
  // barrier that makes the copies it reads visible (the FP16 call is ordered by the API's own memory semantics).
  template <class Fragment>
  __device__ __forceinline__ void wmma_load(Fragment& out, int byte, int row_bytes) {
    constexpr bool is_a = std::is_same_v<Fragment, kernel::Wmma16x16x16::A>;
    using Api = std::conditional_t<is_a, WmmaA, WmmaB>;
    Api f;
    if constexpr (std::is_same_v<In, __nv_bfloat16>) {
      std::uint32_t r[4];
      if constexpr (is_a) {
        asm volatile("wmma.load.a.sync.aligned.row.m16n16k16.shared.bf16 {%0, %1, %2, %3}, [%4], %5;\n"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(shared_address(byte)), "r"(row_bytes / 2));
      } else {
        asm volatile("wmma.load.b.sync.aligned.row.m16n16k16.shared.bf16 {%0, %1, %2, %3}, [%4], %5;\n"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(shared_address(byte)), "r"(row_bytes / 2));
      }
      static_assert(sizeof(f.x) == sizeof(r), "a BF16 16 x 16 x 16 fragment of A or B is 4 registers");
      memcpy(&f.x, r, sizeof(r));
    } else {
      nvcuda::wmma::load_matrix_sync(f, reinterpret_cast<const In*>(reinterpret_cast<const char*>(smem) + byte),
                                     static_cast<unsigned>(row_bytes / 2));
    }
    pack(out, f);
  }
  __device__ __forceinline__ void wmma_mma(kernel::Wmma16x16x16::Accumulator& d, const kernel::Wmma16x16x16::A& a,
                                           const kernel::Wmma16x16x16::B& b) {
    WmmaC acc = unpack<WmmaC>(d);
    nvcuda::wmma::mma_sync(acc, unpack<WmmaA>(a), unpack<WmmaB>(b), acc);
    pack(d, acc);
  }
  __device__ __forceinline__ void wmma_load_c(kernel::Wmma16x16x16::Accumulator& out, kernel::Index index, int n) {
    WmmaC f;
    nvcuda::wmma::load_matrix_sync(f, c + index, static_cast<unsigned>(n), nvcuda::wmma::mem_row_major);
    pack(out, f);
  }
  __device__ __forceinline__ void wmma_store_c(const kernel::Wmma16x16x16::Accumulator& f, kernel::Index index, int n) {
    nvcuda::wmma::store_matrix_sync(c + index, unpack<WmmaC>(f), static_cast<unsigned>(n), nvcuda::wmma::mem_row_major);
  }

  __device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }

  template <int P>
  __device__ __forceinline__ void cp_async_wait(kernel::Pending<P>) {
    asm volatile("cp.async.wait_group %0;\n" ::"n"(P) : "memory");
  }

  __device__ __forceinline__ float fma(float x, float y, float z) { return fmaf(x, y, z); }
};

}  // namespace gemmlab::gpu
