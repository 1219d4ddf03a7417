// The Shapes panel: the user's shapes (or presets of real models' layers), the best rung of each against cuBLAS, the
// model's prediction beside it, and the waves: how full the last wave of tiles leaves the GPU. It reads the model's
// ShapesStudy (model/shapes_study.hpp) and calls its commands.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "gemmlab/gpu/sweep.hpp"
#include "panels/panel_widgets.hpp"
#include "panels/panels.hpp"
#include "ui/theme.hpp"

namespace gemmlab::desktop {
namespace {

namespace colour = ui::colour;

constexpr ImU32 kCublas = IM_COL32(240, 240, 240, 255);
constexpr ImU32 kMeasured = IM_COL32(90, 200, 255, 255);
constexpr ImU32 kPredicted = IM_COL32(255, 190, 90, 255);

void controls(AppModel& model) {
  ShapesStudy& study = model.shapes();
  std::string text = study.shapes_text();
  if (labelled_text_field("Shapes", "##sweep-shapes", text, 20.0f)) study.set_shapes_text(text);
  if (ImGui::IsItemHovered()) {
    std::string presets;
    for (const auto& p : gpu::shape_presets()) presets.append("\n").append(p.name).append(": ").append(p.source);
    ImGui::SetTooltip("N, MxNxK or presets, separated by commas. The presets:%s", presets.c_str());
  }
  ImGui::SameLine();
  if (ImGui::Button("Predict (model)")) (void)model.predict_shapes();
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "The time model's sweep of these shapes over every BF16 rung's default, and as many of the "
        "configurations it ranks fastest for each shape as asked on the right: no GPU needed");
  ImGui::SameLine();
  int tuned = study.tuned();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 2.0f);
  if (ImGui::InputInt("picks##sweep-tuned", &tuned, 0, 0)) study.set_tuned(tuned);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "Beside each Hopper rung's default (17 on), its N configurations the model ranks fastest for "
        "each shape (gemmlab-cli sweep --tuned N; 0 to %d): the table's last columns name the one that "
        "wins",
        ShapesStudy::kMaxTuned);
  ImGui::SameLine();
  if (ImGui::Button("Recorded H200 sweep")) (void)model.load_recorded_sweep();
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("38 layers of Llama 3 and Qwen2.5, measured beside cuBLAS (docs/sweep.md; gemmlab-cli sweep)");
  if (!study.error().empty()) ui::coloured_text(colour::conflict, "%s", study.error().c_str());
  if (!study.source().empty()) ui::note_text("Shown: %s.", study.source().c_str());
}

