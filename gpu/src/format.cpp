#include "gemmlab/gpu/device.hpp"

#include <chrono>
#include <cstdio>
#include <ctime>

namespace gemmlab::gpu {

std::string format_cuda_version(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

std::string utc_now() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

int parse_cuda_version(const std::string& text) {
  int major = 0, minor = 0;
  if (std::sscanf(text.c_str(), "%d.%d", &major, &minor) < 1) return 0;
  return major * 1000 + minor * 10;
}

}  // namespace gemmlab::gpu
