#include "model/fragment_layout.hpp"

#include "gemmlab/kernel/mma_atom.hpp"

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

}  // namespace

const FragmentLayout& m16n8k16_layout() {
  static const FragmentLayout layout = make();
  return layout;
}

}  // namespace gemmlab::desktop
