// Loading run-time compiled kernels (CUDA builds): each cubin once per process, as a CUDA library whose one kernel,
// gemmlab_runtime_kernel, launch_gemm launches like a compiled one.
#include "runtime_kernel.hpp"

#include <cuda_runtime.h>

#include <chrono>
#include <map>
#include <mutex>
#include <string>

#include "cuda_error.hpp"
#include "gemmlab/file_io.hpp"
#include "gemmlab/gpu/runtime_compile.hpp"
#include "gemmlab/sim/rung_model.hpp"

namespace gemmlab::gpu {
namespace {

struct Loaded {
  cudaLibrary_t library = nullptr;
  cudaKernel_t kernel = nullptr;
  int registers = 0, max_threads = 0;  // ptxas's registers per thread, and the largest block they allow
};

// Kept for the process's life: a kernel handle handed out may be launched at any later time. By the request's source
// text, which names everything the request holds, so that a launch finds its kernel without hashing the headers.
std::mutex loaded_mutex;
std::map<std::string, Loaded> loaded;

Result<std::string> current_compute_capability() {
  int device = 0, major = 0, minor = 0;
  GEMMLAB_CUDA_TRY(cudaGetDevice(&device));
  GEMMLAB_CUDA_TRY(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  GEMMLAB_CUDA_TRY(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  return std::to_string(major) + "." + std::to_string(minor);
}

const Loaded* find_loaded(const std::string& source) {
  const std::lock_guard lock(loaded_mutex);
  const auto it = loaded.find(source);
  return it == loaded.end() ? nullptr : &it->second;  // std::map: the element stays where it is
}

Result<Loaded> load(const std::string& source, const RuntimeCompiled& compiled) {
  if (const Loaded* l = find_loaded(source)) return *l;
  auto image = read_input_file(compiled.cubin.string(), "compiled kernel", std::size_t{256} << 20);
  if (!image) return image.error();
  Loaded l;
  GEMMLAB_CUDA_TRY(cudaLibraryLoadData(&l.library, image->data(), nullptr, nullptr, 0, nullptr, nullptr, 0));
  if (const cudaError_t code = cudaLibraryGetKernel(&l.kernel, l.library, "gemmlab_runtime_kernel"); code != cudaSuccess) {
    cudaLibraryUnload(l.library);
    return cuda_error("cudaLibraryGetKernel (" + compiled.cubin.string() + ")", code);
  }
  cudaFuncAttributes attributes{};
  if (const cudaError_t code = cudaFuncGetAttributes(&attributes, static_cast<const void*>(l.kernel)); code != cudaSuccess) {
    cudaLibraryUnload(l.library);
    return cuda_error("cudaFuncGetAttributes (" + compiled.cubin.string() + ")", code);
  }
  l.registers = attributes.numRegs, l.max_threads = attributes.maxThreadsPerBlock;
  const std::lock_guard lock(loaded_mutex);
  const auto [it, inserted] = loaded.emplace(source, l);
  if (!inserted) cudaLibraryUnload(l.library);  // another thread loaded it first
  return it->second;
}

Result<RuntimeKernelRequest> request_for(const GpuInstance& kernel, kernel::InputType input, bool aligned_rows) {
  auto capability = current_compute_capability();
  if (!capability) return capability.error();
  return RuntimeKernelRequest{kernel, input, aligned_rows, runtime_arch(kernel.rung, *capability)};
}

}  // namespace

Result<RuntimeCompiled> prepare_runtime_kernel(const GpuInstance& kernel, kernel::InputType input, bool aligned_rows) {
  // The device's context first: any GPU work pays for it once per process (about 0.1 s on the H100), the cache not.
  GEMMLAB_CUDA_TRY(cudaFree(nullptr));
  const auto start = std::chrono::steady_clock::now();
  auto request = request_for(kernel, input, aligned_rows);
  if (!request) return request.error();
  auto compiled = compile_runtime_kernel(*request);
  if (!compiled) return compiled.error();
  if (auto loaded_kernel = load(runtime_kernel_source(*request), *compiled); !loaded_kernel) return loaded_kernel.error();
  compiled->ready_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return compiled;
}

Result<const void*> runtime_kernel(const GpuInstance& kernel, KernelVariant variant) {
  auto request = request_for(kernel, variant.input, variant.aligned_rows);
  if (!request) return request.error();
  const std::string source = runtime_kernel_source(*request);
  const Loaded* found = find_loaded(source);
  Loaded loaded_now;
  if (found == nullptr) {
    auto compiled = compile_runtime_kernel(*request);
    if (!compiled) return compiled.error();
    auto l = load(source, *compiled);
    if (!l) return l.error();
    loaded_now = *l;
    found = &loaded_now;
  }
  // validate() knew the threads but not the registers: a block the SM's register file cannot hold is a sentence here,
  // not a launch that fails with cudaErrorLaunchOutOfResources.
  const int threads = sim::threads_per_block(kernel.rung, kernel.config);
  if (threads > found->max_threads)
    return Error{"ptxas gave this configuration " + std::to_string(found->registers) +
                 " registers per thread, so a block of it can have at most " + std::to_string(found->max_threads) +
                 " threads, and it has " + std::to_string(threads) + ": use fewer threads or fewer results per thread"};
  return static_cast<const void*>(found->kernel);
}

}  // namespace gemmlab::gpu
