// Layout lab: the user's own shared-memory tile (a CuTe layout of typed elements, with a swizzle) and the access
// their kernel makes to it, through the calibrated bank model of the lab library (gemmlab/lab/): the tile coloured
// by bank with one instruction's elements picked out, that instruction's phases lane by lane, the totals under the
// names of the ncu counters that measure them, the fix one click away, and the tile as CuTe C++, TMA's mode and
// Triton's parameters. The question and its answer live in LayoutLabModel; this file only draws and edits them.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "gemmlab/memory_model.hpp"
#include "panels/grid_drawing.hpp"
#include "panels/panels.hpp"
#include "ui/canvas.hpp"
#include "ui/glossary.hpp"
#include "ui/theme.hpp"

namespace gemmlab::desktop {
namespace {

namespace colour = ui::colour;
constexpr int kLanes = 32;
constexpr ImU32 kDark = IM_COL32(10, 10, 14, 255);
constexpr int kLongestTextureSide = 4096;  // well inside what OpenGL drivers allow (at least 8192 in practice)
constexpr std::string_view kTmaModes[] = {"none", "32", "64", "128"};
constexpr std::string_view kPartitions[] = {"a", "b", "c"};

float em(float n) { return ImGui::GetFontSize() * n; }

// The field names of the lab's sentences are the CLI's flags ("--layout: ..."); here the fields have no dashes.
std::string without_flag_dashes(const std::string& message) {
  return message.rfind("--", 0) == 0 ? message.substr(2) : message;
}

// Starts a labelled field on the current line when it still fits there, else on the next one.
void field_label(const char* label, float field_width, bool first) {
  const float width = ImGui::CalcTextSize(label).x + ImGui::GetStyle().ItemSpacing.x + field_width;
  if (!first) {
    ImGui::SameLine(0, em(1.2f));
    if (ImGui::GetContentRegionAvail().x < width) ImGui::NewLine();
  }
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(label);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(field_width);
}

bool text_field(const char* label, const char* id, std::string& value, float width, const char* hint,
                const char* tooltip, bool first = false) {
  field_label(label, width, first);
  const bool changed = ImGui::InputTextWithHint(id, hint, &value);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tooltip);
  return changed;
}

bool combo_field(const char* label, const char* id, std::string& value, std::span<const std::string_view> choices,
                 float width, const char* tooltip, bool first = false) {
  field_label(label, width, first);
  bool changed = false;
  if (ImGui::BeginCombo(id, value.c_str())) {
    for (const auto choice : choices) {
      const std::string text(choice);
      if (ImGui::Selectable(text.c_str(), text == value) && text != value) {
        value = text;
        changed = true;
      }
    }
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tooltip);
  return changed;
}

// The gallery, the tile's fields and the access's: every edit goes to the model at once.
void question_fields(LayoutLabModel& lab) {
  lab::QueryText q = lab.query();
  bool changed = false;

  const lab::Preset* shown = lab.preset();
  const std::string preview = shown ? std::string(shown->name) + ": " + std::string(shown->title)
                                    : std::string("your own question (a gallery entry starts you off again)");
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("Gallery");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x);
  if (ImGui::BeginCombo("##preset", preview.c_str())) {
    for (const auto& p : lab::presets()) {
      ImGui::PushID(p.name.data(), p.name.data() + p.name.size());
      if (ImGui::Selectable(std::string(p.name).c_str(), &p == shown)) (void)lab.load_preset(p.name);
      ImGui::SameLine(em(14));
      ImGui::PushStyleColor(ImGuiCol_Text, colour::to_vec4(colour::muted_text));
      ImGui::TextUnformatted(p.title.data(), p.title.data() + p.title.size());
      ImGui::PopStyleColor();
      ImGui::PopID();
    }
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("%s\n\nQuestions from real kernels: pick one, then change any field below", preview.c_str());

  changed |= text_field("layout", "##layout", q.layout, em(13), "(rows,cols):(stride,stride)",
                        "The tile in CuTe notation, (rows, columns): (64,64):(64,1) is row-major, (64,64):(72,1) pads "
                        "each row to 72 elements, ((8,8),(8,8)):((64,512),(1,8)) is hierarchical. CuTe's printed "
                        "'Sw<3,3,3> o (64,64):(64,1)' carries its swizzle.",
                        /*first=*/true);
  changed |= combo_field("element", "##element", q.element, layout_lab_elements(), em(4.5f),
                         "The element type: its size sets the bytes each element takes");
  changed |= text_field("swizzle", "##swizzle", q.swizzle, em(5.5f), "B,M,S",
                        "CuTe's Swizzle<B,M,S> on element offsets: XORs the B bits at M+S into the B bits at M. "
                        "Empty: none.");
  std::string tma = q.tma_swizzle.empty() ? std::string("none") : q.tma_swizzle;
  if (combo_field("TMA swizzle", "##tma", tma, kTmaModes, em(4.5f),
                  "TMA's swizzle mode in bytes (CU_TENSOR_MAP_SWIZZLE_*), written as the CuTe swizzle it is")) {
    q.tma_swizzle = tma == "none" ? std::string() : tma;
    changed = true;
  }

  changed |= combo_field("access", "##op", q.op, layout_lab_ops(), em(9),
                         "The instruction your kernel uses on the tile: ldmatrix/stmatrix build or store mma.sync "
                         "fragments; lds/sts/cp.async are copies by many threads; wgmma reads core matrices; tma "
                         "writes a box",
                         /*first=*/true);
  const auto kind = lab::access_kind(q.op);
  if (kind && *kind == lab::AccessKind::Matrix) {
    changed |= combo_field("operand", "##partition", q.partition, kPartitions, em(3.5f),
                           "Which mma.sync operand the tile holds: a (rows M, columns K), b (rows N, columns K), "
                           "c (rows M, columns N)");
    changed |= text_field("at", "##at", q.at, em(5), "all",
                          "One instruction at ROW,COLUMN of the tile; empty: every instruction over the tile");
  }
  const bool copy = layout_lab_is_copy(q.op);
  if (copy) {
    changed |= text_field("threads", "##threads", q.threads, em(8), "128 threads",
                          "CuTe thread layout, (rows, columns) of threads -> thread index, e.g. (16,8):(8,1); empty: "
                          "128 threads along the tile's contiguous mode");
    changed |= text_field("vector", "##vector", q.vector, em(3), "auto",
                          "Elements each thread moves at once; empty: the instruction's width");
    changed |= text_field("global", "##global", q.global, em(9), "compact",
                          "The tile's layout in global memory, e.g. (64,64):(4096,1) for rows of a 4096-wide matrix; "
                          "empty: compact");
  }
  if (copy || !q.lanes.empty())
    changed |=
        text_field("lanes", "##lanes", q.lanes, std::max(em(12), ImGui::GetContentRegionAvail().x * 0.5f),
                   "r,c r,c ... (optional)",
                   "Explicit lanes instead: 32 coordinates ROW,COLUMN (lane 0 first) separated by spaces or ';', "
                   "'-' for an inactive lane");
  if (changed) lab.set_query(std::move(q));
}

// The selected instruction's lanes that collide on a bank in some phase.
std::array<bool, kLanes> colliding_lanes(const lab::InstructionReport& r) {
  std::array<bool, kLanes> out{};
  for (const auto& phase : r.phases)
    for (const int lane : phase.colliding_lanes) out[static_cast<std::size_t>(lane)] = true;
  return out;
}

// Bank colours with their numbers, 16 to a row (8 where two digits would not fit): the key to the tile's picture.
void bank_key() {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float left = ImGui::CalcTextSize("banks ").x;
  const float avail = ImGui::GetContentRegionAvail().x - left;
  const int per_row = avail / 16.0f >= ImGui::CalcTextSize("00").x + 2 ? 16 : 8;  // two-digit numbers must fit
  const float box = std::min(avail / static_cast<float>(per_row), 30.0f);
  const float row = ImGui::GetTextLineHeight() + 4.0f;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  draw->AddText(ImVec2(origin.x, origin.y + 2), colour::muted_text, "banks");
  char text[8];
  for (int bank = 0; bank < 32; ++bank) {
    const ImVec2 min(origin.x + left + static_cast<float>(bank % per_row) * box + 1,
                     origin.y + static_cast<float>(bank / per_row) * row);
    const ImVec2 max(min.x + box - 2, min.y + row - 2);
    draw->AddRectFilled(min, max, colour::bank(bank), 2.0f);
    std::snprintf(text, sizeof text, "%d", bank);
    ui::centered_text(draw, min, max, kDark, text);
  }
  ImGui::Dummy(ImVec2(left + static_cast<float>(per_row) * box, static_cast<float>(32 / per_row) * row));
}

// The tile, one cell per element coloured by its bank; the selected instruction's elements bright and outlined, with
// each one's lane where there is room, and red frames on the words its colliding lanes ask of their worst bank.
void tile_picture(PanelContext& context, const LayoutLabModel& lab) {
  const auto& report = *lab.report();
  const int rows = static_cast<int>(lab.tile_rows()), columns = static_cast<int>(lab.tile_columns());
  const auto& banks = lab.cell_banks();
  const auto& lanes = lab.cell_lanes();
  const int selected = lab.selected_instruction();
  std::array<bool, kLanes> colliding{};
  std::array<int, kLanes> collides_on{};  // the worst bank of each colliding lane's phase (-1: none)
  collides_on.fill(-1);
  if (selected >= 0) {
    const auto& r = report.instructions[static_cast<std::size_t>(selected)];
    colliding = colliding_lanes(r);
    for (const auto& phase : r.phases)
      for (const int lane : phase.colliding_lanes) collides_on[static_cast<std::size_t>(lane)] = phase.worst_bank;
  }

  ImGui::Text("The tile, %d x %d %s, coloured by", rows, columns,
              std::string(lab::element_name(report.tile.element)).c_str());
  ImGui::SameLine(0, 4);
  ui::term("bank");
  if (selected >= 0)
    ui::note_text(
        "Each element has the colour of its 4-byte word's bank. Bright: instruction %d's elements; red frames: the "
        "words of the worst bank that its colliding lanes ask for. Hover an element; the wheel zooms, dragging pans.",
        selected);
  else
    ui::note_text(
        "Each element has the colour of its 4-byte word's bank. Hover an element; the wheel zooms, dragging pans.");

  std::vector<ImU32> colours(banks.size());
  for (std::size_t cell = 0; cell < banks.size(); ++cell)
    colours[cell] = colour::bank(banks[cell], lanes[cell] >= 0 ? 1.2f : 0.5f);
  const float margin = 3.0f;  // cells of room for the row numbers on the left and the column numbers on top
  const float content_width = margin + static_cast<float>(columns), content_height = margin + static_cast<float>(rows);
  // As tall as the tile's shape asks, leaving room for the key below.
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float key_height = 7.0f * ImGui::GetTextLineHeightWithSpacing() + 8.0f;
  const float height =
      std::clamp(avail.x * content_height / content_width, 120.0f, std::max(120.0f, avail.y - key_height));
  ViewTransform& transform = context.model.view_transform("layout-lab-tile");
  {
    ui::Canvas canvas("tile", ImVec2(avail.x, height), transform, content_width, content_height);
    ImDrawList* draw = canvas.draw();
    // The shaders keep one texel per cell, and a texture side past what every GL driver takes would fail: a tile
    // that long in one mode (a single row of 64 KiB) is drawn cell by cell instead.
    const bool fits_a_texture = columns <= kLongestTextureSide && rows <= kLongestTextureSide;
    draw_cell_grid(fits_a_texture ? context.grids : nullptr, canvas, "layout-lab-tile", columns, rows, colours, margin,
                   margin, {.group_columns = 8, .group_rows = 8, .cell_borders = true});
    const float cell = canvas.scale();
    const float line = ImGui::GetTextLineHeight();
    char text[32];
    // Row and column numbers, every 1, 2, 4, 8 or a multiple of 8 cells: as often as they fit.
    const auto step = [](float needed) {
      const int n = std::max(1, static_cast<int>(std::ceil(needed)));
      return n <= 1 ? 1 : n <= 2 ? 2 : n <= 4 ? 4 : 8 * ((n + 7) / 8);
    };
    const float widest = ImGui::CalcTextSize(std::to_string(std::max(columns - 1, 100)).c_str()).x;
    const int column_every = step((widest + 6) / std::max(cell, 1e-6f));
    for (int c = 0; c < columns; c += column_every) {
      const ImVec2 at = canvas.to_screen(margin + static_cast<float>(c), margin);
      std::snprintf(text, sizeof text, "%d", c);
      draw->AddText(ImVec2(at.x, at.y - line - 2), colour::muted_text, text);
    }
    const int row_every = step(line / std::max(cell, 1e-6f));
    for (int r = 0; r < rows; r += row_every) {
      const ImVec2 at = canvas.to_screen(margin, margin + static_cast<float>(r));
      std::snprintf(text, sizeof text, "%d", r);
      const float width = ImGui::CalcTextSize(text).x;
      draw->AddText(ImVec2(at.x - width - 4, at.y + std::max(0.0f, (cell - line) * 0.5f)), colour::muted_text, text);
    }
    // The instruction's elements: the outline of the region they cover, and each lane's number where it fits; a red
    // frame around the words a colliding lane asks of its phase's worst bank, so the conflict is the red column of
    // one colour.
    const auto lane_at = [&](int r, int c) {
      if (r < 0 || c < 0 || r >= rows || c >= columns) return -1;
      return static_cast<int>(
          lanes[static_cast<std::size_t>(r) * static_cast<std::size_t>(columns) + static_cast<std::size_t>(c)]);
    };
    const auto in_conflict = [&](int r, int c) {
      const int lane = lane_at(r, c);
      return lane >= 0 &&
             collides_on[static_cast<std::size_t>(lane)] ==
                 banks[static_cast<std::size_t>(r) * static_cast<std::size_t>(columns) + static_cast<std::size_t>(c)];
    };
    // Edges of a region: where the neighbour is not in it.
    const auto outline = [&](ImVec2 min, ImVec2 max, bool up, bool down, bool left, bool right, ImU32 c, float width) {
      if (up) draw->AddLine(min, ImVec2(max.x, min.y), c, width);
      if (down) draw->AddLine(ImVec2(min.x, max.y), max, c, width);
      if (left) draw->AddLine(min, ImVec2(min.x, max.y), c, width);
      if (right) draw->AddLine(ImVec2(max.x, min.y), max, c, width);
    };
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < columns; ++c) {
        const int lane = lane_at(r, c);
        if (lane < 0 || !canvas.visible(margin + static_cast<float>(c), margin + static_cast<float>(r),
                                        margin + static_cast<float>(c + 1), margin + static_cast<float>(r + 1)))
          continue;
        ImVec2 min, max;
        cell_rect(canvas, margin, margin, c, r, min, max);
        outline(min, max, lane_at(r - 1, c) < 0, lane_at(r + 1, c) < 0, lane_at(r, c - 1) < 0, lane_at(r, c + 1) < 0,
                colour::highlight, 1.5f);
        if (in_conflict(r, c)) {
          // Red on a dark rim, so it stands out on bank 0's red too.
          const bool up = !in_conflict(r - 1, c), down = !in_conflict(r + 1, c), left = !in_conflict(r, c - 1),
                     right = !in_conflict(r, c + 1);
          for (const auto& [c_line, width] : {std::pair{kDark, 4.0f}, std::pair{colour::conflict, 2.0f}}) {
            // Inside the cells, but edge to edge along the region, so neighbouring cells' lines join up.
            if (up) draw->AddLine(ImVec2(min.x, min.y + 1), ImVec2(max.x, min.y + 1), c_line, width);
            if (down) draw->AddLine(ImVec2(min.x, max.y - 1), ImVec2(max.x, max.y - 1), c_line, width);
            if (left) draw->AddLine(ImVec2(min.x + 1, min.y), ImVec2(min.x + 1, max.y), c_line, width);
            if (right) draw->AddLine(ImVec2(max.x - 1, min.y), ImVec2(max.x - 1, max.y), c_line, width);
          }
        }
        std::snprintf(text, sizeof text, "%d", lane);
        if (cell >= ImGui::CalcTextSize(text).x + 4 && cell >= line) ui::centered_text(draw, min, max, kDark, text);
      }
    if (canvas.hovered()) {
      const ImVec2 p = canvas.to_content(ImGui::GetIO().MousePos);
      const int c = static_cast<int>(std::floor(p.x - margin)), r = static_cast<int>(std::floor(p.y - margin));
      if (c >= 0 && r >= 0 && c < columns && r < rows) {
        const std::int64_t byte = report.tile.byte_offset(r, c);
        const int lane = lane_at(r, c);
        const std::string who =
            lane >= 0 ? std::string("\ninstruction ") + std::to_string(selected) + ": lane " + std::to_string(lane) +
                            (colliding[static_cast<std::size_t>(lane)] ? " (collides on its bank)" : "")
                      : std::string();
        const int bank =
            banks[static_cast<std::size_t>(r) * static_cast<std::size_t>(columns) + static_cast<std::size_t>(c)];
        ImGui::SetTooltip("element (%d, %d)\nbyte offset %lld, bank %d%s", r, c, static_cast<long long>(byte), bank,
                          who.c_str());
      }
    }
  }
  bank_key();
  ui::note_text(
      "Same colour, same bank. A bank delivers one 4-byte word per wavefront: lanes that need different "
      "words of one bank are served one after another.");
}

