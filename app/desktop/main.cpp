// gemmlab: the desktop window.
#include <CLI/CLI.hpp>

#include <iostream>

#include "panels/welcome_panel.hpp"
#include "screenshot.hpp"
#include "window.hpp"

namespace {
constexpr int kExitNoDisplay = 3;  // scripts/run falls back to the headless tour on this code
}

int main(int argc, char** argv) {
  using namespace gemmlab::desktop;
  CLI::App app{"gemmlab: step through a GEMM kernel's tile loads, bank conflicts and L2 reuse", "gemmlab"};
  std::string screenshot_path;
  int frames = 0;
  app.add_option("--screenshot", screenshot_path, "Render, write the window to this PNG file, and exit");
  app.add_option("--frames", frames, "Render this many frames, then exit (with --screenshot: before the capture)")
      ->check(CLI::Range(1, 100000));
  CLI11_PARSE(app, argc, argv);

  auto window = Window::open({});
  if (!window) {
    std::cerr << "gemmlab: " << window.error().message << "\n"
              << "gemmlab: without a display, use gemmlab-cli (scripts/run does this for you).\n";
    return kExitNoDisplay;
  }
  // Screenshots need a few frames: ImGui sizes its windows and tables over the first frames.
  const int frame_limit = frames > 0 ? frames : (screenshot_path.empty() ? 0 : 3);
  for (int frame = 1; !(*window)->should_close(); ++frame) {
    (*window)->begin_frame();
    draw_welcome_panel();
    (*window)->end_frame();
    const bool last = frame_limit > 0 && frame >= frame_limit;
    if (last && !screenshot_path.empty()) {
      if (const auto saved = save_back_buffer_png(screenshot_path, (*window)->framebuffer_width(),
                                                  (*window)->framebuffer_height());
          !saved) {
        std::cerr << "gemmlab: " << saved.error().message << "\n";
        return 1;
      }
      std::cout << "gemmlab: wrote " << screenshot_path << "\n";
    }
    (*window)->present();
    if (last) break;
  }
  return 0;
}
