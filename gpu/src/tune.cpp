// The autotuner (gemmlab/gpu/tune.hpp). Plain C++: ranking needs only the simulator; the timing half calls the
// benchmark and the run-time compiler, which say so in a build without CUDA.
#include "gemmlab/gpu/tune.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <nlohmann/json.hpp>
#include <numeric>
#include <random>
#include <thread>

#include "gemmlab/gpu/device.hpp"
#include "gemmlab/json_input.hpp"
#include "gemmlab/gpu/runtime_compile.hpp"
#include "parallel_for.hpp"
#include "gemmlab/sim/launch_order.hpp"
#include "gemmlab/sim/rung_model.hpp"
#include "gemmlab/sim/schedule_prediction.hpp"
#include "gemmlab/sim/simulate.hpp"
#include "gemmlab/sim/tuning.hpp"

namespace gemmlab::gpu {
namespace {

kernel::InputType input_of(const TuneOptions& o) { return o.input.value_or(sim::input_types(o.rung).front()); }

sim::Problem problem_of(const TuneOptions& o) { return {o.shape.m, o.shape.n, o.shape.k, 1.0f, 0.0f}; }

std::string label(RungId rung, const kernel::KernelConfig& config) { return instance_label(GpuInstance{rung, config}); }

// The model's time for one configuration with what its compile gave (or its nearest compiled neighbour's); an error
// where it has none.
Result<TuneCandidate> predict(const TuneOptions& o, const kernel::KernelConfig& config,
                              const sim::CompiledFacts& compiled) {
  auto p = sim::predict_schedule(o.rung, config, problem_of(o), o.order, o.profile, compiled);
  if (!p) return p.error();
  if (!p->time) return Error{p->time_note};
  TuneCandidate c;
  c.config = config;
  c.predicted_seconds = p->time->seconds;
  c.limit = p->time->limit;
  c.registers = p->occupancy.block.registers.per_thread;
  c.registers_from_compiler = p->occupancy.block.registers.source == sim::RegisterSource::Measured;
  return c;
}

std::string ordinal(int n) {
  const int tens = n % 100, ones = n % 10;
  const char* suffix = (tens >= 11 && tens <= 13) ? "th" : ones == 1 ? "st" : ones == 2 ? "nd" : ones == 3 ? "rd" : "th";
  return std::to_string(n) + suffix;
}

std::string fixed(double value, int digits) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*f", digits, value);
  return text;
}

std::string milliseconds(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f ms", seconds * 1e3);
  return text;
}

}  // namespace

double fraction_done(const TuneProgress& p) {
  constexpr double kStart[] = {0.0, 0.2, 0.5, 1.0};  // where each TuneStage starts, then the end
  const auto stage = static_cast<std::size_t>(p.stage);
  const double from = kStart[stage], to = kStart[stage + 1];
  const double part = p.total > 0 ? static_cast<double>(p.done) / static_cast<double>(p.total) : 0.0;
  return from + (to - from) * part;
}

std::string_view to_string(TunePick pick) {
  switch (pick) {
    case TunePick::Default: return "default";
    case TunePick::ModelTop: return "model's top";
    case TunePick::Random: return "random sample";
  }
  return "?";
}