// Lanes 0-31, 16 to a row, with the first bank each one asks for; a gap between the phases (the lanes the hardware
// serves together).
void lane_strip(const lab::InstructionReport& r) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float row = ImGui::GetTextLineHeight() + 4.0f;
  const float left = ImGui::CalcTextSize("bank ").x;
  const float gap = 8.0f;
  std::array<bool, kLanes> phase_starts{};
  for (const auto& phase : r.phases) phase_starts[static_cast<std::size_t>(phase.first_lane)] = true;
  const float column = std::clamp((ImGui::GetContentRegionAvail().x - left - 2 * gap) / 16.0f, 18.0f, 34.0f);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const auto colliding = colliding_lanes(r);
  char text[16];
  float right = 0.0f;
  for (int half = 0; half < 2; ++half) {
    const float top = origin.y + static_cast<float>(half) * (2 * row + 4);
    draw->AddText(ImVec2(origin.x, top + 2), colour::muted_text, "lane");
    draw->AddText(ImVec2(origin.x, top + row + 2), colour::muted_text, "bank");
    float x = origin.x + left;
    for (int lane = 16 * half; lane < 16 * half + 16; ++lane) {
      if (lane % 16 != 0 && phase_starts[static_cast<std::size_t>(lane)]) x += gap;
      const int bank = r.first_bank[static_cast<std::size_t>(lane)];
      std::snprintf(text, sizeof text, "%d", lane);
      ui::centered_text(draw, ImVec2(x, top), ImVec2(x + column, top + row),
                        bank >= 0 ? colour::highlight : colour::muted_text, text);
      if (bank >= 0) {
        const ImVec2 min(x + 1, top + row), max(x + column - 1, top + 2 * row - 1);
        draw->AddRectFilled(min, max, colour::bank(bank), 3.0f);
        if (colliding[static_cast<std::size_t>(lane)]) draw->AddRect(min, max, colour::conflict, 3.0f, 0, 2.0f);
        std::snprintf(text, sizeof text, "%d", bank);
        ui::centered_text(draw, min, max, kDark, text);
      }
      x += column;
    }
    right = std::max(right, x - origin.x);
  }
  ImGui::Dummy(ImVec2(right, 4 * row + 4));
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "Each lane's first bank: the bank of the first 4-byte word it reads or writes (grey: no address). "
        "The groups are the phases, the lanes the hardware serves together; red: lanes that collide.");
}

