#pragma once
// Options that verify and bench share: --rungs, --sizes and --order, turned into the GPU library's types.
#include <string>
#include <vector>

#include "gemmlab/gpu/instances.hpp"
#include "gemmlab/gpu/shapes.hpp"
#include "gemmlab/kernel/block_order.hpp"
#include "gemmlab/kernel/element.hpp"
#include "gemmlab/result.hpp"
#include "gemmlab/rungs.hpp"
#include "gemmlab/sim/device_profile.hpp"

namespace CLI {
class Validator;
}

namespace gemmlab::cli {

// For --rungs and --sizes: an empty list given on purpose ("--sizes ''") is an error, not the defaults.
CLI::Validator non_empty_list();

// "cp-async,8" -> the rungs named by slug or ladder number; empty text -> empty (every rung).
Result<std::vector<RungId>> parse_rung_list(const std::string& text);

// --devices: "all" or "0,1", CUDA device indices, each one this machine has (errors name the missing one).
Result<std::vector<int>> parse_device_list(const std::string& text);
// The GPUs a command that times (tune, sweep) times on: --devices' list where it is given and something is timed
// (`timing`), else --device alone. Errors are parse_device_list's, said as --devices'.
Result<std::vector<int>> timing_devices(const std::string& devices, int device, bool timing);

// --profile of a command that times on a GPU and predicts beside it (tune, sweep, trace): a profile's name, or
// kAutoProfile, the default: the shipped profile of the GPU that times (CUDA device `device`), found by the name CUDA
// gives it (sim::find_device_for_gpu); where nothing is timed (`timing` false), no GPU answers or no profile is of that
// GPU (with a line on stderr), sim::kDefaultDevice. With `recorded_gpu` (a recorded run's GPU, for --rescore), that
// GPU's profile.
inline constexpr const char* kAutoProfile = "auto";
Result<sim::DeviceProfile> timing_profile_flag(const std::string& name, int device, bool timing,
                                               const std::string& recorded_gpu = {});

// What --rungs, --sizes, --order and --inputs select.
struct GpuSelection {
  std::vector<RungId> rungs;
  std::vector<gpu::Shape> shapes;  // `fallback_shapes` when --sizes was not given
  kernel::BlockOrder order;
  std::vector<kernel::InputType> inputs;  // empty: every input type each kernel takes
};
Result<GpuSelection> parse_gpu_selection(const std::string& rungs, const std::string& sizes, const std::string& order,
                                         std::vector<gpu::Shape> fallback_shapes, const std::string& inputs = {});

// --config: each "knob=value,..." a configuration of the one rung --rungs names (the rung's defaults for the knobs not
// given). An error names the flag's problem: no rung or several, an unknown knob, a value out of range.
Result<std::vector<gpu::GpuInstance>> parse_configs(const std::vector<RungId>& rungs,
                                                    const std::vector<std::string>& configs);

inline constexpr const char* kConfigHelp =
    "A configuration of the one rung --rungs names, as knob=value pairs: \"bm=64,bn=128,bk=16,stages=4\" (the rung's "
    "defaults for the rest; repeat the flag for several). One the build did not compile is compiled at run time";

// Before verify or bench: compiles (or finds in the kernel cache) every configuration the build lacks, in each variant
// the input types and shapes need (empty shapes: 4096^3), for CUDA device `device`, and says so on stderr, so that
// the wait is visible and a compile error comes before any GPU work.
Status prepare_configs(const std::vector<gpu::GpuInstance>& kernels, const std::vector<kernel::InputType>& inputs,
                       const std::vector<gpu::Shape>& shapes, int device);

inline constexpr const char* kInputsHelp =
    "Comma-separated input types of A and B: fp32, fp16, bf16 (default: every type each kernel takes; the tensor-core "
    "rungs take fp16 and bf16)";

}  // namespace gemmlab::cli
