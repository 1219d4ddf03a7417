#include "panels/panel_widgets.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <array>
#include <bit>
#include <climits>
#include <cstdio>

#include "gemmlab/memory_model.hpp"
#include "ui/glossary.hpp"
#include "ui/theme.hpp"

namespace gemmlab::desktop {
namespace {

using sim::MemOp;

int active_lanes(const sim::WarpAccess& a) { return std::popcount(a.active_mask); }

// "#3  lds.128" (snprintf: GCC 12 warns falsely about chains of std::string + on a short literal).
std::string instruction_label(int index, const sim::WarpInstruction& instruction) {
  char text[64];
  std::snprintf(text, sizeof text, "#%d  %s", index, instruction_name(instruction).c_str());
  return text;
}

}  // namespace

std::string element_name(const ElementRef& e) {
  if (!e.valid()) return "zero";
  static constexpr const char* kNames[] = {"A", "B", "C"};
  return std::string(kNames[e.operand]) + "[" + std::to_string(e.row) + "][" + std::to_string(e.col) + "]";
}

std::string instruction_name(const sim::WarpInstruction& instruction) { return sim::op_name(instruction.access); }

std::string instruction_brief(int index, const InstructionView& iv, const BlockOutline& outline) {
  const auto& w = iv.instruction;
  const auto op = w.access.op;
  // Shared loads and stores name what the shared words hold; global ones (and cp.async) what they read or write.
  const bool shared_side = op == MemOp::LoadShared || op == MemOp::StoreShared || sim::is_matrix_op(op);
  std::string what = describe_elements(iv, shared_side, outline.operand_bytes);
  if (what.empty()) what = op == MemOp::StoreShared ? "computed values" : "nothing (lanes predicated off)";
  // The cost first, so a narrow list still shows it; the ideal only where the cost is above it.
  const auto count = [](int n, int ideal, const char* unit) {
    std::string text = std::to_string(n) + " " + unit + (n == 1 ? "" : "s");
    if (n > ideal) text += " (ideal " + std::to_string(ideal) + ")";
    return text;
  };
  std::string cost;
  if (sim::touches_shared(op)) cost = count(w.shared.wavefronts, w.shared.ideal_wavefronts, "wavefront");
  if (sim::touches_global(op))
    cost += (cost.empty() ? "" : ", ") + count(w.global.sectors, w.global.ideal_sectors, "sector");
  return instruction_label(index, w) + "  " + cost + "  " + what;
}

void instruction_list(StepperModel& stepper, const BlockOutline& outline, const PhaseView& view) {
  const int warp = stepper.cursor().warp, count = view.instruction_count(warp);
  ImGui::Text("Warp %d's instructions in this phase (%d):", warp, count);
  ui::term_tooltip_for_last_item("instruction names");
  const float rows = static_cast<float>(std::clamp(count, 1, 8));
  ImGui::BeginChild("instruction-list", ImVec2(0, rows * ImGui::GetTextLineHeightWithSpacing() + 6.0f), true,
                    ImGuiWindowFlags_HorizontalScrollbar);
  for (int i = 0; i < count; ++i) {
    const InstructionView* iv = view.find(warp, i);
    const bool current = i == stepper.cursor().instruction;
    const bool costly = iv->instruction.shared.bank_conflicts() > 0 ||
                        iv->instruction.global.sectors > iv->instruction.global.ideal_sectors;
    ImGui::PushID(i);
    if (costly) ImGui::PushStyleColor(ImGuiCol_Text, ui::colour::to_vec4(ui::colour::conflict));
    const std::string brief = instruction_brief(i, *iv, outline);
    if (ImGui::Selectable(brief.c_str(), current)) stepper.select_instruction(i);
    if (costly) ImGui::PopStyleColor();
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s\nclick to step there", brief.c_str());
    if (current && ImGui::IsWindowAppearing()) ImGui::SetScrollHereY();
    ImGui::PopID();
  }
  ImGui::EndChild();
}

std::string instruction_sentence(const InstructionView& iv, const BlockOutline& outline) {
  const auto& w = iv.instruction;
  const auto& a = w.access;
  const std::string who = "Warp " + std::to_string(w.warp);
  const int lanes = active_lanes(a);
  const int bytes = a.width_bytes;
  std::string s;
  switch (a.op) {
    case MemOp::LoadGlobal:
      if (lanes == 0) return who + " issues a load whose lanes are all predicated off (past the end of K): it reads nothing.";
      s = who + " loads " + std::to_string(lanes) + " x " + std::to_string(bytes) + " bytes of " +
          describe_elements(iv, false, outline.operand_bytes) + " from global memory into registers.";
      break;
    case MemOp::StoreGlobal:
      s = who + " writes " + std::to_string(lanes) + " x " + std::to_string(bytes) + " bytes of " +
          describe_elements(iv, false, outline.operand_bytes) + " to global memory.";
      break;
    case MemOp::StoreShared:
    case MemOp::StMatrix: {
      const std::string what = describe_elements(iv, true, outline.operand_bytes);
      s = who + " stores " + std::to_string(lanes) + " x " + std::to_string(sim::is_matrix_op(a.op) ? 16 : bytes) + " bytes to shared memory" +
          (what.empty() ? " (computed values)." : ": " + what + ".");
      break;
    }
    case MemOp::LoadShared:
    case MemOp::LdMatrix: {
      const std::string what = describe_elements(iv, true, outline.operand_bytes);
      s = who + " reads " + std::to_string(lanes) + " x " + std::to_string(sim::is_matrix_op(a.op) ? 16 : bytes) +
          " bytes from shared memory" + (what.empty() ? "." : ": " + what + ".");
      break;
    }
    case MemOp::CpAsync:
      s = who + " copies " + describe_elements(iv, false, outline.operand_bytes) + " from global straight into shared memory, " +
          std::to_string(bytes) + " bytes per lane, with no register in between.";
      break;
  }
  return s;
}

std::string phase_sentence(const PhaseView& view) {
  bool loads = false, stores_shared = false, reads_shared = false, copies = false, writes_c = false;
  for (const auto& iv : view.instructions) {
    switch (iv.instruction.access.op) {
      case MemOp::LoadGlobal: loads = true; break;
      case MemOp::StoreShared:
      case MemOp::StMatrix: stores_shared = true; break;
      case MemOp::LoadShared:
      case MemOp::LdMatrix: reads_shared = true; break;
      case MemOp::CpAsync: copies = true; break;
      case MemOp::StoreGlobal: writes_c = true; break;
    }
  }
  std::string out;
  const auto add = [&](const char* part) { out += (out.empty() ? "" : ", ") + std::string(part); };
  if (loads) add("loads from global memory");
  if (copies) add("copies global -> shared (cp.async)");
  if (view.counters.tma_copies > 0) add("one thread issues TMA copies global -> shared");
  if (view.counters.tma_stores > 0) add("one thread issues a TMA store shared -> C");
  if (stores_shared) add("stores to shared memory");
  if (reads_shared) add("reads shared memory and multiplies");
  if (!reads_shared && (view.fma > 0 || view.counters.mma > 0)) add("multiplies");
  if (view.counters.wgmma > 0) add("waits for its stage's mbarrier, multiplies with wgmma from shared memory");
  if (writes_c) add("writes C");
  if (out.empty()) out = "no memory instructions: this phase works in registers (or on mbarriers) only";
  return out;
}

void knob_editor(AppModel& model, const sim::Knob& knob, bool compact) {
  const std::string name(knob.name);
  const int current = model.config().*knob.field;
  // What the knob takes and means on this rung: a few values of its own (a checkbox for off and on), or its range.
  const sim::RungModel& rung = sim::rung_model(model.rung());
  const std::span<const int> values = rung.values_of(knob.name);
  const std::string_view meaning = rung.help_of(knob.name);
  ImGui::PushID(name.c_str());
  ImGui::AlignTextToFramePadding();
  // Where the value starts: the knobs' column, or after a name longer than it ("setmaxnreg").
  const float after_name =
      ImGui::GetCursorPosX() + ImGui::CalcTextSize(name.c_str()).x + ImGui::GetStyle().ItemSpacing.x;
  ImGui::TextUnformatted(name.c_str());
  if (ImGui::IsItemHovered()) {
    std::string takes;
    for (const int v : values) takes += (takes.empty() ? "" : ", ") + std::to_string(v);
    if (takes.empty()) takes = std::to_string(knob.min) + " to " + std::to_string(knob.max);
    ImGui::SetTooltip("%s: %.*s\n(%s; the simulator checks every value)", name.c_str(),
                      static_cast<int>(meaning.size()), meaning.data(), takes.c_str());
  }
  if (compact) ImGui::SameLine();
  else ImGui::SameLine(std::max(ImGui::GetFontSize() * 5.0f, after_name));
  if (values.size() == 2 && values[0] == 0 && values[1] == 1) {
    bool on = current != 0;
    if (ImGui::Checkbox("##value", &on)) model.set_knob(knob.name, on ? 1 : 0);
  } else if (!values.empty()) {
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (i > 0) ImGui::SameLine();
      if (ImGui::RadioButton(std::to_string(values[i]).c_str(), current == values[i])) model.set_knob(knob.name, values[i]);
    }
  } else if (knob.max - knob.min == 1) {
    bool on = current != knob.min;
    if (ImGui::Checkbox("##value", &on)) model.set_knob(knob.name, on ? knob.max : knob.min);
  } else {
    int value = current;
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * (compact ? 5.5f : 6.5f));
    if (ImGui::InputInt("##value", &value, 1, 8)) model.set_knob(knob.name, value);
    if (!compact && knob.min >= 1 && knob.max >= 16) {  // sizes: halving and doubling are the useful steps
      ImGui::SameLine();
      if (ImGui::SmallButton("/2") && current > 1) model.set_knob(knob.name, current / 2);
      ImGui::SameLine();
      if (ImGui::SmallButton("x2")) model.set_knob(knob.name, current * 2);
    }
  }
  if (compact) {
    ImGui::PopID();
    return;
  }
  // The help, in the space left on the line; the tooltip has it whole when it does not fit.
  ImGui::SameLine();
  const float room = ImGui::GetContentRegionAvail().x;
  const std::string help(meaning);
  if (ImGui::CalcTextSize(help.c_str()).x <= room) {
    ui::note_text("%s", help.c_str());
  } else {
    ImGui::TextDisabled("(?)");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", help.c_str());
  }
  ImGui::PopID();
}