// The phases of an instruction, one row each: what it costs and which bank's words collide.
void phase_table(const lab::InstructionReport& r) {
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersOuterH | ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable("phases", 5, flags)) return;
  ImGui::TableSetupColumn("lanes");
  ImGui::TableSetupColumn("wavefronts");
  ImGui::TableSetupColumn("ideal");
  ImGui::TableSetupColumn("conflicts");
  ImGui::TableSetupColumn("worst bank", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableHeadersRow();
  for (const auto& phase : r.phases) {
    const ImU32 verdict = phase.conflicts() > 0 ? colour::conflict : colour::ok;
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::Text("%d-%d", phase.first_lane, phase.first_lane + phase.lanes - 1);
    ImGui::TableNextColumn();
    ui::coloured_text(verdict, "%d", phase.wavefronts);
    ImGui::TableNextColumn();
    ImGui::Text("%d", phase.ideal);
    ImGui::TableNextColumn();
    ui::coloured_text(verdict, "%d", phase.conflicts());
    ImGui::TableNextColumn();
    if (phase.worst_way > 1) {
      ImGui::PushStyleColor(ImGuiCol_Text, colour::to_vec4(colour::conflict));
      ImGui::TextWrapped("bank %d, %d words: lanes %s", phase.worst_bank, phase.worst_way,
                         sim::lane_ranges(phase.colliding_lanes).c_str());
      ImGui::PopStyleColor();
    } else {
      ui::coloured_text(colour::muted_text, "none: one word a bank");
    }
  }
  ImGui::EndTable();
}

