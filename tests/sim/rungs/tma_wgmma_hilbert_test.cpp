// Rung 21 (kernel/rungs/tma_wgmma_hilbert.hpp): exact GEMMs with persistent clusters of two walking the tiles along
// the Hilbert curve, multicasting B, moving registers and storing C by TMA: the functional executor checks every
// copy against the wgmma reads it overwrites, each store's fences and waits, and that every element of C is written
// once; the counters are rung 19's, tile for tile.
#include <gtest/gtest.h>

#include <vector>

#include "gemmlab/kernel/rungs/tma_wgmma_hilbert.hpp"
#include "gemmlab/kernel/schedule.hpp"
#include "gemmlab/sim/rung_model.hpp"
#include "rung_test_support.hpp"

namespace gemmlab::sim {
namespace {

using kernel::KernelConfig;

// The tile stepper reads the whole-line stores' shape from the roles: rung 21's buffers, and none where the rung
// stores through TMA (tma_store=1) or, inheriting rung 21, from its registers (rung 23).
TEST(TmaWgmmaHilbert, RolesNameItsWholeLineStores) {
  using kernel::rungs::TmaWgmmaHilbert;
  KernelConfig c = rung_model(RungId::TmaWgmmaHilbert).defaults;
  EXPECT_EQ(warp_roles(RungId::TmaWgmmaHilbert, c)->line_store_rows, TmaWgmmaHilbert::LineStores::warp_rows);
  EXPECT_EQ(warp_roles(RungId::TmaWgmmaHilbert, c)->line_store_cols, TmaWgmmaHilbert::LineStores::chunk_cols);
  c.tma_store = 1;
  EXPECT_EQ(warp_roles(RungId::TmaWgmmaHilbert, c)->line_store_rows, 0);
  EXPECT_EQ(warp_roles(RungId::TmaWgmmaStreamK, rung_model(RungId::TmaWgmmaStreamK).defaults)->line_store_rows, 0);
}

TEST(TmaWgmmaHilbert, DefaultsPutEveryTechniqueTogether) {
  const KernelConfig d = rung_model(RungId::TmaWgmmaHilbert).defaults;
  EXPECT_EQ(d.cluster, 2);
  EXPECT_EQ(d.grid, 128);
  EXPECT_EQ(d.setmaxnreg, 1);
  EXPECT_EQ(d.tma_store, 0);  // measured: the TMA stores' waits cost more than they overlap (the rung's page)
  EXPECT_EQ(kernel::preferred_order<kernel::rungs::TmaWgmmaHilbert>().kind, kernel::OrderKind::Hilbert);
}

TEST(TmaWgmmaHilbert, ComputesTheExactGemm) {
  const KernelConfig d = rung_model(RungId::TmaWgmmaHilbert).defaults;
  // One tile row (its partner has none), a single element, and tiles inside the matrix (stored in whole lines, at
  // beta = 0) beside tiles at its edges.
  test_support::expect_exact_gemm(RungId::TmaWgmmaHilbert, d, {{67, 40, 72}, {1, 8, 8}, {264, 512, 64}}, "default");
  // Fewer blocks than tiles, in clusters: each pair walks several cluster tiles of the Hilbert curve, the ring of
  // 2 to 4 stages wrapping inside and across tiles, an odd number of tile rows, stores through shared memory or not.
  test_support::expect_exact_gemms(
      RungId::TmaWgmmaHilbert, d,
      {"grid=4 bm=128 bn=256 stages=4 tma_store=1 setmaxnreg=1",
       "grid=2 bm=64 bn=128 stages=2 tma_store=1 setmaxnreg=0", "grid=6 bm=64 bn=64 stages=3 tma_store=0 setmaxnreg=0",
       "grid=2 bm=128 bn=64 stages=4 tma_store=0 setmaxnreg=1"},
      {{330, 504, 200}, {200, 136, 456}});
}

TEST(TmaWgmmaHilbert, CountsRung19sCopiesAndStores) {
  const Problem p{1024, 1024, 1024};
  test_support::expect_same_copies_wgmma_and_stores(
      RungId::TmaWgmmaHilbert, rung_model(RungId::TmaWgmmaHilbert).defaults, RungId::TmaWgmmaMulticast,
      rung_model(RungId::TmaWgmmaMulticast).defaults, p);
  KernelConfig through_shared = rung_model(RungId::TmaWgmmaHilbert).defaults;
  through_shared.tma_store = 1;
  KernelConfig staged = rung_model(RungId::TmaWgmmaPersistent).defaults;
  staged.tma_store = 1;
  const auto mine = simulate_kernel(RungId::TmaWgmmaHilbert, through_shared, p);
  const auto stores = simulate_kernel(RungId::TmaWgmmaPersistent, staged, p);
  ASSERT_TRUE(mine && stores);
  EXPECT_EQ(mine->total.tma_stores, stores->total.tma_stores);
  EXPECT_EQ(mine->total.global_stores().instructions, 0);
}

// A tile inside the matrix leaves in whole lines (LineStores): the sectors of C that rung 19's stores from the
// registers write, in half the warp stores, each 4 whole lines where those wrote a sector in each of 8; its warps'
// buffers written and read without bank conflicts. The exact GEMMs above run it (their tiles inside the matrix, beta
// = 0) with the warps' exchange checked at their __syncwarp.
TEST(TmaWgmmaHilbert, WholeLineStoresWriteCInWholeLinesWithoutConflicts) {
  const Problem p{1024, 1024, 1024};
  const auto mine = simulate_kernel(RungId::TmaWgmmaHilbert, rung_model(RungId::TmaWgmmaHilbert).defaults, p);
  const auto theirs = simulate_kernel(RungId::TmaWgmmaMulticast, rung_model(RungId::TmaWgmmaMulticast).defaults, p);
  ASSERT_TRUE(mine && theirs);
  const OpCounters lines = mine->total.global_stores(), sectors = theirs->total.global_stores();
  EXPECT_EQ(lines.sectors, sectors.sectors);
  EXPECT_EQ(2 * lines.instructions, sectors.instructions);
  EXPECT_EQ(lines.lines * 4, lines.sectors);  // whole lines: 4 sectors each
  EXPECT_EQ(sectors.lines, sectors.sectors);  // a sector in each line
  EXPECT_GT(mine->total.shared_stores().instructions, 0);
  EXPECT_EQ(mine->total.shared_stores().bank_conflicts(), 0);
  EXPECT_EQ(mine->total.shared_loads().bank_conflicts(), 0);
}

TEST(TmaWgmmaHilbert, RefusesAGridOfPartClusters) {
  KernelConfig c = rung_model(RungId::TmaWgmmaHilbert).defaults;
  c.grid = 131;
  const auto refused = validate(RungId::TmaWgmmaHilbert, c, {4096, 4096, 4096});
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("multiple of the cluster size"), std::string::npos);
  c.grid = 128, c.setmaxnreg = 0;  // one producer warp: 288 threads at ptxas's count, which the SM cannot hold
  const auto unmoved = validate(RungId::TmaWgmmaHilbert, c, {4096, 4096, 4096});
  ASSERT_FALSE(unmoved);
  EXPECT_NE(unmoved.error().message.find("use setmaxnreg=1"), std::string::npos);
}

}  // namespace
}  // namespace gemmlab::sim
