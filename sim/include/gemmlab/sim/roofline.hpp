#pragma once
// The roofline: for each resource a kernel needs - the FP32 units, the instruction issue slots, shared-memory
// bandwidth and DRAM bandwidth - the time it would take if nothing else mattered, from the simulated counters, the
// L2 model's DRAM bytes and the device's peaks. Each wave takes as long as its slowest resource; the kernel, the sum
// of its waves. It is an upper bound on speed: latency, barriers, address arithmetic and the L2's own bandwidth are
// not in it (docs/scheduling.md).
#include <string>
#include <string_view>
#include <vector>

#include "gemmlab/rungs.hpp"
#include "gemmlab/sim/counters.hpp"
#include "gemmlab/sim/device_profile.hpp"
#include "gemmlab/sim/l2_model.hpp"
#include "gemmlab/sim/problem.hpp"

namespace gemmlab::sim {

// The math units are two limiters: the FP32 units (FFMA) and the tensor cores (mma); a rung uses one of them.
enum class Limiter { FmaUnits, InstructionIssue, SharedMemory, Dram, TensorCores };
inline constexpr Limiter kLimiters[] = {Limiter::FmaUnits, Limiter::InstructionIssue, Limiter::SharedMemory,
                                        Limiter::Dram, Limiter::TensorCores};
std::string_view to_string(Limiter limiter);

struct LimiterTime {
  Limiter limiter = Limiter::FmaUnits;
  double seconds = 0;  // the whole kernel's time, if this were the only limit
  double work = 0;     // what is counted: FMAs, warp instructions, wavefronts or bytes
  double rate = 0;     // the device's peak for it, per second
};

// Whether a kernel uses the resource at all: a rung computes on the FP32 units or on the tensor cores, not both, and
// the other one's row is noise in a table.
inline bool in_use(const LimiterTime& l) {
  return l.work > 0 || (l.limiter != Limiter::FmaUnits && l.limiter != Limiter::TensorCores);
}

struct Roofline {
  double useful_flops = 0;           // 2 m n k
  double warp_instructions = 0;      // FMA (thread FMAs / 32), mma and memory instructions, over the kernel
  double fma_instruction_share = 0;  // the math instructions' (FFMA and mma) share of those
  std::vector<LimiterTime> limits;   // one per Limiter, in kLimiters' order
  Limiter bottleneck = Limiter::FmaUnits;
  std::vector<double> wave_seconds;  // each wave: its slowest resource
  double predicted_seconds = 0;      // the sum of the waves
  double predicted_tflops = 0;       // useful FLOPs / predicted time
  std::string explanation;           // the bottleneck, in a sentence a learner understands

  const LimiterTime& limit(Limiter l) const { return limits[static_cast<std::size_t>(l)]; }
};

struct RooflineInput {
  RungId rung;
  Problem problem;
  const Counters* kernel = nullptr;  // the whole kernel's counters (simulate_kernel)
  int blocks = 0;
  const L2Result* l2 = nullptr;      // DRAM bytes, per wave
};

Result<Roofline> roofline(const RooflineInput& input, const DeviceProfile& device);

}  // namespace gemmlab::sim
