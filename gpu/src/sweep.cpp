// The sweep (see sweep.hpp): the model for every shape and rung, then one benchmark run over them all.
#include "gemmlab/gpu/sweep.hpp"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

#include "gemmlab/gpu/instances.hpp"
#include "gemmlab/gpu/shape_presets.def"
#include "gemmlab/sim/launch_order.hpp"
#include "gemmlab/sim/rung_model.hpp"
#include "gemmlab/sim/schedule_prediction.hpp"
#include "gemmlab/sim/simulate.hpp"

namespace gemmlab::gpu {
namespace {

struct PresetShape {
  std::string_view preset, layer;
  int m, n, k;
};

#define GEMMLAB_PRESET_ENTRY(name, source) ShapePreset{name, source},
#define GEMMLAB_SKIP_SHAPE(...)
constexpr ShapePreset kPresets[] = {GEMMLAB_SHAPE_PRESETS(GEMMLAB_PRESET_ENTRY, GEMMLAB_SKIP_SHAPE)};
#undef GEMMLAB_PRESET_ENTRY
#undef GEMMLAB_SKIP_SHAPE

#define GEMMLAB_SKIP_PRESET(...)
#define GEMMLAB_SHAPE_ENTRY(preset, layer, m, n, k) PresetShape{preset, layer, m, n, k},
constexpr PresetShape kPresetShapes[] = {GEMMLAB_SHAPE_PRESETS(GEMMLAB_SKIP_PRESET, GEMMLAB_SHAPE_ENTRY)};
#undef GEMMLAB_SKIP_PRESET
#undef GEMMLAB_SHAPE_ENTRY

std::string preset_names() {
  std::string names;
  for (const ShapePreset& p : kPresets) names += (names.empty() ? "" : ", ") + std::string(p.name);
  return names;
}

std::string trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t\r");
  return std::string(s.substr(first, last - first + 1));
}

}  // namespace

std::span<const ShapePreset> shape_presets() { return kPresets; }

Result<std::vector<SweepShape>> parse_sweep_shapes(std::string_view list) {
  std::vector<SweepShape> out;
  while (true) {
    const std::size_t comma = list.find(',');
    const std::string item = trim(list.substr(0, comma));
    const auto preset = std::ranges::find(kPresets, std::string_view(item), &ShapePreset::name);
    if (preset != std::end(kPresets)) {
      for (const PresetShape& s : kPresetShapes)
        if (s.preset == preset->name)
          out.push_back(
              {{s.m, s.n, s.k}, std::string(s.preset) + " " + std::string(s.layer), std::string(preset->source)});
    } else if (!item.empty() && (item[0] < '0' || item[0] > '9')) {
      return Error{"unknown shape preset '" + item + "': the presets are " + preset_names() +
                   " (or give sizes: N, or MxNxK)"};
    } else {
      auto shapes = parse_shapes(item);
      if (!shapes) return shapes.error();
      for (const Shape& s : *shapes) out.push_back({s, to_string(s), "given"});
    }
    if (comma == std::string_view::npos) break;
    list = list.substr(comma + 1);
  }
  return out;
}

Result<std::vector<SweepShape>> parse_shapes_file(std::string_view text, std::string_view origin) {
  std::vector<SweepShape> out;
  int line_number = 0;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    ++line_number;
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    if (const auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    const std::string content = trim(line);
    if (content.empty()) {
      if (end == text.size()) break;
      continue;
    }
    const auto space = content.find_first_of(" \t");
    const std::string size = content.substr(0, space);
    const std::string label = space == std::string::npos ? size : trim(std::string_view(content).substr(space));
    auto shapes = size.find(',') == std::string::npos ? parse_shapes(size)
                                                      : Result<std::vector<Shape>>(Error{"one shape a line"});
    if (!shapes) return Error{std::string(origin) + ":" + std::to_string(line_number) + ": " + shapes.error().message};
    out.push_back({shapes->front(), label, std::string(origin) + ":" + std::to_string(line_number)});
    if (end == text.size()) break;
  }
  if (out.empty()) return Error{std::string(origin) + ": no shapes (one a line: MxNxK, then an optional label)"};
  return out;
}

