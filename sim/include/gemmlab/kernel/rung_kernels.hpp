#pragma once
// Which kernel description each rung uses (its Description in rungs.def): the one mapping from the rung list to code,
// read by the simulator's registry and by the GPU registry alike. A rung's header is included here.
#include "gemmlab/kernel/rungs/blocktile_1d.hpp"
#include "gemmlab/kernel/rungs/blocktile_2d.hpp"
#include "gemmlab/kernel/rungs/cp_async.hpp"
#include "gemmlab/kernel/rungs/double_buffer.hpp"
#include "gemmlab/kernel/rungs/mma_staged_epilogue.hpp"
#include "gemmlab/kernel/rungs/mma_sync.hpp"
#include "gemmlab/kernel/rungs/naive.hpp"
#include "gemmlab/kernel/rungs/smem_epilogue.hpp"
#include "gemmlab/kernel/rungs/smem_tiling.hpp"
#include "gemmlab/kernel/rungs/tma_wgmma.hpp"
#include "gemmlab/kernel/rungs/tma_wgmma_hilbert.hpp"
#include "gemmlab/kernel/rungs/tma_wgmma_multicast.hpp"
#include "gemmlab/kernel/rungs/tma_wgmma_pingpong.hpp"
#include "gemmlab/kernel/rungs/tma_wgmma_persistent.hpp"
#include "gemmlab/kernel/rungs/tma_wgmma_specialized.hpp"
#include "gemmlab/kernel/rungs/tma_wgmma_splitk.hpp"
#include "gemmlab/kernel/rungs/tma_wgmma_streamk.hpp"
#include "gemmlab/kernel/rungs/vectorized.hpp"
#include "gemmlab/kernel/rungs/warptile.hpp"
#include "gemmlab/kernel/rungs/wmma.hpp"
#include "gemmlab/rungs.hpp"

namespace gemmlab::kernel {

template <RungId Id>
struct KernelOf;

#define GEMMLAB_RUNG(ident, slug, description, arch, title, precision, change) \
  template <> struct KernelOf<RungId::ident> { using type = description; };
#include "gemmlab/rungs.def"
#undef GEMMLAB_RUNG

}  // namespace gemmlab::kernel
