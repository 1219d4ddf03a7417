// The Timeline panel: one kernel's warps as they ran on the GPU (a trace of gemmlab-cli trace), a lane per warpgroup of
// one sampled block, with the time model's block above them where the trace has it: k-steps, the waits inside them,
// the copies issued. It reads the model's TimelineStudy (model/timeline_study.hpp) and calls its commands.
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "panels/panel_widgets.hpp"
#include "panels/panels.hpp"
#include "ui/theme.hpp"

namespace gemmlab::desktop {
namespace {

namespace colour = ui::colour;

// A span's colour: the phases in two greys that alternate k-step by k-step (the prologue and epilogues in slate), each
// wait its own hue, the copy engine's issues in blue and green.
ImU32 span_colour(const sim::Span& s) {
  switch (s.op) {
    case kernel::TraceOp::Phase:
      if (s.section != kernel::Section::Mainloop) return IM_COL32(70, 92, 110, 255);
      return s.arg % 2 ? IM_COL32(78, 82, 92, 255) : IM_COL32(96, 100, 112, 255);
    case kernel::TraceOp::MbarrierWait:
      return IM_COL32(240, 150, 60, 255);
    case kernel::TraceOp::WgmmaWait:
      return IM_COL32(190, 120, 255, 255);
    case kernel::TraceOp::CpAsyncWait:
      return IM_COL32(240, 200, 80, 255);
    case kernel::TraceOp::TmaStoreWait:
      return IM_COL32(120, 220, 160, 255);
    case kernel::TraceOp::SplitWait:
      return IM_COL32(255, 110, 160, 255);
    case kernel::TraceOp::Barrier:
      return colour::conflict;
    case kernel::TraceOp::TmaLoad:
      return IM_COL32(90, 180, 255, 255);
    case kernel::TraceOp::TmaStore:
      return IM_COL32(90, 220, 120, 255);
  }
  return colour::muted_text;
}

void controls(AppModel& model) {
  TimelineStudy& study = model.timeline();
  labelled_text_field("Trace file", "##trace-path", study.path_text(), 26.0f);
  ImGui::SameLine();
  if (ImGui::Button("Load")) (void)model.load_trace(study.path_text());
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("A file gemmlab-cli trace --out wrote (docs/timeline.md)");
  ImGui::SameLine();
  const std::string recorded = "Recorded trace of " + std::string(rung_info(model.rung()).slug);
  if (ImGui::Button(recorded.c_str())) (void)model.load_recorded_trace();
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("The Hopper rungs (17 to 24) traced at 4096^3 on an H200: docs/timeline-data");
  if (!study.error().empty()) {
    ImGui::PushTextWrapPos(0.0f);  // a path and a sentence: wrapped at the panel's edge
    ui::coloured_text(colour::conflict, "%s", study.error().c_str());
    ImGui::PopTextWrapPos();
  }
}

void header(TimelineStudy& study) {
  const sim::Timeline& t = study.timeline();
  ui::heading((t.kernel + " at " + std::to_string(t.m) + " x " + std::to_string(t.n) + " x " + std::to_string(t.k) +
               ", " + t.input)
                  .c_str());
  ui::note_text("%s.", t.source.c_str());  // the file's name is in the box above
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("Block");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8.0f);
  const std::string current = std::to_string(study.block());
  if (ImGui::BeginCombo("##trace-block", current.c_str())) {
    for (const int block : study.blocks())
      if (ImGui::Selectable(std::to_string(block).c_str(), block == study.block())) study.select_block(block);
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  ui::note_text("one of the %zu blocks sampled, of the %d launched (each lane: the first warp of a warpgroup)",
                study.blocks().size(), t.blocks_launched);
}

// The lanes: a row per track, time left to right over [from, from + window] of the block's run.
void lanes(TimelineStudy& study) {
  float& zoom = study.zoom();
  float& pan = study.pan();
  const auto tracks = study.shown_tracks();
  if (tracks.empty()) return;
  std::int64_t begin = tracks.front()->begin_ns, end = tracks.front()->end_ns;
  for (const sim::Track* t : tracks) begin = std::min(begin, t->begin_ns), end = std::max(end, t->end_ns);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14.0f);
  ImGui::SliderFloat("zoom", &zoom, 1.0f, 64.0f, "%.0fx", ImGuiSliderFlags_Logarithmic);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14.0f);
  ImGui::SliderFloat("from", &pan, 0.0f, 1.0f, "%.2f");
  const double whole = static_cast<double>(std::max<std::int64_t>(1, end - begin));
  const double window = whole / zoom;
  const double from = static_cast<double>(begin) + pan * (whole - window);

  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float label_width = ImGui::GetFontSize() * 13.0f, row = line * 1.6f;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = ImGui::GetContentRegionAvail().x;
  const float left = origin.x + label_width, right = origin.x + width - line * 0.5f;
  const float height = row * static_cast<float>(tracks.size()) + line * 1.5f;
  ImGui::Dummy(ImVec2(width, height));
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const auto x_of = [&](double ns) { return left + static_cast<float>((ns - from) / window) * (right - left); };
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const sim::Span* hovered = nullptr;
  for (std::size_t i = 0; i < tracks.size(); ++i) {
    const sim::Track& t = *tracks[i];
    const float top = origin.y + row * static_cast<float>(i), bottom = top + row - 3.0f;
    const std::string label = t.predicted ? "model: " + t.role : t.role + " (wg " + std::to_string(t.warpgroup) + ")";
    draw->AddText(ImVec2(origin.x, top + (row - line) * 0.5f),
                  t.predicted ? IM_COL32(255, 190, 90, 255) : colour::highlight, label.c_str());
    draw->AddRectFilled(ImVec2(left, top), ImVec2(right, bottom), colour::empty_cell);
    draw->PushClipRect(ImVec2(left, top), ImVec2(right, bottom), true);
    for (const sim::Span& s : t.spans) {
      if (static_cast<double>(s.end_ns) < from || static_cast<double>(s.begin_ns) > from + window) continue;
      const float x0 = x_of(static_cast<double>(s.begin_ns)),
                  x1 = std::max(x0 + 1.0f, x_of(static_cast<double>(s.end_ns)));
      const bool phase = s.op == kernel::TraceOp::Phase;
      const bool issue = sim::trace_op_info(s.op).kind == sim::TraceOpKind::Issue;
      const float y0 = phase ? top : issue ? top : top + (bottom - top) * 0.3f;
      const float y1 = phase ? bottom : issue ? top + (bottom - top) * 0.3f : bottom;
      draw->AddRectFilled(ImVec2(x0, y0), ImVec2(issue ? x0 + 2.0f : x1, y1), span_colour(s));
      if (mouse.y >= y0 && mouse.y < y1 && mouse.x >= x0 - 1.0f && mouse.x <= std::max(x1, x0 + 2.0f) &&
          (hovered == nullptr || !phase))
        hovered = &s;
    }
    draw->PopClipRect();
  }
  // The time axis: the window's ends, from the block's start.
  const float axis = origin.y + row * static_cast<float>(tracks.size()) + line * 0.2f;
  const std::string start = sim::duration_text(from - static_cast<double>(begin));
  const std::string stop = sim::duration_text(from + window - static_cast<double>(begin));
  draw->AddText(ImVec2(left, axis), colour::muted_text, start.c_str());
  draw->AddText(ImVec2(right - ImGui::CalcTextSize(stop.c_str()).x, axis), colour::muted_text, stop.c_str());
  if (hovered != nullptr && ImGui::IsWindowHovered())
    ImGui::SetTooltip(
        "%s\n%s, from %s",
        (sim::span_name(*hovered) + " (" + std::string(sim::section_name(hovered->section)) + ")").c_str(),
        sim::duration_text(static_cast<double>(hovered->end_ns - hovered->begin_ns)).c_str(),
        sim::duration_text(static_cast<double>(hovered->begin_ns - begin)).c_str());
}

