#include "gemmlab/gpu/device.hpp"

namespace gemmlab::gpu {

std::string format_cuda_version(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

}  // namespace gemmlab::gpu
