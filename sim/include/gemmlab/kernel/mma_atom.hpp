#pragma once
// An MMA atom: one warp-wide tensor-core instruction, described once for the GPU and the simulator (CuTe's MMA
// atoms are the model). It says how big a piece of C one instruction computes, and which lane holds which element
// of A, B and C in which register - the "fragment" layouts. The GPU executor issues the atom's PTX; the simulator's
// functional executor uses the same layouts to gather the warp's operands and compute the lanes' results, and the
// desktop app draws them.
//
// mma.sync.aligned.m16n8k16.row.col.f32.{f16,bf16}.{f16,bf16}.f32 (PTX ISA, "Matrix fragments for mma.m16n8k16"):
// A is 16 x 16 (row-major), B 16 x 8 (column-major, i.e. read down k), C and D 16 x 8 in FP32. With
// g = lane / 4 (the "group", a row of A and C, a column of B) and t = lane % 4 (the thread in the group):
//
//   A: 4 registers of 2 halves: a0 = (g, 2t..2t+1), a1 = (g+8, 2t..), a2 = (g, 2t+8..), a3 = (g+8, 2t+8..)
//   B: 2 registers of 2 halves: b0 = (k 2t..2t+1, n g), b1 = (k 2t+8..2t+9, n g)
//   C: 4 floats:                c0, c1 = (g, 2t..2t+1), c2, c3 = (g+8, 2t..2t+1)
//
// These are exactly what ldmatrix.x4 delivers when its four 8 x 8 matrices are the four quarters of a 16 x 16 block
// (A), and what ldmatrix.x4.trans delivers from a row-major k x n tile of B (two n8 tiles at once): see
// ldmatrix_x4_row / ldmatrix_x4_col below.
#include <cstdint>

#include "gemmlab/hd.hpp"

namespace gemmlab::kernel {

// R 32-bit registers of a warp-wide operand, each holding two 16-bit elements (the lower half the lower index).
template <int R>
struct Fragment {
  std::uint32_t r[R];
};

struct MmaM16N8K16 {
  static constexpr int m = 16, n = 8, k = 16;
  using A = Fragment<4>;
  using B = Fragment<2>;
  struct C {
    float v[4];
  };
  static constexpr int a_values = 8, b_values = 4, c_values = 4;  // elements per lane
  static constexpr int c_registers = 4;              // 32-bit registers of C per lane
  static constexpr bool half_accumulator = false;

  // Element `value` (0..7: register value / 2, half value % 2) of lane `lane`'s A fragment is A(a_row, a_col).
  GEMMLAB_HD static int a_row(int lane, int value) { return lane / 4 + 8 * ((value / 2) & 1); }
  GEMMLAB_HD static int a_col(int lane, int value) { return 2 * (lane % 4) + 8 * (value / 4) + value % 2; }
  // Element `value` (0..3) of the B fragment is B(b_row = k, b_col = n).
  GEMMLAB_HD static int b_row(int lane, int value) { return 2 * (lane % 4) + 8 * (value / 2) + value % 2; }
  GEMMLAB_HD static int b_col(int lane, int /*value*/) { return lane / 4; }
  // Element `value` (0..3) of C is C(c_row, c_col).
  GEMMLAB_HD static int c_row(int lane, int value) { return lane / 4 + 8 * (value / 2); }
  GEMMLAB_HD static int c_col(int lane, int value) { return 2 * (lane % 4) + value % 2; }

  // ldmatrix.x4 over a 16 x 16 block: lane L gives the address of row `ldsm_row(L)`, starting at column
  // `ldsm_col(L)`, of the block (lanes 0-7: rows 0-7 at column 0, 8-15: rows 8-15, 16-23: rows 0-7 at column 8,
  // 24-31: rows 8-15 at column 8). For A (no .trans) the four matrices land in a0..a3; for a row-major k x n block
  // of B with .trans, in b0, b1 of the n8 tile at column 0 and b0, b1 of the one at column 8.
  GEMMLAB_HD static int ldsm_row(int lane) { return lane % 8 + 8 * ((lane / 8) % 2); }
  GEMMLAB_HD static int ldsm_col(int lane) { return 8 * (lane / 16); }

#if defined(__CUDACC__)
  // The instruction: d = a * b + d, FP16 or BF16 inputs. Not volatile: it only computes, so the compiler may
  // schedule it between the loads of the next fragments.
  template <bool BF16>
  __device__ __forceinline__ static void issue(float* d, const std::uint32_t* a, const std::uint32_t* b) {
    if constexpr (BF16) {
      asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
          "{%0, %1, %2, %3};\n"
          : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
          : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    } else {
      asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
          "{%0, %1, %2, %3};\n"
          : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
          : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    }
  }
#endif
};

// The same instruction accumulating in FP16: mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16, FP16 inputs only
// (PTX has no BF16 form that accumulates in 16 bits). A, B and C have the layouts above; C's four values are two
// registers of two halves (c0, c1 in the first, c2, c3 in the second), half the registers of FP32 accumulators, and
// they are rounded to FP16 after every instruction: once per 16 k.
struct MmaM16N8K16HalfAccumulator : MmaM16N8K16 {
  static constexpr int c_registers = 2;
  static constexpr bool half_accumulator = true;
#if defined(__CUDACC__)
  template <bool BF16>
  __device__ __forceinline__ static void issue(std::uint32_t* d, const std::uint32_t* a, const std::uint32_t* b) {
    static_assert(!BF16, "mma.sync accumulates BF16 products in FP32 only");
    asm("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3, %4, %5}, {%6, %7}, {%0, %1};\n"
        : "+r"(d[0]), "+r"(d[1])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  }
#endif
};

}  // namespace gemmlab::kernel
