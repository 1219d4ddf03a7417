#pragma once
// The tuning panel's state: each rung's study on show (the recorded H100 one, or one run here) or why there is none,
// the running study (a job of the "tune" group; AppModel starts it, run_tuning_study, once the GPU is free), and the
// model's own ranking of the selected rung's configurations at the problem typed.
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gemmlab/gpu/tune.hpp"
#include "gemmlab/sim/problem.hpp"
#include "model/model_context.hpp"
#include "model/tuning_study.hpp"

namespace gemmlab::desktop {

class TuningModel {
 public:
  // The model's ranking of a rung's configurations at a problem size, without a GPU (the autotuner's first two steps,
  // on the job runner's thread): kept with the rung and problem it is of, so the panel shows it only while they are
  // the ones selected. Its best configurations, fastest first.
  struct Ranking {
    RungId rung{};
    sim::Problem problem;
    std::vector<gpu::TuneCandidate> best;  // at most kRankingShown
    std::size_t ranked = 0, space = 0;     // configurations predicted, and valid ones in all
  };
  static constexpr std::size_t kRankingShown = 10;

  explicit TuningModel(ModelContext context) : context_(context) {}
  TuningModel(const TuningModel&) = delete;
  TuningModel& operator=(const TuningModel&) = delete;

  // ---- What the panel reads.
  // The selected rung's study (predicted against measured time per configuration): one run here, else the recorded
  // H100 one once request_study loaded it; null where there is none, and message() says why.
  const ShownStudy* study() const;
  const std::string& message() const;
  bool running() const { return running_; }
  bool ranking_running() const { return ranking_running_; }
  // The ranking of the selected rung at the problem typed; null where there is none (yet).
  const Ranking* ranking() const;

  // ---- Commands.
  // Loads the selected rung's recorded study if none is on show (the panel asks every frame it is shown).
  void request_study();
  // Runs the autotuner on a worker for options.rung (progress and Cancel in the header): compiles what the build
  // lacks, times the sample next to cuBLAS; the study replaces the rung's one on show. AppModel::run_tuning_study
  // calls it when the GPU is free.
  void run(gpu::TuneOptions options);
  // Ranks the selected rung's configurations at the problem typed by the model, on a worker.
  void rank_by_model();

  // Once per frame: notices a study that was cancelled (its completion is dropped).
  void update();

 private:
  ModelContext context_;
  std::map<RungId, ShownStudy> studies_;          // by rung: recorded or run here
  std::map<RungId, std::string> study_messages_;  // by rung: why there is no study
  bool running_ = false;
  bool ranking_running_ = false;
  std::optional<Ranking> ranking_;
};

}  // namespace gemmlab::desktop
