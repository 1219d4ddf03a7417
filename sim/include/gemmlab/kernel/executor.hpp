#pragma once
// A rung's kernel is written once, against an "executor" X that carries out its memory operations:
//
//   x.ldg(Vec<N>& out, Operand, Index, bool pred)     global load of N floats (zeros where !pred)
//   x.stg(Operand, Index, const Vec<N>&, bool pred)   global store
//   x.lds(Vec<N>& out, int offset)                    shared load (offset in floats)
//   x.sts(int offset, const Vec<N>&)                  shared store
//   x.cp_async(int offset, Operand, Index, bool pred, Width<N>)   global -> shared without registers (zero-fill)
//   x.cp_async_commit(), x.cp_async_wait(Pending<P>)  group the copies in flight, wait until P groups remain
//   x.fma(a, b, c)                                    a * b + c
//
// The tensor-core rungs (16-bit A and B, FP32 C) address shared memory in BYTES and add warp-wide operations:
//
//   x.cp_async16(int byte, Operand, Index, bool pred)   16 bytes global -> shared (cp.async.cg), zero-fill if !pred
//   x.ldg_element(uint16_t& out, Operand, Index, bool pred)   one 16-bit element of A or B (ld.global.b16; 0 if !pred)
//   x.sts_chunk(int byte, const uint32_t (&words)[4])  16 bytes from registers to shared memory (st.shared.v4.b32)
//   x.rows_aligned(int cols)                           whether rows of `cols` 16-bit elements start on 16-byte
//                                                     boundaries (cols % 8 == 0). The GPU compiles a rung twice where
//                                                     it takes any size: the kernel for n and k multiples of 8 answers
//                                                     true without looking, so the other path is not compiled into it
//   x.ldmatrix(Ldsm<R, Trans>, uint32_t* out, row_address)   ldmatrix.sync.aligned.m8n8.xR[.trans].shared.b16 into
//                                                     R registers; row_address(lane) is the byte offset of the
//                                                     16-byte row lane `lane` gives: a function of the lane, because
//                                                     every lane's registers are built from other lanes' rows
//   x.mma(MmaM16N8K16, float* d, const uint32_t* a, const uint32_t* b)   d = a * b + d, one warp-wide HMMA
//
// Hopper's asynchronous path (kernel/wgmma.hpp; byte offsets into shared memory again; `pred`: the one thread that
// issues it):
//
//   x.mbarrier_init(int byte, int arrivals, bool pred)        an mbarrier expecting `arrivals` arrivals per phase
//   x.mbarrier_expect_bytes(int byte, int bytes, bool pred)   arrive, and expect `bytes` more bytes of copies
//   x.mbarrier_arrive(int byte, bool pred)            arrive: everything this thread did before is released to
//                                                     whoever waits for the phase
//   x.tma_load(const TmaBox&, int byte, int barrier, bool pred, TmaMulticast = {})   copy a box to shared memory
//                                                     (128-byte swizzle), completing its bytes on the mbarrier at
//                                                     `barrier`; multicast: into every block of the cluster, issued
//                                                     by one of them (kernel/wgmma.hpp)
//   x.mbarrier_arrive_cluster(int byte, bool pred, int ctas)   arrive on the mbarrier at `byte` of each of the
//                                                     cluster's `ctas` blocks (this one included)
//   x.mbarrier_wait(int byte, int parity)             wait until the phase of that parity has completed
//   x.sync_warp()                                     __syncwarp: the warp's lanes meet; what each wrote to shared
//                                                     memory before it, the others read after it
//   x.fence_async_shared()                            fence.proxy.async: this thread's writes to shared memory become
//                                                     visible to the copy engine (before a TMA store reads them)
//   x.tma_store(const TmaBox&, int byte, bool pred)   copy a box of C from its shared image (panels) to C,
//                                                     leaving out what lies outside C; in this thread's bulk group
//   x.tma_store_commit(bool pred), x.tma_store_wait(Pending<P>, bool pred)   close the thread's group of stores; wait
//                                                     until at most P of its groups still read shared memory
//   x.set_max_registers(int count, bool raise)        setmaxnreg: the warpgroup's registers per thread become `count`,
//                                                     taken from (raise) or returned to the block's pool; every
//                                                     thread of the warpgroup, the same count
//   x.wgmma_fence(float (&acc)[N])                    wgmma.fence: the accumulators are ready for wgmma
//   x.wgmma(WgmmaM64K16<N>, float* d, const WgmmaOperand& a, const WgmmaOperand& b, bool accumulate = true)
//                                                     D += A * B, warpgroup-wide (D = A * B where !accumulate)
//   x.wgmma_commit(), x.wgmma_wait(Pending<P>, float (&acc)[N])   group the wgmma issued; wait until P groups remain
//
// Split-K (rung 22): a flag per tile of C in global memory, zero between launches (`pred`: the one thread that acts):
//
//   x.split_wait(int tile, int value, bool pred)      wait until the tile's flag reads `value` (an acquire at GPU
//                                                     scope: the stores released with it are seen after it)
//   x.split_release(int tile, int value, bool pred)   set the flag to `value`, after (a release at GPU scope) every
//                                                     store a barrier before it ordered
//   x.split_arrive(int tile, bool pred)               add one to the flag, with the release's ordering (a range that
//                                                     left its sum in the workspace: workspace = 1)
//   x.ldg / x.stg with Operand::W                     the launch's workspace, `splits` FP32 slices of M x N
//
// The GPU issues the PTX; the simulator records ldmatrix as one LdMatrix warp instruction (each lane's row address)
// and counts mma as one tensor-core instruction; the functional executor computes what the warp's lanes receive.
//
// On the GPU (gpu/) the executor performs them: the calls inline into plain loads, stores and FFMAs. In the
// simulator (sim/) one executor records each lane's address so the warp's instruction can be costed, and another
// runs them on the CPU to produce C. Every call is made unconditionally, with a predicate, so every lane of a warp
// issues the same sequence of instructions - as predicated SASS does - and lanes line up into warp instructions.
namespace gemmlab::kernel {

template <int N>
struct Width {};
template <int P>
struct Pending {};
// ldmatrix's shape: R matrices of 8 x 8 16-bit elements (R = 1, 2, 4), transposed on the way or not.
template <int R, bool Trans>
struct Ldsm {
  static_assert(R == 1 || R == 2 || R == 4, "ldmatrix loads 1, 2 or 4 matrices");
  static constexpr int count = R;
  static constexpr bool trans = Trans;
};

}  // namespace gemmlab::kernel
