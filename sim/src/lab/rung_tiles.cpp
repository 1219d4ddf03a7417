// A rung's shared tiles in the lab's notation, from the rung's own layout functors.
#include "gemmlab/lab/rung_tiles.hpp"

#include <bit>
#include <string>
#include <type_traits>

#include "../dispatch.hpp"

namespace gemmlab::lab {
namespace {

std::string str(long long v) { return std::to_string(v); }

// kernel::HalfTile as a CuTe layout: `rows` rows of `cols` halves, each row padded by `pad`; its swizzle XORs the
// 16-byte chunk (offset bits 3-5) with the row mod 8, whose bits start at log2(cols): Swizzle<3,3,log2(cols)-3>.
QueryText half_tile(const kernel::HalfTile& tile, int rows, bool transposed) {
  QueryText q;
  const std::string stride = str(tile.cols + tile.pad);
  // Stored row-major (rows x cols); a transposed operand's tile is read with rows and columns exchanged.
  q.layout = transposed ? "(" + str(tile.cols) + "," + str(rows) + "):(1," + stride + ")"
                        : "(" + str(rows) + "," + str(tile.cols) + "):(" + stride + ",1)";
  if (tile.swizzle) q.swizzle = "3,3," + str(std::countr_zero(static_cast<unsigned>(tile.cols)) - 3);
  return q;
}

}  // namespace

Result<QueryText> rung_tile(RungId rung, const kernel::KernelConfig& c, Operand operand) {
  if (operand == Operand::C) return Error{"the lab opens a rung's A and B tiles (--operand a or b)"};
  const bool a = operand == Operand::A;
  return sim::with_kernel<Result<QueryText>>(rung, [&]<class K>() -> Result<QueryText> {
    if constexpr (std::is_base_of_v<kernel::rungs::MmaTiles, K>) {
      // A is bm x bk (rows M, columns K) read by ldmatrix.x4; B is stored bk x bn (N contiguous), so as the B operand
      // (rows N, columns K) it is transposed, and read by ldmatrix.x4.trans.
      QueryText q = a ? half_tile(K::a_layout(c), c.bm, false) : half_tile(K::b_layout(c), c.bk, true);
      q.element = "fp16";
      q.op = a ? "ldmatrix.x4" : "ldmatrix.x4.trans";
      q.partition = a ? "a" : "b";
      return q;
    } else if constexpr (std::is_base_of_v<kernel::rungs::TmaWgmma, K>) {
      // One TMA box: A's bm rows of box_cols k (K-major), B's bk rows of box_cols n (as the B operand, MN-major).
      QueryText q;
      const int columns = K::box_cols(c);
      q.layout = a ? "(" + str(c.bm) + "," + str(columns) + "):(" + str(columns) + ",1)"
                   : "(" + str(columns) + "," + str(c.bk) + "):(1," + str(columns) + ")";
      q.tma_swizzle = str(K::row_bytes(c));
      q.element = "bf16";
      q.op = "wgmma";
      q.partition = a ? "a" : "b";
      return q;
    } else {
      return Error{std::string(rung_info(rung).slug) +
                   "'s shared tiles hold FP32 elements read by lds, not the "
                   "operands of an MMA atom; open them in the lab with --layout and --op lds.32/64/128"};
    }
  });
}

}  // namespace gemmlab::lab
