#include "screenshot.hpp"

#include <glad/gl.h>
#include <stb_image_write.h>

#include <cstdint>
#include <vector>

#include "cli/output_path.hpp"

namespace gemmlab::desktop {

Status save_back_buffer_png(const std::string& path, int width, int height) {
  if (width <= 0 || height <= 0) return Error{"the window has no pixels to save"};
  const auto row_bytes = static_cast<std::size_t>(width) * 4;
  std::vector<std::uint8_t> pixels(row_bytes * static_cast<std::size_t>(height));
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  if (const GLenum gl_error = glGetError(); gl_error != GL_NO_ERROR)
    return Error{"glReadPixels failed with OpenGL error " + std::to_string(gl_error)};
  // OpenGL's first row is the bottom one; PNG's is the top.
  stbi_flip_vertically_on_write(1);
  if (!stbi_write_png(path.c_str(), width, height, 4, pixels.data(), static_cast<int>(row_bytes)))
    return Error{"could not write " + path};
  return Ok{};
}

Status check_png_path(const std::string& path) {
  if (const auto why = cli::unwritable_because(path); !why.empty())
    return Error{"cannot write the screenshot to '" + path + "': " + why};
  return Ok{};
}

}  // namespace gemmlab::desktop
