// The fragments of an MMA atom: which lane holds which element of A, B and C for mma.sync.m16n8k16, and which lane
// gives ldmatrix each row address of A; for the Hopper rung, wgmma's D layout and the 128-byte swizzle its operands
// are read through. Hover a cell to see all that lane holds. The layouts are the model's
// (model/fragment_layout.hpp), computed from the atoms the kernels issue (kernel/mma_atom.hpp, kernel/wgmma.hpp).
#include <imgui.h>

#include <cstdio>

#include "gemmlab/kernel/mma_atom.hpp"
#include "gemmlab/kernel/wgmma.hpp"
#include "gemmlab/sim/rung_model.hpp"
#include "model/app_model.hpp"
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

// One matrix as a grid of labelled cells; returns the lane under the mouse (-1: none). `accumulators`: one FP32 value
// per register (C and D), else two 16-bit halves.
int matrix_grid(const char* title, const FragmentMatrix& m, const char* reg_name, float cell, int hovered_lane,
                bool accumulators) {
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
        if (accumulators)
          ImGui::SetTooltip("%c(%d, %d): %s %d, register %s%d (an FP32 accumulator)", reg_name[0] - 32, r, c,
                            m.rows > 16 ? "thread" : "lane", f.lane, reg_name, f.reg);
        else
          ImGui::SetTooltip("(%d, %d): lane %d, register %s%d, %s half", r, c, f.lane, reg_name, f.reg,
                            f.half ? "high" : "low");
      }
    }
  }
  ImGui::EndGroup();
  return under_mouse;
}

// The 128-byte swizzle as a grid: row r of a box (128 bytes), its 8 places of 16 bytes, each labelled and coloured by
// the chunk of the row that lands there (c ^ r).
void swizzle_grid(const WgmmaLayout& l, float cell) {
  ImGui::BeginGroup();
  ui::heading("The 128-byte swizzle: chunk c of row r at place c ^ r");
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float label = ImGui::GetFontSize() * 3.2f;
  ImGui::Dummy(ImVec2(label + cell * 8, ImGui::GetFontSize() * 1.6f + cell * 8));
  ImDrawList* draw = ImGui::GetWindowDrawList();
  char text[24];
  const float top = origin.y + ImGui::GetFontSize() * 1.6f;
  for (int p = 0; p < 8; ++p) {
    std::snprintf(text, sizeof text, "%d", 16 * p);
    ui::centered_text(draw, ImVec2(origin.x + label + cell * static_cast<float>(p), origin.y),
                      ImVec2(origin.x + label + cell * static_cast<float>(p + 1), top), colour::muted_text, text);
  }
  for (int r = 0; r < 8; ++r) {
    const float y = top + cell * static_cast<float>(r);
    std::snprintf(text, sizeof text, "row %d", r);
    ui::centered_text(draw, ImVec2(origin.x, y), ImVec2(origin.x + label, y + cell), colour::muted_text, text);
    for (int c = 0; c < 8; ++c) {
      const int p = l.placed_chunk[r][c];
      const ImVec2 min(origin.x + label + cell * static_cast<float>(p), y), max(min.x + cell - 1, y + cell - 1);
      draw->AddRectFilled(min, max, colour::warp(c, 0.7f));
      std::snprintf(text, sizeof text, "%d", c);
      ui::centered_text(draw, min, max, IM_COL32(12, 12, 16, 255), text);
    }
  }
  ImGui::EndGroup();
}

