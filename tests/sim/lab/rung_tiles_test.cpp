// A rung's tiles opened in the lab are the rung's own layouts, byte for byte, for every tensor-core rung's defaults
// and its alternates.
#include "gemmlab/lab/rung_tiles.hpp"

#include <gtest/gtest.h>

#include "gemmlab/kernel/rung_kernels.hpp"
#include "gemmlab/lab/analysis.hpp"
#include "gemmlab/sim/rung_model.hpp"

namespace gemmlab::lab {
namespace {

Tile lab_tile(RungId rung, const kernel::KernelConfig& c, Operand operand) {
  auto text = rung_tile(rung, c, operand);
  EXPECT_TRUE(text.ok()) << (text.ok() ? "" : text.error().message);
  auto q = parse_query(*text);
  EXPECT_TRUE(q.ok()) << (q.ok() ? "" : q.error().message);
  return q->tile;
}

kernel::KernelConfig config(RungId rung, std::string_view knobs = "") {
  const auto& defaults = sim::rung_model(rung).defaults;
  return knobs.empty() ? defaults : sim::apply_knob_text(rung, defaults, knobs).value();
}

TEST(RungTiles, TheMmaSyncRungsHalfTiles) {
  using kernel::rungs::MmaTiles;
  struct Case {
    RungId rung;
    std::string_view knobs;
  };
  for (const Case& k : {Case{RungId::MmaRowMajor, ""}, Case{RungId::MmaPadded, ""}, Case{RungId::MmaSwizzled, ""},
                        Case{RungId::MmaMultistage, ""}, Case{RungId::MmaStagedEpilogue, ""}, Case{RungId::Wmma, ""},
                        Case{RungId::MmaPadded, "a_pad=16,b_pad=16"}}) {
    const auto c = config(k.rung, k.knobs);
    const Tile a = lab_tile(k.rung, c, Operand::A), b = lab_tile(k.rung, c, Operand::B);
    const auto a_functor = MmaTiles::a_layout(c), b_functor = MmaTiles::b_layout(c);
    int differ = 0;
    for (int r = 0; r < c.bm; ++r)
      for (int col = 0; col < c.bk; ++col) differ += a.byte_offset(r, col) != a_functor(r, col);
    for (int kk = 0; kk < c.bk; ++kk)
      for (int n = 0; n < c.bn; ++n) differ += b.byte_offset(n, kk) != b_functor(kk, n);  // B's lab tile is (n, k)
    EXPECT_EQ(differ, 0) << rung_info(k.rung).slug << " " << k.knobs;
  }
}

TEST(RungTiles, TheHopperRungsTmaBoxes) {
  for (const RungId rung :
       {RungId::TmaWgmma, RungId::TmaWgmmaSpecialized, RungId::TmaWgmmaMulticast, RungId::TmaWgmmaPersistent}) {
    const auto c = config(rung);
    const Tile a = lab_tile(rung, c, Operand::A), b = lab_tile(rung, c, Operand::B);
    const int cols = kernel::rungs::TmaWgmma::box_cols(c);
    const kernel::TmaBox a_box{kernel::Operand::A, 0, 0, c.bm, cols, c.bm, cols, 128};
    const kernel::TmaBox b_box{kernel::Operand::B, 0, 0, c.bk, cols, c.bk, cols, 128};
    int differ = 0;
    for (int r = 0; r < c.bm; ++r)
      for (int col = 0; col < cols; ++col) differ += a.byte_offset(r, col) != a_box.shared_offset(r, col);
    for (int kk = 0; kk < c.bk; ++kk)
      for (int n = 0; n < cols; ++n) differ += b.byte_offset(n, kk) != b_box.shared_offset(kk, n);
    EXPECT_EQ(differ, 0) << rung_info(rung).slug;
    AccessSpec wgmma;
    wgmma.op = "wgmma";
    EXPECT_EQ(analyse(a, wgmma).value().totals.conflicts(), 0);
  }
}

TEST(RungTiles, TheRowMajorRungIsEightWayAsItsPageSays) {
  const auto c = config(RungId::MmaRowMajor);
  auto q = parse_query(rung_tile(RungId::MmaRowMajor, c, Operand::A).value()).value();
  const auto r = analyse(q.tile, q.access).value();
  EXPECT_EQ(r.totals.wavefronts, 8 * r.totals.ideal);
  EXPECT_FALSE(rung_tile(RungId::WarpTile, config(RungId::WarpTile), Operand::A).ok());
}

}  // namespace
}  // namespace gemmlab::lab
