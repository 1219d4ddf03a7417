// gemmlab-cli schedule as a user meets it, and the occupancy and roofline figures `sim` now prints.
#include <gtest/gtest.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "gemmlab/gpu/device.hpp"
#include "gemmlab/gpu/instances.hpp"
#include "gemmlab/sim/rung_model.hpp"
#include "run_process.hpp"

namespace gemmlab {
namespace {

using test::run_cli;

nlohmann::json schedule_json(std::vector<std::string> args) {
  args.insert(args.begin(), "schedule");
  args.push_back("--json");
  const auto r = run_cli(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

// Where the same kernel was timed in several launch orders (assets/results/order-runs.txt), schedule shows what each
// order measured beside the prediction for the one asked (issue 32, item 6: the model gives rung 17 the same time in
// row and grouped order at 8192^3; the recorded H100 runs did not).
TEST(CliSchedule, ShowsTheRecordedRunsOfTheKernelInOtherOrders) {
  const auto j = schedule_json({"--rung", "tma-wgmma", "--m", "8192", "--n", "8192", "--k", "8192", "--order",
                                "groupm:8", "--waves", "0"});
  std::vector<std::string> orders;
  for (const auto& m : j["measured_orders"]) {
    orders.push_back(m["order"]);
    EXPECT_GT(m["median_ms"].get<double>(), 0.0);
    EXPECT_EQ(m["input"], "fp16");
  }
  EXPECT_NE(std::ranges::find(orders, "row"), orders.end());
  EXPECT_NE(std::ranges::find(orders, "groupm:8"), orders.end());
  const auto text = run_cli({"schedule", "--rung", "tma-wgmma", "--m", "8192", "--n", "8192", "--k", "8192", "--order",
                             "groupm:8", "--waves", "0"});
  EXPECT_NE(text.out.find("== measured: this kernel in launch orders"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("groupm:8: "), std::string::npos);
  EXPECT_NE(text.out.find("(this order)"), std::string::npos);
  EXPECT_NE(text.out.find("% of groupm:8's time"), std::string::npos);
  // A size nobody timed: no section, and an empty list in the JSON.
  const auto none = schedule_json({"--rung", "tma-wgmma", "--m", "1000", "--n", "1000", "--k", "1000"});
  EXPECT_TRUE(none["measured_orders"].empty());
}

TEST(CliSchedule, JsonHasOccupancyWavesL2AndRoofline) {
  const auto j = schedule_json({"--rung", "blocktile-2d", "--m", "4096", "--n", "4096", "--k", "1024", "--order",
                                "groupm:8"});
  EXPECT_EQ(j["device"]["id"], "h100-sxm");
  EXPECT_EQ(j["order"]["name"], "groupm:8");
  EXPECT_EQ(j["launch"]["blocks"], 1024);
  const auto& occ = j["occupancy"];
  EXPECT_TRUE(occ["registers_source"] == "measured" || occ["registers_source"] == "estimated");
  EXPECT_EQ(occ["blocks_per_wave"], 132 * occ["blocks_per_sm"].get<int>());
  const int waves = occ["waves"];
  EXPECT_EQ(j["l2"]["per_wave"].size(), static_cast<std::size_t>(waves));
  EXPECT_EQ(j["l2"]["dram_write_bytes"], 4096LL * 4096 * 4);
  EXPECT_GE(j["l2"]["dram_read_bytes"].get<std::int64_t>(), j["l2"]["min_dram_read_bytes"].get<std::int64_t>());
  EXPECT_EQ(j["roofline"]["limits"].size(), 5u);
  EXPECT_EQ(j["roofline"]["measured"], false);
  EXPECT_GT(j["roofline"]["predicted_tflops"].get<double>(), 0.0);
  EXPECT_FALSE(j["l2"].contains("a_tile_fetches")) << "heat maps only with --tiles";
}

TEST(CliSchedule, TilesGiveHeatMapsOfAAndB) {
  const auto j = schedule_json({"--rung", "blocktile-2d", "--m", "512", "--n", "256", "--k", "64", "--tiles"});
  const auto& a = j["l2"]["a_tile_fetches"];
  const auto& b = j["l2"]["b_tile_fetches"];
  EXPECT_EQ(a["rows"], 4);   // tiles of 128 rows
  EXPECT_EQ(a["cols"], 8);   // k-steps of 8
  EXPECT_EQ(b["rows"], 8);
  EXPECT_EQ(b["cols"], 2);
  // One wave holds the whole grid and the L2 everything: every tile comes from DRAM exactly once.
  for (const auto& row : a["times"])
    for (const auto& t : row) EXPECT_DOUBLE_EQ(t.get<double>(), 1.0);
}

TEST(CliSchedule, GroupedOrderReadsLessFromDramAtScale) {
  const std::vector<std::string> base = {"--rung", "blocktile-2d", "--m", "8192", "--n", "8192", "--k", "8192"};
  auto with = [&](const char* order) {
    auto args = base;
    args.insert(args.end(), {"--order", order});
    return schedule_json(args)["l2"]["dram_read_bytes"].get<std::int64_t>();
  };
  EXPECT_LT(with("groupm:16"), with("row"));
  EXPECT_LT(with("cutlass:8"), with("row"));
}

TEST(CliSchedule, OtherDevicesChangeTheWave) {
  const auto h100 = schedule_json({"--rung", "cp-async", "--m", "2048", "--n", "2048", "--k", "256"});
  const auto gtx = schedule_json({"--rung", "cp-async", "--m", "2048", "--n", "2048", "--k", "256", "--profile", "1070"});
  EXPECT_EQ(gtx["device"]["id"], "gtx-1070");
  EXPECT_EQ(gtx["occupancy"]["blocks_per_wave"], 15 * gtx["occupancy"]["blocks_per_sm"].get<int>());
  EXPECT_LT(gtx["roofline"]["predicted_tflops"].get<double>(), h100["roofline"]["predicted_tflops"].get<double>());
}

TEST(CliSchedule, TextNamesTheLimitsAndTheBottleneck) {
  const auto r = run_cli({"schedule", "--rung", "blocktile-2d", "--m", "4096", "--n", "4096", "--k", "4096"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* says : {"resident blocks per SM: 2, limited by registers", "waves: 1024 blocks / 264",
                           "reads of A:", "DRAM read:", "(bottleneck)", "TFLOPS (predicted by the model, not measured)",
                           "is the limit"})
    EXPECT_NE(r.out.find(says), std::string::npos) << says << "\n" << r.out;
}

// blocktile-2d's default is compiled: a CUDA build recorded ptxas's count for the H100's compute capability 9.0.
TEST(CliSchedule, RegistersOfACompiledConfigurationAreMeasured) {
  const auto recorded =
      gpu::compiled_registers(RungId::BlockTile2D, sim::rung_model(RungId::BlockTile2D).defaults, "9.0");
  const std::vector<std::string> args = {"--rung", "blocktile-2d", "--m", "1024", "--n", "1024", "--k", "256"};
  const auto occ = schedule_json(args)["occupancy"];
  auto text_args = args;
  text_args.insert(text_args.begin(), "schedule");
  const auto text = run_cli(text_args);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  if (recorded) {
    EXPECT_EQ(occ["registers_source"], "measured");
    EXPECT_EQ(occ["registers_per_thread"], *recorded);
    const std::string says = "registers per thread: " + std::to_string(*recorded) + " (measured: ptxas's count";
    EXPECT_NE(text.out.find(says), std::string::npos) << text.out;
  } else {
    EXPECT_FALSE(gpu::built_with_cuda()) << "a CUDA build for sm_90 records the registers of every instance";
    EXPECT_EQ(occ["registers_source"], "estimated");
    EXPECT_NE(text.out.find("(estimated: this build compiled no kernel"), std::string::npos) << text.out;
  }
}

// Not compiled (a_pad = 2), or compiled for another architecture than the device's: the estimate, and it says so.
TEST(CliSchedule, RegistersOfOtherConfigurationsAreEstimated) {
  // A CUDA build compiled blocktile-2d for 9.0: a configuration it did not compile starts from the nearest one.
  const bool compiled = gpu::compiled_registers(RungId::BlockTile2D, sim::rung_model(RungId::BlockTile2D).defaults,
                                                "9.0").has_value();
  const auto padded = schedule_json({"--rung", "blocktile-2d", "--m", "1024", "--n", "1024", "--k", "256", "--a-pad",
                                     "2"})["occupancy"];
  EXPECT_EQ(padded["registers_source"], compiled ? "estimated from the nearest compiled configuration" : "estimated");
  const auto gtx = schedule_json({"--rung", "blocktile-2d", "--m", "1024", "--n", "1024", "--k", "256", "--profile",
                                  "gtx-1070"})["occupancy"];
  EXPECT_EQ(gtx["registers_source"], "estimated");  // nothing compiled for compute capability 6.1
  const auto text = run_cli({"schedule", "--rung", "blocktile-2d", "--a-pad", "2"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  const std::string says = compiled ? "ptxas's count of the nearest configuration this build compiled, adjusted, for "
                                      "compute capability 9.0)"
                                    : "(estimated: this build compiled no kernel of this rung for compute capability 9.0)";
  EXPECT_NE(text.out.find(says), std::string::npos) << text.out;
}

TEST(CliSchedule, BadInputIsAClearError) {
  struct Case {
    std::vector<std::string> args;
    int exit_code;
    std::string says;
  } cases[] = {
      {{"schedule", "--rung", "blocktile-2d", "--profile", "v100"}, 2, "--profile: unknown device 'v100'; known devices"},
      {{"schedule", "--rung", "blocktile-2d", "--profile", "/no/such/profile.json"}, 2, "cannot open device profile"},
      {{"schedule", "--rung", "blocktile-2d", "--order", "spiral"}, 2, "--order: unknown launch order 'spiral'"},
      {{"schedule", "--rung", "blocktile-2d", "--order", "groupm:0"}, 2, "--order: the group size"},
      {{"schedule", "--rung", "blocktile-2d", "--order", "groupm:-2"}, 2, "must be at least 1"},
      {{"schedule", "--rung", "blocktile-2d", "--order", "cutlass:3"}, 2, "power of two"},
      {{"schedule", "--rung", "blocktile-2d", "--m", "512", "--order", "groupm:5"}, 1,
       "group size 5 of groupm:5 is larger than the grid's 4 tile rows"},
      {{"schedule", "--rung", "blocktile-2d", "--n", "512", "--order", "cutlass:8"}, 1,
       "swizzle width 8 of cutlass:8 is larger than the grid's 4 tile columns"},
      {{"schedule", "--rung", "cp-async", "--bk", "32", "--stages", "4", "--profile", "gtx-1070"}, 1,
       "the device allows 49152"},
      {{"schedule", "--rung", "no-such-rung"}, 2, "unknown rung"},
      {{"schedule", "--rung", "blocktile-2d", "--m", "0"}, 2, "--m: '0' is out of range"},
      {{"schedule"}, 2, "--rung"},
  };
  for (const auto& c : cases) {
    const auto r = run_cli(c.args);
    std::string line;
    for (const auto& a : c.args) line += a + " ";
    EXPECT_EQ(r.exit_code, c.exit_code) << line << "\n" << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << line << "\n" << r.err;
  }
}

TEST(CliSim, PrintsOccupancyAndRooflineForTheChosenDevice) {
  const auto r = run_cli({"sim", "--rung", "vectorized", "--m", "1024", "--n", "1024", "--k", "1024", "--profile", "a100"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("== occupancy on the NVIDIA A100 SXM4 80GB =="), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("resident blocks per SM:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("== roofline"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(bottleneck)"), std::string::npos) << r.out;

  const auto j = run_cli({"sim", "--rung", "vectorized", "--m", "1024", "--n", "1024", "--k", "1024", "--json"});
  ASSERT_EQ(j.exit_code, 0) << j.err;
  const auto doc = nlohmann::json::parse(j.out);
  EXPECT_EQ(doc["device"]["id"], "h100-sxm");
  EXPECT_EQ(doc["order"], "row");
  EXPECT_TRUE(doc["occupancy"].contains("blocks_per_sm"));
  EXPECT_TRUE(doc["roofline"].contains("predicted_tflops"));
  EXPECT_FALSE(doc["l2"].contains("per_wave"));

  const auto bad = run_cli({"sim", "--rung", "vectorized", "--profile", "titan"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--profile: unknown device 'titan'"), std::string::npos) << bad.err;
  // --device is a CUDA device index wherever it is a flag (bench, tune, verify): here it is refused, and says so.
  const auto index = run_cli({"sim", "--rung", "vectorized", "--device", "a100"});
  EXPECT_EQ(index.exit_code, 2);
  EXPECT_NE(index.err.find("the GPU that sim and schedule model is --profile (--profile a100)"), std::string::npos)
      << index.err;
}

}  // namespace
}  // namespace gemmlab
