#include "model/shapes_study.hpp"

#include <nlohmann/json.hpp>

#include "gemmlab/file_io.hpp"
#include "gemmlab/gpu/sweep.hpp"

namespace gemmlab::desktop {

Result<std::vector<ShapeRow>> ShapesStudy::rows_of(const std::string& json_text) {
  const auto report = nlohmann::json::parse(json_text, nullptr, false);
  if (report.is_discarded() || !report.is_object() || report.value("schema", "") != "gemmlab-sweep-1")
    return Error{"not a sweep's report (gemmlab-cli sweep --json writes one)"};
  std::vector<ShapeRow> rows;
  for (const auto& shape : report.value("shapes", nlohmann::json::array())) {
    ShapeRow row;
    row.label = shape.value("label", "");
    row.m = shape.value("m", 0), row.n = shape.value("n", 0), row.k = shape.value("k", 0);
    const nlohmann::json* best = nullptr;
    const auto measured = [](const nlohmann::json& e) {
      return e.contains("measured") && e["measured"].value("status", "") == "timed";
    };
    static const nlohmann::json kNoEntries = nlohmann::json::array();
    const nlohmann::json& entries = shape.contains("entries") ? shape["entries"] : kNoEntries;  // `best` points in
    for (const auto& e : entries) {
      if (e.contains("refused")) continue;
      const bool better =
          best == nullptr ||
          (measured(e) &&
           (!measured(*best) || e["measured"].value("tflops", 0.0) > (*best)["measured"].value("tflops", 0.0))) ||
          (!measured(e) && !measured(*best) && e.value("predicted_tflops", 0.0) > best->value("predicted_tflops", 0.0));
      if (better) best = &e;
    }
    if (best != nullptr) {
      row.best_rung = best->value("rung", "");
      row.best_config = best->value("config", "default");
      row.predicted_tflops = best->value("predicted_tflops", 0.0);
      row.tiles = best->value("tiles", 0), row.concurrent_blocks = best->value("concurrent_blocks", 0);
      row.last_wave_tiles = best->value("last_wave_tiles", 0), row.waves = best->value("waves", 0.0);
      if (measured(*best)) {
        row.measured_tflops = (*best)["measured"].value("tflops", 0.0);
        row.ratio_to_cublas = (*best)["measured"].value("ratio_to_cublas", 0.0);
      }
    }
    if (shape.contains("cublas")) {
      row.cublas_tflops = shape["cublas"].value("tflops", 0.0);
      if (shape["cublas"].contains("decoded")) row.cublas_runs = shape["cublas"]["decoded"].value("summary", "");
    }
    rows.push_back(std::move(row));
  }
  if (rows.empty()) return Error{"the sweep's report has no shapes"};
  return rows;
}

Status ShapesStudy::show(const std::string& json_text, std::string source) {
  auto rows = rows_of(json_text);
  if (!rows) {
    error_ = rows.error().message;
    return rows.error();
  }
  rows_ = std::move(*rows);
  source_ = std::move(source);
  measured_ = !rows_.empty() && rows_.front().measured_tflops.has_value();
  error_.clear();
  return Ok{};
}

Status ShapesStudy::predict(const sim::DeviceProfile& profile) {
  auto shapes = gpu::parse_sweep_shapes(shapes_text_);
  if (!shapes) {
    error_ = shapes.error().message;
    return shapes.error();
  }
  gpu::SweepOptions options;
  options.shapes = std::move(*shapes);
  for (std::size_t i = 0; i < options.shapes.size(); ++i) options.shapes[i].index = i;
  options.profile = profile;
  options.model_only = true;
  const auto report = gpu::run_sweep(options);
  if (!report) {
    error_ = report.error().message;
    return report.error();
  }
  return show(gpu::sweep_report_json(*report),
              "predicted by the model for the " + profile.name + " (BF16, every rung's default; no GPU needed)");
}

Status ShapesStudy::load_report(const std::filesystem::path& path) {
  const auto text = read_input_file(path.string(), "sweep report");
  if (!text) {
    error_ = text.error().message;
    return text.error();
  }
  const auto report = nlohmann::json::parse(*text, nullptr, false);
  std::string where = "recorded";
  if (!report.is_discarded() && report.contains("measured_on"))
    where += " on the " + report["measured_on"].value("device", nlohmann::json::object()).value("name", "?") + ", " +
             report["measured_on"].value("date_utc", "?");
  return show(*text, where + " (" + path.filename().string() + "; measured beside cuBLAS, the model's prediction too)");
}

}  // namespace gemmlab::desktop
