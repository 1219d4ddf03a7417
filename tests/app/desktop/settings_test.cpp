// The app's settings file: what survives a round trip, and what a damaged file costs (only itself, never a crash).
#include "model/settings.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <unistd.h>

namespace gemmlab::desktop {
namespace {

std::filesystem::path temp_file(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("gemmlab-settings-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir / name;
}

TEST(Settings, RoundTripKeepsEveryField) {
  Settings s;
  s.rung = "vectorized";
  s.knobs["vectorized"]["a_pad"] = 4;
  s.knobs["smem-tiling"]["conflicting"] = 1;
  s.m = 512, s.n = 256, s.k = 128;
  s.beta = 0.5f;
  s.panel = "banks";
  s.block_row = 2, s.block_col = 3;
  s.play_speed = 12.5;
  s.launch_orders[0] = {"cutlass", 4};
  s.launch_orders[1] = {"col", 16};
  s.grid_colouring = "launch";
  const LoadedSettings back = parse_settings(settings_to_json(s), "test");
  EXPECT_TRUE(back.messages.empty());
  EXPECT_EQ(back.settings.rung, "vectorized");
  EXPECT_EQ(back.settings.knobs.at("vectorized").at("a_pad"), 4);
  EXPECT_EQ(back.settings.knobs.at("smem-tiling").at("conflicting"), 1);
  EXPECT_EQ(back.settings.m, 512);
  EXPECT_EQ(back.settings.n, 256);
  EXPECT_EQ(back.settings.k, 128);
  EXPECT_FLOAT_EQ(back.settings.beta, 0.5f);
  EXPECT_EQ(back.settings.panel, "banks");
  EXPECT_EQ(back.settings.block_row, 2);
  EXPECT_EQ(back.settings.block_col, 3);
  EXPECT_DOUBLE_EQ(back.settings.play_speed, 12.5);
  EXPECT_EQ(back.settings.launch_orders[0].kind, "cutlass");
  EXPECT_EQ(back.settings.launch_orders[0].group_size, 4);
  EXPECT_EQ(back.settings.launch_orders[1].kind, "col");
  EXPECT_EQ(back.settings.launch_orders[1].group_size, 16);
  EXPECT_EQ(back.settings.grid_colouring, "launch");
}

TEST(Settings, BadLaunchOrdersCostOnlyThemselves) {
  const LoadedSettings list = parse_settings(R"({"launch_orders": "row"})", "test");
  ASSERT_EQ(list.messages.size(), 1u);
  EXPECT_NE(list.messages[0].find("launch_orders"), std::string::npos);
  EXPECT_EQ(list.settings.launch_orders[1].kind, "groupm");
  const LoadedSettings entry =
      parse_settings(R"({"launch_orders": [{"kind": "col", "group_size": "big"}, 7]})", "test");
  EXPECT_EQ(entry.messages.size(), 2u);
  EXPECT_EQ(entry.settings.launch_orders[0].kind, "col");
  EXPECT_EQ(entry.settings.launch_orders[0].group_size, 8);
  EXPECT_EQ(entry.settings.launch_orders[1].kind, "groupm");
}

TEST(Settings, MalformedJsonGivesDefaultsAndOneMessage) {
  const LoadedSettings loaded = parse_settings("{\"rung\": \"vectorized\", ", "broken.json");
  ASSERT_EQ(loaded.messages.size(), 1u);
  EXPECT_NE(loaded.messages[0].find("broken.json"), std::string::npos);
  EXPECT_NE(loaded.messages[0].find("ignored"), std::string::npos);
  EXPECT_EQ(loaded.settings.rung, Settings{}.rung);
}

TEST(Settings, NotAnObjectIsIgnored) {
  const LoadedSettings loaded = parse_settings("[1, 2, 3]", "array.json");
  ASSERT_EQ(loaded.messages.size(), 1u);
  EXPECT_NE(loaded.messages[0].find("not an object of settings"), std::string::npos) << loaded.messages[0];
  EXPECT_EQ(loaded.settings.m, Settings{}.m);
}

TEST(Settings, AFolderIsNamedAsOne) {
  const auto path = temp_file("a-folder.json");
  std::filesystem::create_directories(path);
  const LoadedSettings loaded = load_settings(path);
  ASSERT_EQ(loaded.messages.size(), 1u);
  EXPECT_NE(loaded.messages[0].find("is a folder"), std::string::npos) << loaded.messages[0];
  EXPECT_EQ(loaded.settings.rung, Settings{}.rung);
}

TEST(Settings, WrongTypesCostOnlyThemselves) {
  const LoadedSettings loaded = parse_settings(R"({"version": 1, "rung": 5, "problem": {"m": "big", "n": 64},
      "knobs": {"vectorized": {"bm": "huge", "a_pad": 4}}, "play_speed": -3})", "typed.json");
  EXPECT_EQ(loaded.messages.size(), 4u);  // rung, m, bm, play_speed
  EXPECT_EQ(loaded.settings.rung, Settings{}.rung);
  EXPECT_EQ(loaded.settings.m, Settings{}.m);
  EXPECT_EQ(loaded.settings.n, 64);
  EXPECT_EQ(loaded.settings.knobs.at("vectorized").at("a_pad"), 4);
  EXPECT_EQ(loaded.settings.knobs.at("vectorized").count("bm"), 0u);
  EXPECT_DOUBLE_EQ(loaded.settings.play_speed, Settings{}.play_speed);
}

TEST(Settings, OtherVersionIsIgnored) {
  const LoadedSettings loaded = parse_settings(R"({"version": 99, "rung": "vectorized"})", "future.json");
  ASSERT_EQ(loaded.messages.size(), 1u);
  EXPECT_NE(loaded.messages[0].find("99"), std::string::npos);
  EXPECT_EQ(loaded.settings.rung, Settings{}.rung);
}

TEST(Settings, MissingFileIsQuietDefaults) {
  const LoadedSettings loaded = load_settings(temp_file("does-not-exist.json"));
  EXPECT_TRUE(loaded.messages.empty());
  EXPECT_EQ(loaded.settings.rung, Settings{}.rung);
}

TEST(Settings, SaveThenLoad) {
  const auto path = temp_file("saved.json");
  Settings s;
  s.rung = "cp-async";
  s.knobs["cp-async"]["stages"] = 4;
  ASSERT_TRUE(save_settings(path, s).ok());
  const LoadedSettings loaded = load_settings(path);
  EXPECT_TRUE(loaded.messages.empty());
  EXPECT_EQ(loaded.settings.rung, "cp-async");
  EXPECT_EQ(loaded.settings.knobs.at("cp-async").at("stages"), 4);
  EXPECT_FALSE(std::filesystem::exists(path.string() + ".tmp"));
}

TEST(Settings, CorruptFileOnDiskIsAMessage) {
  const auto path = temp_file("corrupt.json");
  {
    std::ofstream out(path, std::ios::binary);
    out << "\x01\x02 not json at all \xff";
  }
  const LoadedSettings loaded = load_settings(path);
  ASSERT_EQ(loaded.messages.size(), 1u);
  EXPECT_NE(loaded.messages[0].find(path.string()), std::string::npos);
}

}  // namespace
}  // namespace gemmlab::desktop
