#include "panels/grid_drawing.hpp"

#include <algorithm>

namespace gemmlab::desktop {

void draw_cell_grid(ui::CellGridRenderer* grids, const ui::Canvas& canvas, const std::string& id, int columns, int rows,
                    const std::vector<ImU32>& colours, float x, float y, const ui::CellGridStyle& style) {
  if (grids) {
    grids->draw(canvas.draw(), id, columns, rows, colours, canvas.to_screen(x, y), canvas.scale(), style);
    return;
  }
  // Without the shaders: only the visible cells, as rectangles.
  const ImVec2 top_left = canvas.to_content(canvas.min()), bottom_right = canvas.to_content(canvas.max());
  const int c0 = std::max(0, static_cast<int>(top_left.x - x)), c1 = std::min(columns, static_cast<int>(bottom_right.x - x) + 1);
  const int r0 = std::max(0, static_cast<int>(top_left.y - y)), r1 = std::min(rows, static_cast<int>(bottom_right.y - y) + 1);
  const bool borders = style.cell_borders && canvas.scale() >= 5.0f;
  for (int r = r0; r < r1; ++r)
    for (int c = c0; c < c1; ++c) {
      ImVec2 min, max;
      cell_rect(canvas, x, y, c, r, min, max);
      canvas.draw()->AddRectFilled(min, borders ? ImVec2(max.x - 1, max.y - 1) : max,
                                   colours[static_cast<std::size_t>(r) * static_cast<std::size_t>(columns) +
                                           static_cast<std::size_t>(c)]);
    }
  // The shader's group lines: a light line every group_columns columns and group_rows rows.
  const ImU32 line = IM_COL32(242, 242, 242, 90);
  const ImVec2 top = canvas.to_screen(x, y), bottom = canvas.to_screen(x + static_cast<float>(columns), y + static_cast<float>(rows));
  if (style.group_columns > 0)
    for (int c = std::max(style.group_columns, c0 - c0 % style.group_columns); c < c1; c += style.group_columns) {
      const float at = canvas.to_screen(x + static_cast<float>(c), y).x;
      canvas.draw()->AddLine(ImVec2(at, top.y), ImVec2(at, bottom.y), line);
    }
  if (style.group_rows > 0)
    for (int r = std::max(style.group_rows, r0 - r0 % style.group_rows); r < r1; r += style.group_rows) {
      const float at = canvas.to_screen(x, y + static_cast<float>(r)).y;
      canvas.draw()->AddLine(ImVec2(top.x, at), ImVec2(bottom.x, at), line);
    }
}

}  // namespace gemmlab::desktop
