#include "gemmlab/gpu/device.hpp"

#include <cstdio>

namespace gemmlab::gpu {

std::string format_cuda_version(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

int parse_cuda_version(const std::string& text) {
  int major = 0, minor = 0;
  if (std::sscanf(text.c_str(), "%d.%d", &major, &minor) < 1) return 0;
  return major * 1000 + minor * 10;
}

}  // namespace gemmlab::gpu