std::string plural(int n, const char* word) { return std::to_string(n) + " " + word + (n == 1 ? "" : "s"); }

// Previous / next, a slider over the instructions, and a jump to the one with the most conflicts.
void instruction_stepper(LayoutLabModel& lab, int count, int selected) {
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("Instruction");
  ImGui::SameLine();
  if (ImGui::ArrowButton("previous", ImGuiDir_Left)) lab.select_instruction(selected - 1);
  ImGui::SameLine();
  if (ImGui::ArrowButton("next", ImGuiDir_Right)) lab.select_instruction(selected + 1);
  ImGui::SameLine();
  int picked = selected;
  const float worst_button = ImGui::CalcTextSize("the worst").x + 2 * ImGui::GetStyle().FramePadding.x;
  ImGui::SetNextItemWidth(
      std::clamp(ImGui::GetContentRegionAvail().x - worst_button - ImGui::GetStyle().ItemSpacing.x, em(6), em(14)));
  const std::string format = std::string("%d of 0-") + std::to_string(count - 1);
  if (ImGui::SliderInt("##instruction", &picked, 0, count - 1, format.c_str(), ImGuiSliderFlags_AlwaysClamp))
    lab.select_instruction(picked);
  ImGui::SameLine();
  const int worst = lab.worst_instruction();
  ImGui::BeginDisabled(selected == worst);
  if (ImGui::Button("the worst")) lab.select_instruction(worst);
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("the instruction with the most bank conflicts (%d)", worst);
}

