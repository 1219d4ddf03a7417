// The fragments of an MMA atom: which lane holds which element of A, B and C for mma.sync.m16n8k16, and which lane
// gives ldmatrix each row address of A. Hover a cell to see all that lane holds. The layout is the model's
// (model/fragment_layout.hpp), computed from the atom the kernels issue (kernel/mma_atom.hpp).
#include <imgui.h>

#include <cstdio>

#include "model/fragment_layout.hpp"
#include "panels/panels.hpp"
#include "ui/theme.hpp"

namespace gemmlab::desktop {
namespace {

namespace colour = ui::colour;

// A lane's colour: its group g = lane / 4 (a row of A and C, a column of B) picks the hue, t = lane % 4 the lightness.
ImU32 lane_colour(int lane, bool dim) {
  return colour::warp(lane / 4, dim ? 0.28f : 0.55f + 0.15f * static_cast<float>(lane % 4));
}

// One matrix as a grid of labelled cells; returns the lane under the mouse (-1: none).
int matrix_grid(const char* title, const FragmentMatrix& m, const char* reg_name, float cell, int hovered_lane) {
  ImGui::BeginGroup();
  ui::heading(title);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float label = ImGui::GetFontSize() * 1.6f;
  ImGui::Dummy(ImVec2(label + cell * static_cast<float>(m.cols), label + cell * static_cast<float>(m.rows)));
  ImDrawList* draw = ImGui::GetWindowDrawList();
  char text[16];
  for (int c = 0; c < m.cols; ++c) {
    std::snprintf(text, sizeof text, "%d", c);
    const ImVec2 min(origin.x + label + cell * static_cast<float>(c), origin.y);
    ui::centered_text(draw, min, ImVec2(min.x + cell, min.y + label), colour::muted_text, text);
  }
  int under_mouse = -1;
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  for (int r = 0; r < m.rows; ++r) {
    std::snprintf(text, sizeof text, "%d", r);
    const float y = origin.y + label + cell * static_cast<float>(r);
    ui::centered_text(draw, ImVec2(origin.x, y), ImVec2(origin.x + label, y + cell), colour::muted_text, text);
    for (int c = 0; c < m.cols; ++c) {
      const FragmentCell& f = m.at(r, c);
      const ImVec2 min(origin.x + label + cell * static_cast<float>(c), y), max(min.x + cell - 1, min.y + cell - 1);
      const bool mine = hovered_lane < 0 || f.lane == hovered_lane;
      draw->AddRectFilled(min, max, lane_colour(f.lane, !mine));
      if (f.lane == hovered_lane) draw->AddRect(min, max, colour::highlight, 0.0f, 0, 2.0f);
      std::snprintf(text, sizeof text, "%d", f.lane);
      ui::centered_text(draw, min, max, IM_COL32(12, 12, 16, 255), text);
      if (mouse.x >= min.x && mouse.x < max.x + 1 && mouse.y >= min.y && mouse.y < max.y + 1) {
        under_mouse = f.lane;
        if (m.rows == 16 && m.cols == 8 && reg_name[0] == 'c')
          ImGui::SetTooltip("C(%d, %d): lane %d, register %s%d (an FP32 accumulator)", r, c, f.lane, reg_name, f.reg);
        else
          ImGui::SetTooltip("(%d, %d): lane %d, register %s%d, %s half", r, c, f.lane, reg_name, f.reg,
                            f.half ? "high" : "low");
      }
    }
  }
  ImGui::EndGroup();
  return under_mouse;
}

}  // namespace

void draw_fragments_panel(PanelContext& context) {
  (void)context;  // the atom's layout does not depend on the rung or its configuration
  const FragmentLayout& l = m16n8k16_layout();
  ImGui::BeginChild("fragments", ImVec2(0, 0), false);
  ui::heading("mma.sync.m16n8k16: who holds what");
  ui::note_text(
      "One warp-wide instruction computes a 16 x 8 block of C from a 16 x 16 block of A and a 16 x 8 block of B "
      "(FP16 or BF16 in, FP32 out). Each lane holds its pieces in registers; the number in a cell is the lane. "
      "Lane l belongs to group g = l / 4 (the colour): a row of A and C, a column of B; t = l %% 4 (the lightness) "
      "picks the columns. Hover a cell: every element that lane holds lights up.");
  // The lane under the mouse last frame: drawing state, kept in ImGui's storage for this window.
  ImGuiStorage* storage = ImGui::GetStateStorage();
  const ImGuiID hovered_id = ImGui::GetID("hovered lane");
  int hovered = storage->GetInt(hovered_id, -1);
  const float cell = std::max(18.0f, std::min(30.0f, (ImGui::GetContentRegionAvail().x - 120.0f) / 34.0f));
  int now = matrix_grid("A (16 x 16, row-major): a0..a3", l.a, "a", cell, hovered);
  ImGui::SameLine(0, cell);
  const int in_b = matrix_grid("B (k 16 x n 8): b0, b1", l.b, "b", cell, hovered);
  ImGui::SameLine(0, cell);
  const int in_c = matrix_grid("C (16 x 8): c0..c3", l.c, "c", cell, hovered);
  now = now >= 0 ? now : in_b >= 0 ? in_b : in_c;
  hovered = now;
  storage->SetInt(hovered_id, hovered);

  ImGui::Spacing();
  if (hovered >= 0) {
    const int g = hovered / 4, t = hovered % 4;
    ui::coloured_text(colour::highlight,
                      "Lane %d (g = %d, t = %d): A rows %d and %d, columns %d-%d and %d-%d; B column %d, k %d-%d and %d-%d; "
                      "C rows %d and %d, columns %d-%d.",
                      hovered, g, t, g, g + 8, 2 * t, 2 * t + 1, 2 * t + 8, 2 * t + 9, g, 2 * t, 2 * t + 1, 2 * t + 8,
                      2 * t + 9, g, g + 8, 2 * t, 2 * t + 1);
  }
  ImGui::Spacing();
  ui::heading("ldmatrix.x4: the row addresses");
  ui::note_text(
      "ldmatrix builds A's fragment from shared memory in one instruction: each lane gives the address of one "
      "16-byte row (8 halves), and the 8 rows of each 8 x 8 quarter are served together as one phase. Which lane "
      "gives row r of the block, at columns 0-7 and 8-15:");
  if (ImGui::BeginTable("ldsm", 17, ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit)) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted("row");
    for (int r = 0; r < 16; ++r) {
      ImGui::TableNextColumn();
      ImGui::Text("%d", r);
    }
    for (int cb = 0; cb < 2; ++cb) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::Text("cols %d-%d", 8 * cb, 8 * cb + 7);
      for (int r = 0; r < 16; ++r) {
        ImGui::TableNextColumn();
        ImGui::Text("%d", l.ldsm_lane[r][cb]);
      }
    }
    ImGui::EndTable();
  }
  ui::note_text(
      "Matrix i (lanes 8i to 8i + 7) lands in register i of every lane: lane l receives row l / 4, columns 2 (l %% 4) "
      "and 2 (l %% 4) + 1 of it - exactly a0..a3 above. With .trans, from the row-major B tile, each matrix arrives "
      "transposed: the B fragments of two neighbouring 16 x 8 atoms. The 8 rows of a matrix are one shared-memory "
      "phase, so they must fall in 8 different 16-byte bank groups to be served in one wavefront (the banks tab).");
  ImGui::EndChild();
}

}  // namespace gemmlab::desktop
