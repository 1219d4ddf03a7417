#pragma once
// The user's choices that outlive a run (the rung, each rung's configuration, the problem size, the open panel,
// the selected block, the play speed and the launch orders compared), as a small JSON file in the user's config folder. The
// window layout (ImGui's ini text) is kept inside it, so gemmlab writes no other file. A missing file gives the
// defaults; an unreadable, malformed or newer one gives the defaults and a message - never a crash - and is never
// overwritten. Values are checked where they are used (AppModel), so one bad entry costs only itself.
#include <array>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "gemmlab/result.hpp"

namespace gemmlab::desktop {

// One side of the launch-order panel's comparison: the order's kind ("row", "col", "cutlass", "groupm") and the
// group size the grouped kinds use (kept while the kind is row or col).
struct OrderSettings {
  std::string kind = "row";
  int group_size = 8;
};

struct Settings {
  std::string rung = "smem-tiling";
  std::map<std::string, std::map<std::string, int>> knobs;  // rung slug -> knob name -> value
  int m = 4096, n = 4096, k = 4096;  // big enough that measured speeds compare kernels, not launches
  float alpha = 1.0f, beta = 0.0f;
  std::string panel = "tile-stepper";
  int block_row = 0, block_col = 0;
  double play_speed = 8.0;  // instructions per second
  std::array<OrderSettings, 2> launch_orders = {OrderSettings{"row", 8}, OrderSettings{"groupm", 8}};
  std::string grid_colouring = "wave";  // the launch-order panel's tiles, coloured by "wave" or "launch" order
  int tma_swizzle = 128;                // the banks panel's TMA swizzle mode for the Hopper rungs: 0, 32, 64, 128
  std::string window_layout;            // ImGui's ini text ("": ImGui's defaults)
};

struct LoadedSettings {
  Settings settings;
  std::vector<std::string> messages;  // what was ignored, and why
  // The file exists but was not read as this gemmlab's settings (unreadable, malformed, a newer version, not a
  // regular file): saving over it would lose what it holds, so this session saves nothing.
  bool keep_file = false;
};

// Parses settings JSON; anything unusable is left at its default and named in `messages`.
LoadedSettings parse_settings(std::string_view text, std::string_view source_name);
std::string settings_to_json(const Settings& settings);

LoadedSettings load_settings(const std::filesystem::path& path);
// Writes through a temporary file and a rename, so a crash mid-write never leaves a half-written file. A symbolic
// link is followed (its target is replaced, the link stays); a read-only file is an error and stays as it is.
Status save_settings(const std::filesystem::path& path, const Settings& settings);

}  // namespace gemmlab::desktop
