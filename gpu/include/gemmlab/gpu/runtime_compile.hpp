#pragma once
// Any configuration on the GPU: a rung configuration that the build did not compile (gemmlab/gpu/instances.def) is
// compiled when it is first launched, from the same headers as the build's kernels, for the GPU's architecture, and
// kept in an on-disk cache keyed by the configuration, the headers' contents, the compiler and its flags.
//
// The compiler is nvcc, run as `nvcc -cubin` (device code only), not NVRTC: NVRTC compiles without the host's C++
// library, and the rung descriptions the kernels share with the simulator use it (their validate() builds its
// sentences in std::string). nvcc's device-only compile runs the same front end, cicc and ptxas as the build, with
// the build's flags, so a configuration compiled here is the kernel the build would have made (docs/tuning.md shows
// the counters and times of both). A machine without nvcc runs the compiled instances and says so for the rest.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "gemmlab/gpu/instances.hpp"
#include "gemmlab/kernel/element.hpp"
#include "gemmlab/result.hpp"
#include "gemmlab/sim/compiled_code.hpp"

namespace gemmlab::gpu {

// Which compiled variant of a configuration a launch needs: the element type of A and B, and whether every row of
// 16-bit A and B starts on a 16-byte boundary (n and k multiples of 8; always true for FP32 rungs).
struct KernelVariant {
  kernel::InputType input = kernel::InputType::F32;
  bool aligned_rows = true;
  bool traced = false;  // the tracing build (gpu/src/traced_executor.cuh): always compiled at run time
  // The tiles a sampled block of the tracing build stamps, its first ones (TraceRequest::stamped_tiles; 0: every tile).
  // Compiled in: read from the launch's parameters, the count made ptxas spill Stream-K's consumers' registers in the
  // tiles walked untraced (docs/timeline.md, "What tracing costs").
  int stamped_tiles = 0;
};

// The variant a launch of `kernel` on these inputs and sizes needs; an error where the rung does not take the input
// type or the sizes (a 16-bit rung without an element-wise copy, and n or k not a multiple of 8).
Result<KernelVariant> kernel_variant(const GpuInstance& kernel, kernel::InputType input, int n, int k);

// Whether launching `kernel` compiles it at run time: the build did not compile it, or
// compile_everything_at_run_time() asks for it. Every face that says "compiled at run time" asks this.
bool compiled_at_run_time(const GpuInstance& kernel);

struct RuntimeKernelRequest {
  GpuInstance kernel;
  kernel::InputType input = kernel::InputType::F32;
  bool aligned_rows = true;  // 16-bit rungs: rows of A and B start on 16-byte boundaries (n, k multiples of 8)
  std::string arch;          // nvcc's -arch: "sm_90", or "sm_90a" for the Hopper rungs
  bool traced = false;       // the tracing build of the kernel (gemmlab/gpu/trace.hpp)
  int stamped_tiles = 0;     // the tiles it stamps: KernelVariant's
};

// True where $GEMMLAB_COMPILE_AT_RUN_TIME is 1: every configuration is then compiled at run time, the build's own
// too, so that the two can be compared (docs/tuning.md: the same counters, the same speed).
bool compile_everything_at_run_time();

// nvcc's -arch for the rung on a GPU of `compute_capability` ("9.0"): sm_90a where the rung needs Hopper's own
// instructions (TMA, wgmma), sm_XY otherwise.
std::string runtime_arch(RungId rung, std::string_view compute_capability);

// The whole source nvcc compiles: the build's kernel header and one extern "C" kernel that runs the configuration.
std::string runtime_kernel_source(const RuntimeKernelRequest& request);

// The command line, for the record and the tests (the paths are where the build's headers and nvcc were).
std::vector<std::string> runtime_compile_command(const RuntimeKernelRequest& request, const std::string& source_path,
                                                 const std::string& output_path);

// Where compiled kernels are kept: $GEMMLAB_KERNEL_CACHE, else $XDG_CACHE_HOME/gemmlab/kernels, else
// ~/.cache/gemmlab/kernels.
std::filesystem::path runtime_kernel_cache_dir();

// Ok where this build can compile at run time (a CUDA build, its nvcc and gemmlab's headers still there; $GEMMLAB_NVCC
// overrides the build's nvcc, $GEMMLAB_SOURCE_DIR the source tree the headers are in), else the sentence why not.
Status runtime_compiler_available();

struct RuntimeCompiled {
  std::string key;              // the cache key: 16 hex digits
  std::filesystem::path cubin;  // the compiled kernel in the cache
  bool from_cache = false;      // found on disk (or already loaded in this process): nothing was compiled
  double compile_seconds = 0;   // nvcc's wall time (0 from the cache)
  double ready_seconds = 0;     // prepare_runtime_kernel: from the request to a kernel loaded in this process (the
                                // device's context already made: every GPU program pays that once)
  int registers = -1;           // ptxas's registers per thread (-1: not reported)
  int spill_bytes = 0;          // ptxas's spill stores, bytes
  std::vector<std::string> ptxas_warnings;  // its warnings and "Potential Performance Loss" notes, a line each
};

// Compiles the request to a cubin in the cache, or finds it there; needs nvcc but no GPU. Errors: no compiler, a
// cache that cannot be written, or nvcc's own first error lines.
Result<RuntimeCompiled> compile_runtime_kernel(const RuntimeKernelRequest& request);

// The compiled kernel's SASS cut into regions by its loops, as the build records its own kernels (the time model's
// issue term, sim/compiled_code.hpp): scripts/kernel_resources.py disassembles the cubin with cuobjdump, once, and the
// regions are kept beside it. An error where this build has no Python, or the machine no cuobjdump.
Result<sim::CompiledCode> runtime_kernel_code(const RuntimeCompiled& compiled);

// What a run-time compile gives the time model (sim::predict_schedule): ptxas's registers and the cubin's own SASS,
// each the nearest compiled configuration's (gpu::compiled_facts on `device`) where the compile does not say (no
// cuobjdump here).
sim::CompiledFacts compiled_facts(const RuntimeCompiled& compiled, RungId rung, const kernel::KernelConfig& config,
                                  const sim::DeviceProfile& device);

// For launches on CUDA device `device` (made current): compiles (or finds) `kernel`'s variant for the device's
// architecture and loads it into this process, so that the first launch does not wait for it.
Result<RuntimeCompiled> prepare_runtime_kernel(const GpuInstance& kernel, KernelVariant variant, int device = 0);

}  // namespace gemmlab::gpu
