#include "model/shapes_study.hpp"

#include <nlohmann/json.hpp>

#include "gemmlab/file_io.hpp"
#include "gemmlab/gpu/sweep.hpp"
#include "gemmlab/rungs.hpp"

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
      // A sweep of several launch orders (sweep --order preferred,groupm:8): which one the best ran in.
      if (report.value("order", "").find(',') != std::string::npos && best->contains("order"))
        row.best_config += " in " + best->value("order", "");
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

Result<ShapesStudy::Predicted> ShapesStudy::predict_report(const std::string& shapes_text, int tuned,
                                                           const sim::DeviceProfile& profile,
                                                           const std::function<void(double)>& progress,
                                                           const std::atomic<bool>* cancel) {
  auto shapes = gpu::parse_sweep_shapes(shapes_text);
  if (!shapes) return shapes.error();
  gpu::SweepOptions options;
  options.shapes = std::move(*shapes);
  for (std::size_t i = 0; i < options.shapes.size(); ++i) options.shapes[i].index = i;
  options.profile = profile;
  options.model_only = true;
  options.tuned = tuned;
  // With picks, the Hopper rungs alone (17 on), as the recorded sweep: the fastest on every LLM shape there, and a
  // mma.sync rung's thousands of configurations would take the ranking from a second a shape to a quarter of a minute.
  if (tuned > 0)
    for (const RungInfo& rung : gemmlab::rungs())
      if (rung.arch == Arch::Sm90a) options.rungs.push_back(rung.id);
  const auto report = gpu::run_sweep(
      options,
      [&](const gpu::SweepProgress& p) {
        if (progress && p.total > 0) progress(double(p.done) / double(p.total));
      },
      cancel);
  if (!report) return report.error();
  if (report->cancelled) return Error{"the model's sweep was cancelled"};
  const std::string picks = tuned > 0 ? "the Hopper rungs' defaults and the " + std::to_string(tuned) +
                                            " configurations of each the model ranks fastest for each shape"
                                      : "every rung's default";
  return Predicted{gpu::sweep_report_json(*report),
                   "predicted by the model for the " + profile.name + " (BF16, " + picks + "; no GPU needed)"};
}

Status ShapesStudy::show_predicted(const Result<Predicted>& predicted) {
  if (!predicted) {
    error_ = predicted.error().message;
    return predicted.error();
  }
  return show(predicted->json, predicted->source);
}

Status ShapesStudy::predict(const sim::DeviceProfile& profile) {
  return show_predicted(predict_report(shapes_text_, tuned_, profile));
}

Status ShapesStudy::load_report(const std::filesystem::path& path) {
  const auto text = read_input_file(path.string(), "sweep report");
  if (!text) {
    error_ = text.error().message;
    return text.error();
  }
  const auto report = nlohmann::json::parse(*text, nullptr, false);
  std::string where = "recorded";
  if (!report.is_discarded() && report.is_object() && report.contains("measured_on") &&
      report["measured_on"].is_object()) {
    const auto& on = report["measured_on"];
    const bool named = on.contains("device") && on["device"].is_object() && on["device"].contains("name") &&
                       on["device"]["name"].is_string();
    const bool dated = on.contains("date_utc") && on["date_utc"].is_string();
    where += " on the " + (named ? on["device"]["name"].get<std::string>() : std::string("?")) + ", " +
             (dated ? on["date_utc"].get<std::string>() : std::string("?"));
  }
  return show(*text, where + " (" + path.filename().string() + "; measured beside cuBLAS, the model's prediction too)");
}

}  // namespace gemmlab::desktop
