#include "screenshot.hpp"

#include <glad/gl.h>
#include <stb_image_write.h>

#include <cctype>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "common/output_path.hpp"
#include "gemmlab/file_io.hpp"

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
  // Encoded in memory and written by write_output_file, which checks every write and the close (stbi_write_png
  // does not: it reports success on a full disk).
  std::string png;
  const auto append = [](void* context, void* data, int size) {
    static_cast<std::string*>(context)->append(static_cast<const char*>(data), static_cast<std::size_t>(size));
  };
  if (!stbi_write_png_to_func(append, &png, width, height, 4, pixels.data(), static_cast<int>(row_bytes)))
    return Error{"could not encode the screenshot as PNG"};
  return write_output_file(path, png, "screenshot");
}

Status check_png_path(const std::string& path) {
  std::string extension = std::filesystem::path(path).extension().string();
  for (auto& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  // A device (/dev/stdout, a pipe) takes whatever it is given; a file's name says what it holds.
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  const bool device = !error && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status) &&
                      !std::filesystem::is_directory(status);
  if (extension != ".png" && !device)
    return Error{"cannot write the screenshot to '" + path + "': it is written as a PNG, so give a name ending in .png"};
  if (const auto why = common::unwritable_because(path); !why.empty())
    return Error{"cannot write the screenshot to '" + path + "': " + why};
  return Ok{};
}

}  // namespace gemmlab::desktop
