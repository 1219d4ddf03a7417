// The app's settings file: what survives a round trip, and what a damaged file costs (only itself, never a crash).
#include "model/settings.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <sys/stat.h>
#include <unistd.h>

#include <sstream>

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
  s.tma_swizzle = 32;
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
  EXPECT_EQ(back.settings.tma_swizzle, 32);
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

TEST(Settings, AFolderIsNamedAsOneAndKept) {
  const auto path = temp_file("a-folder.json");
  std::filesystem::create_directories(path);
  const LoadedSettings loaded = load_settings(path);
  ASSERT_EQ(loaded.messages.size(), 1u);
  EXPECT_NE(loaded.messages[0].find("is a directory"), std::string::npos) << loaded.messages[0];
  EXPECT_TRUE(loaded.keep_file);
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

TEST(Settings, OtherVersionIsIgnoredAndKept) {
  const LoadedSettings loaded = parse_settings(R"({"version": 2, "rung": "vectorized"})", "future.json");
  ASSERT_EQ(loaded.messages.size(), 1u);
  EXPECT_NE(loaded.messages[0].find("version 2"), std::string::npos);
  EXPECT_NE(loaded.messages[0].find("not saved"), std::string::npos) << loaded.messages[0];
  EXPECT_TRUE(loaded.keep_file);  // a newer gemmlab's file is not downgraded
  EXPECT_EQ(loaded.settings.rung, Settings{}.rung);
  EXPECT_FALSE(parse_settings(R"({"version": 1, "rung": "vectorized"})", "ours.json").keep_file);
}

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

TEST(Settings, DeeplyNestedJsonIsAMessage) {
  const LoadedSettings loaded =
      parse_settings("{\"knobs\": " + std::string(100000, '[') + std::string(100000, ']') + "}", "deep.json");
  ASSERT_EQ(loaded.messages.size(), 1u);
  EXPECT_NE(loaded.messages[0].find("nested more than"), std::string::npos) << loaded.messages[0];
  EXPECT_TRUE(loaded.keep_file);
}

TEST(Settings, ValuesAreCheckedAsTheFloatTheyBecome) {
  const LoadedSettings loaded = parse_settings(R"({"version": 1, "problem": {"alpha": 1e39, "beta": 1e-46}})", "f.json");
  EXPECT_EQ(loaded.messages.size(), 2u);
  EXPECT_FLOAT_EQ(loaded.settings.alpha, Settings{}.alpha);
  EXPECT_FLOAT_EQ(loaded.settings.beta, Settings{}.beta);
}

TEST(Settings, WindowLayoutIsKeptInsideTheFile) {
  Settings s;
  s.window_layout = "[Window][Debug##Default]\nPos=60,60\n";
  const LoadedSettings back = parse_settings(settings_to_json(s), "test");
  EXPECT_EQ(back.settings.window_layout, s.window_layout);
}

TEST(Settings, ASpecialFileIsRefusedWithoutWaiting) {
  const auto fifo = temp_file("fifo.json");
  std::filesystem::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const LoadedSettings loaded = load_settings(fifo);  // a blocking open would wait here for a writer, forever
  ASSERT_EQ(loaded.messages.size(), 1u);
  EXPECT_NE(loaded.messages[0].find("not a regular file"), std::string::npos) << loaded.messages[0];
  EXPECT_TRUE(loaded.keep_file);
  EXPECT_FALSE(save_settings(fifo, Settings{}).ok());
  std::filesystem::remove(fifo);
}

TEST(Settings, SavingFollowsASymbolicLink) {
  const auto target = temp_file("link-target.json");
  const auto link = temp_file("link.json");
  std::filesystem::remove(link);
  write_text(target, "{}");
  std::filesystem::create_symlink(target, link);
  Settings s;
  s.rung = "warptile";
  ASSERT_TRUE(save_settings(link, s).ok());
  EXPECT_TRUE(std::filesystem::is_symlink(link));  // the link stays a link...
  EXPECT_EQ(load_settings(target).settings.rung, "warptile");  // ... and its target has the settings
  std::filesystem::remove(link);
}

TEST(Settings, AReadOnlyFileIsNotReplaced) {
  const auto path = temp_file("read-only.json");
  std::filesystem::remove(path);
  write_text(path, "{\"version\": 1}\n");
  std::filesystem::permissions(path, std::filesystem::perms::owner_read);
  const auto saved = save_settings(path, Settings{});
  ASSERT_FALSE(saved.ok());
  EXPECT_NE(saved.error().message.find("read-only"), std::string::npos) << saved.error().message;
  EXPECT_EQ(read_text(path), "{\"version\": 1}\n");
  std::filesystem::permissions(path, std::filesystem::perms::owner_all);
}

TEST(Settings, AnUnreadableFileIsKept) {
  const LoadedSettings loaded = parse_settings("\x01\x02 not json", "binary.json");
  EXPECT_TRUE(loaded.keep_file);
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
