// Occupancy & roofline: what one block of the selected configuration asks of an SM and which resource caps how many
// blocks fit; the waves the grid takes; the time model's terms and prediction; the roofline - the time each resource
// alone would need at its datasheet peak, the slowest one being the bound - and every rung's prediction and bound next
// to its measured speed, where the results on show have it.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "gemmlab/sim/rung_model.hpp"
#include "model/bench_results.hpp"
#include "panels/panels.hpp"
#include "ui/glossary.hpp"
#include "ui/quantities.hpp"
#include "ui/theme.hpp"

namespace gemmlab::desktop {
namespace {

namespace colour = ui::colour;

// A horizontal bar with a label and a value, the limiting one in red.
void bar(const char* label, double value, double full, const char* value_text, bool limiting) {
  const float width = ImGui::GetContentRegionAvail().x;
  const float label_width = ImGui::GetFontSize() * 11.0f, value_width = ImGui::GetFontSize() * 12.0f;
  const float bar_width = std::max(40.0f, width - label_width - value_width);
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const float height = ImGui::GetTextLineHeight();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddText(at, limiting ? colour::conflict : ImGui::GetColorU32(ImGuiCol_Text), label);
  const ImVec2 b0(at.x + label_width, at.y + 2), b1(b0.x + bar_width, at.y + height - 2);
  draw->AddRectFilled(b0, b1, IM_COL32(40, 43, 52, 255), 3.0f);
  const float fill = full > 0 ? static_cast<float>(std::clamp(value / full, 0.0, 1.0)) : 0.0f;
  draw->AddRectFilled(b0, ImVec2(b0.x + fill * bar_width, b1.y), limiting ? colour::conflict : colour::operand(0), 3.0f);
  draw->AddText(ImVec2(b1.x + 8, at.y), limiting ? colour::conflict : ImGui::GetColorU32(ImGuiCol_Text), value_text);
  ImGui::Dummy(ImVec2(width, height + 2));
}

void occupancy_section(const sim::SchedulePrediction& p) {
  const auto& o = p.occupancy;
  const auto& d = p.device;
  ui::heading("Occupancy");
  ui::term_tooltip_for_last_item("occupancy");
  ImGui::TextWrapped("One block: %d threads (%d warps), %d registers per thread (%s), %s of shared memory.",
              o.block.threads, o.warps_per_block, o.block.registers.per_thread,
              std::string(sim::to_string(o.block.registers.source)).c_str(),
              ui::shared_bytes_text(o.block.smem_bytes).c_str());
  ImGui::TextWrapped("Blocks one SM of the %s can hold, resource by resource (the smallest count wins):", d.name.c_str());
  const int most = std::max({o.blocks_by_registers, o.blocks_by_smem, o.blocks_by_threads, o.blocks_by_slots, 1});
  const auto limited = [&](sim::OccupancyLimit limit) {
    return std::find(o.limited_by.begin(), o.limited_by.end(), limit) != o.limited_by.end();
  };
  char text[96];
  std::snprintf(text, sizeof text, "%d (%d per SM)", o.blocks_by_registers, d.registers_per_sm);
  bar("registers", o.blocks_by_registers, most, text, limited(sim::OccupancyLimit::Registers));
  std::snprintf(text, sizeof text, "%d (%d KiB per SM)", o.blocks_by_smem, d.smem_per_sm_bytes / 1024);
  bar("shared memory", o.blocks_by_smem, most, text, limited(sim::OccupancyLimit::SharedMemory));
  std::snprintf(text, sizeof text, "%d (%d per SM)", o.blocks_by_threads, d.max_threads_per_sm);
  bar("threads", o.blocks_by_threads, most, text, limited(sim::OccupancyLimit::Threads));
  std::snprintf(text, sizeof text, "%d", o.blocks_by_slots);
  bar("block slots", o.blocks_by_slots, most, text, limited(sim::OccupancyLimit::BlockSlots));
  ImGui::TextWrapped("So %d %s per SM: %d of %d warps, occupancy %.0f%%, limited by %s.", o.blocks_per_sm,
                     o.blocks_per_sm == 1 ? "block" : "blocks", o.warps_per_sm, d.max_warps_per_sm(),
                     100.0 * o.occupancy, o.limit_sentence().c_str());
  const sim::Waves w = sim::waves_of(p.shape.blocks, sim::blocks_per_wave(d, o));
  ImGui::TextWrapped("The grid's %d blocks run %d at a time (%d SMs x %d): %.2f waves, the last with %d blocks.", w.blocks,
              w.blocks_per_wave, d.sms, o.blocks_per_sm, w.fractional(), w.last_wave_blocks);
}

void time_model_section(const sim::SchedulePrediction& p) {
  ui::heading("Time model");
  ui::term_tooltip_for_last_item("time model");
  if (!p.time) {
    ui::note_text("%s", p.time_note.c_str());
    return;
  }
  const sim::TimePrediction& t = *p.time;
  ImGui::TextWrapped("Each resource alone, at the rates measured on the GPU (the SM's own - issue, the data pipe, the "
                     "tensor cores and the TMA copies - overlap in part, so together they take %.3f ms); the "
                     "prediction is %.1f TFLOPS, %.3f ms:",
                     1e3 * t.sm_seconds, t.tflops, 1e3 * t.seconds);
  double longest = t.stores_after_seconds;
  for (const auto& term : t.terms) longest = std::max(longest, term.seconds);
  char text[96];
  for (const auto& term : t.terms) {
    if (term.seconds <= 0) continue;
    std::snprintf(text, sizeof text, "%.3f ms", 1e3 * term.seconds);
    bar(std::string(sim::to_string(term.term)).c_str(), term.seconds, longest, text,
        term.term == t.limit && !t.stores_after_limit);
  }
  // A block that stores its tile (or switches to the next) after its k-steps with nothing else on its SM: that path,
  // beside the terms.
  if (t.stores_after_seconds > 0) {
    std::snprintf(text, sizeof text, "%.3f ms", 1e3 * t.stores_after_seconds);
    const std::string name = "k-steps, then " + std::string(t.after_ksteps);
    bar(name.c_str(), t.stores_after_seconds, longest, text, t.stores_after_limit);
  }
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextUnformatted(t.explanation.c_str());
  ImGui::PopTextWrapPos();
}

void limits_section(const sim::SchedulePrediction& p) {
  const auto& r = p.roofline;
  time_model_section(p);
  ImGui::Spacing();
  ui::heading("Roofline (an upper bound)");
  ui::term_tooltip_for_last_item("roofline");
  ImGui::TextWrapped("The time each resource alone would need for the whole kernel; the slowest sets the bound "
                     "(%.1f TFLOPS, %.3f ms):", r.predicted_tflops, 1e3 * r.predicted_seconds);
  double longest = 0;
  for (const auto& l : r.limits) longest = std::max(longest, l.seconds);
  char text[96];
  for (const auto& l : r.limits) {
    if (!sim::in_use(l)) continue;
    std::snprintf(text, sizeof text, "%.3f ms", 1e3 * l.seconds);
    bar(std::string(sim::to_string(l.limiter)).c_str(), l.seconds, longest, text, l.limiter == r.bottleneck);
  }
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextUnformatted(r.explanation.c_str());
  ImGui::PopTextWrapPos();
}

// The rungs of the selected rung's precision side by side: each one's time-model prediction (triangle), roofline bound
// (circle) and, where the results on show have it, its measured speed (square), against the peak of the units they use
// and cuBLAS on the same inputs (FP32; FP16 for the tensor-core rungs). Triangle against square: how well the model
// predicts; circle against square: what the bound leaves out.
void rung_chart(AppModel& model, const sim::DeviceProfile& device) {
  const auto& results = model.benchmark().results();
  const auto& predictions = model.predictions().ladder_predictions();
  const gpu::Shape shape{model.problem().m, model.problem().n, model.problem().k};
  const bool tensor = rung_info(model.rung()).precision == Precision::FP16BF16;
  std::vector<const RungInfo*> shown;
  for (const auto& rung : rungs())
    if (rung.precision == rung_info(model.rung()).precision) shown.push_back(&rung);
  const double peak = tensor ? device.tensor_fp16_tflops : device.fp32_tflops;
  const double step = tensor ? 100.0 : 10.0;
  const gpu::BenchRow* cublas =
      results ? find_cublas(results->report, shape, tensor ? kernel::InputType::F16 : kernel::InputType::F32) : nullptr;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 size(ImGui::GetContentRegionAvail().x, std::max(220.0f, ImGui::GetContentRegionAvail().y - 8.0f));
  ImGui::InvisibleButton("rung-chart", size);
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float left = origin.x + 50, right = origin.x + size.x - 10, top = origin.y + 24, bottom = origin.y + size.y - 28;
  const double y_max = std::ceil(peak / step) * step + step / 2;
  const auto sy = [&](double tflops) { return bottom - static_cast<float>(std::clamp(tflops, 0.0, y_max) / y_max) * (bottom - top); };
  const auto count = static_cast<float>(shown.size());
  const auto sx = [&](std::size_t index) { return left + (right - left) * (static_cast<float>(index) + 0.5f) / count; };
  draw->AddRect(ImVec2(left, top), ImVec2(right, bottom), IM_COL32(80, 84, 96, 255));
  char text[96];
  for (double v = 0; v <= y_max; v += step) {
    draw->AddLine(ImVec2(left, sy(v)), ImVec2(right, sy(v)), IM_COL32(255, 255, 255, 18));
    std::snprintf(text, sizeof text, "%.0f", v);
    draw->AddText(ImVec2(origin.x + 14, sy(v) - 8), colour::muted_text, text);
  }
  draw->AddText(ImVec2(origin.x, origin.y), colour::muted_text, "TFLOPS");
  draw->AddLine(ImVec2(left, sy(peak)), ImVec2(right, sy(peak)), colour::operand(1), 2.0f);
  if (tensor) std::snprintf(text, sizeof text, "FP16 tensor peak %.0f (datasheet; mma.sync reaches less)", peak);
  else std::snprintf(text, sizeof text, "FP32 peak %.0f", peak);
  draw->AddText(ImVec2(right - ImGui::CalcTextSize(text).x - 8, sy(peak) - 18), colour::operand(1), text);
  if (cublas) {
    draw->AddLine(ImVec2(left, sy(cublas->tflops)), ImVec2(right, sy(cublas->tflops)), colour::highlight, 1.5f);
    std::snprintf(text, sizeof text, "cuBLAS %s, measured %.1f", tensor ? "FP16" : "FP32", cublas->tflops);
    draw->AddText(ImVec2(right - ImGui::CalcTextSize(text).x - 8, sy(cublas->tflops) - 18), colour::highlight, text);
  }
  for (std::size_t index = 0; index < shown.size(); ++index) {
    const RungInfo& rung = *shown[index];
    const auto i = static_cast<std::size_t>(rung.number - 1);
    const float x = sx(index);
    const ImU32 c = colour::rung(rung.number);
    std::snprintf(text, sizeof text, "%d", rung.number);
    draw->AddText(ImVec2(x - 4, bottom + 6), rung.id == model.rung() ? colour::highlight : colour::muted_text, text);
    if (rung.id == model.rung())
      draw->AddRectFilled(ImVec2(x - 16, top), ImVec2(x + 16, bottom), IM_COL32(255, 255, 255, 16));
    const bool bound = i < predictions.size() && predictions[i].tflops;
    const bool predicted = i < predictions.size() && predictions[i].predicted_tflops;
    const gpu::BenchRow* measured =
        results ? find_measured(results->report, rung.id, model.config_of(rung.id), shape) : nullptr;
    if (bound && measured)
      draw->AddLine(ImVec2(x, sy(*predictions[i].tflops)), ImVec2(x, sy(measured->tflops)), colour::with_alpha(c, 120), 2.0f);
    if (bound) draw->AddCircle(ImVec2(x, sy(*predictions[i].tflops)), 6.0f, c, 0, 2.0f);
    if (predicted) {
      const float y = sy(*predictions[i].predicted_tflops);
      draw->AddTriangleFilled(ImVec2(x, y - 7), ImVec2(x - 7, y + 5), ImVec2(x + 7, y + 5), c);
    }
    if (measured) draw->AddRectFilled(ImVec2(x - 5, sy(measured->tflops) - 5), ImVec2(x + 5, sy(measured->tflops) + 5), c);
    if (hovered && std::abs(ImGui::GetIO().MousePos.x - x) < (right - left) / count * 0.5f) {
      ImGui::BeginTooltip();
      ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28.0f);
      ImGui::Text("%d %.*s", rung.number, static_cast<int>(rung.title.size()), rung.title.data());
      if (predicted)
        ImGui::Text("time model: %.1f TFLOPS. %s", *predictions[i].predicted_tflops, predictions[i].predicted_note.c_str());
      if (bound) ImGui::Text("roofline bound: %.1f TFLOPS. %s", *predictions[i].tflops, predictions[i].note.c_str());
      if (measured) ImGui::Text("measured: %.1f TFLOPS (%s)", measured->tflops, results->source.c_str());
      else ImGui::TextUnformatted("not measured at this size and configuration");
      ImGui::PopTextWrapPos();
      ImGui::EndTooltip();
    }
  }
  // Above the box, beside the axis title: inside it, the peak's label would print over it.
  draw->AddText(ImVec2(left + 8, origin.y), colour::muted_text,
                "triangle: the time model's prediction   circle: the roofline bound   square: measured (hover a rung)");
}

}  // namespace

