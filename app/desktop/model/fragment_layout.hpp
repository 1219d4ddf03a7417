#pragma once
// Who holds what in an MMA atom: for each element of A, B and C, the lane and the register (kernel/mma_atom.hpp's
// layouts turned around), and for each row of A the lane that gives ldmatrix its address. The fragments panel draws
// this; it is data, computed once from the atom the kernels use.
#include <vector>

namespace gemmlab::desktop {

struct FragmentCell {
  int lane = -1;
  int reg = 0;   // the lane's register (A: a0..a3, B: b0..b1, C: c0..c3, one float each)
  int half = 0;  // A and B: which 16-bit half of the register (0: low)
};

struct FragmentMatrix {
  int rows = 0, cols = 0;
  std::vector<FragmentCell> cells;  // row-major
  const FragmentCell& at(int row, int col) const { return cells[static_cast<std::size_t>(row * cols + col)]; }
};

struct FragmentLayout {
  FragmentMatrix a, b, c;  // 16 x 16, 16 x 8 (k x n), 16 x 8
  // ldmatrix.x4 over A's 16 x 16: the lane that gives the address of row r at column block cb (0: columns 0-7, 1: 8-15).
  int ldsm_lane[16][2] = {};
};

// The layout of mma.sync.m16n8k16 (the atom of rungs 11 to 16 (wmma compiles to it)).
const FragmentLayout& m16n8k16_layout();

// wgmma.m64nNk16 (rung 17, kernel/wgmma.hpp): A and B are read from shared memory, so only D has a register layout.
struct WgmmaLayout {
  FragmentMatrix d;  // rows 0-63, columns 0-15 of D: `lane` is the thread of the warpgroup (0-127), `reg` its register
  // The 128-byte swizzle: where row r's 16-byte chunk c lands within its 128-byte row (chunk c ^ r, rows 0-7).
  int placed_chunk[8][8] = {};
};
const WgmmaLayout& wgmma_layout();

}  // namespace gemmlab::desktop
