#pragma once
// A GPU as the simulator sees it: SM count, caches, per-SM limits, clocks and peaks. Profiles are data
// (assets/devices/*.json, each field with its public source); the four shipped ones are compiled in from those same
// files, so `h100` always loads, and any other profile can be read from a file.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gemmlab/result.hpp"
#include "gemmlab/sim/problem.hpp"

namespace gemmlab::sim {

// What the time model (time_model.hpp) needs beyond the datasheet: throughputs per SM clock, latencies in SM clocks
// and the clocks the card holds under sustained load, measured on the device by tests/calibration/timing.cu. A
// profile without them still has the roofline; the time model says what is missing.
struct MachineTiming {
  double shared_wavefronts_per_clock_per_sm = 0;  // the L1/shared data pipe: shared-memory wavefronts,
  double global_lines_per_clock_per_sm = 0;       // and the 128-byte lines of global loads (L1 hits)
  double l2_bytes_per_second = 0;                 // L2 to the SMs, all of them reading at once (its own clock)
  double l2_tma_bytes_per_second = 0;  // the same into TMA copies of 128-byte rows (tma_rate.cu); optional: 0 if not
  double dram_bytes_per_second = 0;
  double mma_sync_multiply_adds_per_clock_per_sm = 0;
  double wgmma_multiply_adds_per_clock_per_sm = 0;  // the tensor cores' full rate (the whitepaper's; no probe)
  double latency_l1_cycles = 0, latency_l2_cycles = 0, latency_dram_cycles = 0, latency_shared_cycles = 0;
  double barrier_cycles = 0;
  double sustained_clock_mhz_fma = 0;     // after seconds of FP32 math on every SM
  double sustained_clock_mhz_tensor = 0;  // after seconds of tensor-core GEMM (cuBLAS BF16) on every SM
  // The clock a wgmma kernel runs at, as a line in how busy it keeps the tensor cores (the share of the time they
  // work): the power its multiplies draw lowers the clock. Its two ends, at tensor cores idle and busy all the time,
  // fitted to the clocks ncu counted on the card's Hopper GEMMs (scripts/wgmma-clock-fit.py). Optional: 0 where not
  // measured, and then wgmma kernels run at sustained_clock_mhz_tensor.
  double wgmma_clock_mhz_pipe_idle = 0, wgmma_clock_mhz_pipe_busy = 0;
  bool clock_given = false;               // both clocks were set by with_clock, not measured
  double launch_overhead_seconds = 0;     // what events add to a queued run: an empty kernel queued as the benchmark
                                          // queues its runs (tests/calibration/launch_overhead.cu)
  // TMA copies issued by one thread back to back (tests/calibration/tma_rate.cu): a copy costs a fixed number of SM
  // cycles (the issuing thread's, mostly: two threads halve it) plus its bytes at this rate a cycle.
  double tma_cycles_per_copy = 0, tma_bytes_per_clock_per_sm = 0;
  // An SM streaming from DRAM through TMA stages (tests/calibration/tma_dram.cu, with few SMs streaming): its bytes in
  // flight W arrive at W / (latency + W / rate) a second. Optional: 0 where the profile has not measured it.
  double dram_stream_latency_seconds = 0, dram_stream_bytes_per_second_per_sm = 0;
  // The ring of TMA copies an SM keeps in flight from L2 (tests/calibration/tma_rate.cu's ring, 4 stages of 32 KiB):
  // the time it took one SM alone, and the rate of the L2's queue that every SM's ring then waits in, from the time the
  // same ring took with every SM copying (T = alone + N W / R; scripts/device-profile.py). Optional: 0 where not
  // derived, and then TMA kernels take the L2 at l2_tma_bytes_per_second, their rings' waits not counted apart.
  double tma_ring_alone_seconds = 0, l2_tma_queue_bytes_per_second = 0;
  // What a cluster of two's barriers on entry and before exit (barrier.cluster, as the multicast rungs pass them) add
  // to each wave of blocks: tests/calibration/cluster_waves.cu, the slope of time against waves with the barriers less
  // the slope without a cluster. Optional: 0 where not measured, and then clusters cost nothing apart.
  double cluster_barriers_seconds = 0;
  // Every SM storing C from its accumulators as the epilogues do (8 bytes a lane, a warp's store over 8 rows; the
  // fragment kernel of tests/calibration/dram_write.cu): the bytes a second that reach DRAM. Optional: 0 where not
  // measured, and then writes go at dram_bytes_per_second.
  double dram_write_bytes_per_second = 0;
  // Many SMs streaming TMA boxes one 128-byte panel wide (a stage of B 64 16-bit columns wide) against two panels, at
  // the same bytes in flight (tests/calibration/tma_dram.cu's rows of 48 SMs or more): the fraction of the rate they
  // get. Optional: 0 where not measured, and then such boxes read at the full rate.
  double dram_one_panel_efficiency = 0;
  // The share of the L2's bytes that holds distinct data when every SM reads it: the L2 models' capacity is this
  // share of l2_bytes (l2_held_bytes). Hopper's L2 is two partitions, and a line that SMs on both sides read can be
  // kept in both, so it holds fewer distinct lines than its size says. Fitted to ncu's DRAM reads (docs/fidelity.md);
  // optional: 0 where not measured, and then the models hold the whole L2.
  double l2_held_share = 0;
  // A block that stores its tile of C from its accumulators after its last k-step (a warp-specialised rung without
  // TMA stores) stores at this share of the SM's part of the L2's bandwidth (l2_bytes_per_second / sms), while the
  // blocks of its round do the same. Fitted to the recorded sweeps (docs/time-model.md, "A tile's stores after its
  // k-steps"); optional: 0, and the model counts only the last round's stores (TimePrediction::drain_seconds).
  double epilogue_store_share = 0;
  // A persistent block's time between one tile's k-steps and the next one's that nothing on its SM overlaps: the wait
  // for the tile's last wgmma group, its stores of C, the next tile's first k-step starting (its consumers are the
  // only warps that multiply; ping-pong's, taking turns, hand the turn over); a Stream-K block's switch from one piece
  // of a tile to the next, beside the piece's stores, which it counts apart. Fitted to the recorded short-K and LLM
  // sweeps (docs/time-model.md, "A persistent block's switch between tiles"); optional: 0, and a persistent block's
  // tiles follow one another at no cost.
  double tile_switch_seconds = 0;
};

struct DeviceProfile {
  std::string id;                    // "h100-sxm"
  std::vector<std::string> aliases;  // other names accepted by find_device ("h100")
  // The names CUDA gives the GPUs this profile is of ("NVIDIA H100 80GB HBM3"): find_device_for_gpu.
  std::vector<std::string> cuda_names;
  std::string name;                  // "NVIDIA H100 SXM5 80GB"
  std::string compute_capability;    // "9.0"

