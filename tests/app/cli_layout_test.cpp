// gemmlab-cli layout, as a user runs it: the answer, the JSON, the fix, and a sentence (never a crash) for bad input.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "run_process.hpp"

namespace gemmlab {
namespace {

using test::run_cli;

TEST(CliLayout, AnswersInNcusTerms) {
  const auto r = run_cli({"layout", "--layout", "(64,64):(64,1)", "--element", "fp16", "--op", "ldmatrix.x4"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("512 wavefronts, ideal 64, 448 bank conflicts"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum = 448"),
            std::string::npos);
  EXPECT_NE(r.out.find("bank 0 is asked for 8 words by lanes 0-7"), std::string::npos) << r.out;
}

TEST(CliLayout, JsonCarriesEveryInstructionAndTheNcuCounters) {
  const auto r = run_cli({"layout", "--preset", "swizzle-333", "--json", "-"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["instructions"].size(), 16u);
  EXPECT_EQ(j["totals"]["bank_conflicts"], 0);
  EXPECT_EQ(j["ncu"]["smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum"], 64);
  EXPECT_EQ(j["instructions"][0]["shared_addresses"].size(), 32u);
  EXPECT_EQ(j["cute"]["expression"], "composition(Swizzle<3,3,3>{}, Layout<Shape<_64,_64>, Stride<_64,_1>>{})");
}

TEST(CliLayout, SuggestAndCute) {
  const auto r = run_cli({"layout", "--preset", "rows-of-64-halves", "--suggest", "--cute", "--show", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("ok  TMA 128-byte swizzle (Swizzle<3,3,3>): 0 + 0 conflicts, 0 extra bytes"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("Triton:    vec=1, perPhase=1, maxPhase=1"), std::string::npos) << r.out;
}

TEST(CliLayout, FlagsBesidePresetAndRungReplaceTheirValues) {
  const auto at = run_cli({"layout", "--preset", "rows-of-64-halves", "--at", "16,0", "--json", "-"});
  ASSERT_EQ(at.exit_code, 0) << at.err;
  EXPECT_EQ(nlohmann::json::parse(at.out)["instructions"].size(), 1u);
  const auto rung = run_cli({"layout", "--rung", "mma-padded", "--json", "-"});
  ASSERT_EQ(rung.exit_code, 0) << rung.err;
  EXPECT_EQ(nlohmann::json::parse(rung.out)["totals"]["bank_conflicts"], 0);
}

TEST(CliLayout, BadInputIsASentenceWithItsExitCode) {
  struct Case {
    std::vector<std::string> args;
    int exit_code;
    std::string says;
  };
  const Case cases[] = {
      {{"layout", "--layout", "(64,64):(64)"}, 1, "different ranks"},
      {{"layout", "--layout", "(4,4):(1,1)"}, 1, "at the same offset"},
      {{"layout", "--layout", "(64,64):(72,1)", "--swizzle", "3,3,3"}, 1, "not a bijection"},
      {{"layout", "--layout", "(64,64):(64,1)", "--swizzle", "3,3,12"}, 1, "needs more bits"},
      {{"layout", "--layout", "(64,64):(64,1)", "--at", "60,0"}, 1, "wider than the tile"},
      {{"layout", "--layout", "(64,64):(65,1)"}, 1, "misaligned"},
      {{"layout", "--layout", "(64,64):(64,1)", "--element", "fp32", "--op", "stmatrix.x4", "--partition", "c"},
       1,
       "stores 16-bit elements"},
      {{"layout", "--layout", "(512,512):(512,1)"}, 1, "227 KiB"},
      {{"layout", "--layout", "(64,64):(64,1)", "--op", "lds.256"}, 1, "unknown access"},
      {{"layout", "--preset", "nope"}, 2, "no preset 'nope'"},
      {{"layout", "--map", "colours"}, 2, "expected offsets or banks"},
      {{"layout", "--no-such-flag"}, 2, "--no-such-flag"},
  };
  for (const auto& c : cases) {
    const auto r = run_cli(c.args);
    EXPECT_EQ(r.exit_code, c.exit_code) << c.args[2] << "\n" << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << c.args[2] << ": " << r.err;
  }
}

}  // namespace
}  // namespace gemmlab
