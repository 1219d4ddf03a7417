// The ladder column: every rung with one line each, the selected rung's configuration editor (generated from the
// simulator's knob table) with the validate() sentence the moment a value stops being valid, the problem size,
// and what the simulator counts for the whole kernel.
#include <imgui.h>

#include <cstdio>
#include <optional>

#include "gemmlab/gpu/device.hpp"
#include "gemmlab/gpu/instances.hpp"
#include "model/bench_results.hpp"
#include "gemmlab/sim/rung_model.hpp"
#include "gemmlab/sim/simulate.hpp"
#include "panels/panel_widgets.hpp"
#include "panels/panels.hpp"
#include "ui/glossary.hpp"
#include "ui/quantities.hpp"
#include "ui/theme.hpp"

namespace gemmlab::desktop {
namespace {

std::string count_text(std::int64_t value) {
  char text[32];
  if (value >= 10'000'000'000) std::snprintf(text, sizeof text, "%.1f G", static_cast<double>(value) / 1e9);
  else if (value >= 10'000'000) std::snprintf(text, sizeof text, "%.1f M", static_cast<double>(value) / 1e6);
  else if (value >= 100'000) std::snprintf(text, sizeof text, "%.1f k", static_cast<double>(value) / 1e3);
  else std::snprintf(text, sizeof text, "%lld", static_cast<long long>(value));
  return text;
}

void rung_table(AppModel& model) {
  BenchmarkModel& benchmark = model.benchmark();
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable("rungs", 5, flags)) return;
  ImGui::TableSetupColumn("#");
  ImGui::TableSetupColumn("rung", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableSetupColumn("predicted");
  ImGui::TableSetupColumn("bound");
  ImGui::TableSetupColumn("measured");
  ImGui::TableHeadersRow();
  // Header tooltips: what the two TFLOPS columns are.
  const gpu::Shape shape{model.problem().m, model.problem().n, model.problem().k};
  for (const auto& rung : rungs()) {
    const bool described = sim::rung_model(rung.id).described;
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::PushID(rung.number);
    char number[8];
    std::snprintf(number, sizeof number, "%d", rung.number);
    if (ImGui::Selectable(number, model.rung() == rung.id, ImGuiSelectableFlags_SpanAllColumns))
      model.select_rung(rung.id);
    if (ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      ImGui::PushTextWrapPos(ImGui::GetFontSize() * 26.0f);
      ImGui::TextUnformatted(rung.change.data(), rung.change.data() + rung.change.size());
      ImGui::PopTextWrapPos();
      ImGui::EndTooltip();
    }
    ImGui::PopID();
    ImGui::TableNextColumn();
    if (!described) ImGui::PushStyleColor(ImGuiCol_Text, ui::colour::to_vec4(ui::colour::muted_text));
    ui::fitted_text(rung.title);
    if (!described) {
      ImGui::SameLine();
      ImGui::TextUnformatted("(coming)");
      ImGui::PopStyleColor();
    }
    ImGui::TableNextColumn();
    const auto& predictions = model.predictions().ladder_predictions();
    const auto index = static_cast<std::size_t>(rung.number - 1);
    if (index < predictions.size() && predictions[index].predicted_tflops) {
      ImGui::Text("%.1f", *predictions[index].predicted_tflops);  // TFLOPS
      if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28.0f);
        ImGui::Text("The time model's prediction in TFLOPS at %d x %d x %d (predicted, not measured):",
                    model.problem().m, model.problem().n, model.problem().k);
        ImGui::TextUnformatted(predictions[index].predicted_note.c_str());
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
      }
    } else {
      ImGui::TextDisabled(index < predictions.size() && !predictions[index].pending ? "n/a" : "...");
    }
    ImGui::TableNextColumn();
    if (index < predictions.size() && predictions[index].tflops) {
      ImGui::Text("%.1f", *predictions[index].tflops);  // TFLOPS
    } else {
      ImGui::TextDisabled(index < predictions.size() && !predictions[index].pending ? "n/a" : "...");
    }
    if (ImGui::IsItemHovered() && (index >= predictions.size() || predictions[index].pending)) {
      ImGui::SetTooltip("Predicting this rung at %d x %d x %d: the figures fill in one rung at a time, after the "
                        "panel on show.", model.problem().m, model.problem().n, model.problem().k);
    } else if (ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28.0f);
      if (predictions[index].tflops)
        ImGui::Text("Roofline bound in TFLOPS on the %s at %d x %d x %d (a roofline bound, not a measurement):",
                    model.device() ? model.device()->name.c_str() : "device", model.problem().m, model.problem().n,
                    model.problem().k);
      ImGui::TextUnformatted(predictions[index].note.c_str());
      ImGui::PopTextWrapPos();
      ImGui::EndTooltip();
    }
    ImGui::TableNextColumn();
    const gpu::BenchRow* measured =
        benchmark.results() ? find_measured(benchmark.results()->report, rung.id, model.config_of(rung.id),
                                        shape)
                        : nullptr;
    if (measured) ImGui::Text("%.1f", measured->tflops);
    else ImGui::TextDisabled("-");
    if (ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28.0f);
      if (measured)
        ImGui::Text("%.2f TFLOPS measured, %.0f%% of cuBLAS (median of %d runs, %.3f ms), %s.", measured->tflops,
                    100.0 * measured->ratio_to_cublas, measured->runs, measured->median_ms,
                    benchmark.results()->source.c_str());
      else if (!benchmark.results())
        ImGui::TextUnformatted(benchmark.results_message().c_str());
      else
        ImGui::Text("No measurement of this configuration at %d x %d x %d in the results on show (%s).",
                    shape.m, shape.n, shape.k, benchmark.results()->source.c_str());
      ImGui::PopTextWrapPos();
      ImGui::EndTooltip();
    }
  }
  ImGui::EndTable();
}