std::vector<Result<TuneRanking>> rank_configurations(std::span<const TuneOptions> studies, const TuneProgressFn& progress,
                                                     const std::atomic<bool>* cancel) {
  // Each study's space, then every (study, configuration) predicted in one pool of threads: a sweep's studies differ
  // a hundredfold in cost (split-K's space at a wide prefill shape against a decode shape's), so they are not handed
  // out whole.
  std::vector<std::optional<Error>> refused(studies.size());
  std::vector<std::vector<kernel::KernelConfig>> spaces(studies.size());
  std::vector<std::pair<std::size_t, std::size_t>> items;  // (study, configuration)
  for (std::size_t s = 0; s < studies.size(); ++s) {
    const TuneOptions& o = studies[s];
    if (!sim::rung_model(o.rung).described) {
      refused[s] = Error{"rung " + std::string(rung_info(o.rung).slug) + " has no kernel description yet"};
      continue;
    }
    if (auto valid =
            sim::validate(o.rung, sim::rung_model(o.rung).defaults, problem_of(o), sim::device_limits(o.profile));
        !valid) {
      refused[s] = Error{"the rung's default configuration cannot run this problem: " + valid.error().message};
      continue;
    }
    spaces[s] = sim::tuning_space(o.rung, problem_of(o), sim::device_limits(o.profile));
    for (std::size_t c = 0; c < spaces[s].size(); ++c) items.emplace_back(s, c);
  }
  std::vector<std::optional<TuneCandidate>> predicted(items.size());
  std::vector<std::string> why(items.size());
  std::size_t done = 0;
  std::mutex progress_mutex;
  parallel_for(items.size(), worker_count(0), cancel, [&](std::size_t i) {
    const auto [s, c] = items[i];
    const TuneOptions& o = studies[s];
    const kernel::KernelConfig& config = spaces[s][c];
    auto candidate = predict(o, config, compiled_facts(o.rung, config, o.profile));
    if (candidate) predicted[i] = *candidate;
    else why[i] = label(o.rung, config) + ": " + candidate.error().message;
    const std::lock_guard lock(progress_mutex);  // counted under the lock, so the calls come in order
    const std::size_t finished = ++done;
    if (progress && (finished % 16 == 0 || finished == items.size()))
      progress({TuneStage::Ranking, finished, items.size(), label(o.rung, config)});
  });
  std::vector<Result<TuneRanking>> out;
  std::vector<TuneRanking> rankings(studies.size());
  for (std::size_t i = 0; i < items.size(); ++i) {
    TuneRanking& r = rankings[items[i].first];
    if (predicted[i]) r.ranked.push_back(*predicted[i]);
    else r.unpredicted.push_back(why[i]);
  }
  for (std::size_t s = 0; s < studies.size(); ++s) {
    if (refused[s]) {
      out.emplace_back(*refused[s]);
      continue;
    }
    if (cancel && cancel->load()) {
      out.emplace_back(Error{"tuning cancelled"});
      continue;
    }
    TuneRanking& r = rankings[s];
    r.space = spaces[s].size();
    // Ties keep the enumeration's order (the default first), so the ranking is the same on every machine.
    std::ranges::stable_sort(r.ranked, {}, &TuneCandidate::predicted_seconds);
    for (std::size_t i = 0; i < r.ranked.size(); ++i) r.ranked[i].model_rank = static_cast<int>(i) + 1;
    if (r.ranked.empty()) {
      // Every configuration failed for a reason; the first one's says it (no timing data in the profile, say).
      const std::string reason = r.unpredicted.empty() ? "" : ": for example " + r.unpredicted.front();
      out.emplace_back(Error{"the model predicted no configuration of this rung for this problem" + reason});
      continue;
    }
    out.emplace_back(std::move(r));
  }
  return out;
}

Result<TuneRanking> rank_configurations(const TuneOptions& o, const TuneProgressFn& progress,
                                        const std::atomic<bool>* cancel) {
  return std::move(rank_configurations(std::span<const TuneOptions>(&o, 1), progress, cancel).front());
}

std::vector<std::pair<std::size_t, TunePick>> pick_candidates(const TuneRanking& ranking, const TuneOptions& o) {
  const std::size_t n = ranking.ranked.size();
  const std::size_t budget = std::min<std::size_t>(static_cast<std::size_t>(std::max(o.budget, 1)), n);
  std::vector<std::optional<TunePick>> pick(n);
  std::size_t picked = 0;
  const kernel::KernelConfig& defaults = sim::rung_model(o.rung).defaults;
  for (std::size_t i = 0; i < n; ++i)
    if (same_config(ranking.ranked[i].config, defaults)) pick[i] = TunePick::Default, ++picked;
  for (std::size_t i = 0; i < n && picked < budget && static_cast<int>(i) < o.top; ++i)
    if (!pick[i]) pick[i] = TunePick::ModelTop, ++picked;
  std::vector<std::size_t> rest;
  for (std::size_t i = 0; i < n; ++i)
    if (!pick[i]) rest.push_back(i);
  std::mt19937_64 random(o.seed);
  std::shuffle(rest.begin(), rest.end(), random);
  for (std::size_t i = 0; i < rest.size() && picked < budget; ++i) pick[rest[i]] = TunePick::Random, ++picked;
  std::vector<std::pair<std::size_t, TunePick>> out;
  for (std::size_t i = 0; i < n; ++i)
    if (pick[i]) out.emplace_back(i, *pick[i]);
  return out;
}

