// The simulator's two promises: executing a rung's stream on the CPU gives exactly the reference C (so the
// description is a GEMM kernel), and the fast kernel-level counters equal the sum over every block simulated
// phase by phase (so the shortcut through block classes is exact).
#include "gemmlab/sim/simulate.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "gemmlab/sim/rung_model.hpp"
#include "reference_gemm.hpp"

namespace gemmlab::sim {
namespace {

using kernel::KernelConfig;

using test_support::random_integers;
using test_support::reference_gemm;

// Every rung that has a description, with its default configuration and its teaching toggles.
struct Case {
  RungId rung;
  KernelConfig config;
  std::string name;
};

std::vector<Case> cases() {
  std::vector<Case> out;
  for (const auto& info : rungs()) {
    const RungModel& model = rung_model(info.id);
    if (!model.described) continue;
    out.push_back({info.id, model.defaults, std::string(info.slug)});
    if (model.has_knob("conflicting")) {
      KernelConfig c = model.defaults;
      c.conflicting = 1;
      out.push_back({info.id, c, std::string(info.slug) + "+conflicting"});
      c.a_pad = 1;
      out.push_back({info.id, c, std::string(info.slug) + "+conflicting+a_pad"});
    }
    if (model.has_knob("a_pad")) {
      KernelConfig c = model.defaults;
      c.a_pad = c.b_pad = test_support::aligned_pad(info.id);
      c.swizzle = 0;
      out.push_back({info.id, c, std::string(info.slug) + "+pad" + std::to_string(c.a_pad)});
    }
    if (model.has_knob("swizzle")) {
      KernelConfig c = model.defaults;
      c.swizzle = 1;
      c.a_pad = c.b_pad = 0;
      if (validate(info.id, c, {256, 256, 256})) out.push_back({info.id, c, std::string(info.slug) + "+swizzle"});  // not wmma
    }
    for (int stages = 2; stages <= 4; ++stages)
      if (model.has_knob("stages") && stages != model.defaults.stages) {
        KernelConfig c = model.defaults;
        c.stages = stages;
        out.push_back({info.id, c, std::string(info.slug) + "+stages" + std::to_string(stages)});
      }
  }
  return out;
}

TEST(Execute, EveryDescribedRungComputesTheExactGemm) {
  std::mt19937 rng(20261122);
  const Problem sizes[] = {{1, 1, 1}, {7, 5, 3}, {33, 65, 17}, {128, 128, 8}, {130, 129, 31}, {256, 256, 256}};
  const auto all = cases();
  ASSERT_FALSE(all.empty());
  for (const auto& cs : all)
    for (Problem p : sizes) {
      p = test_support::admissible(cs.rung, p);
      for (const float beta : {0.0f, -1.0f}) {
        p.alpha = 2.0f;
        p.beta = beta;
        const auto a = random_integers(std::size_t(p.m) * p.k, rng);
        const auto b = random_integers(std::size_t(p.k) * p.n, rng);
        auto c = beta != 0.0f ? random_integers(std::size_t(p.m) * p.n, rng)
                              : std::vector<float>(std::size_t(p.m) * p.n, std::numeric_limits<float>::quiet_NaN());
        const auto expected = reference_gemm(p, a, b, c);
        const auto got = execute(cs.rung, cs.config, p, a, b, c);
        ASSERT_TRUE(got) << cs.name << " " << p.m << "x" << p.n << "x" << p.k << ": " << got.error().message;
        std::size_t wrong = 0;
        for (std::size_t i = 0; i < expected.size(); ++i) wrong += (*got)[i] != expected[i];
        EXPECT_EQ(wrong, 0u) << cs.name << " " << p.m << "x" << p.n << "x" << p.k << " beta=" << beta;
      }
    }
}

Counters brute_force(RungId rung, const KernelConfig& config, const Problem& p) {
  const auto shape = launch_shape(rung, config, p);
  EXPECT_TRUE(shape);
  Counters total;
  for (int tr = 0; tr < shape->tiles_m; ++tr)
    for (int tc = 0; tc < shape->tiles_n; ++tc) {
      const kernel::TileCoord tile{tr, tc};
      auto add = [&](PhaseRef ref) {
        const auto s = phase_stream(rung, config, p, tile, ref);
        EXPECT_TRUE(s) << s.error().message;
        total += s->counters;
      };
      // The schedule, walked phase by phase through the public stream API, until a phase does not exist (a
      // staged epilogue has 2 phases per result row of a thread, 17 at smem-epilogue's defaults).
      for (int ph = 0;; ++ph) {
        const auto s = phase_stream(rung, config, p, tile, {kernel::Section::Prologue, 0, ph});
        if (!s) break;
        total += s->counters;
      }
      for (int t = 0; t < shape->ksteps; ++t)
        for (const auto& ref : shape->schedule_of_one_kstep) add({ref.section, t, ref.phase});
      for (int ph = 0;; ++ph) {
        const auto s = phase_stream(rung, config, p, tile, {kernel::Section::Epilogue, 0, ph});
        if (!s) break;
        total += s->counters;
      }
    }
  return total;
}

void expect_equal(const Counters& a, const Counters& b, const std::string& what) {
  EXPECT_EQ(a.fma, b.fma) << what;
  EXPECT_EQ(a.mma, b.mma) << what;
  for (int i = 0; i < kOpClassCount; ++i) {
    const auto& x = a.ops[std::size_t(i)];
    const auto& y = b.ops[std::size_t(i)];
    const std::string where = what + " " + std::string(op_class_name(i));
    EXPECT_EQ(x.instructions, y.instructions) << where;
    EXPECT_EQ(x.wavefronts, y.wavefronts) << where;
    EXPECT_EQ(x.ideal_wavefronts, y.ideal_wavefronts) << where;
    EXPECT_EQ(x.requests, y.requests) << where;
    EXPECT_EQ(x.sectors, y.sectors) << where;
    EXPECT_EQ(x.lines, y.lines) << where;
  }
}

TEST(SimulateKernel, BlockClassesGiveTheSameCountersAsEveryBlock) {
  // Odd sizes: edge blocks clipped in m, n and k, rows of A and C not 128-byte aligned.
  const Problem sizes[] = {{100, 77, 45, 1.0f, 0.0f}, {130, 260, 37, 1.0f, 1.0f}};
  for (const auto& cs : cases())
    for (const Problem& size : sizes) {
      const Problem p = test_support::admissible(cs.rung, size);
      const auto fast = simulate_kernel(cs.rung, cs.config, p);
      ASSERT_TRUE(fast) << cs.name << ": " << fast.error().message;
      expect_equal(fast->total, brute_force(cs.rung, cs.config, p), cs.name + " " + std::to_string(p.m));
    }
}

TEST(SimulateKernel, FmaCountIsMTimesNTimesKRoundedUpToTiles) {
  // Every thread of every block does its FMAs, predicated or not: the count covers whole tiles.
  const Problem p{256, 256, 256};
  const auto whole = [](int size, int tile) { return std::int64_t{kernel::ceil_div(size, tile)} * tile; };
  for (const auto& cs : cases()) {
    const auto r = simulate_kernel(cs.rung, cs.config, p);
    ASSERT_TRUE(r) << cs.name << ": " << r.error().message;
    EXPECT_EQ(r->total.fma + r->total.tensor_multiply_adds(),
              whole(p.m, cs.config.bm) * whole(p.n, cs.config.bn) * whole(p.k, cs.config.bk))
        << cs.name;
  }
}

TEST(SimulateKernel, NaiveUncoalescedTouchesASectorPerLane) {
  // Lanes walk rows: each of the 32 A loads per warp is k floats away from its neighbour (k = 256: 1 KiB),
  // so every lane needs its own sector; B is one float for the whole warp (1 sector).
  const Problem p{64, 64, 256};
  const auto r = simulate_kernel(RungId::NaiveUncoalesced, rung_model(RungId::NaiveUncoalesced).defaults, p);
  ASSERT_TRUE(r) << r.error().message;
  const auto& ldg = r->total.ops[0];
  const std::int64_t warps = 64 * 64 / 32;
  EXPECT_EQ(ldg.instructions, warps * 256 * 2);
  EXPECT_EQ(ldg.sectors, warps * 256 * (32 + 1));
  const auto coalesced = simulate_kernel(RungId::NaiveCoalesced, rung_model(RungId::NaiveCoalesced).defaults, p);
  ASSERT_TRUE(coalesced);
  // Lanes walk columns: A is one float per warp (1 sector), B 32 consecutive floats (4 sectors).
  EXPECT_EQ(coalesced->total.ops[0].sectors, warps * 256 * (1 + 4));
}

TEST(SimulateKernel, SmemTilingConflictsVanishWithPadding) {
  const Problem p{64, 64, 64};
  KernelConfig c = rung_model(RungId::SmemTiling).defaults;
  const auto plain = simulate_kernel(RungId::SmemTiling, c, p);
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->total.shared_loads().bank_conflicts(), 0);
  c.conflicting = 1;
  const auto conflicting = simulate_kernel(RungId::SmemTiling, c, p);
  ASSERT_TRUE(conflicting);
  // Each warp's column read of the A tile: 32 distinct words in one bank = 32 wavefronts, 31 of them conflicts;
  // one such read per k index (32) per k-step (2) per warp (32 per block) per block (4).
  EXPECT_EQ(conflicting->total.shared_loads().bank_conflicts(), std::int64_t{31} * 32 * 2 * 32 * 4);
  c.a_pad = 1;
  const auto padded = simulate_kernel(RungId::SmemTiling, c, p);
  ASSERT_TRUE(padded);
  EXPECT_EQ(padded->total.shared_loads().bank_conflicts(), 0);
}

TEST(SimulateKernel, ReportsProgressAndStopsWhenAsked) {
  const auto c = rung_model(RungId::SmemTiling).defaults;
  std::vector<double> seen;
  const auto whole = simulate_kernel(RungId::SmemTiling, c, {4096, 4096, 4096}, [&](double f) {
    seen.push_back(f);
    return true;
  });
  ASSERT_TRUE(whole) << whole.error().message;
  ASSERT_FALSE(seen.empty());
  EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
  EXPECT_LE(seen.back(), 1.0);
  int calls = 0;
  const auto stopped = simulate_kernel(RungId::SmemTiling, c, {4096, 4096, 4096}, [&](double) { return ++calls < 2; });
  ASSERT_FALSE(stopped);
  EXPECT_NE(stopped.error().message.find("cancelled"), std::string::npos) << stopped.error().message;
  EXPECT_EQ(calls, 2);  // it stopped at the first "no"
}

TEST(Simulate, InvalidInputIsAnErrorNotACrash) {
  const KernelConfig c = rung_model(RungId::BlockTile2D).defaults;
  EXPECT_FALSE(simulate_kernel(RungId::BlockTile2D, c, {0, 10, 10}));
  EXPECT_FALSE(simulate_kernel(RungId::BlockTile2D, c, {10, -3, 10}));
  EXPECT_FALSE(simulate_kernel(RungId::BlockTile2D, c, {kMaxDimension + 1, 10, 10}));
  KernelConfig bad = c;
  bad.tm = 7;  // 128 is not a multiple of 7
  const auto r = simulate_kernel(RungId::BlockTile2D, bad, {64, 64, 64});
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("tm=7"), std::string::npos) << r.error().message;
  EXPECT_FALSE(simulate_block(RungId::BlockTile2D, c, {64, 64, 64}, {5, 0}));
  EXPECT_FALSE(phase_stream(RungId::BlockTile2D, c, {64, 64, 64}, {0, 0}, {kernel::Section::Mainloop, 99, 0}));
  EXPECT_FALSE(execute(RungId::BlockTile2D, c, {1000, 8, 8}, {}, {}, {}));
}

