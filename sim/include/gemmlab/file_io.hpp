#pragma once
// Files the user names. Reading (a device profile, settings, recorded results): only a regular file, and only up to
// a size, so a FIFO, a device such as /dev/zero or a huge file is a sentence rather than a hang or an exhausted
// memory; symbolic links are followed. Writing: every write and the close are checked, so a full disk is an error,
// not a report of success.
#include <cstddef>
#include <string>
#include <string_view>

#include "gemmlab/result.hpp"

namespace gemmlab {

// Every file gemmlab reads is a few hundred kilobytes at most; this leaves room for hand-made ones.
inline constexpr std::size_t kMaxInputFileBytes = std::size_t{16} << 20;

// The file's whole content. Errors name `what` ("device profile") and the path, and say what to change.
Result<std::string> read_input_file(const std::string& path, std::string_view what,
                                    std::size_t max_bytes = kMaxInputFileBytes);

// Writes `content` to `path` (created or truncated). Errors name `what` ("screenshot") and the path.
Status write_output_file(const std::string& path, std::string_view content, std::string_view what);

}  // namespace gemmlab
