// Rung 16, mma-staged-epilogue: rung 15's main loop, with C staged through shared memory to 128-bit stores.
//
// Description: sim/include/gemmlab/kernel/rungs/mma_staged_epilogue.hpp (what changed and why); each line of the
// instance list compiles for FP16 and for BF16 inputs. Docs: docs/rungs/16-mma-staged-epilogue.md.
// Compiled configurations: the MmaStagedEpilogue lines of gpu/include/gemmlab/gpu/instances.def.
#include "rung_kernel.cuh"

namespace gemmlab::gpu {
GEMMLAB_GPU_RUNG_KERNELS(MmaStagedEpilogue)
}  // namespace gemmlab::gpu
