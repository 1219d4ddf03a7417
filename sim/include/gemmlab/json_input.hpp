#pragma once
// JSON from outside gemmlab (device profiles, results, settings), parsed with bounds: a document nested deeper than
// any gemmlab writes is refused before it is parsed (nested values are destroyed and printed recursively), and an
// error quotes at most a short excerpt of a bad value, never the whole of it.
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "gemmlab/result.hpp"

namespace gemmlab {

// gemmlab's own files nest four levels deep; this allows hand-written ones plenty more.
inline constexpr int kMaxJsonDepth = 64;

// The document, or an error saying where it is malformed or too deeply nested.
Result<nlohmann::json> parse_json_input(std::string_view text, int max_depth = kMaxJsonDepth);

// A bad value as an error message quotes it: its JSON text, cut to at most `max_chars` characters ("...").
std::string json_excerpt(const nlohmann::json& value, std::size_t max_chars = 40);

}  // namespace gemmlab
