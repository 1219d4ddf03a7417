// The block walker turns recorded addresses back into matrix elements. Shared words get their element by following
// each lane's loads into its stores, so these tests check that every shared read of the main loop lands on the tile
// the k-step multiplies (or, for rungs that prefetch register fragments, the next one), for every rung, and
// spot-check single lanes against the kernels' own index math.
#include "gemmlab/sim/block_walker.hpp"

#include <gtest/gtest.h>

#include "gemmlab/memory_model.hpp"
#include "gemmlab/sim/global_address.hpp"
#include "gemmlab/sim/rung_model.hpp"

namespace gemmlab::sim {
namespace {

using sim::MemOp;

std::unique_ptr<BlockWalker> open(RungId rung, const kernel::KernelConfig& config, const sim::Problem& problem,
                                  kernel::TileCoord tile = {0, 0}) {
  auto walker = BlockWalker::open(rung, config, problem, tile);
  EXPECT_TRUE(walker.ok()) << (walker.ok() ? "" : walker.error().message);
  return walker.ok() ? std::move(*walker) : nullptr;
}

// A problem of whole tiles for the rung's defaults: no block is clipped, no lane zero-fills.
sim::Problem whole_tiles(const kernel::KernelConfig& c, int ksteps) { return {2 * c.bm, 2 * c.bn, ksteps * c.bk}; }

class EveryRung : public ::testing::TestWithParam<RungId> {};

TEST_P(EveryRung, SharedReadsOfTheMainLoopHitTheTilesBeingMultiplied) {
  const RungId rung = GetParam();
  const auto& model = sim::rung_model(rung);
  if (!model.described) GTEST_SKIP() << "no kernel description yet";
  const auto config = model.defaults;
  const sim::Problem problem = whole_tiles(config, 4);
  if (const auto k = simulate_kernel(rung, config, problem); k && k->total.wgmma > 0)
    GTEST_SKIP() << "its main loop reads shared memory through wgmma descriptors, not instructions: the walker "
                    "traces instructions only (tests/sim/rungs/tma_wgmma_test.cpp checks what wgmma reads)";
  const kernel::TileCoord tile{1, 1};
  auto walker = open(rung, config, problem, tile);
  ASSERT_TRUE(walker);
  const auto outline = walker->outline();
  const int row0 = tile.row * config.bm, col0 = tile.col * config.bn;
  int reads = 0;
  std::vector<int> own_tile_reads(static_cast<std::size_t>(outline->shape.ksteps), 0);
  for (std::size_t i = 0; i < outline->schedule.size(); ++i) {
    const sim::PhaseRef ref = outline->schedule[i];
    auto view = walker->view(i, nullptr);
    ASSERT_TRUE(view.ok()) << view.error().message;
    if (ref.section != kernel::Section::Mainloop) continue;
    const int k0 = ref.kstep * config.bk;
    for (const auto& iv : (*view)->instructions) {
      if (iv.instruction.access.op != MemOp::LoadShared && iv.instruction.access.op != MemOp::LdMatrix) continue;
      for (int lane = 0; lane < 32; ++lane) {
        if (!((iv.instruction.access.active_mask >> lane) & 1u)) continue;
        for (int q = 0; q < iv.words_per_lane(); ++q) {
          const ElementRef e = iv.lanes[static_cast<std::size_t>(lane)].shared[static_cast<std::size_t>(q)];
          ASSERT_TRUE(e.valid()) << "k-step " << ref.kstep << " warp " << iv.instruction.warp << " lane " << lane
                                 << " reads a word no load wrote";
          if (e.operand == 0) {
            EXPECT_GE(e.row, row0);
            EXPECT_LT(e.row, row0 + config.bm);
            EXPECT_GE(e.col, k0) << "k-step " << ref.kstep;
            EXPECT_LT(e.col, k0 + 2 * config.bk) << "k-step " << ref.kstep;
            if (e.col < k0 + config.bk) ++own_tile_reads[static_cast<std::size_t>(ref.kstep)];
          } else {
            ASSERT_EQ(e.operand, 1);
            EXPECT_GE(e.row, k0) << "k-step " << ref.kstep;
            EXPECT_LT(e.row, k0 + 2 * config.bk) << "k-step " << ref.kstep;
            if (e.row < k0 + config.bk) ++own_tile_reads[static_cast<std::size_t>(ref.kstep)];
            EXPECT_GE(e.col, col0);
            EXPECT_LT(e.col, col0 + config.bn);
          }
          ++reads;
        }
      }
    }
  }
  if (outline->smem_words > 0) {
    EXPECT_GT(reads, 0);
    // Every k-step reads its own tile (a rung that prefetches register fragments may also read the next one).
    for (std::size_t t = 0; t < own_tile_reads.size(); ++t) EXPECT_GT(own_tile_reads[t], 0) << "k-step " << t;
  }
}

TEST_P(EveryRung, EveryElementOfAWholeCTileHasOneWriter) {
  const RungId rung = GetParam();
  const auto& model = sim::rung_model(rung);
  if (!model.described) GTEST_SKIP() << "no kernel description yet";
  const auto config = model.defaults;
  auto walker = open(rung, config, whole_tiles(config, 2));
  ASSERT_TRUE(walker);
  const auto& writers = walker->outline()->c_writer;
  ASSERT_EQ(writers.size(), static_cast<std::size_t>(config.bm * config.bn));
  const int threads = walker->outline()->shape.threads_per_block;
  for (const int writer : writers) {
    EXPECT_GE(writer, 0);
    EXPECT_LT(writer, threads);
  }
}

TEST_P(EveryRung, StepsBackReplayToTheSameView) {
  const RungId rung = GetParam();
  const auto& model = sim::rung_model(rung);
  if (!model.described) GTEST_SKIP() << "no kernel description yet";
  const auto config = model.defaults;
  const auto problem = whole_tiles(config, 3);
  auto walker = open(rung, config, problem);
  auto fresh = open(rung, config, problem);
  ASSERT_TRUE(walker && fresh);
  const std::size_t last = walker->outline()->schedule.size() - 1, middle = last / 2;
  ASSERT_TRUE(walker->view(last, nullptr).ok());
  auto back = walker->view(middle, nullptr);  // behind the walker: a replay from the start
  auto direct = fresh->view(middle, nullptr);
  ASSERT_TRUE(back.ok() && direct.ok());
  EXPECT_EQ((*back)->shared_before, (*direct)->shared_before);
  ASSERT_EQ((*back)->instructions.size(), (*direct)->instructions.size());
  for (std::size_t i = 0; i < (*back)->instructions.size(); ++i)
    for (std::size_t lane = 0; lane < 32; ++lane) {
      EXPECT_EQ((*back)->instructions[i].lanes[lane].shared, (*direct)->instructions[i].lanes[lane].shared);
      EXPECT_EQ((*back)->instructions[i].lanes[lane].global, (*direct)->instructions[i].lanes[lane].global);
    }
}

std::string rung_name(const ::testing::TestParamInfo<RungId>& info) {
  std::string name(rung_info(info.param).slug);
  for (auto& ch : name)
    if (ch == '-') ch = '_';
  return name;
}

std::vector<RungId> every_rung() {
  std::vector<RungId> ids;
  for (const auto& rung : rungs()) ids.push_back(rung.id);
  return ids;
}

INSTANTIATE_TEST_SUITE_P(Rungs, EveryRung, ::testing::ValuesIn(every_rung()), rung_name);

// Rung 3 with conflicting = 1: thread t takes row t % bm of C, so lane l of warp 0 reads A[l][k] at its k-th A read
// (smem_tiling.hpp), and that read is a 32-way bank conflict.
TEST(BlockWalker, ConflictingSmemTilingReadsAColumnOfA) {
  auto config = sim::rung_model(RungId::SmemTiling).defaults;
  config.conflicting = 1;
  auto walker = open(RungId::SmemTiling, config, {64, 64, 64});
  ASSERT_TRUE(walker);
  const auto& schedule = walker->outline()->schedule;
  std::size_t multiply = schedule.size();
  for (std::size_t i = 0; i < schedule.size(); ++i)
    if (schedule[i].section == kernel::Section::Mainloop && schedule[i].kstep == 1 && schedule[i].phase == 1) multiply = i;
  ASSERT_LT(multiply, schedule.size());
  auto view = walker->view(multiply, nullptr);
  ASSERT_TRUE(view.ok());
  const InstructionView* first_a_read = (*view)->find(0, 0);
  ASSERT_NE(first_a_read, nullptr);
  EXPECT_EQ(first_a_read->instruction.shared.wavefronts, 32);
  for (int lane = 0; lane < 32; ++lane) {
    const ElementRef e = first_a_read->lanes[static_cast<std::size_t>(lane)].shared[0];
    EXPECT_EQ(e, (ElementRef{0, lane, 32})) << "lane " << lane;  // k-step 1 starts at k = 32
  }
}

TEST(BlockWalker, DecodesGlobalAddressesToRowAndColumn) {
  const sim::Problem problem{64, 48, 40};
  // A is m x k: element 3 * k + 5 is A[3][5]; B is k x n: element 2 * n + 7 is B[2][7].
  EXPECT_EQ(decode_global(sim::kOperandBase[0] + 4u * (3 * 40 + 5), problem), (ElementRef{0, 3, 5}));
  EXPECT_EQ(decode_global(sim::kOperandBase[1] + 4u * (2 * 48 + 7), problem), (ElementRef{1, 2, 7}));
  EXPECT_EQ(decode_global(sim::kOperandBase[2] + 4u * (1 * 48 + 0), problem), (ElementRef{2, 1, 0}));
  EXPECT_FALSE(decode_global(0, problem).valid());
}

TEST(BlockWalker, LookaheadIsThePipelineDepth) {
  const auto lookahead = [](RungId rung) {
    const auto config = sim::rung_model(rung).defaults;
    auto walker = open(rung, config, whole_tiles(config, 6));
    return walker ? walker->outline()->lookahead_ksteps : -1;
  };
  EXPECT_EQ(lookahead(RungId::Vectorized), 0);    // loads and multiplies the same tile
  EXPECT_EQ(lookahead(RungId::DoubleBuffer), 1);  // loads tile t + 1 while multiplying tile t
  EXPECT_EQ(lookahead(RungId::CpAsync), sim::rung_model(RungId::CpAsync).defaults.stages - 1);
}

TEST(BlockWalker, FindsTheNextPhaseWithSharedInstructions) {
  const auto config = sim::rung_model(RungId::Vectorized).defaults;
  auto walker = open(RungId::Vectorized, config, whole_tiles(config, 3));
  ASSERT_TRUE(walker);
  auto found = walker->find_phase(0, +1, InstructionKind::Shared, nullptr);
  ASSERT_TRUE(found.ok() && found->has_value());
  auto view = walker->view(**found, nullptr);
  ASSERT_TRUE(view.ok());
  bool any = false;
  for (const auto& iv : (*view)->instructions) any = any || is_kind(iv.instruction, InstructionKind::Shared);
  EXPECT_TRUE(any);
  auto none = walker->find_phase(walker->outline()->schedule.size() - 1, +1, InstructionKind::Shared, nullptr);
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
}

TEST(BlockWalker, CancelStopsBetweenPhasesAndLeavesTheWalkerUsable) {
  const auto config = sim::rung_model(RungId::BlockTile2D).defaults;
  auto walker = open(RungId::BlockTile2D, config, whole_tiles(config, 8));
  ASSERT_TRUE(walker);
  const std::size_t last = walker->outline()->schedule.size() - 1;
  int calls = 0;
  auto cancelled = walker->view(last, [&](double) { return ++calls < 3; });
  EXPECT_FALSE(cancelled.ok());
  auto view = walker->view(last, nullptr);
  ASSERT_TRUE(view.ok());
  EXPECT_EQ((*view)->phase_index, last);
}

// Labels count from 0, in both faces.
TEST(IndexLabels, ReadFromZero) {
  EXPECT_EQ(index_range(33), "0-32");
  EXPECT_EQ(index_range(1), "0");
  EXPECT_EQ(index_range(0), "none");
  EXPECT_EQ(index_of(2, 33), "2 of 0-32");
  EXPECT_EQ(step_name({kernel::Section::Mainloop, 3, 0}, 128), "k-step 3 of 0-127");
  EXPECT_EQ(step_name({kernel::Section::Prologue, 0, 0}, 128), "prologue");
}

}  // namespace
}  // namespace gemmlab::sim
