// The sweep (see sweep.hpp): the model for every shape and rung, then one benchmark run over them all.
#include "gemmlab/gpu/sweep.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>

#include "gemmlab/comma_items.hpp"
#include "gemmlab/gpu/instances.hpp"
#include "gemmlab/gpu/runtime_compile.hpp"
#include "gemmlab/gpu/shape_presets.def"
#include "gemmlab/gpu/tune.hpp"
#include "gemmlab/listed.hpp"
#include "gemmlab/sim/launch_order.hpp"
#include "gemmlab/sim/rung_model.hpp"
#include "gemmlab/sim/schedule_prediction.hpp"
#include "gemmlab/sim/simulate.hpp"
#include "parallel_for.hpp"

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
  for (const std::string_view raw : comma_items(list)) {
    const std::string item = trim(raw);
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

namespace {

// The model's columns of an entry (its rung and configuration) at `shape`, with what the build's compile (or a
// run-time compile) says of its code: validate's refusal, or the tiles, the waves and the predicted speed with its
// limit.
void predict_entry(SweepEntry& e, const Shape& shape, kernel::BlockOrder order, const sim::DeviceProfile& profile,
                   const sim::CompiledFacts& facts) {
  e.refused.clear();
  const sim::Problem problem{shape.m, shape.n, shape.k};
  const auto p = sim::predict_schedule(e.rung, e.config, problem, order, profile, facts);
  if (!p) {
    e.refused = p.error().message;
    return;
  }
  const int resident = sim::blocks_per_wave(profile, p->occupancy);
  e.tiles = sim::waves_of(p->shape.blocks, e.config.grid > 0 ? std::min(e.config.grid, resident) : resident);
  const sim::PredictedSpeed speed = sim::predicted_speed(*p);
  e.predicted_tflops = speed.tflops, e.predicted_seconds = speed.seconds;
  e.limit = speed.limit, e.from_time_model = speed.from_time_model;
}

void predict_entry(SweepEntry& e, const Shape& shape, kernel::BlockOrder order, const sim::DeviceProfile& profile) {
  predict_entry(e, shape, order, profile, compiled_facts(e.rung, e.config, profile));
}

// A rung's default at a shape, in the first of the sweep's launch orders its grid of tiles takes (groupm:8 refuses a
// grid of fewer than 8 rows of tiles), or, where every order refuses it, in the first order, saying why.
SweepEntry predicted_default(const SweepOptions& o, std::size_t shape, RungId rung) {
  SweepEntry e;
  e.shape = shape, e.rung = rung, e.config = sim::rung_model(rung).defaults;
  for (const SweepOrder& order : o.orders) {
    e.order = sweep_order(order, rung);
    predict_entry(e, o.shapes[shape].shape, e.order, o.profile);
    if (e.refused.empty()) return e;
  }
  e.order = sweep_order(o.orders.front(), rung);
  predict_entry(e, o.shapes[shape].shape, e.order, o.profile);
  return e;
}

// Each entry again in the sweep's other launch orders (SweepOptions::orders), predicted there: an order that gives a
// rung the order it already runs in ("preferred" and "row" for rung 17) adds nothing, and one the entry's grid of
// tiles refuses is left out.
std::vector<SweepEntry> in_every_order(const SweepOptions& o, std::vector<SweepEntry> first,
                                       const std::atomic<bool>* cancel) {
  if (o.orders.size() < 2) return first;
  std::vector<std::vector<SweepEntry>> each(first.size());
  for (std::size_t i = 0; i < first.size(); ++i) {
    each[i].push_back(first[i]);
    if (!first[i].refused.empty()) continue;  // every order refuses it (predicted_default)
    for (std::size_t k = 0; k < o.orders.size(); ++k) {
      const kernel::BlockOrder order = sweep_order(o.orders[k], first[i].rung);
      if (std::ranges::any_of(each[i], [&](const SweepEntry& e) { return e.order == order; })) continue;
      each[i].emplace_back(first[i]).order = order;
    }
  }
  parallel_for(each.size(), worker_count(0), cancel, [&](std::size_t i) {
    for (std::size_t k = 1; k < each[i].size(); ++k)
      predict_entry(each[i][k], o.shapes[each[i][k].shape].shape, each[i][k].order, o.profile);
  });
  std::vector<SweepEntry> out;
  for (auto& orders : each)
    for (SweepEntry& e : orders)
      if (e.refused.empty() || &e == &orders.front()) out.push_back(std::move(e));
  return out;
}

// Every (shape, rung) pair's entries: its default, then (SweepOptions::tuned) the model's best other configurations,
// shape by shape. Each part runs over every pair at once on the cores (what does not spread here does not spread over
// GPUs either): the defaults predicted, the rungs' spaces ranked in one pool (rank_configurations), the picks
// predicted. After Ctrl-C, nothing: a sweep cancelled while ranking has no whole shape.
std::vector<SweepEntry> predicted_entries(const SweepOptions& o, std::span<const RungId> rungs,
                                          const std::function<void(const SweepProgress&)>& progress,
                                          const std::atomic<bool>* cancel) {
  const std::size_t pairs = o.shapes.size() * rungs.size();
  const auto shape_of = [&](std::size_t p) { return p / rungs.size(); };
  const auto rung_of = [&](std::size_t p) { return rungs[p % rungs.size()]; };
  std::vector<std::vector<SweepEntry>> entries(pairs);
  // The model's part is the first half of the sweep's progress (the timing the second), or all of a model-only sweep.
  const std::size_t scale = o.model_only ? 1 : 2;
  std::mutex progress_mutex;
  std::size_t predicted = 0;
  const auto report_predicted = [&](const SweepEntry& e, std::size_t total) {
    const std::lock_guard lock(progress_mutex);
    ++predicted;
    if (progress)
      progress(
          {predicted, scale * total, std::string(rung_info(e.rung).slug) + " " + to_string(o.shapes[e.shape].shape)});
  };
  parallel_for(pairs, worker_count(0), cancel, [&](std::size_t p) {
    const SweepEntry& e = entries[p].emplace_back(predicted_default(o, shape_of(p), rung_of(p)));
    if (o.tuned == 0) report_predicted(e, pairs);
  });
  if (cancel != nullptr && cancel->load()) return {};
  if (o.tuned > 0) {
    std::vector<std::size_t> ranked;  // the pairs whose default the model could predict
    std::vector<TuneOptions> studies;
    for (std::size_t p = 0; p < pairs; ++p) {
      if (!entries[p].front().refused.empty()) continue;
      TuneOptions& tune = studies.emplace_back();
      tune.rung = rung_of(p), tune.shape = o.shapes[shape_of(p)].shape, tune.input = o.input;
      tune.order = entries[p].front().order, tune.profile = o.profile;
      ranked.push_back(p);
    }
    const auto rankings = rank_configurations(
        studies,
        [&](const TuneProgress& t) {
          if (progress) progress({t.done, scale * t.total, "ranking " + t.what});
        },
        cancel);
    if (cancel != nullptr && cancel->load()) return {};
    for (std::size_t i = 0; i < ranked.size(); ++i) {
      if (!rankings[i]) continue;  // the default's own prediction says what the model could not do
      std::vector<SweepEntry>& out = entries[ranked[i]];
      const SweepEntry def = out.front();
      for (const TuneCandidate& c : rankings[i]->ranked) {
        if (same_config(c.config, def.config)) {
          out.front().model_rank = c.model_rank;
          continue;
        }
        if (static_cast<int>(out.size()) > o.tuned) continue;
        SweepEntry& t = out.emplace_back(def);
        t.config = c.config, t.model_rank = c.model_rank;
      }
    }
    std::vector<SweepEntry*> picks;
    for (auto& pair : entries)
      for (std::size_t i = 1; i < pair.size(); ++i) picks.push_back(&pair[i]);
    predicted = 0;
    parallel_for(picks.size(), worker_count(0), cancel, [&](std::size_t i) {
      SweepEntry& t = *picks[i];
      predict_entry(t, o.shapes[t.shape].shape, t.order, o.profile);
      report_predicted(t, picks.size());
    });
    if (cancel != nullptr && cancel->load()) return {};
  }
  std::vector<SweepEntry> out;
  for (auto& pair : entries)
    for (SweepEntry& e : pair) out.push_back(std::move(e));
  out = in_every_order(o, std::move(out), cancel);
  if (cancel != nullptr && cancel->load()) return {};
  return out;
}

// The tuned entries the build did not compile, compiled at once (`jobs` nvcc in parallel) and predicted again with
// ptxas's registers and their own SASS; one that does not compile, or no longer fits an SM, is refused with why.
void compile_tuned(SweepReport& report, const SweepOptions& o, const std::string& capability,
                   const std::function<void(const SweepProgress&)>& progress, const std::atomic<bool>* cancel) {
  // One compile per configuration and shape, for every launch order it runs in.
  std::vector<std::vector<std::size_t>> to_compile;
  for (std::size_t i = 0; i < report.entries.size(); ++i) {
    const SweepEntry& e = report.entries[i];
    if (!e.refused.empty() || !compiled_at_run_time({e.rung, e.config})) continue;
    const auto same = std::ranges::find_if(to_compile, [&](const std::vector<std::size_t>& c) {
      const SweepEntry& f = report.entries[c.front()];
      return f.shape == e.shape && f.rung == e.rung && same_config(f.config, e.config);
    });
    if (same == to_compile.end()) to_compile.push_back({i});
    else same->push_back(i);
  }
  std::atomic<std::size_t> done{0};
  std::mutex progress_mutex;
  parallel_for(to_compile.size(), worker_count(o.compile_jobs), cancel, [&](std::size_t j) {
    const SweepEntry& e = report.entries[to_compile[j].front()];
    const Shape& shape = o.shapes[e.shape].shape;
    const auto variant = kernel_variant({e.rung, e.config}, o.input, shape.n, shape.k);
    auto compiled = variant
                        ? compile_runtime_kernel(
                              {{e.rung, e.config}, o.input, variant->aligned_rows, runtime_arch(e.rung, capability)})
                        : Result<RuntimeCompiled>(variant.error());
    for (const std::size_t i : to_compile[j]) {
      SweepEntry& same = report.entries[i];
      if (!compiled) same.refused = "did not compile: " + compiled.error().message;
      else
        predict_entry(same, shape, same.order, o.profile, compiled_facts(*compiled, same.rung, same.config, o.profile));
    }
    const std::size_t finished = ++done;
    const std::lock_guard lock(progress_mutex);
    if (progress) progress({finished, to_compile.size(), "compiling " + instance_label({e.rung, e.config})});
  });
}

// The keys the model's columns take in a report's entry (prediction_json writes them).
constexpr const char* kPredictionKeys[] = {
    "refused",           "tiles", "concurrent_blocks", "waves", "last_wave_tiles", "predicted_tflops",
    "predicted_seconds", "limit", "predicted_by"};

nlohmann::json prediction_json(const SweepEntry& e) {
  nlohmann::json j = nlohmann::json::object();
  if (!e.refused.empty()) {
    j["refused"] = e.refused;
    return j;
  }
  j["tiles"] = e.tiles.blocks, j["concurrent_blocks"] = e.tiles.blocks_per_wave;
  j["waves"] = e.tiles.fractional(), j["last_wave_tiles"] = e.tiles.last_wave_blocks;
  j["predicted_tflops"] = e.predicted_tflops, j["predicted_seconds"] = e.predicted_seconds;
  j["limit"] = e.limit, j["predicted_by"] = e.from_time_model ? "time model" : "roofline";
  return j;
}

}  // namespace

Status set_sweep_order(SweepOptions& options, std::string_view text) {
  std::vector<SweepOrder> orders;
  for (const std::string_view raw : comma_items(text)) {
    const std::string item = trim(raw);
    SweepOrder order;
    if (item == kRungsOwnOrder) {
      order.rungs_own = true;
    } else {
      auto parsed = sim::parse_order(item);
      if (!parsed)
        return Error{parsed.error().message + ", or " + std::string(kRungsOwnOrder) + " (" + rungs_own_order_help() +
                     "); several, comma-separated"};
      order.order = *parsed;
    }
    if (std::ranges::any_of(orders, [&](const SweepOrder& o) {
          return o.rungs_own == order.rungs_own && (o.rungs_own || o.order == order.order);
        }))
      return Error{"the order '" + item + "' is listed twice"};
    orders.push_back(order);
  }
  if (orders.empty()) return Error{"no launch order given"};
  options.orders = std::move(orders);
  return Ok{};
}

std::string rungs_own_order_help() {
  // The rungs whose own order is not row-major, grouped by that order, in ladder order.
  std::vector<std::pair<std::string, std::vector<int>>> orders;
  for (const RungInfo& rung : rungs()) {
    const kernel::BlockOrder order = sim::rung_model(rung.id).preferred_order;
    if (order.kind == kernel::OrderKind::RowMajor) continue;
    const std::string name = sim::order_name(order);
    auto group = std::find_if(orders.begin(), orders.end(), [&](const auto& o) { return o.first == name; });
    if (group == orders.end()) group = orders.insert(orders.end(), {name, {}});
    group->second.push_back(rung.number);
  }
  std::string text = "each rung in its own: ";
  for (const auto& [name, numbers] : orders)
    text += (numbers.size() == 1 ? "rung " : "rungs ") +
            listed(numbers, [](int number) { return std::to_string(number); }) + " in " + name + ", ";
  return text + "row for the others";
}

std::string sweep_order_name(const SweepOptions& options) {
  std::string names;
  for (const SweepOrder& o : options.orders) {
    names += names.empty() ? "" : ",";
    names += o.rungs_own ? std::string(kRungsOwnOrder) : sim::order_name(o.order);
  }
  return names;
}

kernel::BlockOrder sweep_order(const SweepOrder& order, RungId rung) {
  return order.rungs_own ? sim::rung_model(rung).preferred_order : order.order;
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
  report.entries = predicted_entries(o, rungs, progress, cancel);
  if (cancel != nullptr && cancel->load()) {
    report.cancelled = true;
    return report;
  }
  report.cublas.assign(o.shapes.size(), std::nullopt);
  if (o.model_only) return report;

  if (o.tuned > 0) {  // the model's picks the build lacks, compiled for the first GPU's architecture
    auto gpus = list_devices();
    if (!gpus) return gpus.error();
    const int first = o.devices.empty() ? 0 : o.devices.front();
    if (first < 0 || first >= static_cast<int>(gpus->size()))
      return Error{"there is no CUDA device " + std::to_string(first)};
    const DeviceInfo& gpu = (*gpus)[static_cast<std::size_t>(first)];
    compile_tuned(report, o, std::to_string(gpu.cc_major) + "." + std::to_string(gpu.cc_minor), progress, cancel);
    if (cancel != nullptr && cancel->load()) {
      report.cancelled = true;
      return report;
    }
  }

  // Shapes to GPUs: the largest first, each to the GPU with the least work so far; one worker (a thread) per GPU,
  // each a benchmark run of its own shapes.
  const std::vector<int> devices = o.devices.empty() ? std::vector<int>{0} : o.devices;
  std::vector<std::size_t> by_work(o.shapes.size());
  for (std::size_t s = 0; s < by_work.size(); ++s) by_work[s] = s;
  const auto work = [&](std::size_t s) {
    const Shape& sh = o.shapes[s].shape;
    return double(sh.m) * double(sh.n) * double(sh.k);
  };
  std::ranges::stable_sort(by_work, [&](std::size_t a, std::size_t b) { return work(a) > work(b); });
  std::vector<std::vector<std::size_t>> assigned(devices.size());
  std::vector<double> load(devices.size(), 0.0);
  for (const std::size_t s : by_work) {
    const auto least = std::ranges::min_element(load) - load.begin();
    assigned[static_cast<std::size_t>(least)].push_back(s);
    load[static_cast<std::size_t>(least)] += work(s);
  }
  for (auto& shapes : assigned) std::ranges::sort(shapes);  // each GPU times its shapes in the sweep's order

  // One worker per GPU (parallel_for: an exception ends that worker, not the process), a benchmark run per shape of
  // that shape's entries (each rung's default, and the model's picks); each run's rows belong to its shape alone.
  struct GpuRuns {
    Status status = Ok{};
    BenchReport run;  // the GPU's device, software and date: its first run's
    struct ShapeRun {
      std::size_t shape;
      kernel::BlockOrder order;
      BenchReport run;
    };
    std::vector<ShapeRun> shapes;  // a run per shape and launch order
  };
  std::vector<GpuRuns> measured(devices.size());
  std::mutex progress_mutex;
  std::vector<std::pair<std::size_t, std::size_t>> done_of(devices.size(), {0, 1});
  parallel_for(devices.size(), static_cast<int>(devices.size()), nullptr, [&](std::size_t d) {
    GpuRuns& mine = measured[d];
    mine.status = Error{"its worker stopped"};  // until it ends normally
    for (std::size_t done = 0; done < assigned[d].size(); ++done) {
      const std::size_t s = assigned[d][done];
      // A benchmark run per launch order of the shape's kernels (one, unless each rung runs in its own).
      std::vector<BenchOptions> benches;
      for (const SweepEntry& e : report.entries) {
        if (e.shape != s || !e.refused.empty()) continue;
        auto same = std::ranges::find_if(benches, [&](const BenchOptions& b) { return b.order == e.order; });
        if (same == benches.end()) {
          benches.emplace_back();
          same = benches.end() - 1;
          same->order = e.order;
        }
        same->kernels.push_back({e.rung, e.config});
      }
      for (BenchOptions& bench : benches) {
        bench.shapes = {o.shapes[s].shape};
        bench.inputs = {o.input}, bench.device = devices[d], bench.runs = o.runs;
        auto run = run_bench(
            bench,
            [&](const BenchProgress& b) {  // the second half of the sweep's progress, over every GPU
              if (!progress || b.total == 0) return;
              std::lock_guard lock(progress_mutex);
              done_of[d] = {done * b.total + b.done, assigned[d].size() * b.total};
              double fraction = 0;
              for (const auto& [part, all_of] : done_of)
                fraction += double(part) / double(all_of) / double(devices.size());
              progress({total + static_cast<std::size_t>(fraction * double(total)), 2 * total, "timing " + b.what});
            },
            cancel);
        if (!run) {
          mine.status = run.error();
          return;
        }
        if (mine.run.date_utc.empty()) mine.run = *run, mine.run.rows.clear();
        mine.run.sm_clock_end_mhz = run->sm_clock_end_mhz;
        mine.run.buffer_sets_max = std::max(mine.run.buffer_sets_max, run->buffer_sets_max);
        const bool stopped = run->cancelled;
        mine.shapes.push_back({s, bench.order, std::move(*run)});
        if ((mine.run.cancelled = stopped)) break;
      }
      if (mine.run.cancelled) break;
    }
    mine.status = Ok{};
  });
  for (std::size_t d = 0; d < devices.size(); ++d) {
    if (!measured[d].status)
      return Error{"GPU " + std::to_string(devices[d]) + ": " + measured[d].status.error().message};
    report.cancelled = report.cancelled || measured[d].run.cancelled;
    for (const auto& [s, order, run] : measured[d].shapes)
      for (const BenchRow& row : run.rows) {
        if (!row.kernel) {
          if (!report.cublas[s]) report.cublas[s] = row;
          continue;
        }
        for (SweepEntry& e : report.entries)
          if (e.shape == s && e.rung == row.kernel->rung && same_config(e.config, row.kernel->config) &&
              e.order == order && !e.measured)
            e.measured = row, e.device = devices[d];
      }
    if (!measured[d].run.date_utc.empty()) report.bench.push_back(std::move(measured[d].run));  // a GPU that ran
  }
  // cuBLAS decoded, one shape at a time (CUPTI records every kernel of the process), on the GPU that timed it.
  report.cublas_decoded.assign(o.shapes.size(), std::nullopt);
  report.cublas_decode_notes.assign(o.shapes.size(), "");
  for (std::size_t d = 0; d < devices.size() && !report.cancelled; ++d)
    for (const std::size_t s : assigned[d]) {
      if (cancel != nullptr && cancel->load()) break;
      if (auto choice = cublas_choice(o.shapes[s].shape, o.input, devices[d]))
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
      nlohmann::json j = {{"rung", rung_info(e.rung).slug},
                          {"config", instance_label({e.rung, e.config})},
                          {"order", sim::order_name(e.order)}};
      if (e.model_rank > 0) j["model_rank"] = e.model_rank;
      j.update(prediction_json(e));
      if (e.measured) {
        j["measured"] = {{"status", to_string(e.measured->status)},
                         {"message", e.measured->message},
                         {"median_ms", e.measured->median_ms},
                         {"tflops", e.measured->tflops},
                         {"ratio_to_cublas", e.measured->ratio_to_cublas},
                         {"device", e.device}};
      }
      entries.push_back(std::move(j));
    }
    nlohmann::json js = {{"index", shape.index}, {"label", shape.label}, {"source", shape.source}, {"m", shape.shape.m},
                         {"n", shape.shape.n},   {"k", shape.shape.k},   {"entries", entries}};
    if (s < r.cublas.size() && r.cublas[s])
      js["cublas"] = {{"median_ms", r.cublas[s]->median_ms}, {"tflops", r.cublas[s]->tflops}};
    if (s < r.cublas_decoded.size() && r.cublas_decoded[s])
      js["cublas"]["decoded"] = nlohmann::json::parse(cublas_choice_json(*r.cublas_decoded[s]));
    else if (s < r.cublas_decode_notes.size() && !r.cublas_decode_notes[s].empty())
      js["cublas"]["decoded"] = {{"error", r.cublas_decode_notes[s]}};
    shapes.push_back(std::move(js));
  }
  nlohmann::json rung_slugs = nlohmann::json::array();
  for (const RungId rung : r.options.rungs) rung_slugs.push_back(rung_info(rung).slug);
  nlohmann::json out = {{"schema", "gemmlab-sweep-1"},
                        {"input", kernel::input_name(r.options.input)},
                        {"order", sweep_order_name(r.options)},
                        {"profile", {{"id", r.options.profile.id}, {"name", r.options.profile.name}}},
                        {"rungs", rung_slugs},
                        {"model_only", r.options.model_only},
                        {"cancelled", r.cancelled},
                        {"shapes", shapes}};
  // Each GPU's run; "measured_on" is the first's (one GPU: the only one).
  for (const BenchReport& run : r.bench) {
    const auto bench = nlohmann::json::parse(bench_report_json(run));
    nlohmann::json gpu;
    for (const char* key : {"device", "software", "date_utc", "sm_clock_start_mhz", "sm_clock_end_mhz", "queued"})
      if (bench.contains(key)) gpu[key] = bench[key];
    if (!out.contains("measured_on")) out["measured_on"] = gpu;
    out["gpus"].push_back(gpu);
  }
  return out.dump(2) + "\n";
}

