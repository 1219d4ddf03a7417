#pragma once
// The registers per thread that ptxas gave each compiled rung kernel, recorded at build time: in the CUDA build the
// table is generated from the kernels' compile output (scripts/kernel_resources.py, gpu/CMakeLists.txt); the stub
// build has none. gpu::compiled_registers (instances.cpp) looks configurations up in it.
#include <span>
#include <string_view>

#include "gemmlab/gpu/instances.hpp"

namespace gemmlab::gpu {

struct RecordedRegisters {
  std::string_view slug;  // the rung, as gpu/kernels/<slug>.cu names it
  kernel::KernelConfig config;
  std::string_view compute_capability;  // of the architecture ptxas compiled for: "9.0" for sm_90
  int registers = 0;
};

std::span<const RecordedRegisters> recorded_registers();

}  // namespace gemmlab::gpu