void configuration(AppModel& model) {
  const RungInfo& info = rung_info(model.rung());
  const sim::RungModel& rung = sim::rung_model(model.rung());
  char title[160];
  std::snprintf(title, sizeof title, "Rung %d: %.*s", info.number, static_cast<int>(info.title.size()), info.title.data());
  ui::heading(title);
  ui::note_text("%.*s", static_cast<int>(info.change.size()), info.change.data());
  ImGui::Spacing();

  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("Configuration");
  ImGui::SameLine(ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize("Reset").x - 8.0f);
  if (ImGui::SmallButton("Reset")) model.reset_config();
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("back to the rung's default configuration");
  if (rung.knobs.empty()) ui::note_text("This rung has no knobs.");
  for (const auto name : rung.knobs)
    if (const sim::Knob* knob = sim::find_knob(name)) knob_editor(model, *knob);

  ImGui::Spacing();
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("Problem");
  ImGui::SameLine(ImGui::GetFontSize() * 6.0f);
  int size[3] = {model.problem().m, model.problem().n, model.problem().k};
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14.0f);
  if (ImGui::InputInt3("m, n, k", size)) model.set_problem(size[0], size[1], size[2]);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("C (m x n) = A (m x k) x B (k x n)");

  ImGui::Spacing();
  if (!model.validity()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ui::colour::to_vec4(ui::colour::conflict));
    ImGui::PushTextWrapPos(0.0f);
    ImGui::Text("Invalid: %s", model.validity().error().message.c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
    return;
  }
  if (const auto& shape = model.launch()) {
    ui::coloured_text(ui::colour::ok, "Valid.");
    ImGui::SameLine();
    ImGui::TextWrapped("%s of %d threads (%d warps), %s of shared memory per block, %s.",
                       sim::blocks_text(*shape).c_str(), shape->threads_per_block, shape->warps_per_block,
                       ui::shared_bytes_text(shape->smem_bytes).c_str(),
                       sim::ksteps_text(*shape, model.problem().k, model.config().bk).c_str());
  }
  // Whether this configuration is one of the kernels the GPU build compiles (gpu/include/gemmlab/gpu/instances.def).
  const bool compiled = gpu::find_gpu_instance(model.rung(), model.config()).has_value();
  // One sentence that says both what this configuration is and what the build can do, so the two never read as
  // a contradiction ("simulator only" beside "this build has CUDA").
  const bool cuda = gpu::built_with_cuda();
  ui::coloured_text(compiled ? ui::colour::ok : ui::colour::muted_text,
                    compiled ? (!cuda                    ? "[a GPU kernel, but this build has no CUDA]"
                                : model.gpu_available() ? "[GPU kernel: the benchmark tab can time it]"
                                                        : "[GPU kernel in this build; no GPU here]")
                             : (!cuda                    ? "[simulated only: no CUDA in this build]"
                                : model.gpu_available() ? "[compiled when run: the benchmark tab can time it]"
                                                        : "[compiled when run on a GPU; no GPU here]"));
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(compiled ? "The GPU build compiles this exact configuration, so a build with CUDA can also run "
                                 "and time it."
                               : "The GPU build compiles a fixed set of configurations "
                                 "(gpu/include/gemmlab/gpu/instances.def); this one is not among them. A build with "
                                 "CUDA compiles it when it first runs (a few seconds with nvcc, then kept in the "
                                 "kernel cache): the benchmark tab's \"Run this configuration\".");
}