void score_tune(TuneReport& r) {
  std::vector<std::size_t> timed, scored;
  for (std::size_t i = 0; i < r.measured.size(); ++i) {
    r.measured[i].measured_rank = 0;
    if (!r.measured[i].row || r.measured[i].row->status != BenchStatus::Timed) continue;
    timed.push_back(i);
    if (r.measured[i].spill_bytes == 0) scored.push_back(i);
  }
  r.timed = static_cast<int>(timed.size());
  r.scored = static_cast<int>(scored.size());
  r.spearman = 0;
  r.best.reset(), r.default_config.reset(), r.misses.clear();
  for (std::size_t i = 0; i < r.measured.size(); ++i)
    if (r.measured[i].pick == TunePick::Default) r.default_config = i;
  const auto seconds = [&](std::size_t i) { return r.measured[i].row->median_ms / 1e3; };
  if (!timed.empty())
    r.best = *std::ranges::min_element(timed, {}, seconds);  // spills or not: the fastest measured
  if (scored.empty()) return;
  std::vector<double> predicted, measured;
  for (const std::size_t i : scored) {
    predicted.push_back(r.measured[i].candidate.predicted_seconds);
    measured.push_back(seconds(i));
  }
  r.spearman = sim::spearman(predicted, measured);
  // Ranks among the scored configurations, ties at their average as Spearman takes them: a tie the model cannot
  // break is not reported as a miss of one rank or another.
  const std::vector<double> model_rank = sim::average_ranks(predicted), measured_rank = sim::average_ranks(measured);
  for (std::size_t t = 0; t < scored.size(); ++t) r.measured[scored[t]].measured_rank = measured_rank[t];
  // "3rd", or "2.5th (tied with 1 other)" where equal times share the rank.
  const auto rank_text = [](double rank, const std::vector<double>& times, double time) {
    const auto others = std::ranges::count(times, time) - 1;
    const std::string place = rank == std::floor(rank) ? ordinal(static_cast<int>(rank)) : fixed(rank, 1) + "th";
    if (others == 0) return place;
    return place + " (tied with " + std::to_string(others) + (others == 1 ? " other)" : " others)");
  };
  std::vector<TuneMiss> misses;
  for (std::size_t t = 0; t < scored.size(); ++t) {
    const TuneMeasurement& m = r.measured[scored[t]];
    TuneMiss miss{scored[t], model_rank[t], measured_rank[t], measured[t] / predicted[t], {}};
    miss.sentence = label(r.options.rung, m.candidate.config) + ": the model ranked it " +
                    rank_text(miss.model_rank, predicted, predicted[t]) + " of " + std::to_string(scored.size()) +
                    ", the GPU " + rank_text(miss.measured_rank, measured, measured[t]) +
                    ". Predicted " + milliseconds(predicted[t]) + " (limit: " +
                    std::string(sim::to_string(m.candidate.limit)) + "), measured " + milliseconds(measured[t]) + ": " +
                    (miss.ratio >= 1 ? fixed(miss.ratio, 2) + "x the predicted time"
                                     : fixed(1 / miss.ratio, 2) + "x faster than predicted") +
                    (m.candidate.registers_from_compiler ? "" : " (registers estimated)") + ".";
    misses.push_back(std::move(miss));
  }
  std::ranges::stable_sort(misses, std::greater{}, [](const TuneMiss& m) { return std::abs(m.model_rank - m.measured_rank); });
  std::erase_if(misses, [](const TuneMiss& m) { return std::abs(m.model_rank - m.measured_rank) < 1.0; });
  misses.resize(std::min<std::size_t>(misses.size(), 5));
  r.misses = std::move(misses);
}

