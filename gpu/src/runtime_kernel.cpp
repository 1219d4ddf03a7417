// Loading run-time compiled kernels (CUDA builds): each cubin once per process, as a CUDA library whose one kernel,
// gemmlab_runtime_kernel, launch_gemm launches like a compiled one.
#include "runtime_kernel.hpp"

#include <cuda_runtime.h>

#include <chrono>
#include <filesystem>
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

// Kept for the process's life: a kernel handle handed out may be launched at any later time. By launch_key: a look-up
// per launch costs a short string, not the headers' hash.
std::mutex loaded_mutex;
std::map<std::string, Loaded> loaded;

// The rung, every knob, the variant and the device: everything a loaded kernel depends on within one process.
std::string launch_key(const GpuInstance& kernel, KernelVariant variant, int device) {
  std::string key = std::to_string(static_cast<int>(kernel.rung));
  for (const auto& knob : sim::all_knobs()) key.append(",").append(std::to_string(kernel.config.*knob.field));
  key.append(",").append(std::to_string(static_cast<int>(variant.input)));
  key.append(variant.aligned_rows ? ",a," : ",u,");
  if (variant.traced) key.append("t").append(std::to_string(variant.stamped_tiles)).append(",");
  key.append(std::to_string(device));
  return key;
}

const Loaded* find_loaded(const std::string& key) {
  const std::lock_guard lock(loaded_mutex);
  const auto it = loaded.find(key);
  return it == loaded.end() ? nullptr : &it->second;  // std::map: the element stays where it is
}

Result<std::string> current_compute_capability() {
  int device = 0, major = 0, minor = 0;
  GEMMLAB_CUDA_TRY(cudaGetDevice(&device));
  GEMMLAB_CUDA_TRY(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  GEMMLAB_CUDA_TRY(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  return std::to_string(major) + "." + std::to_string(minor);
}

Result<Loaded> load_cubin(const RuntimeCompiled& compiled) {
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
  return l;
}

// Compiles or finds the request's cubin and loads it, once per key. A cached cubin that does not load (a damaged file)
// is removed and compiled again, once.
Result<RuntimeCompiled> compile_and_load(const RuntimeKernelRequest& request, const std::string& key) {
  if (find_loaded(key)) {
    auto compiled = compile_runtime_kernel(request);  // from the cache: for its figures
    if (compiled) compiled->from_cache = true;
    return compiled;
  }
  auto compiled = compile_runtime_kernel(request);
  if (!compiled) return compiled.error();
  auto l = load_cubin(*compiled);
  if (!l && compiled->from_cache) {
    std::error_code ec;
    std::filesystem::remove(compiled->cubin, ec);
    compiled = compile_runtime_kernel(request);
    if (!compiled) return compiled.error();
    l = load_cubin(*compiled);
  }
  if (!l) return l.error();
  const std::lock_guard lock(loaded_mutex);
  if (!loaded.emplace(key, *l).second) cudaLibraryUnload(l->library);  // another thread loaded it first
  return compiled;
}

Result<RuntimeKernelRequest> request_for(const GpuInstance& kernel, KernelVariant variant) {
  auto capability = current_compute_capability();
  if (!capability) return capability.error();
  return RuntimeKernelRequest{kernel, variant.input, variant.aligned_rows, runtime_arch(kernel.rung, *capability),
                              variant.traced, variant.stamped_tiles};
}

}  // namespace

Result<RuntimeCompiled> prepare_runtime_kernel(const GpuInstance& kernel, KernelVariant variant, int device) {
  // The device's context first: any GPU work pays for it once per process (about 0.1 s on the H100), the cache not.
  GEMMLAB_CUDA_TRY(cudaSetDevice(device));
  GEMMLAB_CUDA_TRY(cudaFree(nullptr));
  const auto start = std::chrono::steady_clock::now();
  auto request = request_for(kernel, variant);
  if (!request) return request.error();
  auto compiled = compile_and_load(*request, launch_key(kernel, variant, device));
  if (!compiled) return compiled.error();
  compiled->ready_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return compiled;
}

Result<const void*> runtime_kernel(const GpuInstance& kernel, KernelVariant variant) {
  int device = 0;
  GEMMLAB_CUDA_TRY(cudaGetDevice(&device));
  const std::string key = launch_key(kernel, variant, device);
  const Loaded* found = find_loaded(key);
  if (found == nullptr) {
    auto request = request_for(kernel, variant);
    if (!request) return request.error();
    if (auto compiled = compile_and_load(*request, key); !compiled) return compiled.error();
    found = find_loaded(key);
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