TEST(PhaseStream, WarpInstructionsOfOneKstepOfBlockTile2D) {
  const KernelConfig c = rung_model(RungId::BlockTile2D).defaults;
  const auto load = phase_stream(RungId::BlockTile2D, c, {256, 256, 256}, {0, 0}, {kernel::Section::Mainloop, 0, 0});
  ASSERT_TRUE(load) << load.error().message;
  // 8 warps, each copying 4 floats of A and 4 of B per thread: 8 ldg.32 + 8 sts.32 per warp.
  EXPECT_EQ(load->instructions.size(), 8u * 16u);
  EXPECT_TRUE(load->barrier_after);
  const auto compute = phase_stream(RungId::BlockTile2D, c, {256, 256, 256}, {0, 0}, {kernel::Section::Mainloop, 0, 1});
  ASSERT_TRUE(compute);
  EXPECT_EQ(compute->instructions.size(), 8u * 8u * 16u);  // per warp: bk x (tm + tn) lds.32
  EXPECT_EQ(compute->fma, 256 * 8 * 64);
}

// The launch in words: tiles as blocks; a persistent rung's blocks walking the tiles; Stream-K's shares of the
// k-steps (4096^3 at 128 x 256: 256 cluster tiles for 66 clusters make 3 whole waves and 58 tiles, so the last whole
// wave and the partial one, 124 tiles of 64 k-steps, go to 66 ranges).
TEST(LaunchText, SaysWhoWalksTheTiles) {
  const Problem p{4096, 4096, 4096};
  const auto text = [&](RungId rung) {
    const auto shape = launch_shape(rung, rung_model(rung).defaults, p);
    return shape ? blocks_text(*shape) : shape.error().message;
  };
  EXPECT_EQ(text(RungId::TmaWgmma), "22 x 16 = 352 blocks");
  EXPECT_EQ(text(RungId::TmaWgmmaHilbert), "32 x 16 = 512 tiles walked by 128 persistent blocks (4 each)");
  EXPECT_EQ(text(RungId::TmaWgmmaStreamK),
            "32 x 16 = 512 tiles shared by 132 persistent blocks (Stream-K, 66 clusters of 2: 2 waves of whole tiles, "
            "then 124 cluster tiles cut into 66 ranges of 120 to 121 k-steps)");
  EXPECT_EQ(text(RungId::TmaWgmmaPingPong), "64 x 16 = 1024 tiles walked by 128 persistent blocks (8 each)");
}

}  // namespace
}  // namespace gemmlab::sim
