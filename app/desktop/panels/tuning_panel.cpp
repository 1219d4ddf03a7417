// Tuning study: the autotuner's configurations of the selected rung, predicted time against measured time, one point
// each; the default and the best found marked; a click loads a point's configuration into the editor. The recorded
// H100 study where the rung has one, or a study run here (gemmlab/gpu/tune.hpp) on a machine with a GPU.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "gemmlab/gpu/instances.hpp"
#include "gemmlab/sim/rung_model.hpp"
#include "panels/panels.hpp"
#include "ui/theme.hpp"

namespace gemmlab::desktop {
namespace {

namespace colour = ui::colour;

constexpr ImU32 kModelTop = IM_COL32(120, 190, 255, 255);
constexpr ImU32 kRandom = IM_COL32(200, 200, 200, 200);
constexpr ImU32 kBest = IM_COL32(90, 210, 120, 255);
constexpr ImU32 kDefault = IM_COL32(255, 200, 90, 255);

void controls(AppModel& model) {
  TuningModel& tuning = model.tuning();
  const bool can_run = model.gpu_available();
  ImGui::BeginDisabled(!can_run || model.gpu_busy() || sim::rung_model(model.rung()).knobs.empty());
  const std::string label = tuning.running() ? "Tuning..." : "Tune " + std::string(rung_info(model.rung()).slug) +
                                                                        " on this GPU";
  if (ImGui::Button(label.c_str())) {
    gpu::TuneOptions options;
    options.rung = model.rung();
    options.shape = {model.problem().m, model.problem().n, model.problem().k};
    model.run_tuning_study(options);
  }
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
    const gpu::TuneOptions defaults;
    ImGui::SetTooltip("Rank every valid configuration at the current size by the time model, then compile and time %d "
                      "of them next to cuBLAS: the default, the model's best %d and a random sample of the rest "
                      "(gemmlab-cli tune). Needs a GPU; takes a minute or so.",
                      defaults.budget, defaults.top);
  }
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::BeginDisabled(tuning.ranking_running() || sim::rung_model(model.rung()).knobs.empty());
  if (ImGui::Button(tuning.ranking_running() ? "Ranking..." : "Rank by the model")) tuning.rank_by_model();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("Every valid configuration of the rung at the size typed, ranked by the time model: no GPU "
                      "needed (gemmlab-cli tune --model-only)");
  ImGui::EndDisabled();
  ImGui::SameLine();
  ui::coloured_text(can_run ? colour::ok : IM_COL32(240, 190, 80, 255), "%s", model.gpu_status().c_str());
}

// The model's ranking at the size typed, where one was made: its best configurations, a click loads one.
void model_ranking(AppModel& model) {
  const TuningModel::Ranking* ranking = model.tuning().ranking();
  if (ranking == nullptr) return;
  ImGui::Text("The model's best at %dx%dx%d (%zu of %zu valid configurations predicted; no GPU):", ranking->problem.m,
              ranking->problem.n, ranking->problem.k, ranking->ranked, ranking->space);
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable("model-ranking", 4, flags)) return;
  for (const char* header : {"rank", "configuration", "predicted", "limit"}) ImGui::TableSetupColumn(header);
  ImGui::TableHeadersRow();
  const double flops = 2.0 * ranking->problem.m * double(ranking->problem.n) * ranking->problem.k;
  for (const gpu::TuneCandidate& c : ranking->best) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::Text("%d", c.model_rank);
    ImGui::TableNextColumn();
    const std::string label = gpu::instance_label(gpu::GpuInstance{ranking->rung, c.config});
    if (ImGui::Selectable(label.c_str(), false, ImGuiSelectableFlags_SpanAllColumns)) model.set_config(c.config);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Load this configuration into the editor");
    ImGui::TableNextColumn();
    ImGui::Text("%.3f ms, %.0f TFLOPS", c.predicted_seconds * 1e3, flops / c.predicted_seconds / 1e12);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(std::string(sim::to_string(c.limit)).c_str());
  }
  ImGui::EndTable();
}

std::string ms(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f ms", seconds * 1e3);
  return text;
}

struct Point {
  std::size_t index;
  double predicted, measured;  // seconds
};

