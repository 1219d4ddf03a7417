// gemmlab-cli access as a user meets it: counts for one warp instruction, JSON, and the exit codes of its errors
// (1: the instruction itself is invalid, e.g. misaligned; 2: the command line is wrong).
#include <gtest/gtest.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "run_process.hpp"

namespace gemmlab {
namespace {

test::ProcessResult cli(const std::vector<std::string>& args) { return test::run_process(GEMMLAB_CLI_PATH, args); }

// "0,4,8,...": lane l at base + l*stride, with '-' for the lanes in `inactive`.
std::string lane_list(std::uint64_t stride, std::uint64_t base = 0, std::uint32_t inactive = 0, int count = 32) {
  std::string out;
  for (int lane = 0; lane < count; ++lane) {
    if (lane) out += ",";
    const bool off = lane < 32 && ((inactive >> lane) & 1u);  // lanes past 32 (a wrong count) are active
    out += off ? std::string("-") : std::to_string(base + stride * static_cast<std::uint64_t>(lane));
  }
  return out;
}

nlohmann::json json_of(const test::ProcessResult& result) {
  EXPECT_EQ(result.exit_code, 0) << result.err;
  return nlohmann::json::parse(result.out);  // throws, failing the test, on invalid JSON
}

// Stride 128 bytes: every lane in bank 0, 32 distinct words -> 32 wavefronts, ideal 1, 31 conflicts.
TEST(CliAccess, SharedJsonCounts) {
  const auto json = json_of(cli({"access", "--op", "lds.32", "--lanes", lane_list(128), "--json"}));
  EXPECT_EQ(json["op"], "lds.32");
  EXPECT_EQ(json["active_lanes"], 32);
  EXPECT_EQ(json["shared"]["wavefronts"], 32);
  EXPECT_EQ(json["shared"]["ideal_wavefronts"], 1);
  EXPECT_EQ(json["shared"]["bank_conflicts"], 31);
  EXPECT_EQ(json["shared"]["max_way_per_bank"][0], 32);
  EXPECT_EQ(json["shared"]["wavefront_detail"].size(), 32u);
  EXPECT_FALSE(json.contains("global"));
}

// The ideal's label states the rule the number follows (one wavefront per phase with an active lane, rule I1), not
// "bytes / 128": sts.128 on lanes 0-3 of each quarter moves 256 bytes in 4 quarter phases -> ideal 4, no conflict;
// lds.128 on lanes 0, 4, 8, ... merges its (vacuous) pairs into 2 phases of 16 -> ideal 2.
TEST(CliAccess, IdealLabelSaysTheRuleItsNumberFollows) {
  const auto sts = cli({"access", "--op", "sts.128", "--stride", "16", "--mask", "0x0f0f0f0f"});
  ASSERT_EQ(sts.exit_code, 0) << sts.err;
  EXPECT_NE(sts.out.find("ideal           4    (one per phase with an active lane: sts.128 is served in 4 phases of "
                         "8 lanes)"),
            std::string::npos)
      << sts.out;
  EXPECT_EQ(sts.out.find("bytes / 128"), std::string::npos) << sts.out;
  const auto lds = json_of(cli({"access", "--op", "lds.128", "--stride", "16", "--mask", "0x11111111", "--json"}));
  EXPECT_EQ(lds["shared"]["ideal_wavefronts"], 2);
  EXPECT_NE(lds["shared"]["ideal_rule"].get<std::string>().find("served in 2 phases of 16 lanes (two phases merged"),
            std::string::npos)
      << lds["shared"]["ideal_rule"];
}

// A copy whose destination is contiguous (no conflict on the shared side: N-way 1 everywhere) but whose sources lie
// 128 bytes apart (all 8 lanes of a quarter on banks 0-3 of the source): 32 wavefronts, 28 conflicts, and the CLI
// says where they come from, with the source side's N-way row and ncu's own count (32 less, in each of the 4 phases,
// its 8 source lines / 4 = 2: 24).
TEST(CliAccess, CopyConflictsNameTheSourceSide) {
  const auto text = cli({"access", "--op", "cp.async.16", "--stride", "128", "--shared-stride", "16"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("bank conflicts  28"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("N-way per bank on the source side"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("  way   8  8  8  8  .  ."), std::string::npos) << text.out;
  std::string prose = text.out;  // the explanation is wrapped at 100 columns
  std::replace(prose.begin(), prose.end(), '\n', ' ');
  EXPECT_NE(prose.find("So the source side sets the count of 32 wavefronts here, though the destination's row shows "
                       "no conflict."),
            std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("whichever is more: 32 - 8 = 24"), std::string::npos) << text.out;

  const auto json = json_of(cli({"access", "--op", "cp.async.16", "--stride", "128", "--shared-stride", "16", "--json"}));
  EXPECT_EQ(json["shared"]["max_way_per_bank"][0], 1);
  EXPECT_EQ(json["shared"]["max_source_way_per_bank"][0], 8);
  EXPECT_EQ(json["shared"]["max_source_way_per_bank"][4], 0);
  // Plain shared instructions have no source side.
  EXPECT_FALSE(json_of(cli({"access", "--op", "lds.32", "--stride", "4", "--json"}))["shared"].contains(
      "max_source_way_per_bank"));
}

// Coalesced 32-bit global load 4 bytes off a sector boundary: bytes 4..131 -> sectors 0-4, lines 0-1, ideal 4.
TEST(CliAccess, GlobalJsonCounts) {
  const auto json = json_of(cli({"access", "--op", "ldg.32", "--lanes", lane_list(4, 4), "--json"}));
  const auto& g = json["global"];
  EXPECT_EQ(g["requests"], 1);
  EXPECT_EQ(g["sectors"], 5);
  EXPECT_EQ(g["lines"], 2);
  EXPECT_EQ(g["ideal_sectors"], 4);
  EXPECT_DOUBLE_EQ(g["efficiency"].get<double>(), 0.8);
  EXPECT_EQ(g["sector_list"], nlohmann::json({0, 1, 2, 3, 4}));
  EXPECT_EQ(g["lane_sector"][31], 4);  // byte 128
  EXPECT_FALSE(json.contains("shared"));
}

// '-' entries and --mask both switch lanes off: lanes 0-15 via the mask, lane 16 via '-'. Lanes 17-31 remain:
// 15 x 4 = 60 bytes at bytes 68..127 -> sectors 2 and 3; lane 0 reports null.
TEST(CliAccess, InactiveLanes) {
  const auto json = json_of(
      cli({"access", "--op", "ldg.32", "--lanes", lane_list(4, 0, 1u << 16), "--mask", "0xffff0000", "--json"}));
  EXPECT_EQ(json["active_lanes"], 15);
  EXPECT_EQ(json["active_mask"], "0xfffe0000");
  EXPECT_EQ(json["global"]["sectors"], 2);
  EXPECT_TRUE(json["global"]["lane_sector"][0].is_null());
}

// cp.async has both sides: global source coalesced (16 sectors), shared destination 128 bytes apart (32 wavefronts).
TEST(CliAccess, CpAsyncReportsBothSides) {
  const auto json = json_of(cli({"access", "--op", "cp.async.16", "--lanes", lane_list(16), "--shared-lanes",
                                 lane_list(128), "--json"}));
  EXPECT_EQ(json["global"]["sectors"], 16);
  EXPECT_EQ(json["shared"]["wavefronts"], 32);
  // --stride/--shared-stride say the same thing shorter.
  const auto short_form = json_of(
      cli({"access", "--op", "cp.async.16", "--stride", "16", "--shared-stride", "128", "--json"}));
  EXPECT_EQ(short_form["shared"], json["shared"]);
  EXPECT_EQ(short_form["global"], json["global"]);
}

// Rule G5: a warp's contiguous 512 bytes copied to a destination 16 bytes into a sector (a padded row) make the L2
// send each of the 16 source sectors twice; copied to an aligned destination, once.
TEST(CliAccess, APaddedCopySaysWhatTheL2SendsTwice) {
  const auto padded = cli({"access", "--op", "cp.async.cg.16", "--stride", "16", "--shared-stride", "16",
                           "--shared-base", "144"});
  ASSERT_EQ(padded.exit_code, 0) << padded.err;
  EXPECT_NE(padded.out.find("split sectors   16    (the L2 sends 32 sectors"), std::string::npos) << padded.out;
  const auto aligned = json_of(cli({"access", "--op", "cp.async.cg.16", "--stride", "16", "--shared-stride", "16",
                                    "--shared-base", "128", "--json"}));
  EXPECT_EQ(aligned["global"]["split_sectors"], 0);
  EXPECT_EQ(json_of(cli({"access", "--op", "cp.async.cg.16", "--stride", "16", "--shared-stride", "16",
                         "--shared-base", "144", "--json"}))["global"]["split_sectors"], 16);
}

TEST(CliAccess, TextShowsCountsWavefrontsAndBanks) {
  // Lanes 0-15 on word 0, lanes 16-31 on word 32: two wavefronts, bank 0 two-way.
  std::string halves;
  for (int lane = 0; lane < 32; ++lane) {
    if (lane) halves += ",";
    halves += lane < 16 ? "0" : "128";
  }
  const auto result = cli({"access", "--op", "lds.32", "--lanes", halves});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("wavefronts      2"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("bank conflicts  1"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("0  0-15->0"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("1  16-31->0"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("way   2  ."), std::string::npos) << result.out;
}

TEST(CliAccess, TextShowsEachLanesSector) {
  const auto result = cli({"access", "--op", "ldg.32", "--stride", "4", "--base", "4"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("sectors         5"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("0.80 (80%)"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("128-159  31"), std::string::npos) << result.out;  // sector 4 holds lane 31 alone
}

// Misaligned: the instruction would fault on the GPU. Exit 1, the model's sentence on stderr.
TEST(CliAccess, MisalignedAddressFails) {
  const auto result = cli({"access", "--op", "lds.64", "--lanes", lane_list(12)});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.err.find("lane 1: address 0xc is not 8-byte aligned; ld.shared.v2 needs 8-byte-aligned addresses"),
            std::string::npos)
      << result.err;
  // With --json the error is also valid JSON on stdout.
  const auto json_result = cli({"access", "--op", "lds.64", "--lanes", lane_list(12), "--json"});
  EXPECT_EQ(json_result.exit_code, 1);
  EXPECT_NE(nlohmann::json::parse(json_result.out)["error"].get<std::string>().find("not 8-byte aligned"),
            std::string::npos);
}

TEST(CliAccess, AllLanesInactiveFails) {
  const auto result = cli({"access", "--op", "lds.32", "--lanes", lane_list(4, 0, 0xffffffffu)});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.err.find("no lane is active"), std::string::npos) << result.err;
}

TEST(CliAccess, WrongLaneCountIsAUsageError) {
  const auto result = cli({"access", "--op", "lds.32", "--lanes", lane_list(4, 0, 0, 31)});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("got 31 entries, but a warp has 32 lanes"), std::string::npos) << result.err;
  const auto too_many = cli({"access", "--op", "lds.32", "--lanes", lane_list(4, 0, 0, 33)});
  EXPECT_EQ(too_many.exit_code, 2);
  EXPECT_NE(too_many.err.find("got 33 entries"), std::string::npos) << too_many.err;
}

TEST(CliAccess, OtherUsageErrors) {
  const auto bad_entry = cli({"access", "--op", "lds.32", "--lanes", std::string("x").append(lane_list(4).substr(1))});
  EXPECT_EQ(bad_entry.exit_code, 2);
  EXPECT_NE(bad_entry.err.find("lane 0: 'x' is not a byte offset"), std::string::npos) << bad_entry.err;

  const auto bad_op = cli({"access", "--op", "lds.256", "--stride", "4"});
  EXPECT_EQ(bad_op.exit_code, 2);
  EXPECT_NE(bad_op.err.find("unknown instruction 'lds.256'"), std::string::npos) << bad_op.err;

  const auto no_lanes = cli({"access", "--op", "lds.32"});
  EXPECT_EQ(no_lanes.exit_code, 2);
  EXPECT_NE(no_lanes.err.find("--lanes"), std::string::npos) << no_lanes.err;

  const auto cp_without_shared = cli({"access", "--op", "cp.async.16", "--stride", "16"});
  EXPECT_EQ(cp_without_shared.exit_code, 2);
  EXPECT_NE(cp_without_shared.err.find("--shared-lanes"), std::string::npos) << cp_without_shared.err;

  const auto both = cli({"access", "--op", "lds.32", "--stride", "4", "--lanes", lane_list(4)});
  EXPECT_EQ(both.exit_code, 2);

  const auto bad_mask = cli({"access", "--op", "lds.32", "--stride", "4", "--mask", "lanes"});
  EXPECT_EQ(bad_mask.exit_code, 2);
  EXPECT_NE(bad_mask.err.find("not a 32-bit lane mask"), std::string::npos) << bad_mask.err;

  // Every usage error is its sentence and a pointer to the help, never the whole help (its examples would push
  // the sentence off the screen).
  for (const auto* result : {&bad_entry, &bad_op, &no_lanes, &cp_without_shared, &both, &bad_mask}) {
    EXPECT_EQ(result->err.find("Examples:"), std::string::npos) << result->err;
    EXPECT_NE(result->err.find("access --help lists the options"), std::string::npos) << result->err;
  }
}

// CLI11 alone would wrap "--stride -4" to 2^64 - 4 and read "010" as octal 8; offsets are decimal or 0x-hex, and a
// stride that carries lane 31 past 2^64 is refused rather than wrapped to a small address.
TEST(CliAccess, StrideAndBaseAreOffsetsThatFit) {
  const auto negative = cli({"access", "--op", "lds.32", "--stride", "-4"});
  EXPECT_EQ(negative.exit_code, 2);
  EXPECT_NE(negative.err.find("--stride: '-4' is not a byte offset"), std::string::npos) << negative.err;

  const auto negative_base = cli({"access", "--op", "cp.async.16", "--stride", "16", "--shared-stride", "16",
                                  "--shared-base", "-16"});
  EXPECT_EQ(negative_base.exit_code, 2);
  EXPECT_NE(negative_base.err.find("--shared-base: '-16' is not a byte offset"), std::string::npos)
      << negative_base.err;

  const auto wraps = cli({"access", "--op", "ldg.32", "--stride", "4", "--base", "18446744073709551612"});
  EXPECT_EQ(wraps.exit_code, 2);
  EXPECT_NE(wraps.err.find("does not fit in 64 bits"), std::string::npos) << wraps.err;

  const auto huge_stride = cli({"access", "--op", "lds.32", "--stride", "0x1000000000000000"});
  EXPECT_EQ(huge_stride.exit_code, 2);
  EXPECT_NE(huge_stride.err.find("does not fit in 64 bits"), std::string::npos) << huge_stride.err;

  const auto leading_zero = json_of(cli({"access", "--op", "ldg.32", "--stride", "012", "--json"}));
  EXPECT_EQ(leading_zero["addresses"][1], 12) << "a leading zero is not octal";
  const auto hex = json_of(cli({"access", "--op", "ldg.32", "--stride", "0x10", "--json"}));
  EXPECT_EQ(hex["addresses"][1], 16);
}

TEST(CliAccess, HelpListsTheInstructions) {
  const auto result = cli({"access", "--help"});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_NE(result.out.find("ldsm.x4.trans"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("cp.async.16"), std::string::npos) << result.out;
}

}  // namespace
// An offset past a block's shared window is refused, not modelled (issue 32, item 10).
TEST(CliAccess, SharedOffsetsPastTheWindowAreRefused) {
  const auto r = test::run_cli({"access", "--op", "lds.32", "--stride", "0", "--base", "4294967296"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("past the 232448 bytes"), std::string::npos) << r.err;
}

}  // namespace gemmlab