void draw_occupancy_panel(PanelContext& context) {
  AppModel& model = context.model;
  const PredictionModel& predictions = model.predictions();
  if (!model.validity()) {
    ui::coloured_text(colour::conflict, "%s", model.validity().error().message.c_str());
    return;
  }
  const auto& p = predictions.prediction();
  if (!p) {
    const std::string& error = predictions.prediction_error();
    ui::note_text("%s", error.empty() ? "Predicting..." : error.c_str());
    return;
  }
  const float half = ImGui::GetContentRegionAvail().x * 0.5f - 6.0f;
  ImGui::BeginChild("occupancy", ImVec2(half, ImGui::GetContentRegionAvail().y * 0.45f), false);
  occupancy_section(*p);
  ImGui::EndChild();
  ImGui::SameLine();
  ImGui::BeginChild("limits", ImVec2(0, ImGui::GetContentRegionAvail().y * 0.45f), false);
  limits_section(*p);
  ImGui::EndChild();
  ImGui::Separator();
  const bool tensor = rung_info(model.rung()).precision == Precision::FP16BF16;
  ImGui::Text("Every %s rung on the %s at %d x %d x %d (each with its configuration in this app)",
              tensor ? "tensor-core (FP16)" : "FP32", p->device.name.c_str(), model.problem().m, model.problem().n,
              model.problem().k);
  rung_chart(model, p->device);
}

}  // namespace gemmlab::desktop
