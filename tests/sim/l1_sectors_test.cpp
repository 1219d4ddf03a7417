// Rule G6 against the H100: tests/calibration/l1_sectors.cu issues loads that hit in L1, each warp instruction one
// pattern (4, 8 or 16 bytes a lane, neighbouring lanes sharing an element or not), and ncu counted the L1 data pipe's
// wavefronts and the requests (tests/calibration/l1_sectors_ncu_h100.csv). The memory model, given the same warp
// instruction, must cost as many wavefronts per request: one per line, and a load at least one per 128 bytes its
// lanes receive.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "csv_table.hpp"
#include "gemmlab/memory_model.hpp"

namespace gemmlab::sim {
namespace {

struct Pattern {
  const char* name;  // the probe's
  const char* op;
  int width, share;  // bytes a lane; neighbouring lanes that read one element
};
// The probe's kPatterns.
constexpr Pattern kPatterns[] = {{"w4_broadcast", "ldg.32", 4, 32}, {"w4_32B", "ldg.32", 4, 4},
                                 {"w4_64B", "ldg.32", 4, 2},        {"w4_128B", "ldg.32", 4, 1},
                                 {"w8_128B", "ldg.64", 8, 2},       {"w16_128B", "ldg.128", 16, 4},
                                 {"w8_256B", "ldg.64", 8, 1},       {"w16_512B", "ldg.128", 16, 1}};

TEST(L1Sectors, EachLoadCostsTheDataPipeWavefrontsNcuCounted) {
  std::string error;
  const auto ncu = csv::read_runs(std::string(GEMMLAB_SOURCE_DIR) + "/tests/calibration/l1_sectors_ncu_h100.csv", error);
  ASSERT_TRUE(error.empty()) << error;
  for (const Pattern& p : kPatterns) {
    SCOPED_TRACE(p.name);
    const auto requests = ncu.find({p.name, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"});
    const auto wavefronts = ncu.find({p.name, "l1tex__data_pipe_lsu_wavefronts.sum"});
    ASSERT_TRUE(requests != ncu.end() && wavefronts != ncu.end());
    WarpAccess w = *parse_op(p.op);
    for (int lane = 0; lane < 32; ++lane)
      w.address[std::size_t(lane)] = 4096 + std::uint64_t(lane / p.share * p.width);  // an aligned slot
    const auto cost = global_cost(w);
    ASSERT_TRUE(cost.ok());
    // ncu's count includes a few wavefronts of the probe's own set-up and timing: within 0.1%.
    EXPECT_NEAR(wavefronts->second / requests->second, cost->wavefronts, 1e-3 * cost->wavefronts);
  }
}

TEST(L1Sectors, StoresAndCopiesCostTheirLines) {
  WarpAccess store = *parse_op("stg.128");
  for (int lane = 0; lane < 32; ++lane) store.address[std::size_t(lane)] = std::uint64_t(lane / 4 * 16);
  EXPECT_EQ(global_cost(store)->wavefronts, 1);  // what the FP32 rungs' counters bear out; no probe of stores
  WarpAccess spread = *parse_op("ldg.32");
  for (int lane = 0; lane < 32; ++lane) spread.address[std::size_t(lane)] = std::uint64_t(lane) * 128;
  EXPECT_EQ(global_cost(spread)->wavefronts, 32);  // 32 lines of 4 bytes: the lines, not the bytes, decide
}

}  // namespace
}  // namespace gemmlab::sim
