#pragma once
// Writes the current back buffer to a PNG file, and checks beforehand that a path can take one.
#include <string>

#include "gemmlab/result.hpp"

namespace gemmlab::desktop {

Status save_back_buffer_png(const std::string& path, int width, int height);

// Whether a PNG can be written at `path` (its folder exists and is writable, and it is not a folder itself), so that a
// bad path is refused before a window opens and frames are rendered.
Status check_png_path(const std::string& path);

}  // namespace gemmlab::desktop
