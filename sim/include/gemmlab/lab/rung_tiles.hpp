#pragma once
// A rung's own shared tiles, written in the lab's notation: what a learner sees on a rung (the banks panel, the tile
// stepper) opens in the layout lab as the same layout, read by the same instruction. Built from the rung's own layout
// functors (kernel/layout.hpp's HalfTile, the Hopper rungs' TMA boxes), and tested element by element against them.
#include "gemmlab/kernel/config.hpp"
#include "gemmlab/lab/access.hpp"
#include "gemmlab/lab/query.hpp"
#include "gemmlab/result.hpp"
#include "gemmlab/rungs.hpp"

namespace gemmlab::lab {

// Operand A or B of the rung's shared stage, with the instruction the rung reads it with. Rungs 11 to 16 (16-bit
// tiles read by ldmatrix) and 17 to 20 (TMA boxes read by wgmma); the FP32 rungs' tiles are not MMA operands, and
// the error says so.
Result<QueryText> rung_tile(RungId rung, const kernel::KernelConfig& config, Operand operand);

}  // namespace gemmlab::lab
