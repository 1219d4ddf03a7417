#pragma once
// Hopper's asynchronous tensor-core path, described once for the GPU and the simulator: TMA box copies into a
// 128-byte-swizzled shared image, mbarriers that count the bytes landing, and the warpgroup MMA (wgmma) that reads
// A and B straight from shared memory through 64-bit "matrix descriptors".
//
// The 128-byte swizzle. TMA writes a box whose rows are 128 bytes (64 16-bit elements) so that, inside every
// 1024-byte block of 8 such rows, the 16-byte chunk c of row r lands at chunk c ^ r: as an address function, bits
// [4, 7) of the byte offset are XORed with bits [7, 10). It is the layout rungs 14 to 16 build by hand (HalfTile with
// swizzle, 64-half rows); here the copy engine writes it and the tensor cores read it, both computing the XOR from
// the shared address itself, which is why every tile starts on a 1024-byte boundary.
//
// wgmma.mma_async.sync.aligned.m64nNk16.f32.{f16,bf16}: a warpgroup (4 warps, 128 threads) computes a 64 x N block
// of D += A (64 x 16) * B (16 x N). A and B are given by descriptors: a start address and two strides, read with the
// swizzle above (PTX ISA, "Matrix Descriptor Format"; CuTe's GmmaDescriptor). This repository's A is row-major
// M x K (K-major: k contiguous) and B row-major K x N (N-major, "MN-major"), so:
//
//   A, K-major:  element (m, k) at start + (m / 8) * SBO + (m % 8) * 128 + 2k        (SBO = 1024: 8 rows of 128 B)
//   B, MN-major: element (k, n) at start + (n / 64) * LBO + (k / 8) * SBO + (k % 8) * 128 + 2 (n % 64)
//                (LBO: one 64-column panel of the tile; SBO = 1024: 8 k-rows of a panel)
//
// each then swizzled. The instruction's "transpose B" flag says B is MN-major. D stays in registers, in the layout
// of mma.m16n8's C repeated: warp w of the warpgroup holds rows 16w..16w+15, and register i of thread (w, l) is
// D(16w + l/4 + 8 ((i/2) % 2), 8 (i/4) + 2 (l%4) + i%2).
#include <cstdint>

#include "gemmlab/hd.hpp"
#include "gemmlab/kernel/context.hpp"
#include "gemmlab/kernel/vec.hpp"

