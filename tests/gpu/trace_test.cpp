// Tracing on the GPU (label "gpu"): the tracing build of a rung computes the same C as the build's kernel (trace_kernel
// refuses otherwise), and its timeline has a track per sampled warpgroup, nested spans, every k-step of the consumers,
// and the copies matched to the consumers' waits. How much the tracing costs is a figure of `gemmlab-cli trace`, not
// asserted here.
#include "gemmlab/gpu/trace.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "gemmlab/sim/rung_model.hpp"
#include "gemmlab/sim/timeline.hpp"

namespace gemmlab::gpu {
namespace {

TraceOptions options_for(RungId rung, Shape shape) {
  TraceOptions o;
  o.kernel = {rung, sim::rung_model(rung).defaults};
  o.shape = shape;
  o.blocks = 4;
  o.runs = 3;
  return o;
}

int mainloop_phases(const sim::Track& t) {
  int n = 0;
  for (const sim::Span& s : t.spans) n += s.op == kernel::TraceOp::Phase && s.section == kernel::Section::Mainloop;
  return n;
}

TEST(TraceOnGpu, TheSpecialisedRungsWarpsAreTracedEveryKStep) {
  const TraceOptions o = options_for(RungId::TmaWgmmaSpecialized, {1024, 1024, 1024});
  const auto run = trace_kernel(o);
  ASSERT_TRUE(run) << run.error().message;
  const sim::Timeline& t = run->timeline;
  const int warpgroups = (sim::threads_per_block(o.kernel.rung, o.kernel.config) + 127) / 128;
  ASSERT_EQ(t.tracks.size(), static_cast<std::size_t>(4 * warpgroups));
  EXPECT_TRUE(sim::check_nesting(t));
  const int ksteps = 1024 / o.kernel.config.bk;
  for (const sim::Track& track : t.tracks) {
    EXPECT_EQ(track.lost, 0u);
    EXPECT_EQ(track.block % (t.blocks_launched / 4), 0);  // the sampled blocks are spread over the launch
    EXPECT_EQ(mainloop_phases(track), ksteps) << track.role << " of block " << track.block;
    // A stage's copies are one span, its fill: the producer fills a stage per k-step; the consumers copy nothing.
    const auto fills =
        std::ranges::count_if(track.spans, [](const sim::Span& s) { return s.op == kernel::TraceOp::TmaLoad; });
    EXPECT_EQ(fills, track.role == "producer" ? ksteps : 0) << track.role << " of block " << track.block;
  }
  const sim::TimelineSummary s = sim::summarize(t);
  ASSERT_EQ(s.roles.size(), 2u);
  EXPECT_EQ(s.roles[0].role, "consumer");
  EXPECT_EQ(s.roles[1].role, "producer");
  EXPECT_GT(s.roles[0].busy_ns, 0);
  EXPECT_EQ(s.copies_matched, 4 * (warpgroups - 1) * ksteps);  // every consumer's wait for every stage's copies
  EXPECT_GT(run->untraced_ms, 0);
  EXPECT_GT(run->traced_ms, 0);
  // What Perfetto is given reads back the same.
  const auto back = sim::parse_chrome_trace(sim::chrome_trace_json(t));
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->tracks.size(), t.tracks.size());
}

TEST(TraceOnGpu, APersistentBlocksEpiloguesAreSeenWithTheNextTilesCopies) {
  TraceOptions o = options_for(RungId::TmaWgmmaPersistent, {4096, 4096, 512});
  o.tiles = 2;  // a tile's epilogue, and the next tile's copies
  const auto run = trace_kernel(o);
  ASSERT_TRUE(run) << run.error().message;
  EXPECT_TRUE(sim::check_nesting(run->timeline));
  const sim::TimelineSummary s = sim::summarize(run->timeline);
  EXPECT_EQ(s.lost, 0u);
  EXPECT_GT(s.epilogues, 0);
  EXPECT_GT(s.mean_fills_during_epilogue, 0);  // the producer runs ahead into the next tile
}

// Of a persistent block's tiles, only the first `tiles` are stamped: its consumers' epilogues are those tiles', and
// every warp's track ends there; with 0, every tile of the block is.
TEST(TraceOnGpu, APersistentBlockStampsItsFirstTilesOnly) {
  TraceOptions o = options_for(RungId::TmaWgmmaPersistent, {4096, 4096, 512});  // 512 tiles on 132 blocks: 3 or 4
  for (const int tiles : {1, 2, 0}) {
    o.tiles = tiles;
    const auto run = trace_kernel(o);
    ASSERT_TRUE(run) << run.error().message;
    EXPECT_EQ(run->tiles_per_block, 4);
    EXPECT_EQ(run->tiles_stamped, tiles == 0 ? 4 : tiles);
    EXPECT_TRUE(sim::check_nesting(run->timeline));
    const int ksteps = 512 / o.kernel.config.bk;
    for (const sim::Track& track : run->timeline.tracks) {
      EXPECT_EQ(track.lost, 0u);
      const int block_tiles = (512 - track.block + 131) / 132;  // block b walks tiles b, b + 132, ...
      const int stamped = std::min(block_tiles, run->tiles_stamped);
      EXPECT_EQ(mainloop_phases(track), stamped * ksteps) << track.role << " of block " << track.block;
      if (track.role != "consumer") continue;
      std::set<int> epilogues;
      for (const sim::Span& s : track.spans)
        if (s.op == kernel::TraceOp::Phase && s.section == kernel::Section::Epilogue) epilogues.insert(s.arg);
      EXPECT_EQ(epilogues.size(), static_cast<std::size_t>(stamped)) << "block " << track.block;
      EXPECT_LT(*epilogues.rbegin(), stamped);
    }
  }
}

TEST(TraceOnGpu, AnMmaSyncRungIsTracedByWarpgroupAtAnOddSize) {
  TraceOptions o = options_for(RungId::MmaMultistage, {300, 520, 264});
  o.input = kernel::InputType::F16;
  const auto run = trace_kernel(o);
  ASSERT_TRUE(run) << run.error().message;
  EXPECT_TRUE(sim::check_nesting(run->timeline));
  for (const sim::Track& track : run->timeline.tracks) EXPECT_EQ(track.role, "warpgroup");
}

TEST(TraceOnGpu, BadRequestsAreSentences) {
  TraceOptions o = options_for(RungId::TmaWgmmaSpecialized, {1024, 1024, 1024});
  o.blocks = 0;
  EXPECT_FALSE(trace_kernel(o));
  o = options_for(RungId::TmaWgmmaSpecialized, {1024, 1024, 1020});  // k not a multiple of 8: TMA refuses
  const auto refused = trace_kernel(o);
  ASSERT_FALSE(refused);
  EXPECT_FALSE(refused.error().message.empty());
  o = options_for(RungId::TmaWgmmaSpecialized, {1024, 1024, 1024});
  o.input = kernel::InputType::F32;
  EXPECT_FALSE(trace_kernel(o));
  o = options_for(RungId::TmaWgmmaPersistent, {1024, 1024, 1024});
  o.tiles = -1;
  const auto no_tiles = trace_kernel(o);
  ASSERT_FALSE(no_tiles);
  EXPECT_NE(no_tiles.error().message.find("stamped tiles"), std::string::npos) << no_tiles.error().message;
}

}  // namespace
}  // namespace gemmlab::gpu