// The instruction selector, then the selected instruction's cost and its phases.
void instruction_view(LayoutLabModel& lab) {
  const auto& report = *lab.report();
  const int count = static_cast<int>(report.instructions.size());
  const int selected = lab.selected_instruction();
  if (count > 1) instruction_stepper(lab, count, selected);

  const auto& instruction = report.access.instructions[static_cast<std::size_t>(selected)];
  const auto& r = report.instructions[static_cast<std::size_t>(selected)];
  const auto& cost = r.shared.cost;
  const ImU32 verdict = cost.bank_conflicts() > 0 ? colour::conflict : colour::ok;
  ImGui::PushFont(ui::fonts().heading);
  ImGui::Text("[%d] %s:", selected, sim::op_name(instruction.shared).c_str());
  ImGui::SameLine();
  ui::coloured_text(verdict, "%s", plural(cost.bank_conflicts(), "bank conflict").c_str());
  ImGui::PopFont();
  ImGui::TextWrapped("%s, ideal %d; %s", plural(cost.wavefronts, "wavefront").c_str(), cost.ideal_wavefronts,
                     instruction.what.c_str());
  ImGui::Spacing();
  lane_strip(r);
  phase_table(r);
  if (r.global && instruction.global)
    ImGui::Text("global side (%s): %s, %s (ideal %d)", sim::op_name(*instruction.global).c_str(),
                plural(r.global->cost.requests, "request").c_str(), plural(r.global->cost.sectors, "sector").c_str(),
                r.global->cost.ideal_sectors);
}

