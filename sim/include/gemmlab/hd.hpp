#pragma once
// GEMMLAB_HD marks the index math that both the CUDA kernels and the simulator call: __host__ __device__ under
// nvcc, a plain inline function elsewhere. One definition, two compilers, nothing to drift.
#if defined(__CUDACC__)
#define GEMMLAB_HD __host__ __device__ __forceinline__
#else
#define GEMMLAB_HD inline
#endif
