#include "gemmlab/json_input.hpp"

namespace gemmlab {
namespace {

// The first byte at which `text` opens more than `max_depth` arrays and objects, or npos. Brackets inside strings do
// not count; malformed text is left to the parser.
std::size_t too_deep_at(std::string_view text, int max_depth) {
  int depth = 0;
  bool in_string = false, escaped = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    if (in_string) {
      if (escaped) escaped = false;
      else if (ch == '\\') escaped = true;
      else if (ch == '"') in_string = false;
    } else if (ch == '"') {
      in_string = true;
    } else if (ch == '[' || ch == '{') {
      if (++depth > max_depth) return i;
    } else if (ch == ']' || ch == '}') {
      --depth;
    }
  }
  return std::string_view::npos;
}

// Appends `value`'s JSON text to `out`, stopping soon after `out` passes `limit` characters: the cost is bounded
// by the limit, not by the value, and so is the recursion (every level adds a bracket).
void excerpt_into(const nlohmann::json& value, std::string& out, std::size_t limit) {
  if (value.is_array() || value.is_object()) {
    out += value.is_array() ? '[' : '{';
    bool first = true;
    for (auto it = value.begin(); it != value.end() && out.size() <= limit; ++it) {
      if (!first) out += ',';
      first = false;
      if (value.is_object()) out += nlohmann::json(it.key()).dump() + ':';
      excerpt_into(*it, out, limit);
    }
    out += value.is_array() ? ']' : '}';
  } else {
    out += value.dump();  // a scalar: a long string is cut by the caller
  }
}

}  // namespace

Result<nlohmann::json> parse_json_input(std::string_view text, int max_depth) {
  if (const auto at = too_deep_at(text, max_depth); at != std::string_view::npos)
    return Error{"lists and objects are nested more than " + std::to_string(max_depth) +
                 " deep (at byte " + std::to_string(at + 1) + ")"};
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    return Error{std::string("not valid JSON: ") + e.what()};
  }
}

std::string json_excerpt(const nlohmann::json& value, std::size_t max_chars) {
  std::string text;
  excerpt_into(value, text, max_chars);
  if (text.size() <= max_chars) return text;
  return text.substr(0, max_chars) + "...";
}

}  // namespace gemmlab