// Predicted time across, measured time up, on the same logarithmic scale, so the diagonal is "as predicted" and a
// point's distance from it is the ratio the model was off by.
void scatter(AppModel& model, const gpu::TuneReport& r, float height) {
  std::vector<Point> points;
  for (std::size_t i = 0; i < r.measured.size(); ++i) {
    const auto& m = r.measured[i];
    if (m.row && m.row->status == gpu::BenchStatus::Timed)
      points.push_back({i, m.candidate.predicted_seconds, m.row->median_ms / 1e3});
  }
  if (points.empty()) {
    ui::note_text("No configuration of this study was timed.");
    return;
  }
  // Log scales: the good configurations sit within a few percent of each other near the bottom, the slow ones far out.
  double lo = points.front().predicted, hi = lo;
  for (const Point& p : points) lo = std::min({lo, p.predicted, p.measured}), hi = std::max({hi, p.predicted, p.measured});
  lo /= 1.05, hi *= 1.05;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = ImGui::GetContentRegionAvail().x;
  const float side = std::min(width - 300.0f, height - 48.0f);
  ImGui::InvisibleButton("##scatter", ImVec2(width, height));
  const bool hovered = ImGui::IsItemHovered(), clicked = ImGui::IsItemClicked();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float left = origin.x + 64, top = origin.y + 20, right = left + side, bottom = top + side;
  const auto along = [&](double s) { return static_cast<float>(std::log(s / lo) / std::log(hi / lo)); };
  const auto sx = [&](double s) { return left + along(s) * (right - left); };
  const auto sy = [&](double s) { return bottom - along(s) * (bottom - top); };
  draw->AddRect(ImVec2(left, top), ImVec2(right, bottom), IM_COL32(80, 84, 96, 255));
  draw->AddLine(ImVec2(sx(lo), sy(lo)), ImVec2(sx(hi), sy(hi)), IM_COL32(255, 255, 255, 60), 1.5f);
  char text[64];
  for (int i = 0; i <= 4; ++i) {
    const double v = lo * std::pow(hi / lo, i / 4.0);
    std::snprintf(text, sizeof text, "%.2f", v * 1e3);
    draw->AddText(ImVec2(sx(v) - 12, bottom + 4), colour::muted_text, text);
    draw->AddText(ImVec2(origin.x + 22, sy(v) - 7), colour::muted_text, text);
  }
  draw->AddText(ImVec2(right - 150, bottom + 20), colour::muted_text, "predicted (ms, log scale)");
  draw->AddText(ImVec2(origin.x, origin.y), colour::muted_text, "measured (ms)");
  draw->AddText(ImVec2(sx(hi) - 90, sy(hi) + 4), IM_COL32(255, 255, 255, 110), "as predicted");
  // The nearest point under the mouse, within a few pixels.
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const Point* near = nullptr;
  float best_d2 = 64.0f;
  for (const Point& p : points) {
    const float dx = sx(p.predicted) - mouse.x, dy = sy(p.measured) - mouse.y;
    if (hovered && dx * dx + dy * dy < best_d2) best_d2 = dx * dx + dy * dy, near = &p;
  }
  for (const Point& p : points) {
    const auto& m = r.measured[p.index];
    const ImVec2 at(sx(p.predicted), sy(p.measured));
    const bool is_best = r.best && *r.best == p.index, is_default = r.default_config && *r.default_config == p.index;
    const ImU32 c = m.pick == gpu::TunePick::ModelTop ? kModelTop : kRandom;
    draw->AddCircleFilled(at, &p == near ? 6.0f : 4.0f, c);
    if (is_default) {
      draw->AddCircle(at, 9.0f, kDefault, 0, 2.0f);
      draw->AddText(ImVec2(at.x + 11, at.y - 16), kDefault, "default");
    }
    if (is_best) {
      draw->AddCircle(at, 12.0f, kBest, 0, 2.0f);
      draw->AddText(ImVec2(at.x + 14, at.y + 2), kBest, "best");
    }
  }
  // The legend, right of the square.
  float ly = top + 4;
  const float lx = right + 16;
  const auto legend = [&](ImU32 c, const char* name, bool ring) {
    if (ring) draw->AddCircle(ImVec2(lx + 6, ly + 8), 6.0f, c, 0, 2.0f);
    else draw->AddCircleFilled(ImVec2(lx + 6, ly + 8), 4.0f, c);
    draw->AddText(ImVec2(lx + 18, ly), colour::muted_text, name);
    ly += ImGui::GetTextLineHeight() + 4;
  };
  legend(kModelTop, "the model's top picks", false);
  legend(kRandom, "random sample", false);
  legend(kDefault, "the rung's default", true);
  legend(kBest, "the best measured", true);
  draw->AddText(ImVec2(lx, ly + 6), colour::muted_text, "click a point to load it");
  if (near) {
    const auto& m = r.measured[near->index];
    ImGui::SetTooltip("%s\npredicted %s (limit: %s), measured %s\nthe model's rank %d of all (before ptxas's registers), the "
                      "GPU's %g of %d\n%.1f "
                      "TFLOPS, %.2fx cuBLAS\nclick: load this configuration",
                      gpu::instance_label(gpu::GpuInstance{r.options.rung, m.candidate.config}).c_str(),
                      ms(near->predicted).c_str(), std::string(sim::to_string(m.candidate.limit)).c_str(),
                      ms(near->measured).c_str(), m.candidate.model_rank, m.measured_rank, r.scored, m.row->tflops,
                      m.row->ratio_to_cublas);
    if (clicked) {
      if (model.rung() != r.options.rung) model.select_rung(r.options.rung);
      model.set_config(m.candidate.config);
    }
  }
}

}  // namespace