void legend() {
  const std::pair<kernel::TraceOp, const char*> items[] = {
      {kernel::TraceOp::MbarrierWait, "mbarrier wait (copies, a free stage)"},
      {kernel::TraceOp::WgmmaWait, "wgmma wait"},
      {kernel::TraceOp::Barrier, "block barrier"},
      {kernel::TraceOp::TmaLoad, "TMA load issued"},
      {kernel::TraceOp::TmaStore, "TMA store issued"},
      {kernel::TraceOp::SplitWait, "split-K flag wait"}};
  for (const auto& [op, text] : items) {
    sim::Span s;
    s.op = op;
    ImGui::ColorButton(text, colour::to_vec4(span_colour(s)), ImGuiColorEditFlags_NoTooltip,
                       ImVec2(ImGui::GetFontSize(), ImGui::GetFontSize()));
    ImGui::SameLine();
    ImGui::TextUnformatted(text);
    ImGui::SameLine(0.0f, ImGui::GetFontSize() * 1.2f);
  }
  ImGui::NewLine();
  ui::note_text(
      "Grey: the k-steps (alternating shades), slate the prologue and epilogues. Hover a span for its name "
      "and length.");
}

void summary_table(const TimelineStudy& study) {
  const sim::TimelineSummary& s = study.summary();
  if (!ImGui::BeginTable("trace-summary", 6, ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit)) return;
  for (const char* h : {"role", "warps", "median k-step", "own work", "waiting", "issuing"}) ImGui::TableSetupColumn(h);
  ImGui::TableHeadersRow();
  for (const sim::RoleSummary& r : s.roles) {
    ImGui::TableNextRow();
    const std::string cells[] = {r.role,
                                 std::to_string(r.tracks),
                                 r.ksteps ? sim::duration_text(r.median_kstep_ns) : "-",
                                 sim::share_text(r.busy_ns, r.total_ns),
                                 sim::waits_text(r),
                                 sim::share_text(r.issue_ns, r.total_ns)};
    for (const std::string& cell : cells) {
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(cell.c_str());
    }
  }
  ImGui::EndTable();
  for (const std::string& finding : sim::findings_text(s)) ui::note_text("%s", finding.c_str());
  if (s.lost > 0)
    ui::coloured_text(colour::conflict,
                      "%u events lost by %d warps: their tracks end early (trace again with more "
                      "--events).",
                      s.lost, s.tracks_with_lost);
}

}  // namespace

void draw_timeline_panel(PanelContext& context) {
  AppModel& model = context.model;
  TimelineStudy& study = model.timeline();
  if (!study.loaded() && study.error().empty()) (void)model.load_recorded_trace();  // first look: the rung's own
  controls(model);
  if (!study.loaded()) {
    if (study.error().empty())  // a failed load's sentence above already says what there is
      ui::note_text(
          "No trace shown. The Hopper rungs (%s) have one recorded on an H200; on a machine with a GPU, "
          "`gemmlab-cli trace --rung R --out F.json` makes one of any configuration (docs/timeline.md).",
          rungs_with_recorded_traces().c_str());
    return;
  }
  header(study);
  lanes(study);
  legend();
  summary_table(study);
}

}  // namespace gemmlab::desktop