Result<Shard> parse_shard(std::string_view text) {
  const auto slash = text.find('/');
  Shard shard;
  const auto number = [](std::string_view digits, int& value) {
    const auto [end, code] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    return code == std::errc{} && end == digits.data() + digits.size();
  };
  if (slash == std::string_view::npos || !number(text.substr(0, slash), shard.index) ||
      !number(text.substr(slash + 1), shard.count) || shard.count < 1 || shard.index < 0 || shard.index >= shard.count)
    return Error{"not a shard: '" + std::string(text) + "' (write i/N, shard i of N counted from 0: 0/4 to 3/4)"};
  return shard;
}

Result<std::string> merge_sweep_reports(const std::vector<std::string>& reports) {
  if (reports.empty()) return Error{"no reports to merge"};
  nlohmann::json merged;
  std::map<std::size_t, nlohmann::json> shapes;  // by their index in the whole sweep
  for (std::size_t i = 0; i < reports.size(); ++i) {
    const std::string which = "report " + std::to_string(i + 1);
    const auto j = nlohmann::json::parse(reports[i], nullptr, false);
    if (j.is_discarded() || !j.is_object() || j.value("schema", "") != "gemmlab-sweep-1")
      return Error{which + " is not a sweep's report (gemmlab-cli sweep --json, schema gemmlab-sweep-1)"};
    if (merged.is_null()) {
      merged = j;
      merged["shapes"] = nlohmann::json::array();
      merged.erase("gpus");
      merged.erase("measured_on");
    }
    for (const char* key : {"input", "order", "profile", "rungs", "model_only"})
      if (j.value(key, nlohmann::json()) != merged.value(key, nlohmann::json()))
        return Error{which + " is from another sweep: its " + std::string(key) + " differs from report 1's"};
    merged["cancelled"] = merged.value("cancelled", false) || j.value("cancelled", false);
    for (const auto& gpu : j.value("gpus", nlohmann::json::array())) merged["gpus"].push_back(gpu);
    if (!merged.contains("measured_on") && j.contains("measured_on")) merged["measured_on"] = j["measured_on"];
    for (const auto& shape : j.value("shapes", nlohmann::json::array())) {
      const std::size_t index = shape.value("index", std::size_t{0});
      if (!shapes.emplace(index, shape).second)
        return Error{which + " has shape " + std::to_string(index) + " (" + shape.value("label", "") +
                     "), which an earlier report has too: shards of one sweep do not overlap"};
    }
  }
  for (auto& [index, shape] : shapes) merged["shapes"].push_back(std::move(shape));
  return merged.dump(2) + "\n";
}

