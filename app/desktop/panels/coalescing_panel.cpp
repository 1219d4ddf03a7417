// Coalescing: one global-memory instruction of a warp. Each lane's bytes are drawn on the 128-byte lines they fall
// in, four 32-byte sectors per line; the sectors the request fetches are framed, and the bytes fetched for nothing
// are visible as the grey part of them.
#include <imgui.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "gemmlab/memory_model.hpp"
#include "gemmlab/sim/global_address.hpp"
#include "panels/panel_widgets.hpp"
#include "panels/panels.hpp"
#include "ui/glossary.hpp"
#include "ui/theme.hpp"

namespace gemmlab::desktop {
namespace {

namespace colour = ui::colour;
constexpr int kFloatsPerLine = 32, kFloatsPerSector = 8;
constexpr ImU32 kDark = IM_COL32(10, 10, 14, 255);

ImU32 lane_colour(int lane, float brightness = 1.0f) {
  float r = 0, g = 0, b = 0;
  ImGui::ColorConvertHSVtoRGB(static_cast<float>(lane) / 32.0f, 0.55f, std::min(1.0f, 0.9f * brightness), r, g, b);
  return ImGui::ColorConvertFloat4ToU32(ImVec4(r, g, b, 1.0f));
}

void summary(const sim::WarpInstruction& w, const sim::GlobalDetail& detail) {
  const int lanes = std::popcount(w.global_mask);
  const int requested = lanes * w.access.width_bytes, fetched = detail.cost.sectors * 32;
  const double efficiency = detail.cost.efficiency();
  const bool wasteful = detail.cost.sectors > detail.cost.ideal_sectors;
  ImGui::PushFont(ui::fonts().heading);
  ImGui::Text("%s", instruction_name(w).c_str());
  ImGui::SameLine();
  ImGui::TextUnformatted("  sectors:");
  ImGui::SameLine();
  ui::coloured_text(wasteful ? colour::conflict : colour::ok, "%d", detail.cost.sectors);
  ImGui::SameLine();
  ImGui::Text("  ideal: %d   lines: %zu   efficiency:", detail.cost.ideal_sectors, detail.lines.size());
  ImGui::SameLine();
  const double percent = 100.0 * efficiency;
  ui::coloured_text(wasteful ? colour::conflict : colour::ok, percent == std::floor(percent) ? "%.0f%%" : "%.1f%%", percent);
  ImGui::PopFont();
  ImGui::Text("%d lane%s x %d bytes = %d bytes asked for; %d sector%s x 32 bytes = %d bytes fetched.", lanes,
              lanes == 1 ? "" : "s", w.access.width_bytes, requested, detail.cost.sectors,
              detail.cost.sectors == 1 ? "" : "s", fetched);
  ImGui::SameLine(0, 4);
  ui::term("sector efficiency", "Efficiency");
  ImGui::SameLine(0, 4);
  ImGui::TextUnformatted("= ideal / fetched sectors.");
  if (detail.cost.split_sectors > 0) {
    // Rule G5: a cp.async.cg whose chunks sit at another offset in their shared sectors than in global memory.
    ImGui::TextWrapped("The copy's 16-byte chunks land at another offset in their shared sectors than they have in "
                       "global memory (a padded row). The L2 sends a copy one sector per pair of source sector and "
                       "destination sector: %zu sectors travel into the SM where its bytes are in %zu. A swizzled "
                       "layout keeps each sector's two chunks together.",
                       detail.sectors_from_l2(), detail.sectors.size());
  } else if (wasteful) {
    ImGui::TextWrapped("The lanes' addresses are spread out: each fetched sector carries bytes no lane asked for, so the "
                       "warp moves %.1fx the bytes it uses.", 1.0 / std::max(efficiency, 1e-9));
  } else {
    ImGui::TextUnformatted("The lanes' bytes are packed into as few sectors as possible:");
    ImGui::SameLine(0, 4);
    ui::term("coalescing", "coalesced.");
  }
  if (detail.cost.wavefronts > detail.cost.lines)
    // Rule G6: the L1 hands a load's bytes to the warp's registers 128 bytes a cycle, however few lines they fill.
    ImGui::TextWrapped("The L1 data pipe spends %d cycles on it, not one per line: it hands a load's %d bytes to the "
                       "lanes' registers 128 bytes a cycle, however few lines they come from.",
                       detail.cost.wavefronts, requested);
}

// The touched lines, one row each (32 floats = 4 sectors), lanes drawn on their floats, fetched sectors framed.
void lines_diagram(const InstructionView& iv, const sim::GlobalDetail& detail, const sim::Problem& problem,
                   const sim::OperandBytes& bytes) {
  const auto& w = iv.instruction;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float avail = ImGui::GetContentRegionAvail().x;
  const float label = ImGui::CalcTextSize("A[1023][1023] +0000 ").x;
  const float cell = std::clamp((avail - label) / kFloatsPerLine, 10.0f, 30.0f);
  const float row = std::max(cell, ImGui::GetTextLineHeight() + 4.0f);
  const float lane_box = std::clamp((avail - label) / 32.0f, 14.0f, 30.0f);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  char text[64];

  // Which lane touches which float of which line.
  std::map<std::uint64_t, std::array<int, kFloatsPerLine>> owner;  // line -> lane per float (-1: none)
  for (const std::uint64_t line : detail.lines) owner[line].fill(-1);
  for (int lane = 0; lane < 32; ++lane) {
    if (!((w.global_mask >> lane) & 1u)) continue;
    const std::uint64_t address = w.access.address[static_cast<std::size_t>(lane)];
    for (int q = 0; q < w.access.width_bytes / 4; ++q) {
      const std::uint64_t byte = address + 4u * static_cast<std::uint64_t>(q);
      auto it = owner.find(byte / 128);
      if (it != owner.end()) it->second[static_cast<std::size_t>((byte % 128) / 4)] = lane;
    }
  }
  // The lanes, on top.
  draw->AddText(ImVec2(origin.x, origin.y + 2), colour::muted_text, "lanes");
  for (int lane = 0; lane < 32; ++lane) {
    const ImVec2 min(origin.x + label + static_cast<float>(lane) * lane_box, origin.y);
    const ImVec2 max(min.x + lane_box - 2, min.y + row - 2);
    const bool active = (w.global_mask >> lane) & 1u;
    draw->AddRectFilled(min, max, active ? lane_colour(lane) : IM_COL32(40, 42, 48, 255), 3.0f);
    std::snprintf(text, sizeof text, "%d", lane);
    ui::centered_text(draw, min, max, active ? kDark : colour::muted_text, text);
  }
  // Sector headings over the first line.
  const float lines_top = origin.y + row * 2.5f + ImGui::GetTextLineHeight();
  for (int s = 0; s < 4; ++s) {
    std::snprintf(text, sizeof text, "sector %d: bytes %d-%d", s, s * 32, s * 32 + 31);
    const float x0 = origin.x + label + static_cast<float>(s * kFloatsPerSector) * cell;
    if (ImGui::CalcTextSize(text).x > kFloatsPerSector * cell - 4) std::snprintf(text, sizeof text, "sector %d", s);
    draw->AddText(ImVec2(x0 + 2, lines_top - ImGui::GetTextLineHeight() - 2), colour::muted_text, text);
  }
  const std::size_t shown = std::min<std::size_t>(detail.lines.size(), 32);
  std::vector<std::uint64_t> sector_set(detail.sectors.begin(), detail.sectors.end());
  std::uint64_t previous = 0;
  float y = lines_top;
  std::map<std::uint64_t, float> line_y;
  for (std::size_t i = 0; i < shown; ++i) {
    const std::uint64_t line = detail.lines[i];
    if (i > 0 && line != previous + 1) {
      std::snprintf(text, sizeof text, "... %llu bytes skipped ...", static_cast<unsigned long long>((line - previous - 1) * 128));
      draw->AddText(ImVec2(origin.x + label, y), colour::muted_text, text);
      y += ImGui::GetTextLineHeight() + 2.0f;
    }
    previous = line;
    line_y[line] = y;
    // The first element of the line, to say where in the matrix it is.
    const ElementRef first = decode_global(line * 128, problem, bytes);
    std::snprintf(text, sizeof text, "%s", element_name(first).c_str());
    draw->AddText(ImVec2(origin.x, y + (cell - ImGui::GetTextLineHeight()) * 0.5f), colour::operand(std::max<int>(0, first.operand)), text);
    const auto& floats = owner[line];
    for (int s = 0; s < 4; ++s) {
      const std::uint64_t sector = line * 4 + static_cast<std::uint64_t>(s);
      const bool fetched = std::binary_search(sector_set.begin(), sector_set.end(), sector);
      const float x0 = origin.x + label + static_cast<float>(s * kFloatsPerSector) * cell;
      for (int f = 0; f < kFloatsPerSector; ++f) {
        const int lane = floats[static_cast<std::size_t>(s * kFloatsPerSector + f)];
        const ImVec2 min(x0 + static_cast<float>(f) * cell, y), max(min.x + cell - 1, y + cell - 1);
        draw->AddRectFilled(min, max, lane >= 0 ? lane_colour(lane) : fetched ? IM_COL32(96, 98, 106, 255) : IM_COL32(44, 47, 56, 255));
        if (lane >= 0 && cell >= ImGui::CalcTextSize("31").x + 2) {
          std::snprintf(text, sizeof text, "%d", lane);
          ui::centered_text(draw, min, max, kDark, text);
        }
      }
      if (fetched)
        draw->AddRect(ImVec2(x0 - 1, y - 1), ImVec2(x0 + kFloatsPerSector * cell, y + cell), colour::highlight, 2.0f, 0, 2.0f);
    }
    y += row + 4.0f;
  }
  // Threads from each lane to its first byte, so the scatter is visible (over a few lines; past that they only
  // cross out the picture, and the lane numbers in the cells say it).
  for (int lane = 0; lane < 32 && detail.lines.size() <= 4; ++lane) {
    if (!((w.global_mask >> lane) & 1u)) continue;
    const std::uint64_t address = w.access.address[static_cast<std::size_t>(lane)];
    const auto it = line_y.find(address / 128);
    if (it == line_y.end()) continue;
    const ImVec2 from(origin.x + label + (static_cast<float>(lane) + 0.5f) * lane_box, origin.y + row - 2);
    const ImVec2 to(origin.x + label + (static_cast<float>((address % 128) / 4) + 0.5f) * cell, it->second);
    draw->AddLine(from, to, colour::with_alpha(lane_colour(lane), 110), 1.0f);
  }
  ImGui::Dummy(ImVec2(label + kFloatsPerLine * cell, y - origin.y));
  if (detail.lines.size() > shown) ui::note_text("... and %zu more lines", detail.lines.size() - shown);
  ui::note_text("Each row is one 128-byte line: 4 sectors of 8 floats. Coloured floats are the lanes' (lane number "
                "inside); a white frame is a sector the request fetches; grey floats inside a frame are fetched for "
                "nothing.");
}

void lane_table(const InstructionView& iv) {
  const auto& w = iv.instruction;
  if (!ImGui::BeginTable("lanes", 4, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_ScrollY |
                                         ImGuiTableFlags_SizingFixedFit, ImVec2(0, 0)))
    return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("lane");
  ImGui::TableSetupColumn("element");
  ImGui::TableSetupColumn("byte offset in the matrix");
  ImGui::TableSetupColumn("line, sector in it", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableHeadersRow();
  for (int lane = 0; lane < 32; ++lane) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::Text("%d", lane);
    const bool active = (w.global_mask >> lane) & 1u;
    ImGui::TableNextColumn();
    if (!active) {
      ImGui::TextDisabled("inactive");
      continue;
    }
    const LaneView& lv = iv.lanes[static_cast<std::size_t>(lane)];
    std::string elements = element_name(lv.global[0]);
    if (iv.words_per_lane() > 1) elements += " .. " + element_name(lv.global[static_cast<std::size_t>(iv.words_per_lane() - 1)]);
    ImGui::TextUnformatted(elements.c_str());
    ImGui::TableNextColumn();
    const std::uint64_t address = w.access.address[static_cast<std::size_t>(lane)];
    const auto element = sim::global_element(address);
    const std::uint64_t offset = element ? static_cast<std::uint64_t>(element->index) * 4 : address;
    ImGui::Text("%llu", static_cast<unsigned long long>(offset));
    ImGui::TableNextColumn();
    // Words, not "32.0": a dot read as a decimal point.
    ImGui::Text("line %llu, sector %llu of 0-3", static_cast<unsigned long long>(offset / 128),
                static_cast<unsigned long long>((offset % 128) / 32));
  }
  ImGui::EndTable();
}

}  // namespace

void draw_coalescing_panel(PanelContext& context) {
  AppModel& model = context.model;
  if (!block_ready(model)) return;
  StepperModel& stepper = model.stepper();
  const auto outline = stepper.outline();
  const auto view = stepper.phase_view();
  const int picked = instruction_picker(stepper, InstructionKind::Global);
  if (picked < 0) return;
  const InstructionView& iv = *view->find(stepper.cursor().warp, picked);
  const auto& w = iv.instruction;
  if (w.global_mask == 0) {
    ui::heading(instruction_name(w).c_str());
    ImGui::TextWrapped("Every lane of this instruction is predicated off (it lies past the edge of the matrix or the "
                       "last k-step), so it reads no global memory: 0 sectors.");
    return;
  }
  sim::WarpAccess global_side = w.access;
  global_side.active_mask = w.global_mask;
  auto detail = sim::global_detail(global_side);
  if (!detail) {
    ui::coloured_text(colour::conflict, "%s", detail.error().message.c_str());
    return;
  }
  summary(w, *detail);
  ImGui::Spacing();
  ImGui::BeginChild("coalescing-lines", ImVec2(0, ImGui::GetContentRegionAvail().y * 0.62f), false);
  lines_diagram(iv, *detail, outline->problem, outline->operand_bytes);
  ImGui::EndChild();
  ImGui::Separator();
  lane_table(iv);
}

}  // namespace gemmlab::desktop
