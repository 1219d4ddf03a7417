#pragma once
// What the GPU side knows about the machine: its CUDA devices and the software around them.
// Plain C++ (no CUDA types), so the CLI and the desktop app include it whether or not CUDA is built in.
#include <cstdint>
#include <string>
#include <vector>

#include "gemmlab/result.hpp"

namespace gemmlab::gpu {

struct DeviceInfo {
  int index = 0;
  std::string name;
  std::string pci_bus_id;
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  std::int64_t global_memory_bytes = 0;
  std::int64_t l2_bytes = 0;
  std::int64_t smem_per_sm_bytes = 0;
  std::int64_t smem_per_block_bytes = 0;        // without opting in
  std::int64_t smem_per_block_optin_bytes = 0;  // with cudaFuncSetAttribute
  int registers_per_sm = 0;
  int max_threads_per_sm = 0;
  int max_blocks_per_sm = 0;
  int sm_clock_max_mhz = 0;
  int memory_clock_max_mhz = 0;
  int memory_bus_width_bits = 0;
  int sm_clock_now_mhz = 0;  // from NVML at the time of the query; 0 where NVML is unavailable
};

struct SoftwareVersions {
  std::string driver;          // e.g. "580.159.04" from NVML; empty where NVML is unavailable
  int driver_cuda_version = 0;  // the CUDA version the driver supports, e.g. 13000
  int runtime_version = 0;      // the CUDA runtime this build uses
  std::string cublas;           // e.g. "13.0.2"
};

// True when this build contains the CUDA kernels (false for the stub).
bool built_with_cuda();

// Every CUDA device, or an error saying why there is none ("no CUDA device: ...").
Result<std::vector<DeviceInfo>> list_devices();

Result<SoftwareVersions> software_versions();

// Launches a small kernel on the device and checks what it wrote: proves that kernels of this build run there.
Status launch_self_test(int device);

// "13.0" from 13000.
std::string format_cuda_version(int version);
// The time now in UTC, as the reports stamp their runs: "2026-11-28T13:36:43Z".
std::string utc_now();
// "13.0" -> 13000, the other way (0 for text that is not a version).
int parse_cuda_version(const std::string& text);

}  // namespace gemmlab::gpu