void totals_view(const lab::Report& report) {
  const auto& t = report.totals;
  ui::heading("Over the whole tile");
  const ImU32 verdict = t.conflicts() > 0 ? colour::conflict : colour::ok;
  ui::coloured_text(verdict, "%lld bank conflicts", static_cast<long long>(t.conflicts()));
  ImGui::SameLine();
  ImGui::Text("in %s:", plural(static_cast<int>(t.instructions), "instruction").c_str());
  ImGui::TextWrapped("%lld wavefronts, ideal %lld (%.2fx the ideal)", static_cast<long long>(t.wavefronts),
                     static_cast<long long>(t.ideal),
                     t.ideal > 0 ? static_cast<double>(t.wavefronts) / static_cast<double>(t.ideal) : 0.0);
  if (t.global_requests > 0)
    ImGui::Text("global side: %lld requests, %lld sectors (ideal %lld)", static_cast<long long>(t.global_requests),
                static_cast<long long>(t.global_sectors), static_cast<long long>(t.global_ideal_sectors));
  if (report.ncu.wavefronts.empty()) {
    if (report.access.kind == lab::AccessKind::CoreMatrices)
      ui::note_text("ncu has no counter of wgmma's shared reads: these figures are the model's.");
    return;
  }
  ui::note_text("As ncu counts them:");
  // Wrapped: a counter's name is one long word, cut where the column ends.
  ImGui::PushFont(ui::fonts().mono);
  ImGui::TextWrapped("%s = %lld", report.ncu.wavefronts.c_str(), static_cast<long long>(t.wavefronts));
  ImGui::TextWrapped("%s = %lld", report.ncu.conflicts.c_str(), static_cast<long long>(t.conflicts()));
  if (t.global_requests > 0 && !report.ncu.requests.empty()) {
    ImGui::TextWrapped("%s = %lld", report.ncu.requests.c_str(), static_cast<long long>(t.global_requests));
    ImGui::TextWrapped("%s = %lld", report.ncu.sectors.c_str(), static_cast<long long>(t.global_sectors));
  }
  ImGui::PopFont();
}

