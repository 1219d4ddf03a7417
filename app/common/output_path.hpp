#pragma once
// Whether a file can be written at a path: checked before work whose result goes there (a benchmark that takes
// minutes, a screenshot that needs a window), so that a bad path is refused at once and says why.
#include <string>

namespace gemmlab::common {

// Why nothing can be written at `path` ("it is a directory", "the folder 'out' does not exist", ...), or "" when it
// can: the path is a file that may be written, or a new name in a folder that exists and may be written.
std::string unwritable_because(const std::string& path);

}  // namespace gemmlab::common
