// Benchmark: run the rungs' GPU kernels next to cuBLAS (progress and Cancel in the header), or, on a machine without
// a GPU or without CUDA, show the recorded H100 results. Results as a table and as TFLOPS against size per rung,
// cuBLAS as the reference line; save and load them as JSON.
#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <vector>

#include "gemmlab/gpu/instances.hpp"
#include "gemmlab/gpu/shapes.hpp"
#include "panels/panel_widgets.hpp"
#include "panels/panels.hpp"
#include "ui/theme.hpp"

namespace gemmlab::desktop {
namespace {

namespace colour = ui::colour;

// The benchmark at the Sizes field's sizes: every rung's default (no kernels given), or these configurations.
void run_at_the_sizes(AppModel& model, std::vector<gpu::GpuInstance> kernels) {
  auto shapes = gpu::parse_shapes(model.benchmark().shapes());
  if (!shapes) {
    model.add_message(Message::Level::Error, "sizes: " + shapes.error().message);
    return;
  }
  gpu::BenchOptions options;
  options.shapes = *shapes;
  options.kernels = std::move(kernels);
  model.run_benchmark(options);
}

void controls(AppModel& model) {
  BenchmarkModel& benchmark = model.benchmark();
  const bool can_run = model.gpu_available();
  ui::coloured_text(can_run ? colour::ok : IM_COL32(240, 190, 80, 255), "%s", model.gpu_status().c_str());
  if (!can_run) {
    ImGui::SameLine();
    ui::note_text("Below: the recorded results, measured on an H100 with this project's kernels.");
  }
  ImGui::BeginDisabled(!can_run || model.gpu_busy());
  labelled_text_field("Sizes", "##shapes", benchmark.shapes(), 14.0f);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("\"4096\" is 4096 x 4096 x 4096; \"MxNxK\" any shape; separate with commas");
  ImGui::SameLine();
  if (ImGui::Button(benchmark.running() ? "Running..." : "Run every rung on the GPU")) {
    run_at_the_sizes(model, {});
  }
  // Whatever the configuration editor holds: the build's kernel where it compiled this configuration, else one
  // compiled now (a couple of seconds, then cached on disk).
  ImGui::SameLine();
  const gpu::GpuInstance selected{model.rung(), model.config()};
  const bool compiled = gpu::find_gpu_instance(selected.rung, selected.config).has_value();
  if (ImGui::Button("Run this configuration")) {
    run_at_the_sizes(model, {selected});
  }
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("%s (%s) next to cuBLAS. %s", std::string(rung_info(selected.rung).slug).c_str(),
                      gpu::instance_label(selected).c_str(),
                      compiled ? "The build compiled this configuration."
                               : "The build did not compile this configuration: it is compiled first (a few seconds; "
                                 "then kept in the kernel cache).");
  ImGui::EndDisabled();

  labelled_text_field("Results file", "##path", benchmark.results_path(), 18.0f);
  ImGui::SameLine();
  if (ImGui::Button("Load")) benchmark.load_results(benchmark.results_path());
  ImGui::SameLine();
  ImGui::BeginDisabled(!benchmark.results());
  if (ImGui::Button("Save")) benchmark.save_results(benchmark.results_path());
  ImGui::EndDisabled();
  ImGui::SameLine();
  if (ImGui::Button("Recorded H100 results")) benchmark.show_recorded_results();
}

void results_table(const gpu::BenchReport& report, kernel::InputType input) {
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_ScrollY |
                                ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable("results", 8, flags, ImVec2(0, 0))) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  for (const char* name : {"kernel", "configuration", "input", "size", "TFLOPS", "of cuBLAS", "median ms", "status"})
    ImGui::TableSetupColumn(name);
  ImGui::TableHeadersRow();
  for (const auto& row : report.rows) {
    if (row.input != input) continue;
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(row.name.c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(row.config.c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(std::string(kernel::input_name(row.input)).c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(gpu::to_string(row.shape).c_str());
    const bool timed = row.status == gpu::BenchStatus::Timed;
    ImGui::TableNextColumn();
    if (timed) ImGui::Text("%.2f", row.tflops);
    ImGui::TableNextColumn();
    if (timed && row.ratio_to_cublas > 0) ImGui::Text("%.0f%%", 100.0 * row.ratio_to_cublas);
    ImGui::TableNextColumn();
    if (timed) ImGui::Text("%.3f", row.median_ms);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(std::string(gpu::to_string(row.status)).c_str());
    if (!row.message.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", row.message.c_str());
  }
  ImGui::EndTable();
}

// A chart line's name: the kernel and its configuration where not the default ("cuBLAS" and the input type for
// cuBLAS: "cuBLAS FP16"; the chart shows one input type at a time).
std::string series_name(const gpu::BenchRow& row) {
  if (row.name == "cublas") {
    std::string name = "cuBLAS ";
    for (const char ch : kernel::input_name(row.input))
      name.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(ch))));
    return name;
  }
  std::string name = row.name;
  if (row.config != "default") name.append(" ").append(row.config);
  return name;
}

// TFLOPS against problem size (cubes) for one input type, one line per kernel, cuBLAS thick (white for FP32, tinted
// for the 16-bit inputs).
void chart(const gpu::BenchReport& report, kernel::InputType input, float height) {
  std::map<std::string, std::vector<std::pair<int, double>>> series;
  std::set<int> sizes;
  double top = 1.0;
  for (const auto& row : report.rows) {
    if (row.input != input || row.status != gpu::BenchStatus::Timed || row.shape.m != row.shape.n ||
        row.shape.n != row.shape.k)
      continue;
    series[series_name(row)].push_back({row.shape.m, row.tflops});
    sizes.insert(row.shape.m);
    top = std::max(top, row.tflops);
  }
  if (sizes.size() < 1) {
    ui::note_text("No square sizes to chart.");
    return;
  }
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = ImGui::GetContentRegionAvail().x;
  ImGui::Dummy(ImVec2(width, height));
  ImDrawList* draw = ImGui::GetWindowDrawList();
  // Ladder order, each rung in the colour the other charts give it; cuBLAS first, white.
  std::vector<std::string> names;
  for (const auto& [name, points] : series) names.push_back(name);
  const auto rank = [](const std::string& name) {
    const auto slug = name.substr(0, name.find(' '));
    const auto rung = find_rung(slug);
    return rung ? rung_info(*rung).number : 0;
  };
  std::stable_sort(names.begin(), names.end(), [&](const auto& a, const auto& b) { return rank(a) < rank(b); });
  // The legend in as many columns as it needs to stay inside the chart's height.
  float column_width = ImGui::GetFontSize() * 6.0f;
  for (const auto& name : names) column_width = std::max(column_width, ImGui::CalcTextSize(name.c_str()).x + 32.0f);
  const float line = ImGui::GetTextLineHeight() + 1;
  const int per_column = std::max(1, static_cast<int>((height - 24) / line));
  const int columns = (static_cast<int>(names.size()) + per_column - 1) / per_column;
  const float legend = column_width * static_cast<float>(std::max(1, columns));
  const float left = origin.x + 50, right = origin.x + width - legend, y0 = origin.y + 24, y1 = origin.y + height - 28;
  const std::vector<int> xs(sizes.begin(), sizes.end());
  const float last_x = right - ImGui::CalcTextSize("15").x - 16;  // room for the rung numbers at the lines' ends
  const auto sx = [&](int size) {
    const auto i = std::find(xs.begin(), xs.end(), size) - xs.begin();
    return xs.size() == 1 ? (left + last_x) * 0.5f : left + (last_x - left) * static_cast<float>(i) / static_cast<float>(xs.size() - 1);
  };
  const double y_top = std::ceil(top / 10.0) * 10.0;
  const auto sy = [&](double tflops) { return y1 - static_cast<float>(tflops / y_top) * (y1 - y0); };
  draw->AddRect(ImVec2(left, y0), ImVec2(right, y1), IM_COL32(80, 84, 96, 255));
  char text[48];
  for (int i = 0; i <= 4; ++i) {
    const double v = y_top * i / 4.0;
    draw->AddLine(ImVec2(left, sy(v)), ImVec2(right, sy(v)), IM_COL32(255, 255, 255, 20));
    std::snprintf(text, sizeof text, "%.0f", v);
    draw->AddText(ImVec2(origin.x + 8, sy(v) - 8), colour::muted_text, text);
  }
  for (const int size : xs) {
    std::snprintf(text, sizeof text, "%d", size);
    draw->AddText(ImVec2(sx(size) - 16, y1 + 6), colour::muted_text, text);
  }
  draw->AddText(ImVec2(origin.x, origin.y), colour::muted_text, "TFLOPS");
  float legend_x = right + 10, legend_y = y0;
  for (const auto& name : names) {
    auto& points = series[name];
    std::sort(points.begin(), points.end());
    const bool reference = name.rfind("cuBLAS", 0) == 0;
    const ImU32 c = !reference                    ? colour::rung(rank(name))
                    : name == "cuBLAS FP32"       ? colour::highlight
                    : name == "cuBLAS FP16"       ? IM_COL32(170, 200, 255, 255)
                                                  : IM_COL32(255, 205, 160, 255);
    const bool square = !reference && colour::rung_marker(rank(name)) == colour::Marker::Square;
    const auto marker = [&](ImVec2 p, float r) {
      if (square) draw->AddRectFilled(ImVec2(p.x - r, p.y - r), ImVec2(p.x + r, p.y + r), c);
      else draw->AddCircleFilled(p, r, c);
    };
    for (std::size_t i = 0; i < points.size(); ++i) {
      const ImVec2 p(sx(points[i].first), sy(points[i].second));
      marker(p, reference ? 4.0f : 3.5f);
      if (i > 0) draw->AddLine(ImVec2(sx(points[i - 1].first), sy(points[i - 1].second)), p, c, reference ? 3.0f : 2.0f);
    }
    // The rung's number at its line's last point: colours alone do not name sixteen lines.
    if (!reference && !points.empty()) {
      std::snprintf(text, sizeof text, "%d", rank(name));
      draw->AddText(ImVec2(sx(points.back().first) + 6, sy(points.back().second) - 7), c, text);
    }
    draw->AddLine(ImVec2(legend_x, legend_y + 8), ImVec2(legend_x + 16, legend_y + 8), c, reference ? 3.0f : 2.0f);
    marker(ImVec2(legend_x + 8, legend_y + 8), 3.5f);
    draw->AddText(ImVec2(legend_x + 22, legend_y), c, name.c_str());
    legend_y += line;
    if (legend_y + line > y0 + static_cast<float>(per_column) * line) legend_x += column_width, legend_y = y0;
  }
}

}  // namespace

void draw_benchmark_panel(PanelContext& context) {
  AppModel& model = context.model;
  BenchmarkModel& benchmark = model.benchmark();
  controls(model);
  ImGui::Separator();
  const auto& results = benchmark.results();
  if (!results) {
    ui::note_text("No results to show: %s", benchmark.results_message().c_str());
    return;
  }
  const auto& r = results->report;
  ImGui::TextWrapped("Results %s. Device: %s, driver %s, CUDA runtime %s, cuBLAS %s.", results->source.c_str(),
                     r.device.name.c_str(), r.software.driver.empty() ? "?" : r.software.driver.c_str(),
                     gpu::format_cuda_version(r.software.runtime_version).c_str(),
                     r.software.cublas.empty() ? "?" : r.software.cublas.c_str());
  // One input type at a time: each has its own cuBLAS and scale, and the tensor rungs' FP16 and BF16 lines would
  // otherwise share colours.
  std::set<kernel::InputType> inputs;
  for (const auto& row : r.rows) inputs.insert(row.input);
  const kernel::InputType shown = benchmark.input_shown();
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("Input");
  for (const kernel::InputType input : inputs) {
    ImGui::SameLine();
    std::string label(kernel::input_name(input));
    for (auto& ch : label) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    if (ImGui::RadioButton(label.c_str(), input == shown)) benchmark.show_input(input);
  }
  ImGui::SameLine();
  ui::note_text("(each kernel next to cuBLAS on the same input type)");
  chart(r, shown, std::max(200.0f, ImGui::GetContentRegionAvail().y * 0.5f));
  results_table(r, shown);
}

}  // namespace gemmlab::desktop
