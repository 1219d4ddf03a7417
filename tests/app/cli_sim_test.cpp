// gemmlab-cli sim as a user meets it: counters as a table or JSON, and clear errors for bad input.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "gemmlab/gpu/device.hpp"
#include "gemmlab/gpu/instances.hpp"
#include "gemmlab/sim/rung_model.hpp"
#include "run_process.hpp"

namespace gemmlab {
namespace {

using test::run_cli;

TEST(CliSim, JsonCountersOfBlockTile2D) {
  const auto r = run_cli({"sim", "--rung", "blocktile-2d", "--m", "256", "--n", "256", "--k", "64", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["valid"], true);
  EXPECT_EQ(j["launch"]["blocks"], 4);
  EXPECT_EQ(j["launch"]["threads_per_block"], 256);
  EXPECT_EQ(j["launch"]["ksteps"], 8);
  EXPECT_EQ(j["config"]["bm"], 128);
  EXPECT_EQ(j["kernel"]["fma"], 256 * 256 * 64);
  // Per k-step each of 256 threads loads 4 floats of A and 4 of B: 8 warps x 8 ldg.32 = 64 per block.
  EXPECT_EQ(j["first_block"]["per_kstep"][0]["ops"]["ldg.32"]["instructions"], 64);
  EXPECT_EQ(j["kernel"]["ops"]["ldg.32"]["instructions"], 64 * 8 * 4);
}

TEST(CliSim, TheTimeModelTakesTheClockItIsGiven) {
  const std::vector<std::string> args = {"sim", "--rung", "mma-swizzled", "--m", "1024", "--n", "1024", "--k", "1024",
                                         "--json"};
  const auto own = run_cli(args);
  auto slower = args;
  slower.insert(slower.end(), {"--clock-mhz", "1200"});
  const auto held = run_cli(slower);
  ASSERT_EQ(own.exit_code, 0) << own.err;
  ASSERT_EQ(held.exit_code, 0) << held.err;
  const auto a = nlohmann::json::parse(own.out)["time_model"], b = nlohmann::json::parse(held.out)["time_model"];
  EXPECT_EQ(b["clock_mhz"].get<double>(), 1200.0);
  EXPECT_GT(a["clock_mhz"].get<double>(), 1200.0);
  EXPECT_GT(b["predicted_seconds"].get<double>(), a["predicted_seconds"].get<double>());  // its SM terms take longer
  EXPECT_EQ(a["load_waits_per_kstep"].get<double>(), 0.0);  // shared-memory stages set its chain, not load waits
  for (const char* bad : {"0", "99999", "1.5e3", "-1"}) {
    auto wrong = args;
    wrong.insert(wrong.end(), {"--clock-mhz", bad});
    const auto r = run_cli(wrong);
    EXPECT_EQ(r.exit_code, 2) << bad;
    EXPECT_NE(r.err.find("--clock-mhz"), std::string::npos) << r.err;
  }
}

TEST(CliSim, TheJsonGivesTheCompiledLoopItsLoadWaitsComeFrom) {
  const auto r = run_cli({"sim", "--rung", "naive-coalesced", "--m", "512", "--n", "512", "--k", "512", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto t = nlohmann::json::parse(r.out)["time_model"];
  const auto loop = t["main_loop"];
  ASSERT_GE(loop["ksteps_per_pass"].get<int>(), 1);
  if (t["instructions"]["source"] == "description") {  // a build without the kernels' SASS: no loop, no waits
    EXPECT_EQ(loop["load_waits"].get<int>(), 0);
    return;
  }
  ASSERT_GT(loop["load_waits"].get<int>(), 0);
  EXPECT_DOUBLE_EQ(t["load_waits_per_kstep"].get<double>(),
                   loop["load_waits"].get<double>() / loop["ksteps_per_pass"].get<double>());
}

// The time model's figures laid out copy by copy (sim::predicted_pipeline): a warp-specialised rung's producer and its
// ring, and medians a trace's summary can be set beside.
TEST(CliSim, TheJsonLaysTheModelsFiguresOutCopyByCopy) {
  const auto r = run_cli(
      {"sim", "--rung", "tma-wgmma-specialized", "--m", "4096", "--n", "4096", "--k", "4096", "--profile", "h200", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  const auto p = j["pipeline"];
  ASSERT_TRUE(p["available"].get<bool>()) << p.dump();
  EXPECT_TRUE(p["producer"].get<bool>());
  EXPECT_EQ(p["stages"].get<int>(), j["config"]["stages"].get<int>());
  EXPECT_GT(p["median_kstep_ns"].get<double>(), 0);
  EXPECT_GE(p["median_copy_to_use_ns"].get<double>(), p["median_consumer_wait_ns"].get<double>());
  // The chain's figures: with the H200's ring of TMA copies, the ring's k-step, at least what the k-step waits.
  const auto chain = j["time_model"]["chain"];
  EXPECT_GT(chain["block_kstep_cycles"].get<double>(), 0);
  EXPECT_GT(chain["ring_kstep_cycles"].get<double>(), 0);
  EXPECT_GE(chain["exposed_wait_cycles"].get<double>(),
            chain["ring_kstep_cycles"].get<double>() - chain["block_kstep_cycles"].get<double>() - 1e-9);
  // A profile without measured timing lays nothing out, and says why.
  const auto untimed =
      run_cli({"sim", "--rung", "blocktile-2d", "--m", "512", "--n", "512", "--k", "512", "--profile", "a100", "--json"});
  ASSERT_EQ(untimed.exit_code, 0) << untimed.err;
  const auto none = nlohmann::json::parse(untimed.out)["pipeline"];
  EXPECT_FALSE(none["available"].get<bool>());
  EXPECT_FALSE(none["note"].get<std::string>().empty());
}

TEST(CliSim, TableNamesTheLaunchAndTheCounters) {
  const auto r = run_cli({"sim", "--rung", "smem-tiling", "--m", "64", "--n", "64", "--k", "64", "--conflicting", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("conflicting=1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("lds.32"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("4 blocks of 1024 threads"), std::string::npos) << r.out;
}

// sim's occupancy uses the build's register count where the configuration is compiled, the estimate elsewhere.
TEST(CliSim, OccupancySaysWhereTheRegistersCameFrom) {
  const auto recorded = gpu::compiled_registers(RungId::Vectorized, sim::rung_model(RungId::Vectorized).defaults, "9.0");
  const auto compiled = run_cli({"sim", "--rung", "vectorized", "--m", "256", "--n", "256", "--k", "64"});
  ASSERT_EQ(compiled.exit_code, 0) << compiled.err;
  const std::string says = recorded ? "registers per thread: " + std::to_string(*recorded) + " (measured"
                                    : std::string("(estimated");
  EXPECT_NE(compiled.out.find(says), std::string::npos) << compiled.out;
  if (gpu::built_with_cuda()) {
    EXPECT_TRUE(recorded) << "a CUDA build for sm_90 records every instance's registers";
  }

  const auto other = run_cli({"sim", "--rung", "vectorized", "--m", "256", "--n", "256", "--k", "64", "--a-pad", "8",
                              "--json"});
  ASSERT_EQ(other.exit_code, 0) << other.err;
  // Not compiled: estimated, from the nearest compiled configuration where this build compiled the rung.
  EXPECT_EQ(nlohmann::json::parse(other.out)["occupancy"]["registers_source"],
            recorded ? "estimated from the nearest compiled configuration" : "estimated");
}

// --list-phase: one warp's instructions in a phase, what each moves and its cost. smem-tiling with --conflicting 1
// keeps its A tile so that a column of it lies in one bank: warp 0's first shared read in k-step 0 (phase 1; phase
// 0 is the tile loads) is A's column 0, 32 rows -> 32 wavefronts where 1 would do; the next reads B.
TEST(CliSim, ListsAWarpsInstructionsInAPhase) {
  const auto r = run_cli({"sim", "--rung", "smem-tiling", "--conflicting", "1", "--m", "256", "--n", "256", "--k",
                          "256", "--list-phase", "1", "--warp", "0", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["phase"], 1);
  EXPECT_EQ(j["step"], "k-step 0 of 0-7");
  const auto& first = j["instructions"][0];
  EXPECT_EQ(first["op"], "lds.32");
  EXPECT_EQ(first["moves"], "A rows 0-31, column 0");
  EXPECT_EQ(first["shared"]["wavefronts"], 32);
  EXPECT_EQ(first["shared"]["ideal_wavefronts"], 1);
  EXPECT_EQ(j["instructions"][1]["moves"].get<std::string>().rfind("B ", 0), 0u) << j["instructions"][1];

  const auto text = run_cli({"sim", "--rung", "smem-tiling", "--conflicting", "1", "--m", "256", "--n", "256", "--k",
                             "256", "--list-phase", "1"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("phase 1 of 0-16 (k-step 0 of 0-7, then a barrier): warp 0 issues 64 memory instructions"),
            std::string::npos)
      << text.out;

  // Past the end: refused with the range, exit 2; --warp alone belongs to --list-phase.
  const auto phase = run_cli({"sim", "--rung", "smem-tiling", "--m", "256", "--n", "256", "--k", "256",
                              "--list-phase", "17"});
  EXPECT_EQ(phase.exit_code, 2);
  EXPECT_NE(phase.err.find("phase 17 does not exist: the block has phases 0-16 (indices count from 0)"),
            std::string::npos)
      << phase.err;
  const auto warp = run_cli({"sim", "--rung", "smem-tiling", "--m", "256", "--n", "256", "--k", "256",
                             "--list-phase", "1", "--warp", "32"});
  EXPECT_EQ(warp.exit_code, 2);
  EXPECT_NE(warp.err.find("warp 32 does not exist: the block has warps 0-31"), std::string::npos) << warp.err;
  EXPECT_EQ(run_cli({"sim", "--rung", "smem-tiling", "--warp", "1"}).exit_code, 2);
}

// A rung by its ladder number, as the rung pages and `bench --rungs` name it.
TEST(CliSim, RungByLadderNumber) {
  const auto r = run_cli({"sim", "--rung", "9", "--m", "256", "--n", "256", "--k", "256", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["rung"], "warptile");
}

TEST(CliSim, InvalidConfigurationPrintsTheValidateSentence) {
  const auto r = run_cli({"sim", "--rung", "blocktile-2d", "--tm", "7"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("not a multiple of tm=7"), std::string::npos) << r.err;
}

// CLI11 reads integers with strtol's base 0: "010" would be 8 and "08" an error. Sizes and knobs are decimal.
TEST(CliSim, LeadingZerosAreDecimal) {
  const auto r = run_cli({"sim", "--rung", "smem-tiling", "--m", "010", "--n", "064", "--k", "64", "--bk", "032",
                          "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto json = nlohmann::json::parse(r.out);
  EXPECT_EQ(json["problem"]["m"], 10) << r.out;
  EXPECT_EQ(json["problem"]["n"], 64) << r.out;
}

TEST(CliSim, BadInputIsAnErrorNeverACrash) {
  struct Case {
    std::vector<std::string> args;
    int exit_code;
    std::string says;
  } cases[] = {
      // Unknown names on the command line are usage errors (2), as docs/architecture.md says.
      {{"sim", "--rung", "no-such-rung"}, 2, "unknown rung 'no-such-rung' (give a slug or a ladder number"},
      {{"sim", "--rung", "0"}, 2, "unknown rung '0'"},
      // Sizes and knobs no rung could take are refused by their flag, as usage errors.
      {{"sim", "--rung", "naive-coalesced", "--m", "0"}, 2, "--m: '0' is out of range: give a whole number from 1 to 1048576"},
      {{"sim", "--rung", "naive-coalesced", "--k", "-5"}, 2, "--k: '-5' is out of range"},
      {{"sim", "--rung", "naive-coalesced", "--n", "99999999999"}, 2, "--n"},
      {{"sim", "--rung", "naive-coalesced", "--m", "2000000"}, 2, "--m: '2000000' is out of range"},
      {{"sim", "--rung", "blocktile-2d", "--bm", "0"}, 2, "--bm: '0' is out of range: give a whole number from 1 to 512"},
      {{"sim", "--rung", "cp-async", "--stages", "100"}, 2, "--stages: '100' is out of range"},
      {{"sim", "--rung", ""}, 2, "--rung: is empty"},
      // A grid of more blocks than a launch can have is refused before any work on it.
      {{"sim", "--rung", "naive-coalesced", "--bm", "1", "--bn", "1", "--m", "65536", "--n", "65536", "--k", "1"}, 1,
       "needs 4294967296 blocks"},
      {{"sim", "--rung", "naive-coalesced", "--stages", "2"}, 2, "no knob 'stages'"},
      {{"sim", "--rung", "blocktile-2d", "--m", "64", "--n", "64", "--k", "64", "--kstep", "8"}, 2,
       "--kstep: k-step 8 does not exist: the kernel has k-steps 0-7 (indices count from 0)"},
      {{"sim", "--rung", "blocktile-2d", "--order", "spiral"}, 2, "--order: unknown launch order 'spiral'"},
      {{"sim"}, 2, "--rung"},
      {{"sim", "--rung", "blocktile-2d", "--bm", "abc"}, 2, "--bm: 'abc' is not a whole number"},
      {{"sim", "--rung", "naive-coalesced", "--m", "3000000000"}, 2, "from 1 to 1048576"},
      {{"sim", "--rung", "blocktile-2d", "--m", "64", "--n", "64", "--k", "64", "--kstep", "-5"}, 2,
       "--kstep: '-5' is out of range: give a whole number 0 or more"},
      {{"sim", "--rung", "naive-coalesced", "--alpha", "nan"}, 2, "--alpha: 'nan' is not a finite number"},
      {{"sim", "--rung", "naive-coalesced", "--beta", "inf"}, 2, "--beta: 'inf' is not a finite number"},
      {{"sim", "--rung", "naive-coalesced", "--alpha", "1.5x"}, 2, "--alpha: '1.5x' is not a finite number"},
      // Checked as the float the value is stored in.
      {{"sim", "--rung", "naive-coalesced", "--alpha", "1e39"}, 2, "--alpha: '1e39' is out of range for a float"},
      {{"sim", "--rung", "naive-coalesced", "--beta", "1e-46"}, 2, "--beta: '1e-46' is out of range for a float"},
  };
  for (const auto& c : cases) {
    const auto r = run_cli(c.args);
    std::string line;
    for (const auto& a : c.args) line += a + " ";
    EXPECT_EQ(r.exit_code, c.exit_code) << line << "\n" << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << line << "\n" << r.err;
  }
}

}  // namespace
}  // namespace gemmlab