Result<SweepReport> run_sweep(const SweepOptions& o, const std::function<void(const SweepProgress&)>& progress,
                              const std::atomic<bool>* cancel) {
  if (o.shapes.empty()) return Error{"the sweep has no shapes"};
  std::vector<RungId> rungs = o.rungs;
  if (rungs.empty())
    for (const RungInfo& r : gemmlab::rungs())
      if (sim::validate_input(r.id, sim::rung_model(r.id).defaults, o.input)) rungs.push_back(r.id);
  for (const RungId rung : rungs)
    if (auto takes = sim::validate_input(rung, sim::rung_model(rung).defaults, o.input); !takes) return takes.error();

  SweepReport report;
  report.options = o;
  report.options.rungs = rungs;
  const std::size_t total = o.shapes.size() * rungs.size();
  for (std::size_t s = 0; s < o.shapes.size(); ++s) {
    const Shape& shape = o.shapes[s].shape;
    for (const RungId rung : rungs) {
      if (cancel != nullptr && cancel->load()) {
        report.cancelled = true;
        return report;
      }
      if (progress)
        progress({report.entries.size(), total, std::string(rung_info(rung).slug) + " " + to_string(shape)});
      SweepEntry e;
      e.shape = s, e.rung = rung, e.config = sim::rung_model(rung).defaults;
      const sim::Problem problem{shape.m, shape.n, shape.k};
      const auto p =
          sim::predict_schedule(rung, e.config, problem, o.order, o.profile, compiled_facts(rung, e.config, o.profile));
      if (!p) {
        e.refused = p.error().message;
      } else {
        e.tiles = p->shape.tiles_m * p->shape.tiles_n;
        const int resident = p->l2.waves.blocks_per_wave;
        e.concurrent_blocks = e.config.grid > 0 ? std::min(e.config.grid, resident) : resident;
        e.waves = e.concurrent_blocks > 0 ? double(e.tiles) / e.concurrent_blocks : 0.0;
        e.last_wave_tiles = e.concurrent_blocks > 0 ? (e.tiles - 1) % e.concurrent_blocks + 1 : 0;
        const sim::PredictedSpeed speed = sim::predicted_speed(*p);
        e.predicted_tflops = speed.tflops, e.predicted_seconds = speed.seconds;
        e.limit = speed.limit, e.from_time_model = speed.from_time_model;
      }
      report.entries.push_back(std::move(e));
    }
  }
  report.cublas.assign(o.shapes.size(), std::nullopt);
  if (o.model_only) return report;

  BenchOptions bench;
  bench.rungs = rungs;
  bench.shapes.clear();
  for (const SweepShape& s : o.shapes) bench.shapes.push_back(s.shape);
  bench.order = o.order, bench.inputs = {o.input}, bench.device = o.device, bench.runs = o.runs;
  const auto bench_progress = [&](const BenchProgress& b) {  // the second half of the sweep's progress
    if (progress && b.total > 0) progress({total + total * b.done / b.total, 2 * total, "timing " + b.what});
  };
  auto measured = run_bench(bench, bench_progress, cancel);
  if (!measured) return measured.error();
  report.cancelled = measured->cancelled;
  for (const BenchRow& row : measured->rows) {
    for (std::size_t s = 0; s < o.shapes.size(); ++s) {
      if (!(o.shapes[s].shape == row.shape)) continue;
      if (!row.kernel) {
        if (!report.cublas[s]) report.cublas[s] = row;
        continue;
      }
      for (SweepEntry& e : report.entries)
        if (e.shape == s && e.rung == row.kernel->rung && !e.measured) e.measured = row;
    }
  }
  measured->rows.clear();
  report.bench = std::move(*measured);
  report.cublas_decoded.assign(o.shapes.size(), std::nullopt);
  report.cublas_decode_notes.assign(o.shapes.size(), "");
  for (std::size_t s = 0; s < o.shapes.size() && !report.cancelled; ++s) {
    if (cancel != nullptr && cancel->load()) break;
    if (auto choice = cublas_choice(o.shapes[s].shape, o.input, o.device))
      report.cublas_decoded[s] = std::move(*choice);
    else report.cublas_decode_notes[s] = choice.error().message;
  }
  return report;
}

