#include "model/fragment_layout.hpp"

#include "gemmlab/kernel/mma_atom.hpp"
#include "gemmlab/kernel/wgmma.hpp"

namespace gemmlab::desktop {
namespace {

FragmentMatrix sized(int rows, int cols) {
  FragmentMatrix m;
  m.rows = rows, m.cols = cols;
  m.cells.assign(static_cast<std::size_t>(rows * cols), {});
  return m;
}

FragmentLayout make() {
  using Atom = kernel::MmaM16N8K16;
  FragmentLayout l;
  l.a = sized(Atom::m, Atom::k);
  l.b = sized(Atom::k, Atom::n);
  l.c = sized(Atom::m, Atom::n);
  for (int lane = 0; lane < 32; ++lane) {
    for (int v = 0; v < Atom::a_values; ++v)
      l.a.cells[static_cast<std::size_t>(Atom::a_row(lane, v) * Atom::k + Atom::a_col(lane, v))] = {lane, v / 2, v % 2};
    for (int v = 0; v < Atom::b_values; ++v)
      l.b.cells[static_cast<std::size_t>(Atom::b_row(lane, v) * Atom::n + Atom::b_col(lane, v))] = {lane, v / 2, v % 2};
    for (int v = 0; v < Atom::c_values; ++v)
      l.c.cells[static_cast<std::size_t>(Atom::c_row(lane, v) * Atom::n + Atom::c_col(lane, v))] = {lane, v, 0};
    l.ldsm_lane[Atom::ldsm_row(lane)][Atom::ldsm_col(lane) / 8] = lane;
  }
  return l;
}

WgmmaLayout make_wgmma() {
  using Atom = kernel::WgmmaM64K16<256>;
  constexpr int columns = 16;
  WgmmaLayout l;
  l.d = sized(Atom::m, columns);
  for (int thread = 0; thread < 128; ++thread)
    for (int i = 0; i < Atom::d_values; ++i)
      if (Atom::d_col(thread, i) < columns)
        l.d.cells[static_cast<std::size_t>(Atom::d_row(thread, i) * columns + Atom::d_col(thread, i))] = {thread, i, 0};
  for (int r = 0; r < kernel::Swizzle128::rows; ++r)
    for (int c = 0; c < 8; ++c)
      l.placed_chunk[r][c] = kernel::Swizzle128::apply(r * kernel::Swizzle128::row_bytes + 16 * c) %
                             kernel::Swizzle128::row_bytes / 16;
  return l;
}

}  // namespace

const WgmmaLayout& wgmma_layout() {
  static const WgmmaLayout layout = make_wgmma();
  return layout;
}

const FragmentLayout& m16n8k16_layout() {
  static const FragmentLayout layout = make();
  return layout;
}

}  // namespace gemmlab::desktop
