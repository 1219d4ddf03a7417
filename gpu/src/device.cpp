// Device and version queries through the CUDA runtime, cuBLAS and (where the driver ships it) NVML.
#include "gemmlab/gpu/device.hpp"

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <array>

#include "cuda_error.hpp"

namespace gemmlab::gpu {
namespace {

// NVML comes with the driver, not the toolkit: it is opened at run time so that the tools still start on machines
// without a driver. Only these few entry points are used; their C signatures are stable across NVML versions.
class Nvml {
 public:
  Nvml() {
    lib_ = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib_) return;
    init_ = reinterpret_cast<InitFn>(dlsym(lib_, "nvmlInit_v2"));
    shutdown_ = reinterpret_cast<ShutdownFn>(dlsym(lib_, "nvmlShutdown"));
    driver_version_ = reinterpret_cast<DriverVersionFn>(dlsym(lib_, "nvmlSystemGetDriverVersion"));
    handle_by_bus_ = reinterpret_cast<HandleByBusFn>(dlsym(lib_, "nvmlDeviceGetHandleByPciBusId_v2"));
    clock_info_ = reinterpret_cast<ClockInfoFn>(dlsym(lib_, "nvmlDeviceGetClockInfo"));
    ready_ = init_ && shutdown_ && init_() == 0;
  }
  ~Nvml() {
    if (ready_) shutdown_();
    if (lib_) dlclose(lib_);
  }
  Nvml(const Nvml&) = delete;
  Nvml& operator=(const Nvml&) = delete;

  std::string driver_version() const {
    std::array<char, 96> text{};
    if (!ready_ || !driver_version_ || driver_version_(text.data(), text.size()) != 0) return {};
    return text.data();
  }

  int sm_clock_mhz(const std::string& pci_bus_id) const {
    constexpr int kClockSm = 1;  // NVML_CLOCK_SM
    void* device = nullptr;
    unsigned mhz = 0;
    if (!ready_ || !handle_by_bus_ || !clock_info_) return 0;
    if (handle_by_bus_(pci_bus_id.c_str(), &device) != 0) return 0;
    if (clock_info_(device, kClockSm, &mhz) != 0) return 0;
    return static_cast<int>(mhz);
  }

 private:
  using InitFn = int (*)();
  using ShutdownFn = int (*)();
  using DriverVersionFn = int (*)(char*, unsigned);
  using HandleByBusFn = int (*)(const char*, void**);
  using ClockInfoFn = int (*)(void*, int, unsigned*);
  void* lib_ = nullptr;
  InitFn init_ = nullptr;
  ShutdownFn shutdown_ = nullptr;
  DriverVersionFn driver_version_ = nullptr;
  HandleByBusFn handle_by_bus_ = nullptr;
  ClockInfoFn clock_info_ = nullptr;
  bool ready_ = false;
};

Result<int> attribute(cudaDeviceAttr attr, int device) {
  int value = 0;
  GEMMLAB_CUDA_TRY(cudaDeviceGetAttribute(&value, attr, device));
  return value;
}

Result<DeviceInfo> query_device(int device, const Nvml& nvml) {
  cudaDeviceProp prop{};
  GEMMLAB_CUDA_TRY(cudaGetDeviceProperties(&prop, device));
  DeviceInfo info;
  info.index = device;
  info.name = prop.name;
  info.cc_major = prop.major;
  info.cc_minor = prop.minor;
  info.sm_count = prop.multiProcessorCount;
  info.global_memory_bytes = static_cast<std::int64_t>(prop.totalGlobalMem);
  info.l2_bytes = prop.l2CacheSize;
  info.smem_per_sm_bytes = static_cast<std::int64_t>(prop.sharedMemPerMultiprocessor);
  info.smem_per_block_bytes = static_cast<std::int64_t>(prop.sharedMemPerBlock);
  info.smem_per_block_optin_bytes = static_cast<std::int64_t>(prop.sharedMemPerBlockOptin);
  info.registers_per_sm = prop.regsPerMultiprocessor;
  info.max_threads_per_sm = prop.maxThreadsPerMultiProcessor;
  info.max_blocks_per_sm = prop.maxBlocksPerMultiProcessor;
  info.memory_bus_width_bits = prop.memoryBusWidth;

  // CUDA 13 dropped the clock fields from cudaDeviceProp; the attributes remain (in kHz).
  const auto sm_khz = attribute(cudaDevAttrClockRate, device);
  if (!sm_khz) return sm_khz.error();
  const auto mem_khz = attribute(cudaDevAttrMemoryClockRate, device);
  if (!mem_khz) return mem_khz.error();
  info.sm_clock_max_mhz = *sm_khz / 1000;
  info.memory_clock_max_mhz = *mem_khz / 1000;

  std::array<char, 32> bus{};
  GEMMLAB_CUDA_TRY(cudaDeviceGetPCIBusId(bus.data(), static_cast<int>(bus.size()), device));
  info.pci_bus_id = bus.data();
  info.sm_clock_now_mhz = nvml.sm_clock_mhz(info.pci_bus_id);
  return info;
}

}  // namespace

bool built_with_cuda() { return true; }

Result<std::vector<DeviceInfo>> list_devices() {
  int count = 0;
  if (const cudaError_t code = cudaGetDeviceCount(&count); code != cudaSuccess) {
    int driver = 0;
    if (code == cudaErrorInsufficientDriver && cudaDriverGetVersion(&driver) == cudaSuccess && driver == 0)
      return Error{"no CUDA device: no NVIDIA driver is installed on this machine"};
    return Error{std::string("no CUDA device: ") + cudaGetErrorString(code) + " (" + cudaGetErrorName(code) + ")"};
  }
  if (count == 0) return Error{"no CUDA device: the driver reports none"};
  const Nvml nvml;
  std::vector<DeviceInfo> devices;
  for (int device = 0; device < count; ++device) {
    auto info = query_device(device, nvml);
    if (!info) return info.error();
    devices.push_back(std::move(info).value());
  }
  return devices;
}

Result<SoftwareVersions> software_versions() {
  SoftwareVersions versions;
  GEMMLAB_CUDA_TRY(cudaRuntimeGetVersion(&versions.runtime_version));
  // Without a driver this reports 0 rather than failing; the device list says why there is no device.
  GEMMLAB_CUDA_TRY(cudaDriverGetVersion(&versions.driver_cuda_version));
  int major = 0, minor = 0, patch = 0;
  if (const auto code = cublasGetProperty(MAJOR_VERSION, &major); code != CUBLAS_STATUS_SUCCESS)
    return cublas_error("cublasGetProperty", code);
  if (const auto code = cublasGetProperty(MINOR_VERSION, &minor); code != CUBLAS_STATUS_SUCCESS)
    return cublas_error("cublasGetProperty", code);
  if (const auto code = cublasGetProperty(PATCH_LEVEL, &patch); code != CUBLAS_STATUS_SUCCESS)
    return cublas_error("cublasGetProperty", code);
  versions.cublas = std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
  versions.driver = Nvml().driver_version();
  return versions;
}

}  // namespace gemmlab::gpu