// Occupancy, the time model's prediction and the roofline bound of the selected configuration.
void prediction(AppModel& model) {
  const PredictionModel& predictions = model.predictions();
  const auto& p = predictions.prediction();
  if (!p) {
    if (const std::string& error = predictions.prediction_error(); !error.empty())
      ui::note_text("No prediction: %s", error.c_str());
    return;
  }
  ImGui::Spacing();
  ImGui::Text("Predicted on the %s", p->device.name.c_str());
  if (p->time) {
    ImGui::TextUnformatted("Time model:");
    ImGui::SameLine();
    ui::coloured_text(ui::colour::highlight, "%.1f TFLOPS, %.3f ms", p->time->tflops, 1e3 * p->time->seconds);
    ui::term_tooltip_for_last_item("time model");
    ImGui::SameLine();
    ui::note_text("(limited by %s)", std::string(sim::to_string(p->time->limit)).c_str());
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(p->time->explanation.c_str());
    ImGui::PopTextWrapPos();
  } else {
    ui::note_text("No time model: %s", p->time_note.c_str());
  }
  ImGui::TextUnformatted("Roofline bound:");
  ImGui::SameLine();
  ui::coloured_text(ui::colour::highlight, "%.1f TFLOPS", p->roofline.predicted_tflops);
  ui::term_tooltip_for_last_item("roofline");
  ImGui::SameLine();
  ui::note_text("(an upper bound, not a measurement)");
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextUnformatted(p->roofline.explanation.c_str());
  ImGui::PopTextWrapPos();
  const gpu::Shape shape{model.problem().m, model.problem().n, model.problem().k};
  if (const auto& results = model.benchmark().results()) {
    if (const gpu::BenchRow* row = find_measured(results->report, model.rung(), model.config(), shape)) {
      ImGui::TextUnformatted("Measured:");
      ImGui::SameLine();
      ui::coloured_text(ui::colour::highlight, "%.1f TFLOPS", row->tflops);
      ImGui::SameLine();
      if (p->time)
        ImGui::TextWrapped("= %.2fx the time model's prediction, %.0f%% of the bound, %.0f%% of cuBLAS; %s.",
                           row->tflops / p->time->tflops, 100.0 * row->tflops / p->roofline.predicted_tflops,
                           100.0 * row->ratio_to_cublas, results->source.c_str());
      else
        ImGui::TextWrapped("= %.0f%% of the bound, %.0f%% of cuBLAS; %s.", 100.0 * row->tflops / p->roofline.predicted_tflops,
                           100.0 * row->ratio_to_cublas, results->source.c_str());
    }
  }
  const int blocks = p->occupancy.blocks_per_sm;
  ImGui::Text("Occupancy: %d %s per SM, %d warps (%.0f%%), limited by %s.", blocks, blocks == 1 ? "block" : "blocks",
              p->occupancy.warps_per_sm, 100.0 * p->occupancy.occupancy, p->occupancy.limit_sentence().c_str());
  ui::term_tooltip_for_last_item("occupancy");
}

