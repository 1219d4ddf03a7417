// Rung 11, wmma: tensor cores through the WMMA API (load_matrix_sync, mma_sync, store_matrix_sync).
//
// The description is kernel/rungs/wmma.hpp (which says what changed and why, and what the API takes away); the GPU
// executor calls the API itself, the simulator counts what nvcc compiles it into (kernel/wmma.hpp). Each line of
// the instance list compiles twice, for FP16 and for BF16 inputs (FP32 accumulation and C).
//
// Docs: docs/rungs/11-wmma.md. Compiled configurations: the Wmma lines of gpu/include/gemmlab/gpu/instances.def.
#include "rung_kernel.cuh"

namespace gemmlab::gpu {
GEMMLAB_GPU_RUNG_KERNELS(Wmma)
}  // namespace gemmlab::gpu
