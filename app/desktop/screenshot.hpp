#pragma once
// Writes the current back buffer to a PNG file.
#include <string>

#include "gemmlab/result.hpp"

namespace gemmlab::desktop {

Status save_back_buffer_png(const std::string& path, int width, int height);

}  // namespace gemmlab::desktop