// TFLOPS (log scale) per shape: cuBLAS, the best rung measured, the model's prediction for it; under each shape a
// bar for its last wave: the share of the blocks that run at once that the last wave's tiles keep busy.
void chart(const ShapesStudy& study, float height) {
  const auto& rows = study.rows();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = ImGui::GetContentRegionAvail().x;
  ImGui::Dummy(ImVec2(width, height));
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float line = ImGui::GetTextLineHeight();
  const float left = origin.x + 3.5f * line, right = origin.x + width - line;
  const float top = origin.y + line * 1.8f, axis = origin.y + height - 3.0f * line;  // the legend's strip above
  const float bar_top = axis + 0.6f * line, bar_bottom = origin.y + height - 0.4f * line;
  constexpr double kLow = 1.0, kHigh = 1000.0;  // TFLOPS
  const auto sy = [&](double tflops) {
    const double t =
        (std::log10(std::clamp(tflops, kLow, kHigh)) - std::log10(kLow)) / (std::log10(kHigh) - std::log10(kLow));
    return float(axis - t * (axis - top));
  };
  for (const double v : {1.0, 10.0, 100.0, 1000.0}) {
    draw->AddLine(ImVec2(left, sy(v)), ImVec2(right, sy(v)), IM_COL32(255, 255, 255, 25));
    char label[16];
    std::snprintf(label, sizeof label, "%g", v);
    draw->AddText(ImVec2(origin.x, sy(v) - line / 2), IM_COL32(200, 200, 200, 200), label);
  }
  draw->AddText(ImVec2(origin.x, bar_top), IM_COL32(200, 200, 200, 200), "last wave");
  const float step = rows.empty() ? 0.0f : (right - left) / float(rows.size());
  const float r = std::clamp(step * 0.3f, 2.0f, line * 0.35f);
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const ShapeRow& row = rows[i];
    const float x = left + step * (float(i) + 0.5f);
    if (row.cublas_tflops) draw->AddCircleFilled(ImVec2(x, sy(*row.cublas_tflops)), r, kCublas);
    if (row.measured_tflops) draw->AddCircleFilled(ImVec2(x, sy(*row.measured_tflops)), r, kMeasured);
    draw->AddCircle(ImVec2(x, sy(row.predicted_tflops)), r + 1.0f, kPredicted, 0, 1.5f);
    const float fill = row.concurrent_blocks > 0 ? float(row.last_wave_tiles) / float(row.concurrent_blocks) : 0.0f;
    const float half = std::max(1.0f, step * 0.35f);
    draw->AddRectFilled(ImVec2(x - half, bar_bottom - (bar_bottom - bar_top) * fill), ImVec2(x + half, bar_bottom),
                        fill < 0.5f ? colour::conflict : colour::ok);
    draw->AddRect(ImVec2(x - half, bar_top), ImVec2(x + half, bar_bottom), IM_COL32(255, 255, 255, 40));
    if (mouse.x >= x - step / 2 && mouse.x < x + step / 2 && mouse.y >= top && mouse.y <= bar_bottom) {
      std::string tip = row.label;
      tip.append(": ").append(std::to_string(row.m)).append(" x ").append(std::to_string(row.n)).append(" x ");
      tip.append(std::to_string(row.k)).append("\nbest: ").append(row.best_rung);
      if (row.best_config != "default") tip.append(" (").append(row.best_config).append(")");
      char numbers[256];
      std::snprintf(numbers, sizeof numbers, "\npredicted %.1f TFLOPS", row.predicted_tflops);
      tip += numbers;
      if (row.measured_tflops) {
        std::snprintf(numbers, sizeof numbers, ", measured %.1f, cuBLAS %.1f (%.2fx)", *row.measured_tflops,
                      row.cublas_tflops.value_or(0.0), row.ratio_to_cublas.value_or(0.0));
        tip += numbers;
      }
      std::snprintf(numbers, sizeof numbers,
                    "\n%d blocks (split-K: a k-range of a tile each), %d at once: %.2f waves, the last with %d",
                    row.tiles, row.concurrent_blocks, row.waves, row.last_wave_tiles);
      tip += numbers;
      if (!row.cublas_runs.empty()) tip.append("\ncuBLAS runs: ").append(row.cublas_runs);
      ImGui::SetTooltip("%s", tip.c_str());
    }
  }
  // The legend, in its strip above the plot.
  float lx = left;
  const float ly = origin.y;
  for (const auto& [colour, name, filled] :
       {std::tuple{kCublas, "cuBLAS", true}, std::tuple{kMeasured, "best rung, measured", true},
        std::tuple{kPredicted, "its prediction", false}}) {
    if (filled) draw->AddCircleFilled(ImVec2(lx, ly + line / 2), r, colour);
    else draw->AddCircle(ImVec2(lx, ly + line / 2), r + 1.0f, colour, 0, 1.5f);
    draw->AddText(ImVec2(lx + line * 0.6f, ly), IM_COL32(220, 220, 220, 255), name);
    lx += line * 1.8f + ImGui::CalcTextSize(name).x;
  }
}

void table(const ShapesStudy& study) {
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_ScrollY |
                                ImGuiTableFlags_ScrollX | ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable("shapes", 10, flags, ImVec2(0, 0))) return;
  for (const char* header : {"shape", "M x N x K", "best rung", "predicted", "measured", "x cuBLAS", "blocks",
                             "last wave", "its configuration", "cuBLAS runs"})
    ImGui::TableSetupColumn(header);
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableHeadersRow();
  for (const ShapeRow& row : study.rows()) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(row.label.c_str());
    ImGui::TableNextColumn();
    ImGui::Text("%d x %d x %d", row.m, row.n, row.k);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(row.best_rung.c_str());
    ImGui::TableNextColumn();
    ImGui::Text("%.1f", row.predicted_tflops);
    ImGui::TableNextColumn();
    if (row.measured_tflops) ImGui::Text("%.1f", *row.measured_tflops);
    ImGui::TableNextColumn();
    if (row.ratio_to_cublas)
      ui::coloured_text(*row.ratio_to_cublas >= 1.0 ? colour::ok : IM_COL32(230, 230, 230, 255), "%.3f",
                        *row.ratio_to_cublas);
    ImGui::TableNextColumn();
    ImGui::Text("%d", row.tiles);
    ImGui::TableNextColumn();
    ImGui::Text("%d/%d", row.last_wave_tiles, row.concurrent_blocks);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(row.best_config.c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(row.cublas_runs.c_str());
  }
  ImGui::EndTable();
}

}  // namespace

void draw_shapes_panel(PanelContext& context) {
  AppModel& model = context.model;
  if (model.shapes().rows().empty() && model.shapes().error().empty()) (void)model.load_recorded_sweep();
  ui::note_text(
      "Your problem's shapes, not squares: the best rung of each against cuBLAS (TFLOPS, log scale) and what "
      "the model predicts. A red bar: the last wave of tiles keeps less than half the GPU busy.");
  controls(model);
  const ShapesStudy& study = model.shapes();
  if (study.rows().empty()) return;
  chart(study, ImGui::GetTextLineHeight() * 14.0f);
  table(study);
}

}  // namespace gemmlab::desktop