namespace gemmlab::kernel {

// setmaxnreg's register counts: multiples of 8 from 24 to 256 (PTX ISA). The GPU executor emits one instruction per
// such count, the functional executor refuses any other, and a rung's register moves are checked against them.
inline constexpr int kSetmaxnregMin = 24, kSetmaxnregMax = 256, kSetmaxnregStep = 8;
GEMMLAB_HD constexpr bool setmaxnreg_count(int registers) {
  return registers >= kSetmaxnregMin && registers <= kSetmaxnregMax && registers % kSetmaxnregStep == 0;
}

// A warp-specialised block's register moves (setmaxnreg): every thread launches with `launch` registers, the producer
// warpgroup lowers its count to `producer` and each of `consumers` consumer warpgroups raises its to `consumer`.
// Valid where every count is one setmaxnreg takes, in that order, and what the consumers take is no more than the
// producer gave back to the block's pool (a raise beyond it would wait for ever).
struct RegisterMoves {
  int launch, producer, consumer;
  GEMMLAB_HD constexpr bool valid(int consumers) const {
    return setmaxnreg_count(launch) && setmaxnreg_count(producer) && setmaxnreg_count(consumer) &&
           producer <= launch && launch <= consumer && consumers * (consumer - launch) <= launch - producer;
  }
};

// TMA's swizzle modes, on a byte offset from a 1024-byte-aligned base: the 16-byte chunk index (bits 4 and up) is
// XORed with the index of the 128-byte line (bits 7 and up), on as many bits as a row of the mode has chunks: 3 bits
// for 128 bytes, 2 for 64, 1 for 32; mode 0 is no swizzle. (A 128-byte line holds one row of the 128-byte mode, two
// of the 64-byte mode, four of the 32-byte one.) CuTe calls them Swizzle<3,4,3>,
// Swizzle<2,4,3> and Swizzle<1,4,3>; the wgmma descriptor's layout types 1, 2 and 3.
GEMMLAB_HD constexpr int tma_swizzle(int byte, int mode_bytes) {
  const int mask = mode_bytes == 128 ? 0x70 : mode_bytes == 64 ? 0x30 : mode_bytes == 32 ? 0x10 : 0;
  return byte ^ ((byte >> 3) & mask);
}

// The 128-byte swizzle, the one the Hopper rungs' tiles use: rows of 128 bytes (64 16-bit elements), 8 to a pattern.
struct Swizzle128 {
  static constexpr int row_bytes = 128, rows = 8;
  GEMMLAB_HD static constexpr int apply(int byte) { return tma_swizzle(byte, 128); }
};

// A box of a 2-D tensor that one TMA instruction copies: rows x cols elements starting at element (row0, col0) of a
// row-major rows_total x cols_total matrix, landing in the swizzle mode of `swizzle_bytes`. A box row is as wide as
// the mode (64 16-bit elements for 128 bytes, 32 for 64, 16 for 32). Parts outside the matrix arrive as zeros, and
// still count as bytes of the copy.
//
// A box of C (FP32; rung 20's TMA store) goes the other way, from its shared image to the matrix, leaving out the
// parts outside it; and its image is `panel_cols`-column panels one after the other, unswizzled (swizzle_bytes 0):
// a 3-D box (columns within a panel, rows, panels) of the same part of C.
struct TmaBox {
  Operand operand;
  int row0, col0;
  int rows, cols;
  int rows_total, cols_total;
  int swizzle_bytes = 128;
  int panel_cols = 0;  // 0: one panel, the box's whole width (a 2-D box)
  GEMMLAB_HD int element_bytes() const { return operand == Operand::C ? 4 : 2; }
  GEMMLAB_HD int bytes() const { return rows * cols * element_bytes(); }
  // The rows the copy engine walks, each of one panel's width: a panelled box's panels are rows of their own.
  GEMMLAB_HD int engine_rows() const { return panel_cols > 0 ? rows * (cols / panel_cols) : rows; }
  // In the 3-D view of a panelled box (column within the panel, row, panel): the panel its first column is in.
  GEMMLAB_HD int first_panel() const { return panel_cols > 0 ? col0 / panel_cols : 0; }
  // Where element (r, c) of the box lies, from the box's first (1024-byte-aligned) shared byte.
  GEMMLAB_HD int shared_offset(int r, int c) const {
    const int width = panel_cols > 0 ? panel_cols : cols;
    return tma_swizzle(((c / width * rows + r) * width + c % width) * element_bytes(), swizzle_bytes);
  }
};

// Where a TMA copy lands: in this block only (ctas = 1), or, multicast, at the same shared offset of every block of
// a cluster of `ctas` (ranks 0 .. ctas - 1), completing its bytes on each one's mbarrier at the same offset. One
// block issues each multicast copy (issued_here); the others receive it. A block's description names every copy that
// lands in it, so the simulator, which runs one block at a time, writes the partner's copies too.
struct TmaMulticast {
  int ctas = 1;
  bool issued_here = true;
};

// A step of a ring of `stages` stages handed between a producer and consumers by full and empty mbarriers (rungs 18
// to 20): at step t the consumers wait for full[stage]'s phase of parity `parity`, read that stage, then release
// `released`, the stage step t - 1 read; the producer waits for empty[released]'s phase of parity `released_parity`
// (from step 1 on) and refills it with step `refill` = t + stages - 1.
struct RingStep {
  int stage, parity, released, released_parity, refill;
  GEMMLAB_HD static RingStep at(int step, int stages) {
    return {step % stages, (step / stages) % 2, (step + stages - 1) % stages, ((step - 1) / stages) % 2,
            step + stages - 1};
  }
  // The k-tile stage `stage` holds at step `step`: the one read (stage `step % stages`), the ones in flight after it,
  // and, in the stage released at this step, the tile it is refilled with (step + stages - 1).
  GEMMLAB_HD static int tile_in(int step, int stage, int stages) {
    return step + ((stage - step) % stages + stages) % stages;
  }
};

// The operand of a wgmma as its descriptor describes it: start address (a shared byte offset), leading and stride
// byte offsets, and which way it is stored. The GPU executor encodes it (adding the shared window's address); the
// simulator reads shared memory through it exactly as the layouts above say.
//
// In the 64- and 32-byte modes a row of the pattern holds 32 or 16 elements, so the same element sits at
//   A, K-major:  start + (m / 8) * SBO + (m % 8) * R + 2k                         (k < R / 2; SBO = 8 R)
//   B, MN-major: start + (n / (R / 2)) * LBO + (k / 8) * SBO + (k % 8) * R + 2 (n % (R / 2))
// with R the mode's bytes: B's panels are R / 2 columns wide, and a k16 step of A's wgmma moves 32 bytes along a row
// of 128 or 64 bytes, or to the next box of 32-byte rows.
enum class Major { K, MN };
struct WgmmaOperand {
  int start;
  int leading_byte_offset, stride_byte_offset;
  Major major;
  int swizzle_bytes = 128;

