// gemmlab-cli devices: the CUDA devices this build sees, and the software around them.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "command.hpp"
#include "gemmlab/gpu/device.hpp"

namespace gemmlab::cli {
namespace {

std::string mib(std::int64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  return text;
}
std::string kib(std::int64_t bytes) { return std::to_string(bytes / 1024) + " KiB"; }

nlohmann::json to_json(const gpu::DeviceInfo& d) {
  return {{"index", d.index},
          {"name", d.name},
          {"pci_bus_id", d.pci_bus_id},
          {"compute_capability", std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor)},
          {"sm_count", d.sm_count},
          {"global_memory_bytes", d.global_memory_bytes},
          {"l2_bytes", d.l2_bytes},
          {"smem_per_sm_bytes", d.smem_per_sm_bytes},
          {"smem_per_block_bytes", d.smem_per_block_bytes},
          {"smem_per_block_optin_bytes", d.smem_per_block_optin_bytes},
          {"registers_per_sm", d.registers_per_sm},
          {"max_threads_per_sm", d.max_threads_per_sm},
          {"max_blocks_per_sm", d.max_blocks_per_sm},
          {"sm_clock_max_mhz", d.sm_clock_max_mhz},
          {"sm_clock_now_mhz", d.sm_clock_now_mhz},
          {"memory_clock_max_mhz", d.memory_clock_max_mhz},
          {"memory_bus_width_bits", d.memory_bus_width_bits}};
}

void print_device(const gpu::DeviceInfo& d) {
  std::cout << "[" << d.index << "] " << d.name << "  (sm_" << d.cc_major << d.cc_minor << ", PCI " << d.pci_bus_id
            << ")\n"
            << "    SMs             " << d.sm_count << "\n"
            << "    L2 cache        " << mib(d.l2_bytes) << "\n"
            << "    shared memory   " << kib(d.smem_per_sm_bytes) << " per SM, " << kib(d.smem_per_block_bytes)
            << " per block (" << kib(d.smem_per_block_optin_bytes) << " opt-in)\n"
            << "    registers       " << d.registers_per_sm << " per SM\n"
            << "    residency       " << d.max_threads_per_sm << " threads, " << d.max_blocks_per_sm
            << " blocks per SM\n"
            << "    clocks          SM " << d.sm_clock_max_mhz << " MHz max";
  if (d.sm_clock_now_mhz > 0) std::cout << " (" << d.sm_clock_now_mhz << " MHz now)";
  std::cout << ", memory " << d.memory_clock_max_mhz << " MHz max\n"
            << "    memory          " << mib(d.global_memory_bytes) << ", " << d.memory_bus_width_bits
            << "-bit bus\n";
}

}  // namespace

Command add_devices_command(CLI::App& parent) {
  auto* sub = parent.add_subcommand("devices", "Show the CUDA devices and the driver, CUDA and cuBLAS versions");
  auto json = std::make_shared<bool>(false);
  sub->add_flag("--json", *json, "Print JSON instead of text");
  return {sub, [json] {
            const auto devices = gpu::list_devices();
            const auto versions = gpu::software_versions();
            if (*json) {
              nlohmann::json out;
              if (devices) {
                out["devices"] = nlohmann::json::array();
                for (const auto& d : *devices) out["devices"].push_back(to_json(d));
              } else {
                out["error"] = devices.error().message;
              }
              if (versions)
                out["software"] = {{"driver", versions->driver},
                                   {"driver_cuda", gpu::format_cuda_version(versions->driver_cuda_version)},
                                   {"runtime_cuda", gpu::format_cuda_version(versions->runtime_version)},
                                   {"cublas", versions->cublas}};
              std::cout << out.dump(2) << "\n";
              return devices ? kExitOk : kExitFailed;
            }
            if (versions) {
              if (versions->driver_cuda_version == 0) std::cout << "software: no NVIDIA driver";
              else
                std::cout << "software: driver " << (versions->driver.empty() ? "unknown" : versions->driver)
                          << " (supports CUDA " << gpu::format_cuda_version(versions->driver_cuda_version) << ")";
              std::cout << ", CUDA runtime " << gpu::format_cuda_version(versions->runtime_version) << ", cuBLAS "
                        << versions->cublas << "\n";
            }
            if (!devices) {
              std::cerr << "gemmlab-cli: " << devices.error().message << "\n";
              return kExitFailed;
            }
            for (const auto& d : *devices) print_device(d);
            return kExitOk;
          }};
}

}  // namespace gemmlab::cli
