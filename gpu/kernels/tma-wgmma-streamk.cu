// Rung 23, tma-wgmma-streamk: rung 21's persistent clusters dealt equal shares of the GEMM's k-steps (Stream-K): the
// whole waves' tiles, then ranges of k-steps that cut tiles, whose pieces add up in C one after another.
//
// Description: sim/include/gemmlab/kernel/rungs/tma_wgmma_streamk.hpp (what changed and why) and
// sim/include/gemmlab/kernel/stream_k.hpp (the walk); each line of the instance list is compiled for FP16 and for BF16
// inputs, for sm_90a only (its Arch in rungs.def). Docs: docs/rungs/23-tma-wgmma-streamk.md. Compiled configurations:
// the TmaWgmmaStreamK lines of gpu/include/gemmlab/gpu/instances.def.
#include "rung_kernel.cuh"

namespace gemmlab::gpu {
GEMMLAB_GPU_RUNG_KERNELS(TmaWgmmaStreamK)
}  // namespace gemmlab::gpu
