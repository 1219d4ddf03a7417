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
// On the GPU (gpu/) the executor performs them: the calls inline into plain loads, stores and FFMAs. In the
// simulator (sim/) one executor records each lane's address so the warp's instruction can be costed, and another
// runs them on the CPU to produce C. Every call is made unconditionally, with a predicate, so every lane of a warp
// issues the same sequence of instructions - as predicated SASS does - and lanes line up into warp instructions.
namespace gemmlab::kernel {

template <int N>
struct Width {};
template <int P>
struct Pending {};

}  // namespace gemmlab::kernel
