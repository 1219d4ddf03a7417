#pragma once
// What the build recorded of each compiled rung kernel: the registers per thread ptxas gave it and its SASS cut into
// regions by its loops. In the CUDA build the table is generated from the kernels' compile output and `cuobjdump
// -sass` (scripts/kernel_resources.py, gpu/CMakeLists.txt); the stub build has none. gpu::compiled_registers and
// gpu::compiled_facts (instances.cpp) look configurations up in it.
#include <span>
#include <string_view>

#include "gemmlab/gpu/instances.hpp"
#include "gemmlab/sim/compiled_code.hpp"

namespace gemmlab::gpu {

struct RecordedKernel {
  std::string_view slug;  // the rung, as gpu/kernels/<slug>.cu names it
  kernel::KernelConfig config;
  std::string_view compute_capability;  // of the architecture ptxas compiled for: "9.0" for sm_90
  int registers = 0;
  std::span<const sim::CodeRegion> regions;  // empty where the build had no cuobjdump
};

std::span<const RecordedKernel> recorded_kernels();

}  // namespace gemmlab::gpu
