#include "gemmlab/sim/occupancy.hpp"

#include <algorithm>

#include "dispatch.hpp"
#include "gemmlab/listed.hpp"
#include "gemmlab/sim/rung_model.hpp"

namespace gemmlab::sim {
namespace {

int round_up(int value, int unit) { return (value + unit - 1) / unit * unit; }

// Registers a thread keeps live besides its tile data: the thread and block indices, three matrix pointers (two
// registers each), strides, loop counters, alpha and beta. A round figure; compiled kernels replace the estimate.
constexpr int kOverheadRegisters = 32;

}  // namespace

std::string_view to_string(RegisterSource source) {
  switch (source) {
    case RegisterSource::Measured: return "measured";
    case RegisterSource::NearestCompiled: return "estimated from the nearest compiled configuration";
    case RegisterSource::Estimated: return "estimated";
    case RegisterSource::LaunchBound: return "set by the kernel's launch bound";
  }
  return "?";
}

std::string_view to_string(OccupancyLimit limit) {
  switch (limit) {
    case OccupancyLimit::Registers: return "registers";
    case OccupancyLimit::SharedMemory: return "shared memory";
    case OccupancyLimit::Threads: return "threads";
    case OccupancyLimit::BlockSlots: return "block slots";
  }
  return "?";
}

RegisterCount estimate_registers(RungId rung, const kernel::KernelConfig& c) {
  if (const auto fixed = launch_registers(rung, c)) return {*fixed, RegisterSource::LaunchBound};
  // Each rung's description says what its threads keep live (kernel/rungs/*.hpp, live_registers).
  const auto live = with_kernel<Result<int>>(rung, [&]<class K>() -> Result<int> { return K::live_registers(c); });
  return {round_up((live ? *live : 0) + kOverheadRegisters, 8), RegisterSource::Estimated};
}

std::string Occupancy::limit_sentence() const {
  return listed(limited_by, [&](OccupancyLimit limit) -> std::string {
    switch (limit) {
      case OccupancyLimit::Registers:
        return "registers (" + std::to_string(block.registers.per_thread) + " per thread, " +
               std::string(to_string(block.registers.source)) + ")";
      case OccupancyLimit::SharedMemory:
        return "shared memory (" + std::to_string(smem_per_block_allocated) +
               " bytes allocated per block: its own, rounded up, and the system's reserve)";
      case OccupancyLimit::Threads: return "threads (" + std::to_string(block.threads) + " per block)";
      case OccupancyLimit::BlockSlots: return "the SM's block slots";
    }
    return "";
  });
}

Result<Occupancy> occupancy(const DeviceProfile& d, const BlockResources& block) {
  Occupancy o;
  o.block = block;
  if (block.threads < 1 || block.threads > d.max_threads_per_block)
    return Error{"a block of " + std::to_string(block.threads) + " threads cannot run on the " + d.name +
                 ": it takes 1 to " + std::to_string(d.max_threads_per_block) + " threads per block"};
  if (block.smem_bytes < 0 || block.smem_bytes > d.smem_per_block_optin_bytes)
    return Error{"a block with " + std::to_string(block.smem_bytes) + " bytes of shared memory cannot run on the " +
                 d.name + ": the most one block may have is " + std::to_string(d.smem_per_block_optin_bytes) + " bytes"};
  if (block.registers.per_thread < 1 || block.registers.per_thread > d.max_registers_per_thread)
    return Error{std::to_string(block.registers.per_thread) + " registers per thread (" +
                 std::string(to_string(block.registers.source)) + ") is more than the " +
                 std::to_string(d.max_registers_per_thread) + " a thread can have on the " + d.name +
                 ": the compiler would spill to local memory; give each thread fewer results (a smaller thread tile, tm and tn, or warp tile, wm and wn)"};

  o.warps_per_block = (block.threads + 31) / 32;
  // Registers: allocated per warp in units, and a warp's registers come from one of the scheduler partitions.
  o.registers_per_warp_allocated = round_up(block.registers.per_thread * 32, d.register_allocation_unit);
  const int warps_per_partition = d.registers_per_sm / d.warp_schedulers_per_sm / o.registers_per_warp_allocated;
  o.blocks_by_registers = warps_per_partition * d.warp_schedulers_per_sm / o.warps_per_block;
  if (o.blocks_by_registers == 0)
    return Error{"a block of " + std::to_string(block.threads) + " threads with " +
                 std::to_string(block.registers.per_thread) + " registers each (" +
                 std::string(to_string(block.registers.source)) + ") needs more registers than an SM of the " + d.name +
                 " has: use fewer threads or fewer results per thread"};
  // Shared memory: rounded up to the allocation unit, plus what the system reserves for every resident block.
  o.smem_per_block_allocated = round_up(block.smem_bytes, d.smem_allocation_unit_bytes) + d.smem_reserved_per_block_bytes;
  o.blocks_by_smem = o.smem_per_block_allocated == 0 ? d.max_blocks_per_sm : d.smem_per_sm_bytes / o.smem_per_block_allocated;
  o.blocks_by_threads = d.max_warps_per_sm() / o.warps_per_block;
  o.blocks_by_slots = d.max_blocks_per_sm;

  o.blocks_per_sm = std::min({o.blocks_by_registers, o.blocks_by_smem, o.blocks_by_threads, o.blocks_by_slots});
  const std::pair<OccupancyLimit, int> candidates[] = {{OccupancyLimit::Registers, o.blocks_by_registers},
                                                       {OccupancyLimit::SharedMemory, o.blocks_by_smem},
                                                       {OccupancyLimit::Threads, o.blocks_by_threads},
                                                       {OccupancyLimit::BlockSlots, o.blocks_by_slots}};
  for (const auto& [limit, blocks] : candidates)
    if (blocks == o.blocks_per_sm) o.limited_by.push_back(limit);
  o.warps_per_sm = o.blocks_per_sm * o.warps_per_block;
  o.occupancy = double(o.warps_per_sm) / d.max_warps_per_sm();
  return o;
}

Waves waves_of(int blocks, int per_wave) {
  Waves w;
  w.blocks = blocks;
  w.blocks_per_wave = per_wave;
  if (per_wave <= 0 || blocks <= 0) return w;
  w.waves = (blocks + per_wave - 1) / per_wave;
  w.last_wave_blocks = blocks - (w.waves - 1) * per_wave;
  return w;
}

}  // namespace gemmlab::sim
