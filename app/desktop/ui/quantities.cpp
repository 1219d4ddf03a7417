#include "ui/quantities.hpp"

#include <cstdio>

namespace gemmlab::desktop::ui {

std::string shared_bytes_text(std::int64_t bytes) {
  char text[48];
  if (bytes < 1024) std::snprintf(text, sizeof text, "%lld bytes", static_cast<long long>(bytes));
  else
    std::snprintf(text, sizeof text, "%lld bytes (%.1f KiB)", static_cast<long long>(bytes),
                  static_cast<double>(bytes) / 1024.0);
  return text;
}

std::string dram_bytes_text(double bytes) {
  char text[32];
  if (bytes >= 1e9) std::snprintf(text, sizeof text, "%.3f GB", bytes / 1e9);
  else if (bytes >= 1e6) std::snprintf(text, sizeof text, "%.1f MB", bytes / 1e6);
  else std::snprintf(text, sizeof text, "%.1f KB", bytes / 1e3);
  return text;
}

}  // namespace gemmlab::desktop::ui
