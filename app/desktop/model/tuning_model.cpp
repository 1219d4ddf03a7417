#include "model/tuning_model.hpp"

#include <algorithm>

namespace gemmlab::desktop {

const ShownStudy* TuningModel::study() const {
  const auto it = studies_.find(context_.selection.rung());
  return it == studies_.end() ? nullptr : &it->second;
}

const std::string& TuningModel::message() const {
  static const std::string none;
  const auto it = study_messages_.find(context_.selection.rung());
  return it == study_messages_.end() ? none : it->second;
}

void TuningModel::request_study() {
  const RungId rung = context_.selection.rung();
  if (studies_.contains(rung) || study_messages_.contains(rung)) return;
  if (!context_.device) {
    study_messages_[rung] = "no device profile for the model's predictions";
    return;
  }
  auto recorded = load_recorded_study(context_.data_roots, rung, *context_.device);
  if (recorded) studies_.emplace(rung, std::move(*recorded));
  else study_messages_[rung] = recorded.error().message;
}

void TuningModel::run(gpu::TuneOptions options) {
  if (running_) return;
  if (!context_.device) {
    context_.messages.add(Message::Level::Error, "tuning: no device profile for the model's predictions");
    return;
  }
  running_ = true;
  options.profile = *context_.device;
  const std::string what = "tuning " + std::string(rung_info(options.rung).slug) + " on the GPU";
  context_.jobs.submit(
      "tune", what,
      [=, this](JobContext& job) -> JobRunner::Completion {
        auto report = gpu::run_tune(
            options, [&](const gpu::TuneProgress& p) { job.set_progress(gpu::fraction_done(p)); }, job.cancel_flag());
        return [this, rung = options.rung, report = std::move(report)] {
          running_ = false;
          RunEnd end;
          end.job = "tuning";
          if (!report) {
            end.error = report.error().message;
          } else {
            end.cancelled = report->cancelled, end.measured_nothing = report->measured.empty();
            end.device = report->bench.device.name, end.date = report->bench.date_utc;
            end.nothing_kept = "tuning cancelled before a configuration was timed; the study on show is unchanged";
            end.partly_kept = "tuning cancelled: what it timed before is shown";
          }
          const auto label = run_end_label(context_.messages, end);
          if (!label) return;
          studies_.insert_or_assign(rung, ShownStudy{*report, *label, std::nullopt, ""});
          study_messages_.erase(rung);
        };
      },
      JobRunner::OnCancel::Complete);
}

void TuningModel::rank_by_model() {
  if (ranking_running_) return;
  if (!context_.device) {
    context_.messages.add(Message::Level::Error, "ranking: no device profile for the model's predictions");
    return;
  }
  ranking_running_ = true;
  const RungId rung = context_.selection.rung();
  const sim::Problem problem = context_.selection.problem();
  gpu::TuneOptions options;
  options.rung = rung;
  options.shape = {problem.m, problem.n, problem.k};
  options.profile = *context_.device;
  const std::string what = "ranking " + std::string(rung_info(rung).slug) + "'s configurations by the model";
  context_.jobs.submit(
      "rank", what,
      [=, this](JobContext& job) -> JobRunner::Completion {
        auto ranking = gpu::rank_configurations(
            options,
            // Ranking is the study's first fifth.
            [&](const gpu::TuneProgress& p) { job.set_progress(std::min(1.0, gpu::fraction_done(p) * 5.0)); },
            job.cancel_flag());
        return [this, rung, problem, ranking = std::move(ranking)] {
          ranking_running_ = false;
          if (!ranking) {
            context_.messages.add(Message::Level::Error, "ranking: " + ranking.error().message);
            return;
          }
          Ranking shown{rung, problem, {}, ranking->ranked.size(), ranking->space};
          for (std::size_t i = 0; i < ranking->ranked.size() && i < kRankingShown; ++i)
            shown.best.push_back(ranking->ranked[i]);
          ranking_ = std::move(shown);
        };
      },
      JobRunner::OnCancel::Complete);
}

const TuningModel::Ranking* TuningModel::ranking() const {
  if (!ranking_ || ranking_->rung != context_.selection.rung()) return nullptr;
  const sim::Problem& p = ranking_->problem;
  const sim::Problem& selected = context_.selection.problem();
  return p.m == selected.m && p.n == selected.n && p.k == selected.k ? &*ranking_ : nullptr;
}

void TuningModel::update() {
  // A cancelled (or failed) study's completion is dropped: notice that its job is gone.
  if (running_ && context_.jobs.gone("tune")) {
    running_ = false;
    context_.messages.add(Message::Level::Info, "tuning cancelled; the study on show is unchanged");
  }
}

}  // namespace gemmlab::desktop
