// Sizes and block orders as users type them, and the benchmark report's file formats.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <nlohmann/json.hpp>

#include "gemmlab/file_io.hpp"
#include "gemmlab/gpu/bench.hpp"
#include "gemmlab/gpu/instances.hpp"
#include "gemmlab/gpu/shapes.hpp"
#include "gemmlab/sim/rung_model.hpp"
#include "gemmlab/sim/launch_order.hpp"

namespace gemmlab::gpu {
namespace {

TEST(Shapes, CubesAndTriples) {
  const auto shapes = parse_shapes("1,4097,67x45x33");
  ASSERT_TRUE(shapes) << shapes.error().message;
  ASSERT_EQ(shapes->size(), 3u);
  EXPECT_EQ((*shapes)[0], (Shape{1, 1, 1}));
  EXPECT_EQ((*shapes)[1], (Shape{4097, 4097, 4097}));
  EXPECT_EQ((*shapes)[2], (Shape{67, 45, 33}));
  EXPECT_EQ(to_string((*shapes)[1]), "4097");
  EXPECT_EQ(to_string((*shapes)[2]), "67x45x33");
}

TEST(Shapes, BadItemsAreNamed) {
  for (const char* bad : {"", "0", "-5", "12x4", "1x2x3x4", "7,,8", "abc", "3x4xq"}) {
    const auto shapes = parse_shapes(bad);
    ASSERT_FALSE(shapes) << bad;
    EXPECT_NE(shapes.error().message.find("not a size"), std::string::npos) << shapes.error().message;
  }
}

BenchReport sample_report() {
  BenchReport r;
  r.device.name = "Test GPU";
  r.device.cc_major = 9;
  r.device.sm_count = 132;
  r.device.l2_bytes = 50 << 20;
  r.software = {"580.1", 13000, 13000, "13.0.2"};
  r.date_utc = "2026-01-02T03:04:05Z";
  r.order = {kernel::OrderKind::GroupM, 8};
  r.sm_clock_start_mhz = 1980;
  r.buffer_sets_max = 9;
  BenchRow cublas;
  cublas.name = "cublas";
  cublas.config = "CUBLAS_COMPUTE_32F";
  cublas.shape = {4096, 4096, 4096};
  cublas.runs = 20;
  cublas.median_ms = 2.5;
  cublas.tflops = 55.0;
  cublas.ratio_to_cublas = 1.0;
  BenchRow rung = cublas;
  rung.name = "cp-async";
  rung.kernel = GpuInstance{RungId::CpAsync, sim::rung_model(RungId::CpAsync).defaults};
  rung.config = "default";
  rung.tflops = 27.5;
  rung.ratio_to_cublas = 0.5;
  BenchRow failed = rung;
  failed.status = BenchStatus::FailedVerification;
  failed.message = "C[0][0] is NaN, \"quoted\"";
  r.rows = {cublas, rung, failed};
  return r;
}

TEST(BenchReportFormats, JsonRoundTrips) {
  const BenchReport r = sample_report();
  const auto back = parse_bench_report_json(bench_report_json(r));
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->device.name, "Test GPU");
  EXPECT_EQ(back->device.sm_count, 132);
  EXPECT_EQ(back->software.cublas, "13.0.2");
  EXPECT_EQ(back->software.driver_cuda_version, 13000);
  EXPECT_EQ(back->date_utc, r.date_utc);
  EXPECT_EQ(sim::order_name(back->order), "groupm:8");
  ASSERT_EQ(back->rows.size(), 3u);
  EXPECT_FALSE(back->rows[0].kernel.has_value());
  EXPECT_EQ(back->rows[1].kernel, r.rows[1].kernel);  // the configuration is read back, knob by knob
  EXPECT_FALSE(back->rows[1].compiled_at_run_time);
  EXPECT_DOUBLE_EQ(back->rows[1].tflops, 27.5);
  EXPECT_EQ(back->rows[2].status, BenchStatus::FailedVerification);
  EXPECT_EQ(back->rows[2].message, r.rows[2].message);
}

// The recorded H100 reports were written when the TMA rungs' `swizzle` named the 128-byte mode 0: they read back in
// today's meaning, the rung's default.
TEST(BenchReportFormats, AnEarlierReportsTmaSwizzleReadsInTodaysMeaning) {
  const auto text = read_input_file(std::string(GEMMLAB_SOURCE_DIR) + "/assets/results/h100.json", "report");
  ASSERT_TRUE(text) << text.error().message;
  ASSERT_NE(text->find("\"swizzle\": 0"), std::string::npos);
  const auto report = parse_bench_report_json(*text);
  ASSERT_TRUE(report) << report.error().message;
  int tma_rows = 0;
  for (const BenchRow& row : report->rows)
    if (row.kernel && row.kernel->rung == RungId::TmaWgmma && row.config == "default") {
      ++tma_rows;
      EXPECT_EQ(*row.kernel, (GpuInstance{RungId::TmaWgmma, sim::rung_model(RungId::TmaWgmma).defaults}));
    }
  EXPECT_GT(tma_rows, 0);
}

TEST(BenchReportFormats, CsvHasAHeaderAndOneLinePerRowWithQuotesEscaped) {
  const std::string csv = bench_report_csv(sample_report());
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 4);
  EXPECT_EQ(csv.rfind("name,config,input,m,n,k,status", 0), 0u);
  EXPECT_NE(csv.find("\"C[0][0] is NaN, \"\"quoted\"\"\""), std::string::npos) << csv;
}