std::string sweep_report_json(const SweepReport& r) {
  nlohmann::json shapes = nlohmann::json::array();
  for (std::size_t s = 0; s < r.options.shapes.size(); ++s) {
    const SweepShape& shape = r.options.shapes[s];
    nlohmann::json entries = nlohmann::json::array();
    for (const SweepEntry& e : r.entries) {
      if (e.shape != s) continue;
      nlohmann::json j = {{"rung", rung_info(e.rung).slug}, {"config", "default"}};
      if (!e.refused.empty()) {
        j["refused"] = e.refused;
      } else {
        j["tiles"] = e.tiles, j["concurrent_blocks"] = e.concurrent_blocks, j["waves"] = e.waves;
        j["last_wave_tiles"] = e.last_wave_tiles;
        j["predicted_tflops"] = e.predicted_tflops, j["predicted_seconds"] = e.predicted_seconds;
        j["limit"] = e.limit, j["predicted_by"] = e.from_time_model ? "time model" : "roofline";
      }
      if (e.measured) {
        j["measured"] = {{"status", to_string(e.measured->status)},
                         {"message", e.measured->message},
                         {"median_ms", e.measured->median_ms},
                         {"tflops", e.measured->tflops},
                         {"ratio_to_cublas", e.measured->ratio_to_cublas}};
      }
      entries.push_back(std::move(j));
    }
    nlohmann::json js = {{"label", shape.label}, {"source", shape.source}, {"m", shape.shape.m},
                         {"n", shape.shape.n},   {"k", shape.shape.k},     {"entries", entries}};
    if (s < r.cublas.size() && r.cublas[s])
      js["cublas"] = {{"median_ms", r.cublas[s]->median_ms}, {"tflops", r.cublas[s]->tflops}};
    if (s < r.cublas_decoded.size() && r.cublas_decoded[s])
      js["cublas"]["decoded"] = nlohmann::json::parse(cublas_choice_json(*r.cublas_decoded[s]));
    else if (s < r.cublas_decode_notes.size() && !r.cublas_decode_notes[s].empty())
      js["cublas"]["decoded"] = {{"error", r.cublas_decode_notes[s]}};
    shapes.push_back(std::move(js));
  }
  nlohmann::json out = {{"schema", "gemmlab-sweep-1"},
                        {"input", kernel::input_name(r.options.input)},
                        {"order", sim::order_name(r.options.order)},
                        {"profile", {{"id", r.options.profile.id}, {"name", r.options.profile.name}}},
                        {"model_only", r.options.model_only},
                        {"cancelled", r.cancelled},
                        {"shapes", shapes}};
  if (r.bench) {
    const auto bench = nlohmann::json::parse(bench_report_json(*r.bench));
    for (const char* key : {"device", "software", "date_utc", "sm_clock_start_mhz", "sm_clock_end_mhz"})
      if (bench.contains(key)) out["measured_on"][key] = bench[key];
  }
  return out.dump(2) + "\n";
}

std::string sweep_report_csv(const SweepReport& r) {
  std::ostringstream out;
  out << "label,m,n,k,rung,refused,tiles,concurrent_blocks,waves,last_wave_tiles,predicted_tflops,limit,"
         "measured_status,measured_tflops,cublas_tflops,ratio_to_cublas\n";
  const auto quoted = [](const std::string& text) {
    std::string q = "\"";
    for (const char ch : text) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return q + "\"";
  };
  for (const SweepEntry& e : r.entries) {
    const SweepShape& s = r.options.shapes[e.shape];
    out << quoted(s.label) << ',' << s.shape.m << ',' << s.shape.n << ',' << s.shape.k << ',' << rung_info(e.rung).slug
        << ',' << quoted(e.refused) << ',' << e.tiles << ',' << e.concurrent_blocks << ',' << e.waves << ','
        << e.last_wave_tiles << ',' << e.predicted_tflops << ',' << quoted(e.limit) << ',';
    if (e.measured) out << to_string(e.measured->status) << ',' << e.measured->tflops;
    else out << ',';
    out << ',';
    if (e.shape < r.cublas.size() && r.cublas[e.shape]) out << r.cublas[e.shape]->tflops;
    out << ',';
    if (e.measured) out << e.measured->ratio_to_cublas;
    out << '\n';
  }
  return out.str();
}

}  // namespace gemmlab::gpu