bool config_ready(const AppModel& model) {
  if (model.validity()) return true;
  ui::heading("This configuration cannot run");
  ImGui::PushStyleColor(ImGuiCol_Text, ui::colour::to_vec4(ui::colour::conflict));
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextUnformatted(model.validity().error().message.c_str());
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
  ui::note_text("Change the configuration on the left (or press Reset to go back to the rung's defaults).");
  return false;
}

bool block_ready(AppModel& model) {
  if (!config_ready(model)) return false;
  const StepperModel& stepper = model.stepper();
  if (!stepper.block_error().empty() && !stepper.view_current()) {
    ui::coloured_text(ui::colour::conflict, "The block could not be simulated:");
    ImGui::TextWrapped("%s", stepper.block_error().c_str());
    return false;
  }
  if (!stepper.outline() || !stepper.phase_view()) {
    ui::note_text("Simulating the block...");
    return false;
  }
  return true;
}

int pick_instruction(const StepperModel& stepper, InstructionKind kind) {
  if (!stepper.view_current()) return -1;
  const auto& view = *stepper.phase_view();
  const int warp = stepper.cursor().warp, count = view.instruction_count(warp), at = stepper.cursor().instruction;
  if (at >= 0 && at < count && is_kind(view.find(warp, at)->instruction, kind)) return at;
  for (int d = 1; d < count; ++d) {
    if (at + d < count && is_kind(view.find(warp, at + d)->instruction, kind)) return at + d;
    if (at - d >= 0 && at - d < count && is_kind(view.find(warp, at - d)->instruction, kind)) return at - d;
  }
  return -1;
}

