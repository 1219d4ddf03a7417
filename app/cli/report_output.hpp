#pragma once
// Where a command's --json or --csv report goes: a file, or stdout for "-".
#include <string>
#include <string_view>

namespace gemmlab::cli {

// Writes `text` to `path` ("-": stdout). False, with the reason on stderr, where the file cannot be written.
bool write_report(const std::string& path, std::string_view text, std::string_view what);

}  // namespace gemmlab::cli
