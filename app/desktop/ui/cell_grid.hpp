#pragma once
// Draws a large grid of coloured cells with the cell_grid GLSL shaders (shaders/cell_grid.*): the colours go to a
// texture with one texel per cell, and one quad draws them all, so a 64K-cell grid costs what a 64-cell one does.
// It draws through an ImGui draw-list callback, in order with the panel's other drawing, inside the current clip
// rectangle; labels and outlines drawn after it land on top.
#include <imgui.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gemmlab/result.hpp"

namespace gemmlab::desktop::ui {

struct CellGridStyle {
  int group_columns = 0, group_rows = 0;  // a light line every so many columns / rows (0: none)
  bool cell_borders = true;  // a dark border around each cell once cells are 5 pixels or more
};

class CellGridRenderer {
 public:
  // Compiles the shaders; needs the window's OpenGL context to be current.
  static Result<std::unique_ptr<CellGridRenderer>> create();
  ~CellGridRenderer();
  CellGridRenderer(const CellGridRenderer&) = delete;
  CellGridRenderer& operator=(const CellGridRenderer&) = delete;

  // Call at the start of every frame: recycles last frame's draw records.
  void begin_frame();
  // Queues grid `id` (its texture is kept and re-uploaded only when `colours` change): columns x rows cells,
  // row-major ImU32 colours, cell (0, 0)'s top-left corner at `origin` (screen pixels), `cell` pixels per cell.
  void draw(ImDrawList* draw, const std::string& id, int columns, int rows, const std::vector<ImU32>& colours,
            ImVec2 origin, float cell, const CellGridStyle& style = {});

  struct Impl;

 private:
  explicit CellGridRenderer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace gemmlab::desktop::ui
