#pragma once
// Host side of the TMA rungs: the tensor map that tells the copy engine where a matrix is, how it is laid out and
// which box one copy moves, and the check that the GPU has the sm_90a features those kernels are compiled for.
#include <cuda.h>

#include "gemmlab/kernel/element.hpp"
#include "gemmlab/result.hpp"

namespace gemmlab::gpu {

// The map of a row-major rows x cols matrix of `type` elements at `base` (16-bit A or B; C is F32), for boxes of
// box_rows x box_cols in TMA's swizzle of `swizzle_bytes` (32, 64 or 128: a box row of box_cols elements spans it;
// 0: none); elements outside the matrix arrive as zeros, and a store leaves them out. panel_cols > 0: a box's image
// is its panel_cols-wide panels one after the other (kernel::TmaBox), a 3-D map. The driver's encoder is found at
// run time (cudaGetDriverEntryPointByVersion), so nothing links against libcuda.
Result<CUtensorMap> make_tensor_map(const void* base, int rows, int cols, int box_rows, int box_cols, int swizzle_bytes,
                                    kernel::InputType type, int panel_cols = 0);

// Ok on a GPU of compute capability 9.0 (the H100 and H200: sm_90a); else the sentence to show.
Status require_sm90a();

}  // namespace gemmlab::gpu
