// gemmlab-cli as a user meets it: the rung list, usage errors, and the device query with or without a GPU.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "gemmlab/rungs.hpp"
#include "run_process.hpp"

namespace gemmlab {
namespace {

using test::run_cli;

TEST(CliList, JsonHasEveryRungInOrder) {
  const auto result = run_cli({"list", "--json"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto json = nlohmann::json::parse(result.out);  // throws, failing the test, on invalid JSON
  ASSERT_TRUE(json.is_array());
  ASSERT_EQ(json.size(), rungs().size());
  for (std::size_t i = 0; i < json.size(); ++i) {
    EXPECT_EQ(json[i]["number"], rungs()[i].number);
    EXPECT_EQ(json[i]["slug"], rungs()[i].slug);
    EXPECT_EQ(json[i]["title"], rungs()[i].title);
    EXPECT_EQ(json[i]["precision"], to_string(rungs()[i].precision));
    EXPECT_EQ(json[i]["change"], rungs()[i].change);
  }
}

TEST(CliList, TableShowsEverySlug) {
  const auto result = run_cli({"list"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  for (const auto& rung : rungs()) EXPECT_NE(result.out.find(rung.slug), std::string::npos) << rung.slug;
}

TEST(CliUsage, UnknownSubcommandIsAUsageError) {
  const auto result = run_cli({"frobnicate"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("frobnicate"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("Subcommands:"), std::string::npos) << "no usage shown:\n" << result.err;
}

TEST(CliUsage, NoSubcommandIsAUsageError) {
  const auto result = run_cli({});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("Subcommands:"), std::string::npos) << result.err;
}

// A bad flag gets its sentence and a pointer to the subcommand's help, not the whole help: that would push the
// sentence off the screen.
TEST(CliUsage, BadFlagPointsToTheSubcommandsHelp) {
  const auto result = run_cli({"list", "--no-such-flag"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("--no-such-flag"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("(gemmlab-cli list --help lists the options)"), std::string::npos) << result.err;
  EXPECT_EQ(result.err.find("OPTIONS:"), std::string::npos) << "the whole help was printed:\n" << result.err;
  EXPECT_EQ(result.err.find("Options:"), std::string::npos) << "the whole help was printed:\n" << result.err;
}

TEST(CliUsage, HelpSucceeds) {
  const auto result = run_cli({"--help"});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_NE(result.out.find("list"), std::string::npos);
  EXPECT_NE(result.out.find("devices"), std::string::npos);
}

TEST(CliDevices, ShowsADeviceOrSaysThereIsNone) {
  const auto result = run_cli({"devices"});
  if (result.exit_code == 0) {
    EXPECT_NE(result.out.find("SMs"), std::string::npos) << result.out;
  } else {
    EXPECT_EQ(result.exit_code, 1);
    const bool explained = result.err.find("no CUDA device") != std::string::npos ||
                           result.err.find("no CUDA toolkit in this build") != std::string::npos;
    EXPECT_TRUE(explained) << result.err;
  }
}

TEST(CliDevices, JsonIsValidEitherWay) {
  const auto result = run_cli({"devices", "--json"});
  const auto json = nlohmann::json::parse(result.out);
  EXPECT_TRUE(json.contains("devices") || json.contains("error")) << result.out;
}

}  // namespace
}  // namespace gemmlab
