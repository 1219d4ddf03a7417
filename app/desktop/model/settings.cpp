#include "model/settings.hpp"

#include <cstdint>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <system_error>

namespace gemmlab::desktop {
namespace {

using nlohmann::json;

constexpr int kSettingsVersion = 1;

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
  const json root = json::parse(text, nullptr, /*allow_exceptions=*/false);
  const std::string source(source_name);
  if (root.is_discarded() || !root.is_object()) {
    const std::string what = root.is_discarded() ? "malformed JSON" : "JSON, but not an object of settings";
    out.messages.push_back(source + " is not a valid settings file (" + what + "); it was ignored and the defaults "
                           "are used. It will be overwritten when settings change.");
    return out;
  }
  std::vector<std::string> problems;
  int version = kSettingsVersion;
  read_int(root, "version", version, problems);
  if (version != kSettingsVersion) {
    out.messages.push_back(source + " has settings version " + std::to_string(version) + ", this gemmlab reads " +
                           std::to_string(kSettingsVersion) + "; it was ignored and the defaults are used.");
    return out;
  }
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
        if (it->is_number()) *value = it->get<float>();
        else problems.push_back(std::string("'") + key + "' is not a number; kept the default");
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
          if (is_int(value))
            s.knobs[slug][name] = value.get<int>();
          else
            problems.push_back("knob '" + name + "' of '" + slug + "' is not a whole number; kept its default");
        }
      }
    }
  }
  read_string(root, "grid_colouring", s.grid_colouring, problems);
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
                     {"grid_colouring", s.grid_colouring}};
  return root.dump(2) + "\n";
}

LoadedSettings load_settings(const std::filesystem::path& path) {
  std::error_code error;
  if (!std::filesystem::exists(path, error)) return {};
  if (std::filesystem::is_directory(path, error)) {
    LoadedSettings out;
    out.messages.push_back(path.string() + " is a folder, not a settings file; the defaults are used");
    return out;
  }
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  if (in) text << in.rdbuf();
  if (!in || in.bad()) {
    LoadedSettings out;
    out.messages.push_back("could not read " + path.string() + "; the defaults are used");
    return out;
  }
  return parse_settings(text.str(), path.string());
}

Status save_settings(const std::filesystem::path& path, const Settings& settings) {
  std::error_code error;
  std::filesystem::create_directories(path.parent_path(), error);
  if (error) return Error{"could not create " + path.parent_path().string() + ": " + error.message()};
  const std::filesystem::path temporary = path.string() + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << settings_to_json(settings);
    if (!out) return Error{"could not write " + temporary.string()};
  }
  std::filesystem::rename(temporary, path, error);
  if (error) return Error{"could not replace " + path.string() + ": " + error.message()};
  return Ok{};
}

}  // namespace gemmlab::desktop
