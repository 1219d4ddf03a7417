// Rung 1, naive-uncoalesced: one thread per element of C, walking all of K straight from global memory.
//
// The starting point of the ladder. Consecutive threads take consecutive ROWS of C, so a warp's 32 loads of A are K
// floats apart (32 sectors for 128 useful bytes) and its 32 stores of C are N floats apart: almost every byte the
// memory system moves is thrown away. Bottleneck: uncoalesced global accesses (DRAM and L2 sectors, not FLOPs).
//
// Description: sim/include/gemmlab/kernel/rungs/naive.hpp (Naive<true>). Docs: docs/rungs/01-naive-uncoalesced.md.
// Compiled configurations: the NaiveUncoalesced lines of gpu/include/gemmlab/gpu/instances.def.
#include "rung_kernel.cuh"

namespace gemmlab::gpu {
GEMMLAB_GPU_RUNG_KERNELS(NaiveUncoalesced)
}  // namespace gemmlab::gpu
