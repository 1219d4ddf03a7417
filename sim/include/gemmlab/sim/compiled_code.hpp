#pragma once
// What the compiler made of a kernel, as the time model's issue term needs it: the SASS of each compiled rung kernel
// cut into regions by its loops, each region's size in instructions and its count of the instructions the
// description also counts ("anchors": FFMA, HMMA, HGMMA, LDS, STS, LDG, STG, LDGSTS, LDSM, UTMALDG). Recorded at build
// time from `cuobjdump -sass` (scripts/kernel_resources.py); gpu::compiled_facts looks a configuration up.
//
// The description knows how many of each anchor a warp executes, but not the address arithmetic, predicates and loop
// control that ptxas adds around them. The SASS knows those, but not how often each loop runs. Together they give
// the warp's dynamic instruction count: each loop's executions are the non-negative ones that make the SASS's anchors
// add up to the description's (least squares, so that the most frequent instructions pin the loops), and the count
// is every region's size times its executions. docs/fidelity.md compares it with ncu's instructions executed.
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gemmlab/result.hpp"
#include "gemmlab/sim/counters.hpp"
#include "gemmlab/sim/occupancy.hpp"

namespace gemmlab::sim {

// The SASS instructions that stand for instructions the description counts.
enum class SassAnchor { Ffma, Hmma, Hgmma, Ldgsts, Ldsm, Lds, Sts, Ldg, Stg, Tma };
inline constexpr int kSassAnchorCount = 10;
using AnchorCounts = std::array<double, kSassAnchorCount>;
std::string_view to_string(SassAnchor anchor);  // the SASS opcode: "FFMA", "LDGSTS", "UTMALDG", ...

// One region: the instructions of one loop body that no inner loop holds (region 0: those outside every loop).
struct CodeRegion {
  int parent = -1;         // the region of the enclosing loop; -1 for region 0
  int instructions = 0;    // static SASS instructions
  std::array<int, kSassAnchorCount> anchors{};  // of them, the anchors of each kind
  // How many times a warp waits for a global load it issued, in one pass of the loop: issuing in order, it waits where
  // an instruction reads a register a load has not delivered, counting the loads issued before that as arriving with
  // it, as they would if all took the same time (scripts/kernel_resources.py, load_wait_points). 0 for region 0.
  int load_waits = 0;
};

struct CompiledCode {
  std::vector<CodeRegion> regions;  // region 0 first; a parent always comes before its loops
  // True where these are another configuration's regions (the nearest compiled one of the rung): the loops' sizes
  // are that kernel's, their executions are solved against this configuration's description.
  bool estimated = false;
};

// What one compile gave: ptxas's registers and the SASS regions. Either can be missing (a configuration the build
// did not compile and that has no compiled neighbour; a build without cuobjdump).
struct CompiledFacts {
  std::optional<RegisterCount> registers;
  std::optional<CompiledCode> code;
};

// The description's anchors per warp: its counters over all of the kernel's warps.
AnchorCounts description_anchors_per_warp(const Counters& counters, double warps);

struct DynamicInstructions {
  double per_warp = 0;             // instructions one warp executes, on average: the description's anchors + overhead
  double overhead_per_warp = 0;    // of them, the compiler's own: every region's instructions that are not anchors
                                   // the description counts, times the region's executions
  std::vector<double> executions;  // of each region (region 0: once)
};

// The warp's dynamic instruction count: the loops' executions solved against `per_warp` (description_anchors_per_warp),
// then the description's own instructions plus the compiler's overhead in the solved loops. Counting the anchors as
// the description does, not as the SASS's static count times the loop's executions, keeps them exact where a loop
// holds branches (loads the warp skips) and where the regions are another configuration's (CompiledCode::estimated).
// A loop with no anchor runs as often as its enclosing loop. An error for code without regions or with a region whose
// parent does not come before it.
Result<DynamicInstructions> dynamic_instructions(const CompiledCode& code, const AnchorCounts& per_warp);

// The main loop: the loop that holds the most math (FFMA, HMMA, HGMMA).
struct MainLoop {
  // k-steps one pass does: its math over the description's math per warp and k-step (`per_warp` over `ksteps`); at
  // least 1. ptxas unrolls the k-loop of a kernel that loads straight into registers.
  int ksteps_per_pass = 1;
  // The times a warp waits for its global loads in a pass (CodeRegion::load_waits): how far ahead of their math ptxas
  // issued the unrolled k-steps' loads. 0 where no loop holds math.
  int load_waits = 0;
};
MainLoop main_loop(const CompiledCode& code, const AnchorCounts& per_warp, double ksteps);

}  // namespace gemmlab::sim