Result<TuneReport> run_tune(const TuneOptions& o, const TuneProgressFn& progress, const std::atomic<bool>* cancel) {
  auto devices = list_devices();
  if (!devices) return devices.error();
  const std::vector<int> gpus = o.devices.empty() ? std::vector<int>{o.device} : o.devices;
  std::string capability;
  for (const int index : gpus) {
    if (index < 0 || index >= static_cast<int>(devices->size()))
      return Error{"there is no CUDA device " + std::to_string(index)};
    const DeviceInfo& gpu = (*devices)[static_cast<std::size_t>(index)];
    capability = std::to_string(gpu.cc_major) + "." + std::to_string(gpu.cc_minor);
    if (capability != o.profile.compute_capability)
      return Error{"the model's device profile (" + o.profile.name + ", compute capability " +
                   o.profile.compute_capability + ") is not GPU " + std::to_string(index) + "'s (" + gpu.name + ", " +
                   capability + "): choose the matching profile"};
  }
  TuneReport report;
  report.options = o;
  report.input = input_of(o);
  auto ranking = rank_configurations(o, progress, cancel);
  if (!ranking) return ranking.error();
  report.ranking = std::move(*ranking);
  for (const auto& [index, pick] : pick_candidates(report.ranking, o))
  {
    TuneMeasurement m;
    m.candidate = report.ranking.ranked[index];
    m.pick = pick;
    report.measured.push_back(std::move(m));
  }

  // Compile what the build lacks, in parallel (nvcc needs no GPU), then re-predict with ptxas's registers.
  const auto variant = kernel_variant({o.rung, sim::rung_model(o.rung).defaults}, report.input, o.shape.n, o.shape.k);
  if (!variant) return variant.error();
  std::vector<std::size_t> to_compile;
  for (std::size_t i = 0; i < report.measured.size(); ++i)
    if (compiled_at_run_time({o.rung, report.measured[i].candidate.config})) to_compile.push_back(i);
  std::atomic<std::size_t> compiled{0};
  std::mutex progress_mutex;
  parallel_for(to_compile.size(), worker_count(o.compile_jobs), cancel, [&](std::size_t j) {
    TuneMeasurement& m = report.measured[to_compile[j]];
    m.compiled_at_run_time = true;
    const RuntimeKernelRequest request{{o.rung, m.candidate.config}, report.input, variant->aligned_rows,
                                       runtime_arch(o.rung, capability)};
    auto result = compile_runtime_kernel(request);
    if (!result) {
      m.compile_error = result.error().message;
    } else {
      m.compile_seconds = result->from_cache ? 0.0 : result->compile_seconds;
      m.spill_bytes = result->spill_bytes;
      if (result->registers > 0) {
        // With ptxas's registers the configuration may no longer fit an SM (the estimate was low): then it is not
        // timed, and the sentence says why, instead of a launch that fails for lack of registers.
        auto c = predict(o, m.candidate.config, compiled_facts(*result, o.rung, m.candidate.config, o.profile));
        if (c) m.candidate = TuneCandidate{c->config, c->predicted_seconds, c->limit, c->registers, true, m.candidate.model_rank};
        else m.compile_error = "compiled with " + std::to_string(result->registers) + " registers per thread: " + c.error().message;
      }
    }
    const std::size_t finished = ++compiled;
    const std::lock_guard lock(progress_mutex);
    if (progress) progress({TuneStage::Compiling, finished, to_compile.size(), label(o.rung, m.candidate.config)});
  });
  if (cancel && cancel->load()) {
    report.cancelled = true;
    return report;
  }

  // Timing: the configurations dealt out to the GPUs in turn (the model's order keeps the shares alike), one worker
  // each, every GPU's share timed beside its own cuBLAS.
  std::vector<std::vector<GpuInstance>> share(gpus.size());
  std::size_t dealt = 0;
  for (const TuneMeasurement& m : report.measured)
    if (m.compile_error.empty()) share[dealt++ % gpus.size()].push_back({o.rung, m.candidate.config});
  if (dealt == 0) return Error{"no configuration can run: " + report.measured.front().compile_error};
  std::vector<Result<BenchReport>> timed(gpus.size(), Result<BenchReport>(Error{"not run"}));
  std::vector<std::pair<std::size_t, std::size_t>> done_of(gpus.size(), {0, 0});
  parallel_for(gpus.size(), static_cast<int>(gpus.size()), nullptr, [&](std::size_t d) {
    if (share[d].empty()) return;
    BenchOptions bench;
    bench.shapes = {o.shape};
    bench.order = o.order;
    bench.inputs = {report.input};
    bench.device = gpus[d];
    bench.runs = o.runs;
    bench.kernels = share[d];
    timed[d] = run_bench(
        bench,
        [&](const BenchProgress& p) {
          const std::lock_guard lock(progress_mutex);
          done_of[d] = {p.done, p.total};
          std::size_t done = 0, total = 0;
          for (const auto& [part, all] : done_of) done += part, total += all;
          if (progress) progress({TuneStage::Timing, done, total, p.what});
        },
        cancel);
  });
  for (std::size_t d = 0; d < gpus.size(); ++d) {
    if (share[d].empty()) continue;
    if (!timed[d]) return Error{(gpus.size() > 1 ? "GPU " + std::to_string(gpus[d]) + ": " : "") + timed[d].error().message};
    if (report.bench.date_utc.empty()) report.bench = *timed[d];
    report.cancelled = report.cancelled || timed[d]->cancelled;
    for (const BenchRow& row : timed[d]->rows) {
      if (!row.kernel) {
        if (!report.cublas) report.cublas = row;
        continue;
      }
      for (TuneMeasurement& m : report.measured)
        if (same_config(m.candidate.config, row.kernel->config)) m.row = row, m.device = gpus[d];
    }
  }
  report.bench.rows.clear();  // kept in `measured` and `cublas`
  score_tune(report);
  return report;
}

