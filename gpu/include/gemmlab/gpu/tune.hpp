#pragma once
// The model-guided autotuner: every valid configuration of a rung ranked by the time model, the model's best and a
// random sample of the rest compiled and timed on the GPU next to cuBLAS, and how well the model ranked them. The
// CLI's `tune` and the desktop app's tuning study both call it.
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "gemmlab/gpu/bench.hpp"
#include "gemmlab/gpu/instances.hpp"
#include "gemmlab/gpu/shapes.hpp"
#include "gemmlab/kernel/block_order.hpp"
#include "gemmlab/kernel/element.hpp"
#include "gemmlab/result.hpp"
#include "gemmlab/sim/device_profile.hpp"
#include "gemmlab/sim/time_model.hpp"

namespace gemmlab::gpu {

struct TuneOptions {
  RungId rung{};
  Shape shape{4096, 4096, 4096};
  std::optional<kernel::InputType> input;  // empty: the rung's first input type (fp32, or fp16)
  kernel::BlockOrder order{};
  sim::DeviceProfile profile;  // the device the model predicts for
  int budget = 40;             // configurations timed on the GPU (the default among them)
  int top = 20;                // of which the model's best; the rest a random sample of the others
  int runs = 10;               // timed runs per configuration
  int compile_jobs = 0;        // nvcc processes at once (0: one per core)
  int device = 0;              // CUDA device index
  // Several GPUs of the host (empty: `device` alone): one worker each, the configurations to time dealt out in turn
  // in the model's order, each GPU timing its share beside its own cuBLAS runs (each ratio is to its own GPU's).
  std::vector<int> devices;
  std::uint64_t seed = 1;      // the random sample's
};

// Why a configuration was timed.
enum class TunePick { Default, ModelTop, Random };
std::string_view to_string(TunePick pick);

struct TuneCandidate {
  kernel::KernelConfig config;
  double predicted_seconds = 0;
  sim::TimeTerm limit{};            // what the model says sets the time
  int registers = 0;                // per thread, as the prediction used them
  bool registers_from_compiler = false;  // ptxas's count of this very configuration (else estimated)
  int model_rank = 0;               // 1 = predicted fastest among all ranked
};

struct TuneMeasurement {
  TuneCandidate candidate;
  TunePick pick = TunePick::Random;
  bool compiled_at_run_time = false;
  double compile_seconds = 0;       // 0 where the build compiled it or the cache had it
  int spill_bytes = 0;              // ptxas's spill stores: the model has no term for local memory, so not scored
  std::string compile_error;        // non-empty: not timed
  std::optional<BenchRow> row;      // the benchmark's row (timed, refused or failed verification)
  double measured_rank = 0;         // 1 = measured fastest among those scored (ties: their average; 0: not scored)
  int device = -1;                  // the CUDA device that timed it (-1: not timed)
};

struct TuneRanking {
  std::vector<TuneCandidate> ranked;  // every valid configuration the model could predict, fastest first
  std::size_t space = 0;              // configurations the knobs' candidates validate to (sim::tuning_space)
  std::vector<std::string> unpredicted;  // "bm=... : why", where the model had no time
};

struct TuneMiss {
  std::size_t measurement = 0;  // index into TuneReport::measured
  double model_rank = 0, measured_rank = 0;  // among the scored configurations (ties: their average rank)
  double ratio = 0;             // measured / predicted time
  std::string sentence;         // what the model got wrong, in words
};

struct TuneReport {
  TuneOptions options;
  kernel::InputType input{};
  TuneRanking ranking;
  std::vector<TuneMeasurement> measured;  // in the model's order
  std::optional<BenchRow> cublas;          // the first GPU's, with several
  BenchReport bench;                       // the benchmark's own report (device, software, date; the first GPU's)
  double spearman = 0;                     // predicted against measured time, over the scored configurations
  int timed = 0;
  int scored = 0;                          // timed and without spills: what Spearman and the misses are over
  std::optional<std::size_t> best, default_config;  // indices into measured
  std::vector<TuneMiss> misses;            // the worst, largest rank error first
  bool cancelled = false;
};

// A study's stages, in order, with the share of the whole each takes, roughly as long as it lasts.
enum class TuneStage { Ranking, Compiling, Timing };

struct TuneProgress {
  TuneStage stage = TuneStage::Ranking;
  std::size_t done = 0, total = 0;
  std::string what;
};
using TuneProgressFn = std::function<void(const TuneProgress&)>;

// How far the whole study is, 0 to 1, from a stage's progress (ranking, compiling and timing take about a fifth, a
// third and a half of it): for one progress bar.
double fraction_done(const TuneProgress& progress);

// Steps 1 and 2, without a GPU: the rung's configurations (sim::tuning_space) ranked by predicted time, with
// registers from the build's compile where it has the configuration, else estimated from the nearest compiled one.
Result<TuneRanking> rank_configurations(const TuneOptions& options, const TuneProgressFn& progress = {},
                                        const std::atomic<bool>* cancel = nullptr);
// Many studies at once (a sweep's shapes x rungs), every configuration of every study predicted in one pool of
// threads; a result per study, in order.
std::vector<Result<TuneRanking>> rank_configurations(std::span<const TuneOptions> studies,
                                                     const TuneProgressFn& progress = {},
                                                     const std::atomic<bool>* cancel = nullptr);

// The configurations to time: the default, the model's `top` best, then a seeded random sample of the rest, up to
// `budget` in all; in the model's order. Indices into ranking.ranked.
std::vector<std::pair<std::size_t, TunePick>> pick_candidates(const TuneRanking& ranking, const TuneOptions& options);

// The whole study: rank, compile the picked configurations the build lacks (in parallel), re-predict them with the
// compiler's registers, time them next to cuBLAS, and score the model.
Result<TuneReport> run_tune(const TuneOptions& options, const TuneProgressFn& progress = {},
                            const std::atomic<bool>* cancel = nullptr);

// Steps 4's numbers from measurements already made (run_tune's last step; tests call it with made-up rows).
void score_tune(TuneReport& report);

// A recorded study's measurements predicted again by today's model on `profile` (registers: ptxas's where the study
// compiled the configuration, else as compiled_facts gives them; SASS: compiled_facts'), then scored again: what the
// model's changes did to its ranking of configurations timed once. With `compile_jobs` > 0, every configuration the
// build lacks is compiled again (that many nvcc at once; no GPU needed, the kernel cache keeps them) and predicted
// with its own registers and SASS. Each candidate's model_rank becomes its rank among the study's measurements. An
// error where a configuration has no prediction or does not compile.
Status repredict_tune(TuneReport& report, const sim::DeviceProfile& profile, int compile_jobs = 0);

std::string tune_report_json(const TuneReport& report);
// The ranking of a model-only study (tune --model-only --json): the rung, size, input and profile, and every
// configuration the model ranked (fastest first, with its prediction and the limit it names), and those it could not.
std::string tune_ranking_json(const TuneOptions& options, const TuneRanking& ranking);

// A study written by tune_report_json, back: the rung, size, input, every measured configuration with its
// prediction and measurement, the scores, the device and date (not the whole ranking, which the file does not keep).
// Errors name what is missing or malformed.
Result<TuneReport> parse_tune_report_json(std::string_view text);

}  // namespace gemmlab::gpu