// A hand-edited or damaged report: each bad row is refused with its number, its kernel and the field, never shown
// as a size of 0 x -4 or a rate of -5 TFLOPS.
TEST(BenchReportFormats, BadRowsAreRefusedNamingTheRowAndTheField) {
  const auto with = [](auto edit) {
    auto j = nlohmann::json::parse(bench_report_json(sample_report()));
    edit(j);
    return parse_bench_report_json(j.dump());
  };
  const struct {
    std::function<void(nlohmann::json&)> edit;
    std::string says;
  } cases[] = {
      {[](auto& j) { j["rows"][1]["m"] = 0; }, "row 2: cp-async: 'm' must be a whole number from 1 to 2147483647, not 0"},
      {[](auto& j) { j["rows"][1]["n"] = "big"; }, "row 2: cp-async: 'n' must be a whole number from 1 to"},
      {[](auto& j) { j["rows"][0]["tflops"] = -5; }, "row 1: cublas at 4096: 'tflops' is -5"},
      {[](auto& j) { j["rows"][0]["median_ms"] = "fast"; }, "row 1: cublas at 4096: median_ms must be a number"},
      {[](auto& j) { j["rows"][1]["tflops"] = 0; }, "row 2: cp-async at 4096 is timed but"},
      {[](auto& j) { j["rows"][1]["kernel_config"]["bm"] = "x"; }, "row 2: cp-async: knob 'bm' must be a whole number"},
      {[](auto& j) { j["rows"][2]["status"] = "great"; }, "row 3: cp-async has an unknown status 'great'"},
      {[](auto& j) { j["rows"] = nlohmann::json::object(); }, "\"rows\" must be a list"},
      // Counts are checked in the int they are stored in: 1e300 would not convert.
      {[](auto& j) { j["rows"][1]["runs"] = 1e300; }, "row 2: cp-async: 'runs' must be a whole number from 0 to"},
      {[](auto& j) { j["rows"][1]["runs"] = 4294967296; }, "'runs' must be a whole number from 0 to 2147483647"},
      {[](auto& j) { j["device"]["sm_count"] = 1e300; }, "'sm_count' must be a whole number from 0 to"},
      // A bad value is quoted as a short excerpt, not whole.
      {[](auto& j) { j["rows"][1]["m"] = std::vector<int>(10000, 7); }, "not [7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7..."},
  };
  for (const auto& c : cases) {
    const auto r = with(c.edit);
    ASSERT_FALSE(r) << c.says;
    EXPECT_NE(r.error().message.find(c.says), std::string::npos) << r.error().message;
  }
  // A failed row has no timing: zeros there are fine.
  EXPECT_TRUE(with([](auto& j) { j["rows"][2]["tflops"] = 0; }));
}

TEST(BenchReportFormats, DeeplyNestedJsonIsRefusedNotACrash) {
  // 100,000 nested lists in a row: printing or destroying them recursively would exhaust the stack.
  auto text = bench_report_json(sample_report());
  text.replace(text.find("\"runs\": "), 0, "\"deep\": " + std::string(100000, '[') + std::string(100000, ']') + ", ");
  const auto r = parse_bench_report_json(text);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("nested more than 64 deep"), std::string::npos) << r.error().message;
}

TEST(BenchReportFormats, ForeignJsonIsRefusedWithAReason) {
  EXPECT_FALSE(parse_bench_report_json("not json"));
  const auto other = parse_bench_report_json(R"({"schema": "something-else"})");
  ASSERT_FALSE(other);
  EXPECT_NE(other.error().message.find("not a gemmlab benchmark report"), std::string::npos);
}

}  // namespace
}  // namespace gemmlab::gpu