Result<std::string> rescore_sweep_report(std::string_view report, const sim::DeviceProfile& profile) {
  auto j = nlohmann::json::parse(report, nullptr, false);
  if (j.is_discarded() || !j.is_object() || j.value("schema", "") != "gemmlab-sweep-1")
    return Error{"not a sweep's report (gemmlab-cli sweep --json, schema gemmlab-sweep-1)"};
  SweepOptions ordered;
  if (auto order = set_sweep_order(ordered, j.value("order", "row")); !order)
    return Error{"the report's order: " + order.error().message};
  if (!j.contains("shapes") || !j["shapes"].is_array()) return Error{"the report has no shapes"};
  for (auto& shape : j["shapes"]) {
    const Shape size{shape.value("m", 0), shape.value("n", 0), shape.value("k", 0)};
    if (size.m < 1 || size.n < 1 || size.k < 1) return Error{"a shape of the report has no m, n and k"};
    if (!shape.contains("entries") || !shape["entries"].is_array()) continue;
    for (auto& entry : shape["entries"]) {
      const auto rung = find_rung(entry.value("rung", ""));
      if (!rung) return Error{"the report names a rung this build does not have: '" + entry.value("rung", "") + "'"};
      SweepEntry e;
      e.rung = *rung, e.config = sim::rung_model(*rung).defaults;
      if (const std::string label = entry.value("config", "default"); label != "default") {
        auto config = sim::apply_knob_text(*rung, e.config, label);
        if (!config)
          return Error{"the report's " + entry.value("rung", "") + " entry '" + label + "': " + config.error().message};
        e.config = *config;
      }
      // A report written before entries named their order ran every entry in the sweep's (first) one.
      e.order = sweep_order(ordered.orders.front(), e.rung);
      if (entry.contains("order")) {
        auto own = sim::parse_order(entry.value("order", ""));
        if (!own) return Error{"the report's " + entry.value("rung", "") + " entry's order: " + own.error().message};
        e.order = *own;
      }
      predict_entry(e, size, e.order, profile);
      for (const char* key : kPredictionKeys) entry.erase(key);
      entry.update(prediction_json(e));
    }
  }
  j["profile"] = {{"id", profile.id}, {"name", profile.name}};
  j["rescored"] =
      "the model's columns predicted again by this build's model for the profile above; the measured "
      "columns as the report recorded them";
  return j.dump(2) + "\n";
}

