#pragma once
// The panels: one file each, listed once here. The tab bar, `gemmlab --panel NAME`, `gemmlab --help` and the
// screenshot tests all read this list. Panels read the model and call its commands; they keep no state.
#include <span>
#include <string>
#include <string_view>

#include "model/app_model.hpp"
#include "ui/cell_grid.hpp"

namespace gemmlab::desktop {

// What a panel draws with.
struct PanelContext {
  AppModel& model;
  ui::CellGridRenderer* grids;  // null when the shaders could not be built: grids are then drawn cell by cell
};

struct PanelInfo {
  std::string_view name;     // for --panel and the settings file
  std::string_view title;    // the tab's label
  std::string_view summary;  // one line, for --help
  void (*draw)(PanelContext& context);
};

std::span<const PanelInfo> panels();
const PanelInfo* find_panel(std::string_view name);
// "ladder, tile-stepper, ..." for messages and --help.
std::string panel_names();

// The ladder of rungs, the configuration editor and the kernel's simulated counters: the left column, always shown.
void draw_ladder_column(PanelContext& context);

// The selected configuration's whole-kernel counters, occupancy and roofline bound (shown above the rung's notes).
void draw_kernel_summary(PanelContext& context);

// Panel bodies (one file each).
void draw_notes_panel(PanelContext& context);
void draw_tile_stepper_panel(PanelContext& context);
void draw_banks_panel(PanelContext& context);
void draw_coalescing_panel(PanelContext& context);
void draw_launch_order_panel(PanelContext& context);
void draw_occupancy_panel(PanelContext& context);
void draw_benchmark_panel(PanelContext& context);
void draw_fragments_panel(PanelContext& context);
void draw_tuning_panel(PanelContext& context);
void draw_layout_lab_panel(PanelContext& context);
void draw_shapes_panel(PanelContext& context);
void draw_timeline_panel(PanelContext& context);

}  // namespace gemmlab::desktop
