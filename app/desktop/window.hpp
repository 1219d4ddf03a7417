#pragma once
// The desktop window: GLFW, the glad OpenGL 3.3 core loader and Dear ImGui's GLFW/OpenGL3 backends, set up and torn
// down together. Creation fails with a message (no display, no OpenGL 3.3) instead of aborting.
#include <memory>
#include <string>

#include "gemmlab/result.hpp"

struct GLFWwindow;

namespace gemmlab::desktop {

class Window {
 public:
  struct Options {
    int width = 1600;
    int height = 1000;
    std::string title = "gemmlab";
    bool vsync = true;  // off for frame-time measurements: a frame then costs what it costs, not the refresh period
  };

  static Result<std::unique_ptr<Window>> open(const Options& options);
  ~Window();
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;

  bool should_close() const;
  void begin_frame();  // polls events and starts an ImGui frame
  // Screenshots: the pointer (which sits somewhere over the window under Xvfb) must not hover anything.
  void set_ignore_mouse(bool ignore) { ignore_mouse_ = ignore; }
  void end_frame();    // renders ImGui into the back buffer (call read_back_buffer before present)
  void present();
  void finish();  // waits until the GPU (or the software renderer) has drawn everything submitted
  std::string renderer() const;  // GL_RENDERER, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)"
  int framebuffer_width() const;
  int framebuffer_height() const;

 private:
  explicit Window(GLFWwindow* handle);
  GLFWwindow* handle_;
  bool ignore_mouse_ = false;
};

}  // namespace gemmlab::desktop
