#pragma once
// Which kernel description each rung uses: the one mapping from the rung list to code, read by the simulator's
// registry and by the GPU registry alike. A rung whose description is not written yet has no specialization.
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
#include "gemmlab/kernel/rungs/tma_wgmma_multicast.hpp"
#include "gemmlab/kernel/rungs/tma_wgmma_persistent.hpp"
#include "gemmlab/kernel/rungs/tma_wgmma_specialized.hpp"
#include "gemmlab/kernel/rungs/vectorized.hpp"
#include "gemmlab/kernel/rungs/warptile.hpp"
#include "gemmlab/kernel/rungs/wmma.hpp"
#include "gemmlab/rungs.hpp"

namespace gemmlab::kernel {

template <RungId Id>
struct KernelOf;  // undefined: this rung has no description yet

template <> struct KernelOf<RungId::NaiveUncoalesced> { using type = rungs::NaiveUncoalesced; };
template <> struct KernelOf<RungId::NaiveCoalesced> { using type = rungs::NaiveCoalesced; };
template <> struct KernelOf<RungId::SmemTiling> { using type = rungs::SmemTiling; };
template <> struct KernelOf<RungId::BlockTile1D> { using type = rungs::BlockTile1D; };
template <> struct KernelOf<RungId::BlockTile2D> { using type = rungs::BlockTile2D; };
template <> struct KernelOf<RungId::Vectorized> { using type = rungs::Vectorized; };
template <> struct KernelOf<RungId::DoubleBuffer> { using type = rungs::DoubleBuffer; };
template <> struct KernelOf<RungId::CpAsync> { using type = rungs::CpAsync; };
template <> struct KernelOf<RungId::WarpTile> { using type = rungs::WarpTile; };
template <> struct KernelOf<RungId::SmemEpilogue> { using type = rungs::SmemEpilogue; };
template <> struct KernelOf<RungId::Wmma> { using type = rungs::Wmma; };
template <> struct KernelOf<RungId::MmaRowMajor> { using type = rungs::MmaRowMajor; };
template <> struct KernelOf<RungId::MmaPadded> { using type = rungs::MmaPadded; };
template <> struct KernelOf<RungId::MmaSwizzled> { using type = rungs::MmaSwizzled; };
template <> struct KernelOf<RungId::MmaMultistage> { using type = rungs::MmaMultistage; };
template <> struct KernelOf<RungId::MmaStagedEpilogue> { using type = rungs::MmaStagedEpilogue; };
template <> struct KernelOf<RungId::TmaWgmma> { using type = rungs::TmaWgmma; };
template <> struct KernelOf<RungId::TmaWgmmaSpecialized> { using type = rungs::TmaWgmmaSpecialized; };
template <> struct KernelOf<RungId::TmaWgmmaMulticast> { using type = rungs::TmaWgmmaMulticast; };
template <> struct KernelOf<RungId::TmaWgmmaPersistent> { using type = rungs::TmaWgmmaPersistent; };

}  // namespace gemmlab::kernel