void kernel_counters(AppModel& model) {
  const PredictionModel& predictions = model.predictions();
  if (!model.validity()) return;
  ImGui::Spacing();
  ImGui::TextUnformatted("Whole kernel, simulated: instructions, cost, ideal cost");
  const auto& counters = predictions.kernel_counters();
  if (!counters) {
    ui::note_text("simulating...");
    return;
  }
  if (!predictions.kernel_counters_current()) {
    ImGui::SameLine();
    ui::note_text("(updating)");
  }
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable("kernel", 4, flags)) return;
  ImGui::TableSetupColumn("");
  ImGui::TableSetupColumn("instructions");
  ImGui::TableSetupColumn("cost");
  ImGui::TableSetupColumn("ideal");
  // One row: the instruction count, the cost (red when above the ideal) with its term's tooltip, the ideal.
  // ideal: what the instructions' bytes would take at best; none where the counters hold no such figure.
  const auto row = [&](const char* name, std::int64_t instructions, std::int64_t cost, std::optional<std::int64_t> ideal,
                       const char* unit) {
    if (instructions == 0) return;
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(name);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(count_text(instructions).c_str());
    ImGui::TableNextColumn();
    ImGui::PushStyleColor(ImGuiCol_Text, ui::colour::to_vec4(ideal && cost > *ideal ? ui::colour::conflict : ui::colour::ok));
    ImGui::Text("%s %ss", count_text(cost).c_str(), unit);
    ImGui::PopStyleColor();
    ui::term_tooltip_for_last_item(unit);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(ideal ? count_text(*ideal).c_str() : "");
  };
  const auto shared_row = [&](const char* name, const sim::OpCounters& o) {
    row(name, o.instructions, o.wavefronts, o.ideal_wavefronts, "wavefront");
  };
  const auto global_row = [&](const char* name, const sim::OpCounters& o) {
    row(name, o.instructions, o.sectors, o.ideal_sectors, "sector");
  };
  const auto& total = counters->total;
  shared_row("shared loads", total.shared_loads());
  shared_row("shared stores", total.shared_stores());
  global_row("global loads", total.global_loads());
  global_row("global stores", total.global_stores());
  // TMA copies (one thread's instruction each): the global sectors they read, against the bytes they bring.
  row("TMA copies", total.tma_copies, total.tma_sectors, total.tma_bytes / 32, "sector");
  row("TMA stores", total.tma_stores, total.tma_store_sectors, std::nullopt, "sector");  // of C (rung 20)
  ImGui::EndTable();
  const auto loads = total.shared_loads(), stores = total.shared_stores();
  const std::int64_t conflicts = loads.bank_conflicts() + stores.bank_conflicts();
  ImGui::TextUnformatted("Bank conflicts:");
  ImGui::SameLine();
  ui::coloured_text(conflicts > 0 ? ui::colour::conflict : ui::colour::ok, "%s", count_text(conflicts).c_str());
  ui::term_tooltip_for_last_item("bank conflict");
  ImGui::SameLine();
  if (total.wgmma > 0)
    ImGui::Text("  wgmma (warpgroup-wide, from shared memory): %s", count_text(total.wgmma).c_str());
  else if (total.mma > 0)
    ImGui::Text("  mma.sync (warp-wide): %s", count_text(total.mma).c_str());
  else
    ImGui::Text("  FMAs: %s", count_text(total.fma).c_str());
  prediction(model);
}

}  // namespace

void draw_ladder_column(PanelContext& context) {
  AppModel& model = context.model;
  const PredictionModel& predictions = model.predictions();
  ui::heading("The ladder");
  ui::note_text("One kernel variant per rung. TFLOPS: the time model's prediction, the roofline bound, and measured on "
                "the GPU (hover).");
  rung_table(model);
  // Below a few waves per SM the launch's fill and the last wave weigh as much as the kernel's inner loop, so the
  // measured column ranks grids there (docs/results.md shows the ladder at each size).
  const sim::Problem& size = model.problem();
  if (static_cast<double>(size.m) * size.n < 2048.0 * 2048.0)
    ui::note_text("At %d x %d the grid has few blocks per SM: measured speeds rank launches and last waves as much as "
                  "kernels. 4096 x 4096 and up compare the kernels.",
                  size.m, size.n);
  ImGui::Spacing();
  ImGui::Separator();
  configuration(model);
  // The whole kernel in one line; the overview tab has the details.
  if (model.validity() && predictions.kernel_counters()) {
    const auto& total = predictions.kernel_counters()->total;
    const std::int64_t conflicts = total.shared_loads().bank_conflicts() + total.shared_stores().bank_conflicts();
    ImGui::Spacing();
    ImGui::TextUnformatted("Whole kernel:");
    ImGui::SameLine();
    ui::coloured_text(conflicts > 0 ? ui::colour::conflict : ui::colour::ok, "%s bank conflicts",
                      count_text(conflicts).c_str());
    ui::term_tooltip_for_last_item("bank conflict");
    if (const auto& p = predictions.prediction()) {
      ImGui::SameLine(0, 0);
      if (p->time) {
        ImGui::Text(", predicted %.1f TFLOPS;", p->time->tflops);
        ui::term_tooltip_for_last_item("time model");
      }
      // On a line of its own: the column is too narrow for all three.
      ImGui::Text("roofline bound %.1f TFLOPS", p->roofline.predicted_tflops);
      ui::term_tooltip_for_last_item("roofline");
    }
  }
}

void draw_kernel_summary(PanelContext& context) {
  kernel_counters(context.model);
}

}  // namespace gemmlab::desktop
