// What verify and bench run, and the names they print: plain C++, compiled in the CUDA and the stub build alike.
#include <algorithm>
#include <array>

#include "gemmlab/gpu/bench.hpp"
#include "gemmlab/gpu/instances.hpp"
#include "gemmlab/gpu/verify.hpp"
#include "gemmlab/sim/simulate.hpp"

namespace gemmlab::gpu {

std::string_view to_string(CheckStatus status) {
  switch (status) {
    case CheckStatus::Passed: return "passed";
    case CheckStatus::Failed: return "FAILED";
    case CheckStatus::Refused: return "refused";
  }
  return "?";
}

std::string_view cublas_label(kernel::InputType input) {
  switch (input) {
    case kernel::InputType::F32: return "CUBLAS_COMPUTE_32F";
    case kernel::InputType::F16: return "CUDA_R_16F in, CUBLAS_COMPUTE_32F";
    case kernel::InputType::BF16: return "CUDA_R_16BF in, CUBLAS_COMPUTE_32F";
  }
  return "?";
}

std::string_view to_string(BenchStatus status) {
  switch (status) {
    case BenchStatus::Timed: return "timed";
    case BenchStatus::FailedVerification: return "failed verification";
    case BenchStatus::Refused: return "refused";
  }
  return "?";
}

std::span<const Shape> default_verify_shapes() {
  static constexpr std::array<Shape, 18> shapes{{
      {1, 1, 1}, {7, 7, 7}, {33, 33, 33}, {127, 127, 127}, {1000, 1000, 1000}, {4097, 4097, 4097},
      {67, 45, 33},      // odd in every dimension: the sanitizer's size
      {1, 513, 7},       // a single row of C
      {513, 1, 129},     // a single column
      {129, 257, 1},     // k = 1: one partial k-step
      {1000, 127, 33},   // n not a multiple of 4: the scalar paths, tall
      {36, 68, 4100},    // multiples of 4 with partial tiles and a long k: the 128-bit paths at the edges
      {256, 384, 64},    // exact multiples of every tile: no edge at all
      // The tensor-core rungs copy rows with cp.async.16 when n and k are multiples of 8 (16-byte rows of halves);
      // rungs 15 and 16 copy other rows element by element (the sizes above), rungs 11 to 14 refuse them:
      {67, 40, 72},      // odd m, partial tiles in n and k, aligned rows: the sanitizer's size for them
      {1001, 136, 4104}, // a partial last k-step after 64 whole ones
      {8, 8, 8},         // one chunk of 8 in n and k
      // wmma stores whole 16 x 16 blocks of C and takes m and n in multiples of 16 only:
      {80, 48, 72},      // partial tiles in m, n and k: the sanitizer's size for it
      {1008, 144, 4104}, // a partial last k-step after 64 whole ones
  }};
  return shapes;
}

std::vector<kernel::InputType> inputs_for(const GpuInstance& kernel, std::span<const kernel::InputType> wanted) {
  std::vector<kernel::InputType> out;
  for (const kernel::InputType type : sim::input_types(kernel.rung, kernel.config))
    if (wanted.empty() || std::find(wanted.begin(), wanted.end(), type) != wanted.end()) out.push_back(type);
  return out;
}

Result<std::vector<kernel::InputType>> input_types_to_run(std::span<const GpuInstance> kernels,
                                                         std::span<const kernel::InputType> wanted) {
  std::vector<kernel::InputType> out;
  for (const kernel::InputType type : {kernel::InputType::F32, kernel::InputType::F16, kernel::InputType::BF16})
    for (const GpuInstance& i : kernels) {
      const auto takes = inputs_for(i, wanted);
      if (std::find(takes.begin(), takes.end(), type) != takes.end()) {
        out.push_back(type);
        break;
      }
    }
  if (!out.empty()) return out;
  std::string taken;  // what the selected rungs take, rung by rung
  for (const GpuInstance& i : kernels) {
    const RungInfo& rung = rung_info(i.rung);
    const std::string entry = std::string(rung.slug) + " takes " + std::string(to_string(rung.precision));
    if (taken.find(entry) == std::string::npos) taken += (taken.empty() ? "" : "; ") + entry;
  }
  return Error{"none of the selected kernels takes the input types asked for (" + taken + ")"};
}

Result<std::vector<GpuInstance>> select_instances(std::span<const RungId> rungs, bool all_instances,
                                                  std::span<const GpuInstance> kernels) {
  if (!kernels.empty()) return std::vector<GpuInstance>(kernels.begin(), kernels.end());
  std::vector<RungId> wanted(rungs.begin(), rungs.end());
  if (wanted.empty())
    for (const auto& rung : gemmlab::rungs())
      for (const auto& instance : gpu_instances())
        if (instance.rung == rung.id) {
          wanted.push_back(rung.id);
          break;
        }
  std::vector<GpuInstance> out;
  for (const RungId rung : wanted) {
    bool found = false;
    for (const GpuInstance& instance : gpu_instances()) {
      if (instance.rung != rung || !(all_instances || is_default_instance(instance))) continue;
      out.push_back(instance);
      found = true;
    }
    if (!found)
      return Error{"rung " + std::string(rung_info(rung).slug) + (all_instances ? " has no GPU kernel" : "'s default configuration has no GPU kernel") +
                   " in this build (gpu/include/gemmlab/gpu/instances.def lists the compiled configurations)"};
  }
  return out;
}

}  // namespace gemmlab::gpu
