// The memory model against the H100: every row of tests/calibration/measured_h100.csv is one warp instruction the
// probe (tests/calibration/probe.cu) issued alone in a kernel, with the ncu counters of that launch. For each row the
// model must give the counter that measures the row's instruction class:
//
//   lds.*    wavefronts, conflicts: l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld, l1tex__data_bank_conflicts_..._op_ld
//   sts.*    the same, op_st
//   ldsm.*   the same, op_ld (the hardware counts LDSM there), and ncu's SASS-level ldsm counters, which agree
//   stsm.*   the same, op_st (the hardware counts STSM there), and ncu's SASS-level stsm counters, which agree
//   ldg.*    requests, sectors: l1tex__t_requests_pipe_lsu_mem_global_op_ld, l1tex__t_sectors_pipe_lsu_mem_global_op_ld
//   stg.*    the same, op_st
//   cp.async global side: the op_ld request and sector counters (the hardware counts the LDGSTS read there)
//
// The shared side of cp.async has no hardware wavefront counter of its own on this ncu (2025.3), and ncu's
// SASS-level ldgsts counters (smsp__sass_*) are ncu's estimate from the instruction's addresses, not a count. The
// rules are
//   .ca  the hardware's l1tex op_ldgsts conflict counter subtracts its own ideal, in each phase one wavefront or one
//        per 4 source lines, whichever is more (copy_counted_ideal): it must equal model wavefronts less that. The hardware's
//        total of shared wavefronts, less what the probe kernel adds by itself (the total of the .cg rows, which the
//        hardware does not count), must be the model's wavefronts or one more (a source that straddles lines can add
//        one). ncu's estimate may not be below the model (it adds the two sides' conflicts where the hardware takes
//        the larger one).
//   .cg  the hardware does not count L1-bypassing writes at all (checked: its counters are the same for every .cg
//        row), so only ncu's estimate exists. Its wavefronts must equal the model's where the copy moves whole
//        32-byte sectors (every lane's source half-sector has its partner half copied by another lane into the same
//        shared sector), and may not be below them elsewhere. It reports no bank conflicts for .cg (checked), where
//        the model reports wavefronts - ideal as for every instruction.
// docs/memory-model.md explains these rules and the measurements behind them.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "csv_table.hpp"
#include "gemmlab/memory_model.hpp"

namespace gemmlab::sim {
namespace {

using csv::read_table;
using csv::split;
using csv::Table;

// The measurements live in the source tree (GEMMLAB_SOURCE_DIR: tests/sim/CMakeLists.txt), wherever the build runs.
const std::string kDir = std::string(GEMMLAB_SOURCE_DIR) + "/tests/calibration";

const Table& measured() {
  static const Table table = read_table(kDir + "/measured_h100.csv");
  return table;
}

// One measured row, read through the header's column names.
struct Row {
  const std::vector<std::string>* fields;
  int line;  // 1-based row number among the data rows

  const std::string& text(std::string_view column) const {
    static const std::string missing;
    const int i = measured().column(column);
    return i < 0 ? missing : (*fields)[static_cast<std::size_t>(i)];
  }
  std::string name() const { return text("name"); }
  std::string op() const { return text("op"); }
  bool has(std::string_view column) const { return !text(column).empty(); }
  long value(std::string_view column) const {
    const std::string& t = text(column);
    EXPECT_FALSE(t.empty()) << where() << ": no value in column " << column;
    return t.empty() ? -1 : std::stol(t);
  }
  std::string where() const {
    return "pattern " + name() + " (" + op() + (text("variant").empty() ? "" : "." + text("variant")) + ", data row " +
           std::to_string(line) + " of measured_h100.csv)";
  }

