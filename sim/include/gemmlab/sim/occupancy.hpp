#pragma once
// Occupancy: how many blocks of a configuration fit on one SM at once, which resource runs out first, and how many
// waves of such blocks a grid takes. The rules follow the CUDA occupancy calculator (cuda_occupancy.h): threads in
// whole warps, registers per warp rounded up to the allocation unit and split over the scheduler partitions, shared
// memory rounded up to its allocation unit plus the per-block reservation.
#include <string>
#include <string_view>
#include <vector>

#include "gemmlab/kernel/config.hpp"
#include "gemmlab/result.hpp"
#include "gemmlab/rungs.hpp"
#include "gemmlab/sim/device_profile.hpp"

namespace gemmlab::sim {

// Where a register count comes from: the build's resource usage of a compiled instantiation (measured), the nearest
// compiled configuration of the rung adjusted by estimate_registers (gpu::measured_registers), or estimate_registers
// alone where nothing of the rung is compiled (estimated).
// LaunchBound: the kernel fixes the count every thread launches with (setmaxnreg's __launch_bounds__), so ptxas
// uses exactly that many whether or not this build compiled the configuration.
enum class RegisterSource { Measured, NearestCompiled, Estimated, LaunchBound };
std::string_view to_string(RegisterSource source);

struct RegisterCount {
  int per_thread = 0;
  RegisterSource source = RegisterSource::Estimated;
};

// An ESTIMATE of the registers a rung's thread needs, for configurations with no compiled instantiation: the values
// that stay live across the inner loop (accumulators, fragments, staged tile loads) plus a fixed allowance for
// indices, pointers and loop counters, rounded up to a multiple of 8 as ptxas allocates them. Not capped: above the
// device's maximum the compiler would spill, which occupancy() reports.
RegisterCount estimate_registers(RungId rung, const kernel::KernelConfig& config);

struct BlockResources {
  int threads = 0;
  int smem_bytes = 0;  // static + dynamic shared memory of one block
  RegisterCount registers;
};

// The resources that can cap resident blocks per SM.
enum class OccupancyLimit { Registers, SharedMemory, Threads, BlockSlots };
std::string_view to_string(OccupancyLimit limit);

struct Occupancy {
  BlockResources block;
  int warps_per_block = 0;
  // Resident blocks per SM that each resource alone would allow.
  int blocks_by_registers = 0, blocks_by_smem = 0, blocks_by_threads = 0, blocks_by_slots = 0;
  int blocks_per_sm = 0;                  // the smallest of them
  std::vector<OccupancyLimit> limited_by;  // every resource at that minimum, in the enum's order
  int warps_per_sm = 0;
  double occupancy = 0;  // resident warps / the SM's maximum warps
  int registers_per_warp_allocated = 0;
  int smem_per_block_allocated = 0;  // with the allocation unit and the system's reservation

  // "registers (112 per thread, estimated)": what the first limit is, for a learner.
  std::string limit_sentence() const;
};

// An error when one block cannot run at all (too many threads, registers or shared memory), naming the resource.
Result<Occupancy> occupancy(const DeviceProfile& device, const BlockResources& block);

// Waves: the grid's blocks dispatched blocks_per_wave (= SMs x resident blocks per SM) at a time.
struct Waves {
  int blocks = 0;
  int blocks_per_wave = 0;
  int waves = 0;             // ceil(blocks / blocks_per_wave)
  int last_wave_blocks = 0;  // blocks in the last, possibly partial, wave
  double fractional() const { return blocks_per_wave ? double(blocks) / blocks_per_wave : 0.0; }
};
Waves waves_of(int blocks, int blocks_per_wave);
inline int blocks_per_wave(const DeviceProfile& device, const Occupancy& occ) { return device.sms * occ.blocks_per_sm; }

}  // namespace gemmlab::sim
