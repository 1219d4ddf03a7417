#pragma once
// GEMMLAB_HD marks the index math that both the CUDA kernels and the simulator call: __host__ __device__ under
// nvcc, a plain inline function elsewhere. One definition, two compilers, nothing to drift.
#if defined(__CUDACC__)
#define GEMMLAB_HD __host__ __device__ __forceinline__
#else
#define GEMMLAB_HD inline
#endif

// GEMMLAB_HD_CALL: the same, but a call on the GPU rather than inlined: for code every kernel carries and few run
// (the Hilbert launch order, chosen at run time), so that it does not sit in every kernel's prologue.
#if defined(__CUDACC__)
#define GEMMLAB_HD_CALL __host__ __device__ __noinline__ inline
#else
#define GEMMLAB_HD_CALL inline
#endif

// GEMMLAB_UNROLL before a loop whose counter indexes a per-thread array: nvcc then unrolls it fully (the trip count
// is a compile-time constant with a FixedConfig), so every index is a constant and the array stays in registers. A
// loop nvcc judged too big to unroll would index the array at run time and move it to local memory. No effect on
// the host compiler (under nvcc only the device pass sees the pragma: gcc's -Wall rejects an unknown one).
#if defined(__CUDA_ARCH__)
#define GEMMLAB_UNROLL _Pragma("unroll")
#else
#define GEMMLAB_UNROLL
#endif

// GEMMLAB_KEEP_ROLLED before a loop that must stay a loop on the GPU, to keep a hot loop's code small enough for the
// instruction cache (nvcc unrolls loops with a constant trip count on its own).
#if defined(__CUDA_ARCH__)
#define GEMMLAB_KEEP_ROLLED _Pragma("unroll 1")
#else
#define GEMMLAB_KEEP_ROLLED
#endif
