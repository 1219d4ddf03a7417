#include "gemmlab/sim/roofline.hpp"

#include <algorithm>
#include <cstdio>

#include "wording.hpp"

namespace gemmlab::sim {
namespace {

using wording::amount;
using wording::duration;
using wording::format;

std::string explain(const Roofline& r, const DeviceProfile& d, const L2Result& l2, const Counters& k) {
  const LimiterTime& top = r.limit(r.bottleneck);
  const std::string t = duration(top.seconds);
  std::string s;
  switch (r.bottleneck) {
    case Limiter::FmaUnits:
      s = "The FP32 units are the limit: the " + amount(top.work) + " multiply-adds take " + t + " at the " +
          format("%.1f", d.fp32_tflops) +
          " TFLOPS peak, longer than any memory path needs; only more FLOPs per clock (tensor cores) would go faster.";
      break;
    case Limiter::TensorCores:
      s = "The tensor cores are the limit: the " + amount(top.work) + " multiply-adds take " + t + " at the " +
          format("%.0f", d.tensor_fp16_tflops) +
          " TFLOPS FP16 peak (a datasheet figure: mma.sync reaches less of it than Hopper's wgmma), longer than any "
          "memory path needs.";
      break;
    case Limiter::InstructionIssue:
      s = "Instruction issue is the limit: the warps issue " + amount(top.work) + " instructions (" +
          format("%.0f", 100 * r.fma_instruction_share) + "% of them " +
          (r.limit(Limiter::TensorCores).work > 0 ? "mma" : "FMAs") + ") and each SM issues " +
          std::to_string(d.warp_schedulers_per_sm) + " per clock, which takes " + t +
          ": every load instruction takes an issue slot an FMA could have used, so fewer loads per FMA (wider loads, "
          "larger register tiles) would help.";
      break;
    case Limiter::SharedMemory:
      s = "Shared memory is the limit: the whole kernel's " + amount(top.work) + " wavefronts (all SMs) at " +
          std::to_string(d.shared_wavefronts_per_clock_per_sm) + " per clock per SM take " + t +
          ", longer than the math (" +
          duration(std::max(r.limit(Limiter::FmaUnits).seconds, r.limit(Limiter::TensorCores).seconds)) +
          (k.shared_loads().bank_conflicts() + k.shared_stores().bank_conflicts() > 0
               ? "); fewer bank conflicts, wider shared loads or more reuse of each loaded value in registers would help."
               : "); its accesses are already free of bank conflicts, so wider shared loads or more reuse of each "
                 "loaded value in registers would help.");
      break;
    case Limiter::Dram:
      s = "DRAM bandwidth is the limit: " + format("%.2f", top.work / 1e9) + " GB move between DRAM and L2 (" +
          format("%.1f", 100 * l2.reads().hit_rate()) + "% of reads hit in L2), which takes " + t + " at " +
          format("%.0f", d.dram_bandwidth_gbs) +
          " GB/s; better L2 reuse (a grouped launch order) or larger tiles would help.";
      break;
  }
  return s + " A roofline is an upper bound: it leaves out latency, so few resident warps can make the kernel slower.";
}

}  // namespace

std::string_view to_string(Limiter limiter) {
  switch (limiter) {
    case Limiter::FmaUnits: return "FP32 units";
    case Limiter::TensorCores: return "tensor cores";
    case Limiter::InstructionIssue: return "instruction issue";
    case Limiter::SharedMemory: return "shared memory";
    case Limiter::Dram: return "DRAM";
  }
  return "?";
}

Result<Roofline> roofline(const RooflineInput& in, const DeviceProfile& d) {
  if (in.kernel == nullptr || in.l2 == nullptr || in.blocks < 1)
    return Error{"the roofline needs the kernel's counters, its L2 traffic and at least one block"};
  const L2Result& l2 = *in.l2;
  if (l2.per_wave.empty()) return Error{"the roofline needs the L2 model's waves"};

  const double clock_hz = d.boost_clock_mhz * 1e6;
  // What one SM does per second, for each SM-local resource. FP16 and BF16 mma share a peak on every profile.
  const double fma_per_sm = d.fp32_tflops * 1e12 / 2 / d.sms;
  const double tensor_per_sm = d.tensor_fp16_tflops * 1e12 / 2 / d.sms;
  const double issue_per_sm = d.warp_schedulers_per_sm * clock_hz;
  const double wavefronts_per_sm = d.shared_wavefronts_per_clock_per_sm * clock_hz;
  const double dram_per_s = d.dram_bandwidth_gbs * 1e9;

  const Counters& k = *in.kernel;
  double memory_instructions = 0, wavefronts = 0;
  for (int i = 0; i < kOpClassCount; ++i) {
    memory_instructions += double(k.ops[static_cast<std::size_t>(i)].instructions);
    if (op_class_is_shared(i)) wavefronts += double(k.ops[static_cast<std::size_t>(i)].wavefronts);
  }
  Roofline r;
  r.useful_flops = 2.0 * in.problem.m * in.problem.n * double(in.problem.k);
  // A wgmma is issued by each of its warpgroup's 4 warps.
  const double math_instructions = double(k.fma) / 32 + double(k.mma) + 4.0 * double(k.wgmma);
  const double tensor_macs = double(k.tensor_multiply_adds());
  r.warp_instructions = math_instructions + memory_instructions;
  r.fma_instruction_share = r.warp_instructions > 0 ? math_instructions / r.warp_instructions : 0;
  if (tensor_macs > 0 && tensor_per_sm <= 0)
    return Error{"the " + d.name + " profile has no FP16 tensor-core rate (tensor_tflops.fp16 is 0): it cannot run "
                 "tensor-core rungs"};

  // Per block, on one SM with nothing else running.
  const double blocks = in.blocks;
  const double block_seconds[] = {double(k.fma) / blocks / fma_per_sm, r.warp_instructions / blocks / issue_per_sm,
                                  wavefronts / blocks / wavefronts_per_sm,
                                  tensor_macs > 0 ? tensor_macs / blocks / tensor_per_sm : 0.0};
  const double work[] = {double(k.fma), r.warp_instructions, wavefronts,
                         double(l2.dram_read_bytes + l2.dram_write_bytes), tensor_macs};
  const double rate[] = {fma_per_sm * d.sms, issue_per_sm * d.sms, wavefronts_per_sm * d.sms, dram_per_s,
                         tensor_per_sm * d.sms};
  double totals[5] = {0, 0, 0, 0, 0};
  for (const WaveTraffic& wave : l2.per_wave) {
    // The busiest SM of the wave runs ceil(blocks / SMs) of its blocks, one after another or sharing the SM.
    const double rounds = (wave.blocks + d.sms - 1) / d.sms;
    const double seconds[] = {rounds * block_seconds[0], rounds * block_seconds[1], rounds * block_seconds[2],
                              double(wave.dram_read_bytes + wave.dram_write_bytes) / dram_per_s,
                              rounds * block_seconds[3]};
    for (int i = 0; i < 5; ++i) totals[i] += seconds[i];
    r.wave_seconds.push_back(*std::max_element(std::begin(seconds), std::end(seconds)));
    r.predicted_seconds += r.wave_seconds.back();
  }
  for (const Limiter l : kLimiters) {
    const auto i = static_cast<std::size_t>(l);
    r.limits.push_back({l, totals[i], work[i], rate[i]});
  }
  r.bottleneck = std::max_element(r.limits.begin(), r.limits.end(), [](const LimiterTime& a, const LimiterTime& b) {
                   return a.seconds < b.seconds;
                 })->limiter;
  r.predicted_tflops = r.predicted_seconds > 0 ? r.useful_flops / r.predicted_seconds / 1e12 : 0;
  r.explanation = explain(r, d, l2, k);
  return r;
}

}  // namespace gemmlab::sim
