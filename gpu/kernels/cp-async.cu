// Rung 8, cp-async: a cp.async (LDGSTS) pipeline 2 to 4 shared buffers deep.
//
// What changed from rung 7: tiles go from global to shared memory without registers (cp.async.cg, 16 bytes per
// instruction, zero-filled past the matrix edges), tracked in commit groups, so stages - 1 tiles are in flight while
// one is multiplied and there is one barrier per k-step. A stays row-major in shared memory (cp.async cannot
// transpose); the inner loop reads a tm x 4 block of A with LDS.128. Bottleneck removed: global latency exposed
// between k-steps, and the staging registers and STS instructions of rung 7. What remains: 2-way conflicts on the
// B fragment reads and half-sector C stores (rungs 9 and 10).
//
// Alternates compiled: stages = 2 and 4 (default 3).
//
// Description: sim/include/gemmlab/kernel/rungs/cp_async.hpp. Docs: docs/rungs/08-cp-async.md.
// Compiled configurations: the CpAsync lines of gpu/include/gemmlab/gpu/instances.def.
#include "rung_kernel.cuh"

namespace gemmlab::gpu {
GEMMLAB_GPU_RUNG_KERNELS(CpAsync)
}  // namespace gemmlab::gpu