  // The warp instruction of the row, as the model takes it.
  WarpAccess access() const {
    const bool cg = text("variant") == "cg";
    auto parsed = parse_op(cg ? "cp.async.cg.16" : op());
    EXPECT_TRUE(parsed.ok()) << where() << ": " << (parsed.ok() ? "" : parsed.error().message);
    WarpAccess a = parsed.ok() ? parsed.value() : WarpAccess{};
    a.active_mask = static_cast<std::uint32_t>(std::stoul(text("mask"), nullptr, 16));
    const auto lanes = split(text("lanes"), ' ');
    const auto shared = split(text("shared_lanes"), ' ');
    EXPECT_EQ(lanes.size(), 32u) << where();
    for (std::size_t l = 0; l < 32 && l < lanes.size(); ++l) a.address[l] = std::stoull(lanes[l]);
    for (std::size_t l = 0; l < 32 && l < shared.size(); ++l) a.shared_address[l] = std::stoull(shared[l]);
    return a;
  }
};

// The rows whose op starts with `prefix` (and, when given, whose cp.async variant is `variant`).
std::vector<Row> rows_of(std::string_view prefix, std::string_view variant = "") {
  std::vector<Row> out;
  const Table& table = measured();
  for (std::size_t i = 0; i < table.rows.size(); ++i) {
    const Row row{&table.rows[i], static_cast<int>(i) + 1};
    if (row.op().starts_with(prefix) && (variant.empty() || row.text("variant") == variant)) out.push_back(row);
  }
  return out;
}

SharedCost model_shared(const Row& row) {
  const auto cost = shared_cost(row.access());
  EXPECT_TRUE(cost.ok()) << row.where() << ": " << (cost.ok() ? "" : cost.error().message);
  // The drawing path must tell the same story as the fast path.
  const auto detail = shared_detail(row.access());
  EXPECT_TRUE(detail.ok() && cost.ok() && detail->cost.wavefronts == cost->wavefronts &&
              detail->cost.ideal_wavefronts == cost->ideal_wavefronts)
      << row.where() << ": shared_detail disagrees with shared_cost";
  return cost.ok() ? cost.value() : SharedCost{-1, -1};
}

GlobalCost model_global(const Row& row) {
  const auto cost = global_cost(row.access());
  EXPECT_TRUE(cost.ok()) << row.where() << ": " << (cost.ok() ? "" : cost.error().message);
  return cost.ok() ? cost.value() : GlobalCost{-1, -1, -1, -1};
}

void expect_counter(const Row& row, std::string_view what, long model, std::string_view column) {
  EXPECT_EQ(model, row.value(column)) << row.where() << ": " << what << ": model " << model << ", H100 "
                                      << row.text(column) << " (" << column << ")";
}

constexpr std::string_view kWavefronts = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_";
constexpr std::string_view kConflicts = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_";
constexpr std::string_view kRequests = "l1tex__t_requests_pipe_lsu_mem_global_op_";
constexpr std::string_view kSectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_";
constexpr std::string_view kSassCopyWavefronts = "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts";
constexpr std::string_view kSassCopyConflicts = "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts";

std::string col(std::string_view stem, std::string_view op) { return std::string(stem) + std::string(op); }

void expect_shared(const Row& row, std::string_view counter_op) {
  const SharedCost cost = model_shared(row);
  expect_counter(row, "wavefronts", cost.wavefronts, col(kWavefronts, counter_op));
  expect_counter(row, "bank conflicts", cost.bank_conflicts(), col(kConflicts, counter_op));
}

void expect_global(const Row& row, std::string_view counter_op) {
  const GlobalCost cost = model_global(row);
  expect_counter(row, "requests", cost.requests, col(kRequests, counter_op));
  expect_counter(row, "sectors", cost.sectors, col(kSectors, counter_op));
}

// ----- the table itself ----------------------------------------------------------------------------------------------

// The table is whole: every pattern of patterns.csv measured, once, in order, and the header names the device.
TEST(CalibrationTable, CoversEveryPattern) {
  const Table& table = measured();
  ASSERT_TRUE(table.error.empty()) << table.error;
  const Table patterns = read_table(kDir + "/patterns.csv");
  ASSERT_TRUE(patterns.error.empty()) << patterns.error;
  ASSERT_EQ(table.rows.size(), patterns.rows.size()) << "measured_h100.csv lacks patterns: re-run the calibration";
  for (std::size_t i = 0; i < table.rows.size(); ++i)
    EXPECT_EQ(table.rows[i][0], patterns.rows[i][0]) << "data row " << i + 1 << " of measured_h100.csv";
  EXPECT_NE(table.comment.find("device=NVIDIA H100"), std::string::npos) << table.comment;
  const std::string all = std::to_string(patterns.rows.size());
  EXPECT_NE(table.comment.find("patterns measured=" + all + " of " + all), std::string::npos) << table.comment;
  // Every row belongs to one of the families checked below.
  for (std::size_t i = 0; i < table.rows.size(); ++i) {
    const Row row{&table.rows[i], static_cast<int>(i) + 1};
    const std::string op = row.op();
    EXPECT_TRUE(op.starts_with("lds.") || op.starts_with("sts.") || op.starts_with("ldsm.") || op.starts_with("stsm.") ||
                op.starts_with("ldg.") || op.starts_with("stg.") ||
                (op.starts_with("cp.async.") && (row.text("variant") == "ca" || row.text("variant") == "cg")))
        << row.where() << ": no test checks this kind of row";
  }
}

// ----- shared memory ------------------------------------------------------------------------------------------------

TEST(Calibration, SharedLoads) {
  const auto rows = rows_of("lds.");
  EXPECT_FALSE(rows.empty());
  for (const Row& row : rows) expect_shared(row, "ld");
}

TEST(Calibration, SharedStores) {
  const auto rows = rows_of("sts.");
  EXPECT_FALSE(rows.empty());
  for (const Row& row : rows) expect_shared(row, "st");
}

// An 8x8-matrix instruction's rows: the hardware's counters of the class it is counted with (`hardware_class`), and
// ncu's SASS-level counters of its own class (`sass_class`), which agree.
void expect_matrix_rows(std::string_view prefix, std::string_view hardware_class, const std::string& sass_class) {
  const auto rows = rows_of(prefix);
  EXPECT_FALSE(rows.empty()) << prefix;
  for (const Row& row : rows) {
    expect_shared(row, hardware_class);
    const SharedCost cost = model_shared(row);
    expect_counter(row, "wavefronts", cost.wavefronts,
                   "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_" + sass_class);
    expect_counter(row, "bank conflicts", cost.bank_conflicts(),
                   "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_" + sass_class);
  }
}

TEST(Calibration, Ldmatrix) { expect_matrix_rows("ldsm.", "ld", "ldsm"); }

// stmatrix (sm_90): the hardware counts STSM with the shared stores (op_st; this ncu has no l1tex__ op_stsm counter).
TEST(Calibration, Stmatrix) {
  expect_matrix_rows("stsm.", "st", "stsm");
}

// ----- global memory ------------------------------------------------------------------------------------------------

TEST(Calibration, GlobalLoads) {
  const auto rows = rows_of("ldg.");
  EXPECT_FALSE(rows.empty());
  for (const Row& row : rows) expect_global(row, "ld");
}

TEST(Calibration, GlobalStores) {
  const auto rows = rows_of("stg.");
  EXPECT_FALSE(rows.empty());
  for (const Row& row : rows) expect_global(row, "st");
}

// ----- cp.async -----------------------------------------------------------------------------------------------------

TEST(Calibration, CpAsyncGlobalSide) {
  const auto rows = rows_of("cp.async.");
  EXPECT_FALSE(rows.empty());
  for (const Row& row : rows) expect_global(row, "ld");
}

// What the probe's cp.async kernel adds to l1tex__data_pipe_lsu_wavefronts_mem_shared by itself: the value of the
// .cg rows, whose own writes the hardware does not count (CpAsyncCgSharedSide checks that it is one value).
long probe_shared_wavefronts() {
  const auto rows = rows_of("cp.async.", "cg");
  return rows.empty() ? -1 : rows.front().value("l1tex__data_pipe_lsu_wavefronts_mem_shared");
}

TEST(Calibration, CpAsyncCaSharedSide) {
  const auto rows = rows_of("cp.async.", "ca");
  EXPECT_FALSE(rows.empty());
  const long probe = probe_shared_wavefronts();
  for (const Row& row : rows) {
    const SharedCost cost = model_shared(row);
    // The hardware's conflict counter: in each phase, at least one wavefront per 4 source lines counts as ideal.
    const long counted_ideal = copy_counted_ideal(row.access()).value();
    expect_counter(row, "wavefronts - sum over phases of max(1, ceil(source lines / 4))", cost.wavefronts - counted_ideal,
                   col(kConflicts, "ldgsts"));
    // The hardware's wavefronts.
    const long hardware = row.value("l1tex__data_pipe_lsu_wavefronts_mem_shared") - probe;
    EXPECT_TRUE(hardware == cost.wavefronts || hardware == cost.wavefronts + 1)
        << row.where() << ": wavefronts: model " << cost.wavefronts << ", H100 " << hardware
        << " (l1tex__data_pipe_lsu_wavefronts_mem_shared less the probe's own " << probe << ")";
    // ncu's estimate.
    EXPECT_GE(row.value(kSassCopyWavefronts), cost.wavefronts)
        << row.where() << ": the model charges more wavefronts than ncu's estimate (" << kSassCopyWavefronts << ")";
  }
}

// Whether every active lane copies half of a 32-byte source sector whose other half another active lane copies
// into the other half of the same 32-byte shared sector.
bool moves_whole_sectors(const WarpAccess& a) {
  for (int l = 0; l < 32; ++l) {
    if (!((a.active_mask >> l) & 1u)) continue;
    bool partnered = false;
    for (int m = 0; m < 32 && !partnered; ++m) {
      const auto i = static_cast<std::size_t>(l), j = static_cast<std::size_t>(m);
      partnered = m != l && ((a.active_mask >> m) & 1u) && a.address[i] / 32 == a.address[j] / 32 &&
                  a.shared_address[i] / 32 == a.shared_address[j] / 32 && a.address[i] != a.address[j] &&
                  a.shared_address[i] != a.shared_address[j];
    }
    if (!partnered) return false;
  }
  return true;
}

TEST(Calibration, CpAsyncCgSharedSide) {
  const auto rows = rows_of("cp.async.", "cg");
  ASSERT_FALSE(rows.empty());
  // The hardware's shared counters do not move with the pattern: they do not see L1-bypassing writes.
  std::set<long> hardware_wavefronts;
  int whole = 0;
  for (const Row& row : rows) {
    hardware_wavefronts.insert(row.value("l1tex__data_pipe_lsu_wavefronts_mem_shared"));
    expect_counter(row, "hardware bank conflicts of an L1-bypassing copy", 0, col(kConflicts, "ldgsts"));
    const SharedCost cost = model_shared(row);
    expect_counter(row, "ncu's estimate of an L1-bypassing copy's bank conflicts", 0, kSassCopyConflicts);
    if (moves_whole_sectors(row.access())) {
      ++whole;
      expect_counter(row, "wavefronts (whole-sector copy)", cost.wavefronts, kSassCopyWavefronts);
    } else {
      EXPECT_LE(cost.wavefronts, row.value(kSassCopyWavefronts))
          << row.where() << ": the model charges more wavefronts than ncu's estimate for a partial-sector copy";
    }
  }
  EXPECT_EQ(hardware_wavefronts.size(), 1u) << "l1tex__data_pipe_lsu_wavefronts_mem_shared varies across .cg rows";
  EXPECT_GT(whole, 0);
}

}  // namespace
}  // namespace gemmlab::sim
