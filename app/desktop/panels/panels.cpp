#include "panels/panels.hpp"

namespace gemmlab::desktop {
namespace {

constexpr PanelInfo kPanels[] = {
    {"ladder", "Overview",
     "the ladder of rungs, the configuration editor, the kernel's simulated counters and the rung's notes page",
     draw_notes_panel},
    {"tile-stepper", "Tile stepper",
     "A, B and C to scale; step through one block's tile loads and shared-memory reads, k-step by k-step",
     draw_tile_stepper_panel},
    {"banks", "Banks",
     "the shared buffer as rows of 32 banks; one warp instruction's lanes, wavefronts and bank conflicts",
     draw_banks_panel},
    {"coalescing", "Coalescing", "one global-memory instruction's lanes against 32-byte sectors and 128-byte lines",
     draw_coalescing_panel},
    {"fragments", "MMA fragments",
     "the tensor-core atom (mma.sync.m16n8k16): which lane holds which element of A, B and C, and ldmatrix's rows",
     draw_fragments_panel},
    {"launch-order", "Launch & L2",
     "the grid's tiles by launch order and wave for two orders side by side; L2 hits and DRAM bytes; heat maps",
     draw_launch_order_panel},
    {"occupancy", "Occupancy",
     "resources per block and the limiter, waves, and the roofline with every rung's predicted and measured point",
     draw_occupancy_panel},
    {"benchmark", "Benchmark",
     "run the GPU kernels next to cuBLAS, or, without a GPU, the recorded H100 results; table and chart",
     draw_benchmark_panel},
    {"tuning", "Tuning",
     "the autotuner's configurations of the rung: predicted against measured time, the default and the best; click "
     "one to load it",
     draw_tuning_panel},
    {"layout-lab", "Layout lab",
     "your own shared-memory tile (CuTe layout, swizzle) and access: bank conflicts as ncu counts them, the fix, "
     "the CuTe expression",
     draw_layout_lab_panel},
    {"shapes", "Shapes",
     "your shapes (or Llama 3 and Qwen2.5 layers): the best rung against cuBLAS, the model's prediction, the last "
     "wave's fill; predicted here, or the recorded H200 sweep",
     draw_shapes_panel},
    {"timeline", "Timeline",
     "one kernel's warps as the GPU ran them (gemmlab-cli trace): k-steps, waits and copies per warpgroup, the time "
     "model's block above; the Hopper rungs' recorded H200 traces",
     draw_timeline_panel},
};

}  // namespace

std::span<const PanelInfo> panels() { return kPanels; }

const PanelInfo* find_panel(std::string_view name) {
  for (const auto& panel : kPanels)
    if (panel.name == name) return &panel;
  return nullptr;
}

std::string panel_names() {
  std::string out;
  for (const auto& panel : kPanels) out += (out.empty() ? "" : ", ") + std::string(panel.name);
  return out;
}

}  // namespace gemmlab::desktop