int instruction_picker(StepperModel& stepper, InstructionKind kind) {
  const char* what = kind == InstructionKind::Shared ? "shared-memory" : "global-memory";
  const int picked = pick_instruction(stepper, kind);
  const auto view = stepper.phase_view();
  const auto outline = stepper.outline();
  ImGui::PushID(what);
  if (ImGui::ArrowButton("previous", ImGuiDir_Left)) stepper.seek_instruction(kind, -1);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("previous %s instruction (looks back through earlier phases)", what);
  ImGui::SameLine();
  if (ImGui::ArrowButton("next", ImGuiDir_Right)) stepper.seek_instruction(kind, +1);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("next %s instruction (looks ahead through later phases)", what);
  ImGui::SameLine();
  const int warp = stepper.cursor().warp;
  std::string preview = "none in this phase";
  if (picked >= 0) {
    const auto* iv = view->find(warp, picked);
    preview = instruction_label(picked, iv->instruction);
  }
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 24.0f);
  if (ImGui::BeginCombo("##instruction", preview.c_str())) {
    for (int i = 0; view && i < view->instruction_count(warp); ++i) {
      const auto* iv = view->find(warp, i);
      if (!is_kind(iv->instruction, kind)) continue;
      std::string label = instruction_label(i, iv->instruction);
      if (kind == InstructionKind::Shared && sim::touches_shared(iv->instruction.access.op)) {
        label += "   " + std::to_string(iv->instruction.shared.wavefronts) + " wavefronts (ideal " +
                 std::to_string(iv->instruction.shared.ideal_wavefronts) + ")";
      } else if (kind == InstructionKind::Global) {
        label += "   " + std::to_string(iv->instruction.global.sectors) + " sectors (ideal " +
                 std::to_string(iv->instruction.global.ideal_sectors) + ")";
      }
      if (ImGui::Selectable(label.c_str(), i == picked)) stepper.select_instruction(i);
    }
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  ImGui::TextUnformatted("of warp");
  ImGui::SameLine();
  warp_selector(stepper);
  ImGui::SameLine();
  if (outline && view)
    ui::note_text("%s, phase %s", step_name(view->ref, outline->shape.ksteps).c_str(),
                  index_of(static_cast<std::int64_t>(view->phase_index), static_cast<std::int64_t>(outline->schedule.size())).c_str());
  ImGui::PopID();
  if (picked < 0)
    ui::note_text("The selected warp has no %s instruction in this phase. Use the arrows to find one in another "
                  "phase.", what);
  // Say so when this panel shows another instruction than the stepper's (gemmlab --instruction counts every
  // instruction of the warp, loads and stores of both memories alike).
  const int at = stepper.cursor().instruction;
  if (picked >= 0 && picked != at && at >= 0 && at < view->instruction_count(warp))
    ui::note_text("The stepper stands at instruction %d, %s, which is not a %s instruction: this panel shows the "
                  "nearest one that is, instruction %d.",
                  at, instruction_name(view->find(warp, at)->instruction).c_str(), what, picked);
  return picked;
}