  // Byte offset (from the shared base) of element (row, col): (m, k) of a K-major A, (k, n) of an MN-major B.
  GEMMLAB_HD int offset(int row, int col) const {
    const int r = swizzle_bytes, columns = swizzle_bytes / 2;
    const int linear = major == Major::K ? start + (row / 8) * stride_byte_offset + (row % 8) * r + 2 * col
                                         : start + (col / columns) * leading_byte_offset +
                                               (row / 8) * stride_byte_offset + (row % 8) * r + 2 * (col % columns);
    return tma_swizzle(linear, swizzle_bytes);
  }

  // The 64-bit descriptor (PTX ISA): start >> 4 in bits 0-13, LBO >> 4 in 16-29, SBO >> 4 in 32-45, base offset 0
  // (tiles start on 1024-byte boundaries), the layout type in bits 62-63: 1 for the 128-byte swizzle, 2 for 64, 3 for
  // 32.
  GEMMLAB_HD std::uint64_t descriptor(std::uint32_t shared_base) const {
    const auto field = [](std::uint32_t bytes) { return static_cast<std::uint64_t>((bytes >> 4) & 0x3FFF); };
    const std::uint64_t layout = swizzle_bytes == 128 ? 1 : swizzle_bytes == 64 ? 2 : 3;
    return field(shared_base + static_cast<std::uint32_t>(start)) |
           field(static_cast<std::uint32_t>(leading_byte_offset)) << 16 |
           field(static_cast<std::uint32_t>(stride_byte_offset)) << 32 | layout << 62;
  }
};

// wgmma.mma_async.m64nNk16 with FP32 accumulators: N / 2 floats per thread.
template <int N>
struct WgmmaM64K16 {
  static_assert(N == 64 || N == 128 || N == 256, "this repository compiles N = 64, 128 and 256");
  static constexpr int m = 64, n = N, k = 16;
  static constexpr int d_values = N / 2;  // accumulators per thread
  static constexpr std::int64_t multiply_adds = std::int64_t{m} * n * k;
  // Register `i` of thread `t` (0..127) of the warpgroup holds D(d_row, d_col): the thread's place, d_(t, 0), plus
  // the register's, d_(0, i) (the epilogue's stores count on it; tests/sim/rungs/tma_wgmma_test.cpp checks it).
  GEMMLAB_HD static int d_row(int t, int i) { return 16 * (t / 32) + (t % 32) / 4 + 8 * ((i / 2) % 2); }
  GEMMLAB_HD static int d_col(int t, int i) { return 8 * (i / 4) + 2 * (t % 4) + i % 2; }
  // Every thread's registers of columns [8j, 8j + 8) are 4j .. 4j + 3 (d_col): those of a run of columns from `col`
  // (a multiple of 8) start at register first_register_of_column(col).
  GEMMLAB_HD static constexpr int first_register_of_column(int col) { return col / 8 * 4; }
};

}  // namespace gemmlab::kernel