Status repredict_tune(TuneReport& r, const sim::DeviceProfile& profile, int compile_jobs) {
  r.options.profile = profile;
  std::vector<sim::CompiledFacts> facts(r.measured.size());
  for (std::size_t i = 0; i < r.measured.size(); ++i) {
    const TuneMeasurement& m = r.measured[i];
    facts[i] = compiled_facts(r.options.rung, m.candidate.config, profile);
    if (m.candidate.registers_from_compiler)
      facts[i].registers = sim::RegisterCount{m.candidate.registers, sim::RegisterSource::Measured};
  }
  if (compile_jobs > 0) {  // each configuration the build lacks compiled again, for its own SASS
    const auto variant = kernel_variant({r.options.rung, sim::rung_model(r.options.rung).defaults}, r.input,
                                        r.options.shape.n, r.options.shape.k);
    if (!variant) return variant.error();
    std::vector<std::string> failed(r.measured.size());
    parallel_for(r.measured.size(), worker_count(compile_jobs), nullptr, [&](std::size_t i) {
      const kernel::KernelConfig& config = r.measured[i].candidate.config;
      if (!compiled_at_run_time({r.options.rung, config})) return;
      const auto compiled = compile_runtime_kernel({{r.options.rung, config}, r.input, variant->aligned_rows,
                                                    runtime_arch(r.options.rung, profile.compute_capability)});
      const bool timed = r.measured[i].row && r.measured[i].row->status == BenchStatus::Timed;
      if (!compiled) {
        if (timed) failed[i] = compiled.error().message;
        return;  // else the study could not compile it either
      }
      // Its own SASS, or an error: a rescore that says "own SASS" must not borrow a neighbour's.
      if (auto code = runtime_kernel_code(*compiled); !code && timed) failed[i] = "its SASS: " + code.error().message;
      else facts[i] = compiled_facts(*compiled, r.options.rung, config, profile);
    });
    for (std::size_t i = 0; i < failed.size(); ++i)
      if (!failed[i].empty()) return Error{label(r.options.rung, r.measured[i].candidate.config) + ": " + failed[i]};
  }
  std::vector<double> predicted;
  for (std::size_t i = 0; i < r.measured.size(); ++i) {
    TuneMeasurement& m = r.measured[i];
    auto c = predict(r.options, m.candidate.config, facts[i]);
    const bool timed = m.row && m.row->status == BenchStatus::Timed;
    if (!c && timed) return Error{label(r.options.rung, m.candidate.config) + ": " + c.error().message};
    if (!c) {  // not timed in the study either (too many registers, say): not scored, its old prediction kept
      predicted.push_back(m.candidate.predicted_seconds);
      continue;
    }
    m.candidate.predicted_seconds = c->predicted_seconds;
    m.candidate.limit = c->limit;
    predicted.push_back(c->predicted_seconds);
  }
  const std::vector<double> rank = sim::average_ranks(predicted);
  for (std::size_t i = 0; i < r.measured.size(); ++i) r.measured[i].candidate.model_rank = int(std::lround(rank[i]));
  std::stable_sort(r.measured.begin(), r.measured.end(), [](const TuneMeasurement& a, const TuneMeasurement& b) {
    return a.candidate.predicted_seconds < b.candidate.predicted_seconds;
  });
  r.ranking.ranked.clear();
  for (const TuneMeasurement& m : r.measured) r.ranking.ranked.push_back(m.candidate);
  score_tune(r);
  return Ok{};
}