void draw_tuning_panel(PanelContext& context) {
  AppModel& model = context.model;
  TuningModel& tuning = model.tuning();
  tuning.request_study();
  controls(model);
  model_ranking(model);
  ImGui::Separator();
  const ShownStudy* study = tuning.study();
  if (!study) {
    ui::note_text("%s", tuning.message().c_str());
    ImGui::TextWrapped("Every rung with three knobs or more has a study recorded on the H100 (gemmlab-cli tune "
                       "--rung %s); on a machine with a GPU, the button above runs one.",
                       std::string(rung_info(model.rung()).slug).c_str());
    return;
  }
  const gpu::TuneReport& r = study->report;
  ImGui::TextWrapped("%s at %dx%dx%d (%s), %s. Of %zu valid configurations, %d timed: the default, the model's best "
                     "and a random sample of the rest.",
                     std::string(rung_info(r.options.rung).slug).c_str(), r.options.shape.m, r.options.shape.n,
                     r.options.shape.k, std::string(kernel::input_name(r.input)).c_str(), study->source.c_str(),
                     r.ranking.space, r.timed);
  const sim::Problem& typed = model.problem();
  if (typed.m != r.options.shape.m || typed.n != r.options.shape.n || typed.k != r.options.shape.k) {
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(240, 190, 80, 255));
    ImGui::TextWrapped("This study is of %dx%dx%d, not the %dx%dx%d typed: its points are for its own size (the "
                       "button above studies the size typed).",
                       r.options.shape.m, r.options.shape.n, r.options.shape.k, typed.m, typed.n, typed.k);
    ImGui::PopStyleColor();
  }
  ImGui::TextUnformatted("How well today's model ranks them (Spearman):");
  ImGui::SameLine();
  ui::coloured_text(r.spearman >= 0.8 ? colour::ok : IM_COL32(240, 190, 80, 255), "%.2f", r.spearman);
  ImGui::SameLine();
  if (study->recorded_spearman)
    ui::note_text("(%.2f with the model of the day it was recorded; 1: the same order as measured, 0: no relation)",
                  *study->recorded_spearman);
  else ui::note_text("(1: the same order as measured; 0: no relation)");
  if (!study->rescore_error.empty())
    ui::note_text("The recorded predictions are shown: today's model could not predict them again (%s).",
                  study->rescore_error.c_str());
  if (r.best && r.measured[*r.best].row) {
    const auto& best = r.measured[*r.best];
    ImGui::Text("Best measured: %s, %.1f TFLOPS (%.2fx cuBLAS).",
                gpu::instance_label(gpu::GpuInstance{r.options.rung, best.candidate.config}).c_str(), best.row->tflops,
                best.row->ratio_to_cublas);
  }
  if (r.default_config && r.measured[*r.default_config].row) {
    const auto& d = r.measured[*r.default_config];
    ImGui::Text("The default: %.1f TFLOPS, %g of %d on the GPU.", d.row->tflops, d.measured_rank, r.scored);
  }
  scatter(model, r, std::max(260.0f, ImGui::GetContentRegionAvail().y - 8.0f * ImGui::GetTextLineHeight()));
  if (!r.misses.empty()) {
    ImGui::TextUnformatted("The model's worst misses:");
    for (const auto& miss : r.misses) {
      ImGui::Bullet();
      ImGui::TextWrapped("%s", miss.sentence.c_str());
    }
  }
}

}  // namespace gemmlab::desktop
