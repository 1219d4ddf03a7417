#include "model/paths.hpp"

#include <cstdlib>

namespace gemmlab::desktop {

std::filesystem::path config_dir() {
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg) return std::filesystem::path(xdg) / "gemmlab";
  if (const char* home = std::getenv("HOME"); home && *home)
    return std::filesystem::path(home) / ".config" / "gemmlab";
  return {};
}

}  // namespace gemmlab::desktop