  int sms = 0;
  std::int64_t l2_bytes = 0;
  int smem_per_sm_bytes = 0;
  int smem_per_block_optin_bytes = 0;     // the most one block may have (with cudaFuncSetAttribute where above 48 KiB)
  int smem_per_block_default_bytes = 0;   // without the opt-in
  int smem_reserved_per_block_bytes = 0;  // taken by the system from the SM's shared memory for every resident block
  int smem_allocation_unit_bytes = 0;     // a block's shared memory is allocated in multiples of this
  int registers_per_sm = 0;
  int max_registers_per_thread = 0;
  int register_allocation_unit = 0;  // registers are allocated per warp in multiples of this
  int warp_schedulers_per_sm = 0;    // also the register file's partitions; each issues one warp instruction a clock
  int max_threads_per_sm = 0;
  int max_blocks_per_sm = 0;
  int max_threads_per_block = 0;
  int fp32_lanes_per_sm = 0;                    // FP32 FMAs per clock per SM
  int shared_wavefronts_per_clock_per_sm = 0;   // shared-memory wavefronts (128 bytes each) served per clock
  int base_clock_mhz = 0;                       // 0 where the public documents do not give it
  int boost_clock_mhz = 0;
  double fp32_tflops = 0;
  double tensor_tf32_tflops = 0, tensor_fp16_tflops = 0, tensor_bf16_tflops = 0;  // dense; 0: no tensor cores
  double dram_bandwidth_gbs = 0;  // GB/s (10^9 bytes)

  std::optional<MachineTiming> timing;  // measured on the device ("timing" in the profile); absent: no time model

  std::string notes;
  std::vector<std::pair<std::string, std::string>> sources;  // (fields, public document)

  int max_warps_per_sm() const { return max_threads_per_sm / 32; }
};

// The bytes the L2 models hold: l2_bytes times the profile's l2_held_share (MachineTiming), or all of it.
inline std::int64_t l2_held_bytes(const DeviceProfile& d) {
  const double share = d.timing && d.timing->l2_held_share > 0 ? d.timing->l2_held_share : 1.0;
  return static_cast<std::int64_t>(static_cast<double>(d.l2_bytes) * share);
}

// Parses a profile. `origin` names where the text came from ("h100-sxm.json"), for the error message, which names
// the field that is missing or wrong. Every numeric field must be covered by an entry of "sources".
Result<DeviceProfile> parse_device_profile(std::string_view json_text, std::string_view origin);
Result<DeviceProfile> load_device_profile_file(const std::string& path);

// The ids of the compiled-in profiles, in a fixed order (H100 first).
std::span<const std::string_view> builtin_device_ids();
// A built-in profile by id or alias ("h100", "h100-sxm", ...), or a profile file when `name` ends in ".json". An
// unknown name is an error listing the known ones.
Result<DeviceProfile> find_device(std::string_view name);

// The built-in profile of the GPU CUDA names `cuda_name` (cudaDeviceProp::name: "NVIDIA H200"), for commands that
// time on a GPU and predict for it; an error naming the GPUs the profiles are of.
Result<DeviceProfile> find_device_for_gpu(std::string_view cuda_name);

// The profile with its sustained clocks (FP32 and tensor-core) set to `mhz`: the clock a card is known to hold
// (nvidia-smi's clocks.sm under the load), which the time model then assumes. An error for a profile without measured
// timing, whose time model there is none to clock.
Result<DeviceProfile> with_clock(DeviceProfile device, double mhz);
// The device used when none is named: the H100 we measure on (compiled in; the tests check that it loads).
inline constexpr std::string_view kDefaultDevice = "h100";

// The limits validate() checks a configuration against, on this device.
DeviceLimits device_limits(const DeviceProfile& device);

}  // namespace gemmlab::sim