namespace {
// A configuration as the rung's knobs, by name: how studies and rankings write one.
nlohmann::json config_json(RungId rung, const kernel::KernelConfig& config) {
  nlohmann::json j;
  for (const auto name : sim::rung_model(rung).knobs) j[std::string(name)] = config.*sim::find_knob(name)->field;
  return j;
}
}  // namespace

std::string tune_report_json(const TuneReport& r) {
  nlohmann::json measured = nlohmann::json::array();
  for (const TuneMeasurement& m : r.measured) {
    nlohmann::json j = {{"config", config_json(r.options.rung, m.candidate.config)},
                        {"label", label(r.options.rung, m.candidate.config)},
                        {"pick", to_string(m.pick)},
                        {"predicted_ms", m.candidate.predicted_seconds * 1e3},
                        {"predicted_limit", sim::to_string(m.candidate.limit)},
                        {"registers", m.candidate.registers},
                        {"registers_from_compiler", m.candidate.registers_from_compiler},
                        {"model_rank_of_all", m.candidate.model_rank},
                        {"compiled_at_run_time", m.compiled_at_run_time},
                        {"compile_seconds", m.compile_seconds},
                        {"spill_bytes", m.spill_bytes},
                        {"measured_rank", m.measured_rank}};
    if (m.device >= 0) j["device_index"] = m.device;
    if (!m.compile_error.empty()) j["compile_error"] = m.compile_error;
    if (m.row) {
      j["status"] = to_string(m.row->status);
      j["message"] = m.row->message;
      j["median_ms"] = m.row->median_ms;
      j["tflops"] = m.row->tflops;
      j["ratio_to_cublas"] = m.row->ratio_to_cublas;
      j["runs"] = m.row->runs;
    }
    measured.push_back(j);
  }
  nlohmann::json misses = nlohmann::json::array();
  for (const TuneMiss& m : r.misses)
    misses.push_back({{"label", label(r.options.rung, r.measured[m.measurement].candidate.config)},
                      {"model_rank", m.model_rank}, {"measured_rank", m.measured_rank},
                      {"measured_over_predicted", m.ratio}, {"sentence", m.sentence}});
  nlohmann::json out = {
      {"rung", rung_info(r.options.rung).slug},
      {"m", r.options.shape.m}, {"n", r.options.shape.n}, {"k", r.options.shape.k},
      {"input", kernel::input_name(r.input)},
      {"block_order", sim::order_name(r.options.order)},
      {"profile", r.options.profile.name},
      {"device", r.bench.device.name},
      {"driver", r.bench.software.driver},
      {"runtime_cuda", format_cuda_version(r.bench.software.runtime_version)},
      {"cublas_version", r.bench.software.cublas},
      {"date_utc", r.bench.date_utc},
      {"space", r.ranking.space},
      {"ranked", r.ranking.ranked.size()},
      {"budget", r.options.budget}, {"top", r.options.top}, {"seed", r.options.seed}, {"runs", r.options.runs},
      {"timed", r.timed},
      {"scored", r.scored},
      {"spearman", r.spearman},
      {"measured", measured},
      {"misses", misses},
      {"cancelled", r.cancelled}};
  if (r.cublas) out["cublas_median_ms"] = r.cublas->median_ms, out["cublas_tflops"] = r.cublas->tflops;
  if (r.best) out["best"] = label(r.options.rung, r.measured[*r.best].candidate.config);
  if (r.default_config) out["default_measured_rank"] = r.measured[*r.default_config].measured_rank;
  return out.dump(2) + "\n";
}