void warp_selector(StepperModel& stepper) {
  int warp = stepper.cursor().warp;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5.5f);
  if (ImGui::InputInt("##warp", &warp)) stepper.select_warp(warp);
  ui::term_tooltip_for_last_item("warp");
}

bool step_button(const char* label, float widths, const char* tooltip, bool first) {
  if (!first) ImGui::SameLine();
  const bool clicked = ImGui::Button(label, ImVec2(ImGui::GetFrameHeight() * widths, 0));
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tooltip);
  return clicked;
}

void step_controls(StepperModel& stepper) {
  ImGui::PushID("steps");
  if (step_button("|<<", 1.6f, "previous k-step (Up arrow)", true)) stepper.step_kstep(-1);
  if (step_button("<", 1.3f, "previous instruction (Left arrow)")) stepper.step_instruction(-1);
  if (step_button(stepper.playing() ? "Pause" : "Play", 2.6f, "play / pause (Space)"))
    stepper.set_playing(!stepper.playing());
  if (step_button(">", 1.3f, "next instruction (Right arrow)")) stepper.step_instruction(+1);
  if (step_button(">>|", 1.6f, "next k-step (Down arrow)")) stepper.step_kstep(+1);
  ImGui::SameLine();
  float speed = static_cast<float>(stepper.play_speed());
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9.0f);
  if (ImGui::SliderFloat("##speed", &speed, 0.5f, 60.0f, "%.1f instr/s", ImGuiSliderFlags_Logarithmic))
    stepper.set_play_speed(speed);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("playback speed: instructions per second");
  ImGui::PopID();
}

bool labelled_text_field(const char* label, const char* id, std::string& text, float width) {
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(label);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * width);
  return ImGui::InputText(id, &text);
}

}  // namespace gemmlab::desktop
