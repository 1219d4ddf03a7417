#include "model/settings.hpp"

#include <unistd.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <system_error>

#include "gemmlab/file_io.hpp"
#include "gemmlab/json_input.hpp"
#include "gemmlab/rungs.hpp"
#include "gemmlab/sim/problem.hpp"
#include "gemmlab/sim/rung_model.hpp"

namespace gemmlab::desktop {
namespace {

using nlohmann::json;

constexpr int kSettingsVersion = 1;
constexpr std::size_t kMaxSettingsBytes = std::size_t{1} << 20;  // a settings file is a few kilobytes

bool is_int(const json& value) {
  return value.is_number_integer() && value >= json(INT32_MIN) && value <= json(INT32_MAX);
}

// Reads `object[key]` into `out` when it is an integer that fits an int; otherwise leaves `out` and says why.
void read_int(const json& object, const char* key, int& out, std::vector<std::string>& messages) {
  const auto it = object.find(key);
  if (it == object.end()) return;
  if (!is_int(*it)) {
    messages.push_back(std::string("'") + key + "' is not a whole number; kept the default");
    return;
  }
  out = it->get<int>();
}

void read_string(const json& object, const char* key, std::string& out, std::vector<std::string>& messages) {
  const auto it = object.find(key);
  if (it == object.end()) return;
  if (!it->is_string()) {
    messages.push_back(std::string("'") + key + "' is not text; kept the default");
    return;
  }
  out = it->get<std::string>();
}

}  // namespace

LoadedSettings parse_settings(std::string_view text, std::string_view source_name) {
  LoadedSettings out;
  const std::string source(source_name);
  const auto ignored = [&](const std::string& why) {
    out.messages.push_back(source + " " + why + "; it was ignored and the defaults are used. It is left as it is: " +
                           "this session's settings are not saved.");
    out.keep_file = true;
    return out;
  };
  const auto parsed = parse_json_input(text);
  if (!parsed) return ignored("is not a valid settings file (" + parsed.error().message + ")");
  const json& root = *parsed;
  if (!root.is_object()) return ignored("is not a valid settings file (JSON, but not an object of settings)");
  std::vector<std::string> problems;
  int version = kSettingsVersion;
  read_int(root, "version", version, problems);
  if (!problems.empty()) return ignored("has a 'version' that is not a whole number");
  if (version != kSettingsVersion)
    return ignored("has settings version " + std::to_string(version) + ", this gemmlab reads " +
                   std::to_string(kSettingsVersion));
  Settings& s = out.settings;
  read_string(root, "rung", s.rung, problems);
  read_string(root, "panel", s.panel, problems);
  read_int(root, "block_row", s.block_row, problems);
  read_int(root, "block_col", s.block_col, problems);
  if (const auto problem = root.find("problem"); problem != root.end()) {
    if (problem->is_object()) {
      read_int(*problem, "m", s.m, problems);
      read_int(*problem, "n", s.n, problems);
      read_int(*problem, "k", s.k, problems);
      for (auto [key, value] : {std::pair{"alpha", &s.alpha}, std::pair{"beta", &s.beta}}) {
        const auto it = problem->find(key);
        if (it == problem->end()) continue;
        // Checked as the float it is stored in: 1e39 would become infinite, 1e-46 zero.
        if (it->is_number() && sim::fits_float(it->get<double>())) *value = static_cast<float>(it->get<double>());
        else problems.push_back(std::string("'") + key + "' is not a number a float holds; kept the default");
      }
    } else {
      problems.push_back("'problem' is not an object with m, n and k; kept the default size");
    }
  }
  if (const auto speed = root.find("play_speed"); speed != root.end()) {
    if (speed->is_number() && speed->get<double>() > 0.0) s.play_speed = speed->get<double>();
    else problems.push_back("'play_speed' is not a positive number; kept the default");
  }
  if (const auto knobs = root.find("knobs"); knobs != root.end()) {
    if (!knobs->is_object()) {
      problems.push_back("'knobs' is not an object of rungs; kept each rung's defaults");
    } else {
      for (const auto& [slug, values] : knobs->items()) {
        if (!values.is_object()) {
          problems.push_back("the knobs of '" + slug + "' are not an object; kept that rung's defaults");
          continue;
        }
        for (const auto& [name, value] : values.items()) {
          if (!is_int(value))
            problems.push_back("knob '" + name + "' of '" + slug + "' is not a whole number; kept its default");
          else if (const auto rung = find_rung(slug))
            s.knobs[slug][name] = sim::recorded_knob_value(*rung, name, value.get<int>());
          else
            s.knobs[slug][name] = value.get<int>();  // a rung this build lacks: kept as written
        }
      }
    }
  }
  read_string(root, "grid_colouring", s.grid_colouring, problems);
  read_int(root, "tma_swizzle", s.tma_swizzle, problems);
  read_string(root, "window_layout", s.window_layout, problems);
  if (const auto orders = root.find("launch_orders"); orders != root.end()) {
    if (!orders->is_array() || orders->size() != s.launch_orders.size()) {
      problems.push_back("'launch_orders' is not a list of two orders; kept the default orders");
    } else {
      for (std::size_t side = 0; side < s.launch_orders.size(); ++side) {
        const json& order = (*orders)[side];
        if (!order.is_object()) {
          problems.push_back("launch order " + std::to_string(side + 1) + " is not an object; kept its default");
          continue;
        }
        read_string(order, "kind", s.launch_orders[side].kind, problems);
        read_int(order, "group_size", s.launch_orders[side].group_size, problems);
      }
    }
  }
  for (auto& problem : problems) out.messages.push_back(source + ": " + problem);
  return out;
}

std::string settings_to_json(const Settings& s) {
  json knobs = json::object();
  for (const auto& [slug, values] : s.knobs) knobs[slug] = values;
  json orders = json::array();
  for (const auto& order : s.launch_orders) orders.push_back({{"kind", order.kind}, {"group_size", order.group_size}});
  const json root = {{"version", kSettingsVersion},
                     {"rung", s.rung},
                     {"knobs", knobs},
                     {"problem", {{"m", s.m}, {"n", s.n}, {"k", s.k}, {"alpha", s.alpha}, {"beta", s.beta}}},
                     {"panel", s.panel},
                     {"block_row", s.block_row},
                     {"block_col", s.block_col},
                     {"play_speed", s.play_speed},
                     {"launch_orders", orders},
                     {"grid_colouring", s.grid_colouring},
                     {"tma_swizzle", s.tma_swizzle},
                     {"window_layout", s.window_layout}};
  return root.dump(2) + "\n";
}

LoadedSettings load_settings(const std::filesystem::path& path) {
  std::error_code error;
  if (!std::filesystem::exists(path, error) && !error) return {};  // the first run: nothing to keep
  auto text = read_input_file(path.string(), "settings file", kMaxSettingsBytes);
  if (!text) {
    LoadedSettings out;
    out.messages.push_back(text.error().message + "; the defaults are used, and this session's settings are not saved");
    out.keep_file = true;
    return out;
  }
  return parse_settings(*text, path.string());
}

namespace {

// The file a save replaces: a symbolic link's target (so the link keeps pointing at the settings).
std::filesystem::path save_target(const std::filesystem::path& path) {
  std::filesystem::path target = path;
  std::error_code error;
  for (int hops = 0; hops < 40 && std::filesystem::is_symlink(target, error); ++hops) {
    const std::filesystem::path next = std::filesystem::read_symlink(target, error);
    if (error) break;
    target = next.is_absolute() ? next : target.parent_path() / next;
  }
  return target;
}

}  // namespace

Status save_settings(const std::filesystem::path& path, const Settings& settings) {
  namespace fs = std::filesystem;
  const fs::path target = save_target(path);
  std::error_code error;
  if (fs::exists(target, error)) {
    if (!fs::is_regular_file(target, error)) return Error{target.string() + " is not a regular file; it was left as it is"};
    // No write permission for anyone counts too: root may write anything, but a file made read-only is kept.
    const auto write_bits = fs::perms::owner_write | fs::perms::group_write | fs::perms::others_write;
    if (::access(target.c_str(), W_OK) != 0 || (fs::status(target, error).permissions() & write_bits) == fs::perms::none)
      return Error{target.string() + " is read-only; it was left as it is (make it writable to keep the settings)"};
  }
  if (target.has_parent_path()) {
    fs::create_directories(target.parent_path(), error);
    if (error) return Error{"could not create " + target.parent_path().string() + ": " + error.message()};
  }
  const fs::path temporary = target.string() + ".tmp";
  if (auto written = write_output_file(temporary.string(), settings_to_json(settings), "settings file"); !written) {
    fs::remove(temporary, error);
    return written.error();
  }
  fs::rename(temporary, target, error);
  if (error) {
    const std::string why = error.message();
    fs::remove(temporary, error);
    return Error{"could not replace " + target.string() + ": " + why};
  }
  return Ok{};
}

}  // namespace gemmlab::desktop