void suggestions_view(LayoutLabModel& lab) {
  ui::heading("The fix");
  if (!lab.suggestions()) {
    ui::note_text("No suggestions for this access: %s", without_flag_dashes(lab.suggestions_error()).c_str());
    return;
  }
  const lab::Suggestions& s = *lab.suggestions();
  ImGui::TextWrapped(
      "Every swizzle this tile can take, TMA's modes and row paddings, scored on this access (%s: %lld "
      "conflicts here) and on the tile's other side (%s: %lld): %d of %zu are conflict-free on both. "
      "Conflicts are given as this access + the other side.",
      s.first.op.c_str(), static_cast<long long>(s.given_first.conflicts()), s.second.op.c_str(),
      static_cast<long long>(s.given_second.conflicts()), s.conflict_free, s.candidates.size());
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("the other side: %s", s.second_description.c_str());
  if (s.given_first.conflicts() == 0 && s.given_second.conflicts() == 0)
    ui::coloured_text(colour::ok, "Your layout is conflict-free on both already.");
  if (!s.why_none.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, colour::to_vec4(colour::conflict));
    ImGui::TextWrapped("None is conflict-free on both: %s", s.why_none.c_str());
    ImGui::PopStyleColor();
  }
  const int visible_rows = std::clamp(static_cast<int>(s.candidates.size()), 1, 6);
  const float height = ImGui::GetFrameHeightWithSpacing() * (static_cast<float>(visible_rows) + 1.0f);
  const ImGuiTableFlags flags =
      ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersOuterH | ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable("suggestions", 4, flags, ImVec2(0, height))) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableSetupColumn("layout", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableSetupColumn("conflicts", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableSetupColumn("extra bytes", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableHeadersRow();
  std::optional<std::size_t> apply;
  for (std::size_t i = 0; i < s.candidates.size(); ++i) {
    const lab::Candidate& c = s.candidates[i];
    ImGui::PushID(static_cast<int>(i));
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    if (ImGui::SmallButton("Apply")) apply = i;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("write this layout into the fields above");
    ImGui::TableNextColumn();
    ImGui::PushStyleColor(ImGuiCol_Text, colour::to_vec4(c.conflict_free() ? colour::ok : colour::muted_text));
    ImGui::TextWrapped("%s %s", c.conflict_free() ? "ok" : "--", c.label.c_str());
    ImGui::PopStyleColor();
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", c.tile.to_cute().c_str());
    ImGui::TableNextColumn();
    ui::coloured_text(c.conflict_free() ? colour::ok : colour::conflict, "%lld + %lld",
                      static_cast<long long>(c.first.conflicts()), static_cast<long long>(c.second.conflicts()));
    ImGui::TableNextColumn();
    ImGui::Text("%lld", static_cast<long long>(c.extra_bytes));
    ImGui::PopID();
  }
  ImGui::EndTable();
  if (apply) (void)lab.apply_suggestion(*apply);
}

// One form of the tile: its name, the text, and a button that copies it.
void expression_row(const char* name, const std::string& text, bool mono) {
  ImGui::PushID(name);
  if (ImGui::SmallButton("Copy")) ImGui::SetClipboardText(text.c_str());
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("copy to the clipboard");
  ImGui::SameLine();
  ui::coloured_text(colour::muted_text, "%s", name);
  ImGui::SameLine(em(9));
  if (mono) ImGui::PushFont(ui::fonts().mono);
  ImGui::TextWrapped("%s", text.c_str());
  if (mono) ImGui::PopFont();
  ImGui::PopID();
}

void expressions_view(const LayoutLabModel& lab) {
  const auto& ex = *lab.expressions();
  const lab::Tile& tile = lab.report()->tile;
  ui::heading("The same tile, as other tools write it");
  expression_row("CuTe C++", ex.cute, true);
  expression_row("CuTe prints", ex.printed, true);
  expression_row("TMA",
                 ex.tma_mode
                     ? (*ex.tma_mode == 0 ? std::string("CU_TENSOR_MAP_SWIZZLE_NONE")
                                          : std::string("CU_TENSOR_MAP_SWIZZLE_") + std::to_string(*ex.tma_mode) + "B")
                     : std::string("none: ") + ex.tma_why_not,
                 ex.tma_mode.has_value());
  expression_row("Triton", ex.triton ? ex.triton->to_string() : std::string("none: ") + ex.triton_why_not,
                 ex.triton.has_value());
  if (!tile.swizzle.identity()) ui::note_text("%s", lab::explain_swizzle(tile.swizzle, tile.bytes()).c_str());
}

}  // namespace

void draw_layout_lab_panel(PanelContext& context) {
  LayoutLabModel& lab = context.model.layout_lab();
  question_fields(lab);
  ImGui::Separator();
  if (!lab.report()) {
    ui::heading("This question has no answer yet");
    ImGui::PushStyleColor(ImGuiCol_Text, colour::to_vec4(colour::conflict));
    ImGui::TextWrapped("%s", without_flag_dashes(lab.error()).c_str());
    ImGui::PopStyleColor();
    ui::note_text("Mend the field the sentence names, or start again from the gallery.");
    return;
  }
  const lab::Report& report = *lab.report();
  ui::note_text("%s", report.access.description.c_str());
  if (ImGui::BeginTable("layout-lab", 2, ImGuiTableFlags_Resizable | ImGuiTableFlags_BordersInnerV,
                        ImGui::GetContentRegionAvail())) {
    ImGui::TableSetupColumn("tile", ImGuiTableColumnFlags_WidthStretch, 0.38f);
    ImGui::TableSetupColumn("answer", ImGuiTableColumnFlags_WidthStretch, 0.62f);
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    tile_picture(context, lab);
    ImGui::TableNextColumn();
    ImGui::BeginChild("answer", ImVec2(0, 0), false);
    if (report.access.tma) {
      const auto& t = *report.access.tma;
      const std::string mode =
          t.swizzle_mode == 0 ? std::string("no-swizzle mode") : std::to_string(t.swizzle_mode) + "-byte swizzle mode";
      ui::heading("A TMA box write");
      ImGui::TextWrapped(
          "The copy engine writes %lld rows of %lld bytes (%lld bytes) in one copy, in the %s. It issues "
          "no warp instruction, and ncu counts no bank conflicts for it: the access that reads the tile "
          "is the one to check (wgmma or ldmatrix).",
          static_cast<long long>(t.rows), static_cast<long long>(t.inner_bytes), static_cast<long long>(t.bytes),
          mode.c_str());
    } else if (!report.instructions.empty()) {
      instruction_view(lab);
      ImGui::Spacing();
      totals_view(report);
    }
    ImGui::Spacing();
    suggestions_view(lab);
    ImGui::Spacing();
    expressions_view(lab);
    ImGui::EndChild();
    ImGui::EndTable();
  }
}

}  // namespace gemmlab::desktop