std::string sweep_report_csv(const SweepReport& r) {
  std::ostringstream out;
  out << "label,m,n,k,rung,config,model_rank,refused,tiles,concurrent_blocks,waves,last_wave_tiles,predicted_tflops,"
         "limit,"
         "measured_status,measured_tflops,cublas_tflops,ratio_to_cublas,order\n";
  const auto quoted = [](const std::string& text) {
    std::string q = "\"";
    for (const char ch : text) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return q + "\"";
  };
  for (const SweepEntry& e : r.entries) {
    const SweepShape& s = r.options.shapes[e.shape];
    out << quoted(s.label) << ',' << s.shape.m << ',' << s.shape.n << ',' << s.shape.k << ',' << rung_info(e.rung).slug
        << ',' << quoted(instance_label({e.rung, e.config})) << ',' << e.model_rank << ',' << quoted(e.refused) << ','
        << e.tiles.blocks << ',' << e.tiles.blocks_per_wave << ',' << e.tiles.fractional() << ','
        << e.tiles.last_wave_blocks << ',' << e.predicted_tflops << ',' << quoted(e.limit) << ',';
    if (e.measured) out << to_string(e.measured->status) << ',' << e.measured->tflops;
    else out << ',';
    out << ',';
    if (e.shape < r.cublas.size() && r.cublas[e.shape]) out << r.cublas[e.shape]->tflops;
    out << ',';
    if (e.measured) out << e.measured->ratio_to_cublas;
    out << ',' << sim::order_name(e.order) << '\n';
  }
  return out.str();
}

}  // namespace gemmlab::gpu
