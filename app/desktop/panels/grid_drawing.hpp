#pragma once
// Drawing a grid of cells on a canvas: through the GLSL cell-grid renderer when it is available, else cell by cell
// with ImGui's draw list (slower, same picture).
#include <imgui.h>

#include <string>
#include <vector>

#include "ui/canvas.hpp"
#include "ui/cell_grid.hpp"

namespace gemmlab::desktop {

// columns x rows cells, row-major colours, with cell (0, 0) at content point (x, y), one content unit per cell.
void draw_cell_grid(ui::CellGridRenderer* grids, const ui::Canvas& canvas, const std::string& id, int columns, int rows,
                    const std::vector<ImU32>& colours, float x, float y, const ui::CellGridStyle& style = {});

// The screen rectangle of cell (column, row) of a grid placed at content point (x, y).
inline void cell_rect(const ui::Canvas& canvas, float x, float y, int column, int row, ImVec2& min, ImVec2& max) {
  min = canvas.to_screen(x + static_cast<float>(column), y + static_cast<float>(row));
  max = canvas.to_screen(x + static_cast<float>(column + 1), y + static_cast<float>(row + 1));
}

}  // namespace gemmlab::desktop
