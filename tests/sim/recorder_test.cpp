// The recorder reuses the instructions of earlier recordings and keeps the cost of those that come out unchanged
// (sim/src/recorder.hpp). A block stream walked phase by phase, twice, must therefore give exactly what a fresh
// recording of each phase gives: the same instructions, lane for lane, with the same costs.
#include <gtest/gtest.h>

#include <string>

#include "gemmlab/sim/rung_model.hpp"
#include "gemmlab/sim/simulate.hpp"
#include "reference_gemm.hpp"

namespace gemmlab::sim {
namespace {

void expect_same_instruction(const WarpInstruction& x, const WarpInstruction& y, const std::string& where) {
  const WarpAccess& a = x.access;
  const WarpAccess& b = y.access;
  EXPECT_EQ(x.warp, y.warp) << where;
  EXPECT_EQ(x.index, y.index) << where;
  EXPECT_EQ(a.op, b.op) << where;
  EXPECT_EQ(a.width_bytes, b.width_bytes) << where;
  EXPECT_EQ(a.cache_global, b.cache_global) << where;
  EXPECT_EQ(a.active_mask, b.active_mask) << where;
  EXPECT_EQ(a.zero_fill_mask, b.zero_fill_mask) << where;
  EXPECT_EQ(x.global_mask, y.global_mask) << where;
  EXPECT_EQ(a.address, b.address) << where;
  EXPECT_EQ(a.shared_address, b.shared_address) << where;
  EXPECT_EQ(x.shared.wavefronts, y.shared.wavefronts) << where;
  EXPECT_EQ(x.shared.ideal_wavefronts, y.shared.ideal_wavefronts) << where;
  EXPECT_EQ(x.global.requests, y.global.requests) << where;
  EXPECT_EQ(x.global.sectors, y.global.sectors) << where;
  EXPECT_EQ(x.global.lines, y.global.lines) << where;
  EXPECT_EQ(x.global.ideal_sectors, y.global.ideal_sectors) << where;
}

// Every described rung at its defaults; an interior tile and a clipped corner tile of an odd-sized problem (so
// phases with partial masks and zero-filling copies follow full ones in the same storage).
TEST(Recorder, ReusedStreamsEqualFreshRecordings) {
  for (const auto& info : rungs()) {
    const Problem problem = test_support::admissible(info.id, {300, 270, 70});
    const RungModel& model = rung_model(info.id);
    if (!model.described) continue;
    const auto shape = launch_shape(info.id, model.defaults, problem);
    ASSERT_TRUE(shape) << info.slug << ": " << shape.error().message;
    for (const kernel::TileCoord tile : {kernel::TileCoord{0, 0}, kernel::TileCoord{shape->tiles_m - 1, shape->tiles_n - 1}}) {
      auto stream = BlockStream::open(info.id, model.defaults, problem, tile);
      ASSERT_TRUE(stream) << info.slug << ": " << stream.error().message;
      for (int pass = 0; pass < 2; ++pass)
        for (std::size_t i = 0; i < stream->schedule().size(); ++i) {
          const PhaseRef ref = stream->schedule()[i];
          const std::string where = std::string(info.slug) + " tile (" + std::to_string(tile.row) + ", " +
                                    std::to_string(tile.col) + ") pass " + std::to_string(pass) + " phase " +
                                    std::to_string(i);
          const auto reused = stream->phase(i);
          const auto fresh = phase_stream(info.id, model.defaults, problem, tile, ref);
          ASSERT_TRUE(reused && fresh) << where;
          ASSERT_EQ((*reused)->instructions.size(), fresh->instructions.size()) << where;
          for (std::size_t k = 0; k < fresh->instructions.size(); ++k)
            expect_same_instruction((*reused)->instructions[k], fresh->instructions[k],
                                    where + " instruction " + std::to_string(k));
          EXPECT_EQ((*reused)->fma, fresh->fma) << where;
        }
    }
  }
}

}  // namespace
}  // namespace gemmlab::sim
