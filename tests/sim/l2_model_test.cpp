// The fast L2 model against its oracle, the sector-exact LRU replay of the instruction stream (l2_exact.hpp), and
// the properties a launch order must show.
#include "gemmlab/sim/l2_model.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "gemmlab/sim/l2_exact.hpp"
#include "gemmlab/sim/launch_order.hpp"
#include "gemmlab/sim/rung_model.hpp"

namespace gemmlab::sim {
namespace {

using kernel::KernelConfig;

struct Case {
  RungId rung;
  KernelConfig config;
  Problem problem;
};

// Every described rung, with tiles small enough for a few waves of blocks at sizes the oracle can replay.
std::vector<Case> cases() {
  std::vector<Case> out;
  for (const auto& info : rungs()) {
    const RungModel& model = rung_model(info.id);
    if (!model.described) continue;
    KernelConfig c = model.defaults;
    Problem p{512, 512, 128};
    if (info.id == RungId::NaiveUncoalesced || info.id == RungId::NaiveCoalesced) {
      c.bm = c.bn = 16;
      p = {128, 128, 64};
    } else if (info.id == RungId::SmemTiling) {
      c.bm = c.bn = c.bk = 16;
      p = {256, 256, 128};
    } else if (info.id == RungId::BlockTile1D) {
      p = {512, 512, 128};
    } else if (info.id == RungId::WarpTile || info.id == RungId::SmemEpilogue) {
      c.bk = 16;  // a k-step of a wave of 4 blocks (96 KiB at bk = 16) must fit the smallest L2 below
    } else if (info.precision == Precision::FP16BF16) {
      c.bn = 128;  // mma-multistage's 128 x 256 tile and 3 stages: a wave's k-step would not fit the smallest L2
      c.stages = 2;
    }
    if (info.id == RungId::TmaWgmmaStreamK) {  // a whole wave of tiles, then a shared part of ranges of 13 or 14
      c.grid = 6;                               // k-steps, as a large problem has (132 blocks here: ranges of one)
      p.k = 512;
    }
    EXPECT_TRUE(validate(info.id, c, p).ok()) << info.slug << ": " << validate(info.id, c, p).error().message;
    out.push_back({info.id, c, p});
    if (info.id == RungId::TmaWgmmaSplitK) {  // its second reduction: the ranges' slices of the workspace
      c.workspace = 1;
      out.push_back({info.id, c, p});
    }
  }
  return out;
}

std::string label(const Case& c, const L2Options& o) {
  return std::string(rung_info(c.rung).slug) + " " + std::to_string(c.problem.m) + "x" + std::to_string(c.problem.n) +
         "x" + std::to_string(c.problem.k) + " " + order_name(o.order) + " wave " + std::to_string(o.blocks_per_wave) +
         " L2 " + std::to_string(o.l2_bytes);
}

void expect_close(const L2Result& fast, const L2Result& exact, const std::string& what, double hit_points,
                  double dram_fraction) {
  EXPECT_NEAR(fast.a.hit_rate(), exact.a.hit_rate(), hit_points / 100) << what << " (A hit rate)";
  EXPECT_NEAR(fast.b.hit_rate(), exact.b.hit_rate(), hit_points / 100) << what << " (B hit rate)";
  EXPECT_NEAR(double(fast.dram_read_bytes), double(exact.dram_read_bytes), dram_fraction * double(exact.dram_read_bytes))
      << what << " (DRAM bytes read)";
  EXPECT_EQ(fast.a.sectors, exact.a.sectors) << what << " (A sectors read)";
  EXPECT_EQ(fast.b.sectors, exact.b.sectors) << what << " (B sectors read)";
  EXPECT_EQ(fast.dram_write_bytes, exact.dram_write_bytes) << what << " (DRAM bytes written)";
  EXPECT_EQ(fast.min_dram_read_bytes, exact.min_dram_read_bytes) << what << " (distinct sectors)";
  ASSERT_EQ(fast.per_wave.size(), exact.per_wave.size()) << what;
}

TEST(L2Model, WithRoomForEverythingEachSectorComesFromDramOnce) {
  for (const Case& c : cases()) {
    const L2Options o{{}, 3, std::int64_t{1} << 30};
    const auto fast = simulate_l2(c.rung, c.config, c.problem, o);
    const auto exact = simulate_l2_exact(c.rung, c.config, c.problem, o);
    ASSERT_TRUE(fast.ok() && exact.ok()) << label(c, o);
    const OperandBytes bytes = operand_bytes(c.rung);
    const std::int64_t matrices = std::int64_t(c.problem.m) * c.problem.k * bytes[0] +
                                  std::int64_t(c.problem.k) * c.problem.n * bytes[1];
    EXPECT_EQ(exact->dram_read_bytes, matrices) << label(c, o);
    EXPECT_EQ(fast->dram_read_bytes, matrices) << label(c, o);
    EXPECT_EQ(fast->min_dram_read_bytes, matrices) << label(c, o);
    // C once, and through a workspace each range's slice but the last's.
    const auto ranges = static_cast<std::int64_t>(kernel::ranges_of(c.config, c.problem.k));
    const std::int64_t written = c.config.workspace ? ranges : 1;
    EXPECT_EQ(fast->dram_write_bytes, written * c.problem.m * c.problem.n * 4) << label(c, o);
    expect_close(*fast, *exact, label(c, o), 0.01, 0.0);
  }
}

// From an L2 that holds a few k-steps of one wave (a wave of 4 blocks reads 16 to 20 KiB per k-step here) to one
// that holds the whole grid's reuse. Below that - never the case on a real GPU, where one k-step of a wave is a few
// MiB of a 50 MiB L2 - the pipelined rungs' prefetching (tiles read up to stages - 1 k-steps early), which the fast
// model leaves out, starts to matter.
// With room for everything, every strip of tiles (a tile row of A, a tile column of B, over all k-steps) comes from
// DRAM exactly once - also where rows do not start on a sector boundary and neighbouring tiles share sectors.
TEST(L2Model, WithRoomForEverythingEachStripComesOnce) {
  for (const Problem problem : {Problem{512, 512, 128}, Problem{300, 260, 100}}) {
    const KernelConfig c = rung_model(RungId::BlockTile2D).defaults;
    const auto r = simulate_l2(RungId::BlockTile2D, c, problem, {{}, 3, std::int64_t{1} << 30});
    ASSERT_TRUE(r.ok()) << r.error().message;
    std::int64_t fetched = 0;
    for (int row = 0; row < r->tiles_m; ++row) {
      EXPECT_DOUBLE_EQ(r->a_fetches.row_strip(row).times(), 1.0) << "A tile row " << row;
      fetched += r->a_fetches.row_strip(row).fetched_bytes();
    }
    for (int col = 0; col < r->tiles_n; ++col) {
      EXPECT_DOUBLE_EQ(r->b_fetches.column_strip(col).times(), 1.0) << "B tile column " << col;
      fetched += r->b_fetches.column_strip(col).fetched_bytes();
    }
    EXPECT_EQ(fetched, r->dram_read_bytes);
  }
}

TEST(L2Model, MatchesTheSectorExactReplayForEveryRungOrderAndSize) {
  for (const Case& c : cases()) {
    const auto replay = ExactL2Replay::record(c.rung, c.config, c.problem);
    ASSERT_TRUE(replay.ok()) << replay.error().message;
    for (const char* order : {"row", "col", "groupm:2", "cutlass:2"}) {
      for (const std::int64_t l2_bytes : {96 * 1024, 256 * 1024, 768 * 1024}) {
        const L2Options o{*parse_order(order), 4, l2_bytes};
        const auto fast = simulate_l2(c.rung, c.config, c.problem, o);
        const auto exact = replay->run(o);
        ASSERT_TRUE(fast.ok()) << fast.error().message;
        ASSERT_TRUE(exact.ok()) << exact.error().message;
        // Split-K through a workspace: the model reads a tile's slices before it writes its C, where the kernel
        // interleaves them a batch at a time (sim/src/l2_model.cpp): in the smallest L2 its reads miss up to a tenth
        // more than the model's.
        expect_close(*fast, *exact, label(c, o), 2.0, c.config.workspace ? 0.10 : 0.05);
      }
    }
  }
}

// 64 x 64 tiles: 64 blocks in 11 waves of 6 (the last one partial), and L2 sizes from a few k-steps of one wave to
// most of the grid, where which tiles survive from one wave to the next decides the hit rate.
std::vector<Case> many_wave_cases(Problem problem) {
  std::vector<Case> out;
  for (const RungId rung : {RungId::BlockTile2D, RungId::Vectorized, RungId::CpAsync}) {
    KernelConfig c = rung_model(rung).defaults;
    c.bm = c.bn = 64;
    c.tm = c.tn = 4;
    c.bk = rung == RungId::BlockTile2D ? 8 : 16;  // 256 threads share a 64 x 16 tile in float4s
    EXPECT_TRUE(validate(rung, c, problem).ok()) << validate(rung, c, problem).error().message;
    out.push_back({rung, c, problem});
  }
  return out;
}

void expect_close_over_l2_sizes(const std::vector<Case>& cases, double hit_points, double dram_fraction) {
  for (const Case& c : cases) {
    const auto replay = ExactL2Replay::record(c.rung, c.config, c.problem);
    ASSERT_TRUE(replay.ok()) << replay.error().message;
    for (const char* order : {"row", "col", "groupm:3", "cutlass:4"}) {
      for (const std::int64_t l2_bytes : {48 * 1024, 120 * 1024, 300 * 1024, 560 * 1024, 900 * 1024}) {
        const L2Options o{*parse_order(order), 6, l2_bytes};
        const auto fast = simulate_l2(c.rung, c.config, c.problem, o);
        const auto exact = replay->run(o);
        ASSERT_TRUE(fast.ok() && exact.ok());
        const std::string what = label(c, o);
        EXPECT_NEAR(fast->reads().hit_rate(), exact->reads().hit_rate(), hit_points / 100) << what;
        EXPECT_NEAR(double(fast->dram_read_bytes), double(exact->dram_read_bytes),
                    dram_fraction * double(exact->dram_read_bytes))
            << what;
      }
    }
  }
}

TEST(L2Model, MatchesTheReplayOverManyWavesAndL2Sizes) {
  expect_close_over_l2_sizes(many_wave_cases({512, 512, 256}), 2.0, 0.04);
}

// k and n not multiples of 8: rows of A and B start mid-sector, so neighbouring tiles share sectors (the model
// credits a shared sector when the neighbour is resident) and a row's last sector is also the next row's first
// (the model counts it twice).
TEST(L2Model, MatchesTheReplayAtSizesThatSplitSectors) {
  expect_close_over_l2_sizes(many_wave_cases({520, 500, 260}), 4.0, 0.12);
}

TEST(L2Model, PerTileFetchesMatchTheReplay) {
  const KernelConfig c = rung_model(RungId::BlockTile2D).defaults;
  const Problem p{512, 512, 128};
  const L2Options o{{}, 4, 96 * 1024};
  const auto fast = simulate_l2(RungId::BlockTile2D, c, p, o);
  const auto exact = simulate_l2_exact(RungId::BlockTile2D, c, p, o);
  ASSERT_TRUE(fast.ok() && exact.ok());
  ASSERT_EQ(fast->a_fetches.rows, 4);
  ASSERT_EQ(fast->a_fetches.cols, 16);
  ASSERT_EQ(fast->b_fetches.rows, 16);
  ASSERT_EQ(fast->b_fetches.cols, 4);
  double diff = 0, total = 0;
  for (int r = 0; r < 4; ++r)
    for (int t = 0; t < 16; ++t) {
      diff += std::abs(fast->a_fetches.times(r, t) - exact->a_fetches.times(r, t));
      diff += std::abs(fast->b_fetches.times(t, r) - exact->b_fetches.times(t, r));
      total += exact->a_fetches.times(r, t) + exact->b_fetches.times(t, r);
    }
  EXPECT_LT(diff, 0.05 * total);
  EXPECT_GE(fast->a_fetches.max_times(), 1.0);
}

TEST(L2Model, WavesAddUpToTheTotals) {
  const KernelConfig c = rung_model(RungId::BlockTile2D).defaults;
  const auto r = simulate_l2(RungId::BlockTile2D, c, {2048, 1536, 512}, {*parse_order("groupm:4"), 20, 1 << 20});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->waves.blocks, 16 * 12);
  EXPECT_EQ(r->waves.waves, 10);
  ASSERT_EQ(r->per_wave.size(), 10u);
  SectorReads a, b;
  std::int64_t read = 0, written = 0, blocks = 0;
  for (const auto& w : r->per_wave) {
    a += w.a;
    b += w.b;
    read += w.dram_read_bytes;
    written += w.dram_write_bytes;
    blocks += w.blocks;
  }
  EXPECT_EQ(a.sectors, r->a.sectors);
  EXPECT_EQ(b.hits, r->b.hits);
  EXPECT_EQ(read, r->dram_read_bytes);
  EXPECT_EQ(written, r->dram_write_bytes);
  EXPECT_EQ(blocks, 192);
  EXPECT_EQ(r->per_wave.back().first_block, 180);
  EXPECT_EQ(r->per_wave.back().blocks, 12);
  // Every A tile is read by every block of its tile row: 12 reads of 128 sectors each per k-step tile.
  EXPECT_EQ(r->a.sectors, std::int64_t(16) * 64 * 12 * 128);
}

TEST(L2Model, BetaReadsC) {
  const KernelConfig c = rung_model(RungId::BlockTile2D).defaults;
  Problem p{256, 256, 64};
  const L2Options o{{}, 4, 1 << 30};
  const auto without = simulate_l2(RungId::BlockTile2D, c, p, o);
  p.beta = 0.5f;
  const auto with = simulate_l2(RungId::BlockTile2D, c, p, o);
  const auto exact = simulate_l2_exact(RungId::BlockTile2D, c, p, o);
  ASSERT_TRUE(without.ok() && with.ok() && exact.ok());
  EXPECT_EQ(without->c.sectors, 0);
  EXPECT_EQ(with->c.sectors, 256 * 256 / 8);
  EXPECT_EQ(with->c.hits, 0) << "C is read once, so only from DRAM";
  EXPECT_EQ(with->dram_read_bytes, without->dram_read_bytes + 256 * 256 * 4);
  EXPECT_EQ(exact->c.sectors, with->c.sectors);
  EXPECT_EQ(exact->dram_read_bytes, with->dram_read_bytes);
}

// The point of a grouped order: when the L2 cannot hold a row-major wave's B tiles until the next wave, a wave
// that is closer to square (16 tile rows x 17 columns instead of 8 rows x 32) reads fewer tiles per k-step.
TEST(L2Model, GroupedOrdersReadLessFromDramThanRowMajorWhenL2IsShort) {
  const KernelConfig c = rung_model(RungId::BlockTile2D).defaults;
  const Problem p{4096, 4096, 4096};
  const L2Options row{{}, 264, 50 << 20};
  const L2Options grouped{*parse_order("groupm:16"), 264, 50 << 20};
  const auto r = simulate_l2(RungId::BlockTile2D, c, p, row);
  const auto g = simulate_l2(RungId::BlockTile2D, c, p, grouped);
  ASSERT_TRUE(r.ok() && g.ok());
  EXPECT_LT(g->dram_read_bytes, r->dram_read_bytes);
  EXPECT_GT(g->reads().hit_rate(), r->reads().hit_rate());
  EXPECT_GE(g->dram_read_bytes, g->min_dram_read_bytes);
  EXPECT_EQ(g->min_dram_read_bytes, r->min_dram_read_bytes);
}

// The desktop app's progress bar and Cancel button: told after every wave, and false stops the model.
TEST(L2Model, ReportsProgressPerWaveAndStopsWhenTold) {
  const KernelConfig c = rung_model(RungId::BlockTile2D).defaults;
  const Problem p{2048, 1536, 512};
  // An L2 of a size no other test asks for: a launch computed here, not one the model kept from another test.
  const L2Options o{*parse_order("groupm:4"), 20, (1 << 20) + 96};
  std::vector<double> seen;
  const auto all = simulate_l2(RungId::BlockTile2D, c, p, o, [&](double done) {
    seen.push_back(done);
    return true;
  });
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(seen.size(), 10u);  // one call per wave
  EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
  EXPECT_DOUBLE_EQ(seen.back(), 1.0);
  int calls = 0;
  const L2Options other{*parse_order("groupm:4"), 21, (1 << 20) + 96};  // not computed yet: a launch of its own
  const auto stopped = simulate_l2(RungId::BlockTile2D, c, p, other, [&](double) { return ++calls < 3; });
  ASSERT_FALSE(stopped.ok());
  EXPECT_EQ(calls, 3);
  EXPECT_NE(stopped.error().message.find("cancelled"), std::string::npos) << stopped.error().message;
}

// The same launch asked for again (another configuration with the same tiles, as the tuner asks) is the kept answer:
// done at once, equal to the first; one that differs in what the model reads is computed anew.
TEST(L2Model, AnswersTheSameLaunchFromWhatItKept) {
  KernelConfig c = rung_model(RungId::BlockTile2D).defaults;
  const Problem p{3072, 2048, 512};
  const L2Options o{*parse_order("groupm:4"), 24, 1 << 20};
  const auto first = simulate_l2(RungId::BlockTile2D, c, p, o);
  c.tm = c.tm / 2;  // a thread tile the L2 does not see
  int calls = 0;
  const auto again = simulate_l2(RungId::BlockTile2D, c, p, o, [&](double) { return ++calls > 0; });
  ASSERT_TRUE(first.ok() && again.ok());
  EXPECT_EQ(calls, 1);  // at once
  EXPECT_EQ(again->dram_read_bytes, first->dram_read_bytes);
  EXPECT_EQ(again->a.hits, first->a.hits);
  EXPECT_EQ(again->per_wave.size(), first->per_wave.size());
  c.bn = c.bn / 2;  // tiles the L2 does see
  const auto narrower = simulate_l2(RungId::BlockTile2D, c, p, o);
  ASSERT_TRUE(narrower.ok());
  EXPECT_NE(narrower->tiles_n, first->tiles_n);
}

// Stream-K (rung 23) walks the tiles after its whole waves as its units do: every unit one iteration a step, each at
// its own tile and k-step, far apart in the order. It reads every (tile, k-step) of A and B once, as rung 21 walking
// the same tiles does, but what one unit brings into L2 is seldom what another reads next, so a short L2 serves less
// of it; a tile's later segments read back the sum its earlier ones left in C. Asked right after rung 21, whose tiles
// and order are the same, it is computed anew (the kept answers know the walk).
TEST(L2Model, StreamKsSharedPartIsWalkedAsItsUnitsWalkIt) {
  const Problem p{1024, 1024, 1024};
  const L2Options o{*parse_order("hilbert"), 132, 4 << 20};
  const KernelConfig whole = rung_model(RungId::TmaWgmmaHilbert).defaults;
  const KernelConfig shared = rung_model(RungId::TmaWgmmaStreamK).defaults;
  ASSERT_EQ(whole.bm, shared.bm);
  ASSERT_EQ(whole.bn, shared.bn);
  ASSERT_EQ(whole.cluster, shared.cluster);
  const auto tiles = simulate_l2(RungId::TmaWgmmaHilbert, whole, p, o);
  const auto units = simulate_l2(RungId::TmaWgmmaStreamK, shared, p, o);
  ASSERT_TRUE(tiles.ok() && units.ok());
  EXPECT_EQ(units->a.sectors, tiles->a.sectors);
  EXPECT_EQ(units->b.sectors, tiles->b.sectors);
  EXPECT_GT(units->dram_read_bytes, tiles->dram_read_bytes * 5 / 4);
  EXPECT_EQ(tiles->c.sectors, 0);  // beta = 0: whole tiles only write C
  EXPECT_GT(units->c.sectors, 0);
  EXPECT_EQ(units->dram_write_bytes, tiles->dram_write_bytes);  // C reaches DRAM once either way
  // 16 cluster tiles for 66 units: no whole wave; the traffic kept by the waves of tiles, as rung 21's.
  ASSERT_EQ(units->per_wave.size(), tiles->per_wave.size());
  EXPECT_EQ(units->per_wave[0].blocks, tiles->per_wave[0].blocks);
  std::int64_t read = 0, written = 0;
  for (const WaveTraffic& w : units->per_wave) read += w.dram_read_bytes, written += w.dram_write_bytes;
  EXPECT_EQ(read, units->dram_read_bytes);
  EXPECT_EQ(written, units->dram_write_bytes);
  // With room for everything, each sector still comes from DRAM once.
  const auto roomy = simulate_l2(RungId::TmaWgmmaStreamK, shared, p, {o.order, 132, std::int64_t{1} << 30});
  ASSERT_TRUE(roomy.ok());
  EXPECT_EQ(roomy->dram_read_bytes, roomy->min_dram_read_bytes);
}

// Rung 21 launches 128 persistent blocks where 132 fit: 128 tiles are in flight, and in the Hilbert order each wave of
// them is a square of cluster tiles, which reads fewer distinct rows and columns than a wave of 132 (ncu's DRAM
// reads of both grids: docs/fidelity.md, "The L2 model on the Hopper rungs").
TEST(L2Model, APersistentGridIsTheTilesInFlight) {
  KernelConfig c = rung_model(RungId::TmaWgmmaHilbert).defaults;
  const Problem p{4096, 4096, 4096};
  const L2Options o{*parse_order("hilbert"), 132, std::int64_t{40} << 20};
  ASSERT_EQ(c.grid, 128);
  const auto grid128 = simulate_l2(RungId::TmaWgmmaHilbert, c, p, o);
  c.grid = 132;
  const auto grid132 = simulate_l2(RungId::TmaWgmmaHilbert, c, p, o);
  ASSERT_TRUE(grid128.ok() && grid132.ok());
  EXPECT_EQ(grid128->waves.blocks_per_wave, 128);
  EXPECT_EQ(grid128->per_wave.front().blocks, 128);
  EXPECT_EQ(grid132->waves.blocks_per_wave, 132);
  EXPECT_LT(grid128->dram_read_bytes, grid132->dram_read_bytes);
  // More blocks than fit: the blocks that fit walk all their tiles first, in waves of as many.
  c.grid = 256;
  const auto grid256 = simulate_l2(RungId::TmaWgmmaHilbert, c, p, o);
  ASSERT_TRUE(grid256.ok());
  EXPECT_EQ(grid256->waves.blocks_per_wave, 132);
}

TEST(L2Model, BadInputIsAnError) {
  const KernelConfig c = rung_model(RungId::BlockTile2D).defaults;
  const Problem p{512, 512, 64};
  const auto expect_error = [](const Result<L2Result>& r, std::string_view says) {
    ASSERT_FALSE(r.ok()) << says;
    EXPECT_NE(r.error().message.find(says), std::string::npos) << r.error().message;
  };
  expect_error(simulate_l2(RungId::BlockTile2D, c, p, {*parse_order("groupm:5"), 4, 1 << 20}),
               "larger than the grid's 4 tile rows");
  expect_error(simulate_l2(RungId::BlockTile2D, c, p, {{}, 0, 1 << 20}), "at least one block per wave");
  expect_error(simulate_l2(RungId::BlockTile2D, c, p, {{}, 4, 0}), "at least one 32-byte sector");
  expect_error(simulate_l2(RungId::BlockTile2D, c, {0, 512, 64}, {{}, 4, 1 << 20}), "at least 1");
  // 2048 x 2048 tiles of C and 8192 groups of 32 k-steps (l2_geometry.hpp): more tiles than the model tracks.
  expect_error(simulate_l2(RungId::NaiveCoalesced, rung_model(RungId::NaiveCoalesced).defaults, {65536, 65536, 262144},
                           {{}, 4, 1 << 20}),
               "use larger tiles");
  expect_error(simulate_l2_exact(RungId::BlockTile2D, c, {2048, 512, 64}, {{}, 4, 1 << 20}), "sizes up to 1024");
}

}  // namespace
}  // namespace gemmlab::sim