// Rung 17: wgmma reads A and B from shared memory (no fragments), and keeps D in registers.
void draw_wgmma(const AppModel& model) {
  const WgmmaLayout& l = wgmma_layout();
  ui::heading("wgmma.m64nNk16: A and B from shared memory, D in registers");
  ui::note_text(
      "A warpgroup (4 warps, 128 threads) computes a 64 x N block of D (N = bn = %d here) from A (64 x 16) and B "
      "(16 x N) that no thread loads: the instruction reads them from shared memory through two 64-bit descriptors "
      "(a start address and two strides), in the layout TMA wrote. So there are no A or B fragments and no ldmatrix; "
      "only D has a register layout.",
      model.config().bn);
  ImGuiStorage* storage = ImGui::GetStateStorage();
  const ImGuiID hovered_id = ImGui::GetID("hovered thread");
  int hovered = storage->GetInt(hovered_id, -1);
  const float cell = std::max(14.0f, std::min(22.0f, (ImGui::GetContentRegionAvail().y - 120.0f) / 34.0f));
  swizzle_grid(l, cell * 1.6f);
  ImGui::SameLine(0, cell * 2);
  hovered = matrix_grid("D, rows 0-63, columns 0-15: d0, d1, ...", l.d, "d", cell, hovered, true);
  storage->SetInt(hovered_id, hovered);
  ImGui::Spacing();
  if (hovered >= 0) {
    using Atom = kernel::WgmmaM64K16<256>;  // the layout's place of every register, from the atom itself
    ui::coloured_text(colour::highlight,
                      "Thread %d (warp %d of the warpgroup, lane %d): rows %d and %d, columns %d and %d of every 8 "
                      "(registers d0-d3 in columns 0-7, d4-d7 in 8-15, ...).",
                      hovered, hovered / 32, hovered % 32, Atom::d_row(hovered, 0), Atom::d_row(hovered, 2),
                      Atom::d_col(hovered, 0), Atom::d_col(hovered, 1));
  }
  ui::note_text(
      "Warp w of the warpgroup holds rows 16w to 16w + 15, and within them each 8 columns are laid out as mma.sync's "
      "C: lane l has rows l / 4 and l / 4 + 8, columns 2 (l %% 4) and + 1. The swizzle (left) is the one rung 14 built "
      "by hand, now written by the copy engine and read by the tensor cores, both from the address bits: a 128-byte "
      "row's 16-byte chunk c goes to place c XOR (row mod 8), so the 8 rows' chunk 0 fall in 8 different bank groups, "
      "and every tile starts on a 1024-byte boundary.");
}

}  // namespace

void draw_fragments_panel(PanelContext& context) {
  if (sim::needs_sm90a(context.model.rung())) {
    ImGui::BeginChild("fragments", ImVec2(0, 0), false);
    draw_wgmma(context.model);
    ImGui::EndChild();
    return;
  }
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
  int now = matrix_grid("A (16 x 16, row-major): a0..a3", l.a, "a", cell, hovered, false);
  ImGui::SameLine(0, cell);
  const int in_b = matrix_grid("B (k 16 x n 8): b0, b1", l.b, "b", cell, hovered, false);
  ImGui::SameLine(0, cell);
  const int in_c = matrix_grid("C (16 x 8): c0..c3", l.c, "c", cell, hovered, true);
  now = now >= 0 ? now : in_b >= 0 ? in_b : in_c;
  hovered = now;
  storage->SetInt(hovered_id, hovered);

  ImGui::Spacing();
  if (hovered >= 0) {
    using Atom = kernel::MmaM16N8K16;  // the lane's elements, from the atom's own layout functions
    const int ln = hovered;
    ui::coloured_text(colour::highlight,
                      "Lane %d (g = %d, t = %d): A rows %d and %d, columns %d-%d and %d-%d; B column %d, k %d-%d and %d-%d; "
                      "C rows %d and %d, columns %d-%d.",
                      ln, ln / 4, ln % 4, Atom::a_row(ln, 0), Atom::a_row(ln, 2), Atom::a_col(ln, 0), Atom::a_col(ln, 1),
                      Atom::a_col(ln, 4), Atom::a_col(ln, 5), Atom::b_col(ln, 0), Atom::b_row(ln, 0), Atom::b_row(ln, 1),
                      Atom::b_row(ln, 2), Atom::b_row(ln, 3), Atom::c_row(ln, 0), Atom::c_row(ln, 2), Atom::c_col(ln, 0),
                      Atom::c_col(ln, 1));
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