std::string tune_ranking_json(const TuneOptions& options, const TuneRanking& ranking) {
  nlohmann::json ranked = nlohmann::json::array();
  for (const TuneCandidate& c : ranking.ranked) {
    ranked.push_back({{"config", config_json(options.rung, c.config)},
                      {"label", label(options.rung, c.config)},
                      {"predicted_ms", c.predicted_seconds * 1e3},
                      {"predicted_limit", sim::to_string(c.limit)},
                      {"registers", c.registers},
                      {"registers_from_compiler", c.registers_from_compiler},
                      {"model_rank", c.model_rank}});
  }
  const kernel::InputType input = input_of(options);
  nlohmann::json out = {{"rung", rung_info(options.rung).slug},
                        {"m", options.shape.m}, {"n", options.shape.n}, {"k", options.shape.k},
                        {"input", kernel::input_name(input)},
                        {"block_order", sim::order_name(options.order)},
                        {"profile", options.profile.name},
                        {"model_only", true},
                        {"space", ranking.space},
                        {"ranked", ranked},
                        {"unpredicted", ranking.unpredicted}};
  return out.dump(2) + "\n";
}

Result<TuneReport> parse_tune_report_json(std::string_view text) {
  auto parsed = parse_json_input(text);
  if (!parsed) return Error{"the tuning study is not valid: " + parsed.error().message};
  const nlohmann::json& j = *parsed;
  try {
    TuneReport r;
    const auto rung = find_rung(j.at("rung").get<std::string>());
    if (!rung) return Error{"the tuning study names an unknown rung '" + j.at("rung").get<std::string>() + "'"};
    r.options.rung = *rung;
    r.options.shape = {j.at("m").get<int>(), j.at("n").get<int>(), j.at("k").get<int>()};
    const auto input = kernel::find_input(j.at("input").get<std::string>());
    if (!input) return Error{"the tuning study names an unknown input type"};
    r.input = *input;
    r.options.input = *input;
    r.options.budget = j.value("budget", 0), r.options.top = j.value("top", 0), r.options.runs = j.value("runs", 0);
    r.options.seed = j.value("seed", std::uint64_t{0});
    r.options.profile.name = j.value("profile", "");
    r.bench.device.name = j.value("device", "");
    r.bench.software.driver = j.value("driver", "");
    r.bench.software.cublas = j.value("cublas_version", "");
    r.bench.date_utc = j.value("date_utc", "");
    r.ranking.space = j.value("space", std::size_t{0});
    r.ranking.ranked.resize(j.value("ranked", std::size_t{0}));  // how many: the file keeps the measured ones only
    r.bench.software.runtime_version = parse_cuda_version(j.value("runtime_cuda", ""));
    auto order = sim::parse_order(j.value("block_order", "row"));
    if (!order) return Error{"the tuning study's block order: " + order.error().message};
    r.options.order = *order;
    r.bench.order = *order;
    r.spearman = j.at("spearman").get<double>();
    r.timed = j.at("timed").get<int>();
    r.scored = j.value("scored", r.timed);
    r.cancelled = j.value("cancelled", false);
    if (j.contains("cublas_tflops")) {
      BenchRow cublas;
      cublas.name = "cublas", cublas.tflops = j["cublas_tflops"].get<double>();
      cublas.median_ms = j.value("cublas_median_ms", 0.0);
      r.cublas = cublas;
    }
    const sim::RungModel& model = sim::rung_model(*rung);
    for (const auto& jm : j.at("measured")) {
      TuneMeasurement m;
      auto config = sim::apply_knob_text(*rung, model.defaults, [&] {
        std::string knobs;
        for (const auto& [name, value] : jm.at("config").items())
          knobs += name + "=" + std::to_string(sim::recorded_knob_value(*rung, name, value.get<int>())) + ",";
        return knobs;
      }());
      if (!config) return Error{"the tuning study's configuration: " + config.error().message};
      m.candidate.config = *config;
      m.candidate.predicted_seconds = jm.at("predicted_ms").get<double>() / 1e3;
      const std::string limit = jm.value("predicted_limit", "");
      for (const sim::TimeTerm term : sim::kTimeTerms)
        if (sim::to_string(term) == limit) m.candidate.limit = term;
      m.candidate.registers = jm.value("registers", 0);
      m.candidate.registers_from_compiler = jm.value("registers_from_compiler", false);
      m.candidate.model_rank = jm.value("model_rank_of_all", 0);
      const std::string pick = jm.value("pick", "");
      for (const TunePick p : {TunePick::Default, TunePick::ModelTop, TunePick::Random})
        if (to_string(p) == pick) m.pick = p;
      m.compiled_at_run_time = jm.value("compiled_at_run_time", false);
      m.compile_seconds = jm.value("compile_seconds", 0.0);
      m.compile_error = jm.value("compile_error", "");
      m.measured_rank = jm.value("measured_rank", 0.0);
      m.device = jm.value("device_index", -1);
      m.spill_bytes = jm.value("spill_bytes", 0);
      if (jm.contains("status")) {
        BenchRow row;
        row.name = std::string(rung_info(*rung).slug);
        row.kernel = GpuInstance{*rung, *config};
        const std::string status = jm["status"].get<std::string>();
        const BenchStatus statuses[] = {BenchStatus::Timed, BenchStatus::FailedVerification, BenchStatus::Refused};
        const auto known = std::ranges::find(statuses, status, [](BenchStatus b) { return std::string(to_string(b)); });
        if (known == std::end(statuses)) return Error{"the tuning study has an unknown status '" + status + "'"};
        row.status = *known;
        row.message = jm.value("message", "");
        row.median_ms = jm.value("median_ms", 0.0), row.tflops = jm.value("tflops", 0.0);
        row.ratio_to_cublas = jm.value("ratio_to_cublas", 0.0), row.runs = jm.value("runs", 0);
        m.row = row;
      }
      r.measured.push_back(std::move(m));
    }
    for (std::size_t i = 0; i < r.measured.size(); ++i) {
      if (r.measured[i].pick == TunePick::Default) r.default_config = i;
      if (j.contains("best") && label(*rung, r.measured[i].candidate.config) == j["best"].get<std::string>()) r.best = i;
    }
    for (const auto& jm : j.value("misses", nlohmann::json::array()))
      for (std::size_t i = 0; i < r.measured.size(); ++i)
        if (label(*rung, r.measured[i].candidate.config) == jm.value("label", ""))
          r.misses.push_back({i, jm.value("model_rank", 0.0), jm.value("measured_rank", 0.0),
                              jm.value("measured_over_predicted", 0.0), jm.value("sentence", "")});
    return r;
  } catch (const nlohmann::json::exception& e) {
    return Error{std::string("the tuning study is missing a field or has one of the wrong type: ") + e.what()};
  }
}

}  // namespace gemmlab::gpu
