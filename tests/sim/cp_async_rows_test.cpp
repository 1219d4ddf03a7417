// Rule G5 against the H100: tests/calibration/cp_async_rows.cu copies rung 13's stage over and over into three
// shared layouts, and ncu counted the sectors the L2 sent into the SMs (tests/calibration/cp_async_rows_ncu_h100.csv,
// with rungs 13 and 14 at 4096^3 in the same run). The memory model, given the same warp instructions, must send
// exactly as many: 16 sectors per copy instruction into aligned or swizzled rows, 24 into rows padded by 16 bytes.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <string>

#include "csv_table.hpp"
#include "gemmlab/kernel/layout.hpp"
#include "gemmlab/memory_model.hpp"
#include "gemmlab/rungs.hpp"
#include "gemmlab/sim/rung_model.hpp"
#include "gemmlab/sim/simulate.hpp"

namespace gemmlab::sim {
namespace {

// {(run, metric): value} of the recorded CSV.
std::map<std::pair<std::string, std::string>, double> recorded() {
  std::string error;
  auto values = csv::read_runs(std::string(GEMMLAB_SOURCE_DIR) + "/tests/calibration/cp_async_rows_ncu_h100.csv", error);
  EXPECT_TRUE(error.empty()) << error;
  return values;
}

constexpr std::uint64_t kPitchBytes = 8192;  // the probe's source rows (a 4096-wide matrix of halves)

// The L2's sectors for one stage of the probe: A's 128 x 64 halves and B's 64 x 128 halves, each copied 16 bytes a
// lane with consecutive lanes on consecutive chunks of a row (the probe's copy_tile, as rung 13's), into `a` and `b`.
// Returns the sectors the L2 sends per warp instruction (GlobalDetail::sectors_from_l2).
double sectors_per_copy(const kernel::HalfTile& a, const kernel::HalfTile& b) {
  double sectors = 0, instructions = 0;
  const auto copy_tile = [&](const kernel::HalfTile& layout, int rows, int shared_base) {
    const int chunks_per_row = layout.cols / 8;
    for (int first = 0; first < rows * chunks_per_row; first += 32) {
      WarpAccess w = *parse_op("cp.async.cg.16");
      for (int lane = 0; lane < 32; ++lane) {
        const int r = (first + lane) / chunks_per_row, col = (first + lane) % chunks_per_row * 8;
        w.address[static_cast<std::size_t>(lane)] = std::uint64_t(r) * kPitchBytes + std::uint64_t(col) * 2;
        w.shared_address[static_cast<std::size_t>(lane)] = std::uint64_t(shared_base + layout(r, col));
      }
      const auto detail = global_detail(w);
      EXPECT_TRUE(detail.ok());
      sectors += double(detail->sectors_from_l2());
      ++instructions;
    }
  };
  copy_tile(a, 128, 0);
  copy_tile(b, 64, a.size_bytes(128));
  return sectors / instructions;
}

TEST(CpAsyncRows, TheL2SendsTheProbesCopiesWhatRuleG5Says) {
  const auto ncu = recorded();
  const struct {
    const char* run;
    int pad;
    bool swizzle;
    double expected;
  } layouts[] = {{"aligned", 0, false, 16}, {"padded", 8, false, 24}, {"swizzled", 0, true, 16}};
  for (const auto& l : layouts) {
    const double model = sectors_per_copy({64, l.pad, l.swizzle}, {128, l.pad, l.swizzle});
    const double measured = ncu.at({l.run, "l1tex__m_xbar2l1tex_read_sectors.sum"}) /
                            ncu.at({l.run, "smsp__inst_executed_op_ldgsts.sum"});
    EXPECT_DOUBLE_EQ(model, measured) << l.run;
    EXPECT_DOUBLE_EQ(model, l.expected) << l.run;
  }
  // And the cost: the padded copies took as much longer as their sectors are more (the L2's delivery limits all three).
  const double padded_over_aligned = ncu.at({"padded", "gpu__time_duration.sum"}) / ncu.at({"aligned", "gpu__time_duration.sum"});
  EXPECT_NEAR(padded_over_aligned, 1.5, 0.05);
}

// The rungs themselves: what the L2 sends rung 13's and rung 14's copies at 4096^3 (ncu: l1tex__m_xbar2l1tex_read_sectors,
// which counts every read the L2 sends into the SMs; the copies are the kernels' only global reads). Their copies move
// whole source sectors, each once per instruction, so an instruction's distinct source sectors are its ideal ones
// (G3) and what the L2 sends is those plus the split ones.
TEST(CpAsyncRows, TheL2SendsRungs13And14WhatRuleG5Says) {
  const auto ncu = recorded();
  for (const RungId rung : {RungId::MmaPadded, RungId::MmaSwizzled}) {
    const auto r = simulate_kernel(rung, rung_model(rung).defaults, {4096, 4096, 4096});
    ASSERT_TRUE(r.ok()) << r.error().message;
    const OpCounters& copies = r->total.ops[static_cast<std::size_t>(op_class(*parse_op("cp.async.cg.16")))];
    const std::string run(rung_info(rung).slug);
    EXPECT_EQ(double(copies.ideal_sectors + copies.split_sectors), ncu.at({run, "l1tex__m_xbar2l1tex_read_sectors.sum"}))
        << run;
  }
}

}  // namespace
}  // namespace gemmlab::sim
