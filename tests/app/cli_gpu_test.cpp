// gemmlab-cli verify and bench where they cannot run, and their usage errors. A device index that does not exist
// fails the same way on every machine (no toolkit, no driver, or no such device), so these run everywhere.
#include <gtest/gtest.h>

#include <filesystem>

#include "run_process.hpp"

namespace gemmlab {
namespace {

using test::run_cli;

void expect_device_error(const test::ProcessResult& r) {
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const bool explained = r.err.find("no CUDA toolkit in this build") != std::string::npos ||
                         r.err.find("no CUDA device") != std::string::npos;
  EXPECT_TRUE(explained) << r.err;
}

TEST(CliVerify, NoSuchDeviceIsAClearFailure) { expect_device_error(run_cli({"verify", "--device", "99"})); }

TEST(CliBench, NoSuchDeviceIsAClearFailureAndWritesNoReport) {
  const auto path = std::filesystem::temp_directory_path() / "gemmlab_cli_bench_missing.json";
  std::filesystem::remove(path);
  const auto r = run_cli({"bench", "--device", "99", "--sizes", "64", "--json", path.string()});
  expect_device_error(r);
  EXPECT_FALSE(std::filesystem::exists(path));
  EXPECT_EQ(r.err.find('\r'), std::string::npos) << "a progress line in --json mode";
}

// A report path that cannot be written is found before the run (which takes minutes on a GPU), not after it.
TEST(CliBench, AnUnwritableReportPathFailsBeforeTheRun) {
  const auto missing_folder = std::filesystem::temp_directory_path() / "gemmlab_no_such_folder" / "report.json";
  const auto r = run_cli({"bench", "--sizes", "64", "--json", missing_folder.string()});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("--json: cannot write the report to"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("the folder '" + missing_folder.parent_path().string() + "' does not exist"), std::string::npos)
      << r.err;
  const auto folder = run_cli({"bench", "--sizes", "64", "--csv", std::filesystem::temp_directory_path().string()});
  EXPECT_EQ(folder.exit_code, 1) << folder.err;
  EXPECT_NE(folder.err.find("--csv: cannot write the report to"), std::string::npos) << folder.err;
  EXPECT_NE(folder.err.find("is a directory"), std::string::npos) << folder.err;
}

TEST(CliVerify, UsageErrorsNameTheBadValue) {
  const struct {
    std::vector<std::string> args;
    std::string named;
  } cases[] = {{{"verify", "--sizes", "0"}, "'0'"},
               {{"verify", "--sizes", "12x7"}, "'12x7'"},
               {{"verify", "--rungs", "99"}, "'99'"},
               {{"verify", "--rungs", "no-such-rung"}, "'no-such-rung'"},
               {{"bench", "--order", "zigzag"}, "'zigzag'"},
               {{"bench", "--order", "cutlass:9"}, "'cutlass:9'"},
               {{"bench", "--runs", "0"}, "--runs"},
               {{"bench", "--device", "-1"}, "--device: '-1' is out of range"},
               {{"verify", "--sizes", ""}, "--sizes: is empty"},
               {{"bench", "--rungs", ""}, "--rungs: is empty"},
               // A list that ends in a comma names the empty item, as --sizes does.
               {{"verify", "--rungs", "1,"}, "unknown rung ''"},
               {{"verify", "--sizes", "64,"}, "''"},
               {{"verify", "--inputs", "fp32,"}, "'' is not an input type"},
               // The seed is read as every number flag is: no sign, no octal, not empty.
               {{"verify", "--seed", "-1"}, "--seed: '-1' is not a seed"},
               {{"verify", "--seed", ""}, "--seed: '' is not a seed"},
               {{"bench", "--json", ""}, "--json: is empty"},
               {{"bench", "--hold", "-1"}, "--hold: '-1' is not a number of seconds from 0 to 600"},
               {{"bench", "--hold", "nan"}, "--hold: 'nan' is not a number of seconds"}};
  for (const auto& c : cases) {
    const auto r = run_cli(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args.back() << ": " << r.err;
    EXPECT_NE(r.err.find(c.named), std::string::npos) << r.err;
  }
}

// gemmlab-cli trace: its file is required and checked before the run, its counts are bounded, and without the device
// it says so and writes nothing.
TEST(CliTrace, UsageErrorsAndNoSuchDeviceWriteNoTrace) {
  const auto path = std::filesystem::temp_directory_path() / "gemmlab_cli_trace_missing.json";
  std::filesystem::remove(path);
  const auto no_out = run_cli({"trace", "--rung", "tma-wgmma-specialized"});
  EXPECT_EQ(no_out.exit_code, 2);
  EXPECT_NE(no_out.err.find("--out is required"), std::string::npos) << no_out.err;
  const auto zero = run_cli({"trace", "--rung", "18", "--blocks", "0", "--out", path.string()});
  EXPECT_EQ(zero.exit_code, 2) << zero.err;
  const auto folder = run_cli({"trace", "--rung", "18", "--out", std::filesystem::temp_directory_path().string()});
  EXPECT_EQ(folder.exit_code, 2);
  EXPECT_NE(folder.err.find("--out"), std::string::npos) << folder.err;
  const auto knob = run_cli({"trace", "--rung", "18", "--tm", "4", "--out", path.string()});
  EXPECT_EQ(knob.exit_code, 2) << knob.err;
  const auto profile = run_cli({"trace", "--rung", "18", "--profile", "h999", "--out", path.string()});
  EXPECT_EQ(profile.exit_code, 2);
  EXPECT_NE(profile.err.find("--profile"), std::string::npos) << profile.err;
  expect_device_error(run_cli({"trace", "--rung", "18", "--device", "99", "--out", path.string()}));
  EXPECT_FALSE(std::filesystem::exists(path));
}

}  // namespace
}  // namespace gemmlab
