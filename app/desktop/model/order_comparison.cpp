#include "model/order_comparison.hpp"

#include <algorithm>

namespace gemmlab::desktop {
namespace {

// One worker per side, so the two L2 models run side by side.
std::string job_group(int side) { return side == 0 ? "order-left" : "order-right"; }

}  // namespace

std::string_view to_string(GridColouring colouring) {
  return colouring == GridColouring::LaunchOrder ? "launch" : "wave";
}

std::optional<GridColouring> parse_grid_colouring(std::string_view name) {
  for (const GridColouring colouring : {GridColouring::Wave, GridColouring::LaunchOrder})
    if (to_string(colouring) == name) return colouring;
  return std::nullopt;
}

OrderComparison::OrderComparison(ModelContext context)
    : context_(context), reports_(common::load_order_reports(context.data_roots)) {}

std::shared_ptr<const OrderStudy> OrderComparison::study(int side) const {
  return sides_.at(static_cast<std::size_t>(side)).study;
}

bool OrderComparison::study_current(int side) const {
  const Side& s = sides_.at(static_cast<std::size_t>(side));
  return s.study && s.result_generation == context_.selection.generation() && s.result_choice == s.choice;
}

const std::string& OrderComparison::error(int side) const {
  static const std::string none;
  const Side& s = sides_.at(static_cast<std::size_t>(side));
  return s.result_generation == context_.selection.generation() && s.result_choice == s.choice ? s.error : none;
}

std::optional<JobStatus> OrderComparison::job(int side) const { return context_.jobs.job_of(job_group(side)); }

std::vector<MeasuredOrder> OrderComparison::measured_orders() const {
  const Selection& selection = context_.selection;
  const sim::Problem& problem = selection.problem();
  return common::measured_orders(reports_, selection.rung(), selection.config(), {problem.m, problem.n, problem.k});
}

int OrderComparison::wave_count() const {
  for (int side = 0; side < kSides; ++side)
    if (study_current(side)) return study(side)->prediction.l2.waves.waves;
  for (const auto& side : sides_)
    if (side.study) return side.study->prediction.l2.waves.waves;
  return 0;
}

void OrderComparison::set_choice(int side, OrderChoice choice) {
  sides_.at(static_cast<std::size_t>(side)).choice = choice;
}

void OrderComparison::select_wave(int wave) {
  selected_wave_ = std::max(-1, wave);
  clamp_selected_wave();
}

void OrderComparison::step_wave(int delta) {
  const int waves = wave_count();
  if (waves == 0 || delta == 0) return;
  if (selected_wave_ < 0) selected_wave_ = delta > 0 ? 0 : waves - 1;
  else selected_wave_ = std::clamp(selected_wave_ + delta, 0, waves - 1);
}

void OrderComparison::clamp_selected_wave() {
  if (const int waves = wave_count(); waves > 0) selected_wave_ = std::min(selected_wave_, waves - 1);
}

void OrderComparison::set_grid_colouring(GridColouring colouring) { grid_colouring_ = colouring; }

void OrderComparison::selection_changed() {
  if (context_.selection.validity()) return;
  for (auto& side : sides_) {
    side.study.reset();
    side.error.clear();
  }
}

void OrderComparison::recompute(int side) { sides_.at(static_cast<std::size_t>(side)).requested_generation = 0; }

void OrderComparison::request_studies() {
  const Selection& selection = context_.selection;
  if (!selection.validity() || !context_.device) return;
  for (int index = 0; index < kSides; ++index) {
    Side& side = sides_[static_cast<std::size_t>(index)];
    if (side.requested_generation == selection.generation() && side.requested_choice == side.choice) continue;
    side.requested_generation = selection.generation();
    side.requested_choice = side.choice;
    const std::uint64_t generation = selection.generation();
    const OrderChoice choice = side.choice;
    // The result (or the error) is applied only if the side still wants it.
    const auto apply = [this, index, generation, choice](std::shared_ptr<const OrderStudy> study, std::string error) {
      Side& s = sides_[static_cast<std::size_t>(index)];
      if (generation != context_.selection.generation() || !(choice == s.choice)) return;
      if (study) s.study = std::move(study);
      s.error = std::move(error);
      s.result_generation = generation;
      s.result_choice = choice;
      clamp_selected_wave();
    };
    auto order = choice.order();
    if (!order) {
      apply(nullptr, order.error().message);
      continue;
    }
    const RungId rung = selection.rung();
    const kernel::KernelConfig config = selection.config();
    const sim::Problem problem = selection.problem();
    const sim::DeviceProfile device = *context_.device;
    const kernel::BlockOrder block_order = *order;
    context_.jobs.submit(job_group(index), "L2 model of " + choice.name(),
                         [=](JobContext& job) -> JobRunner::Completion {
                           auto study = study_order(rung, config, problem, block_order, device, job.progress());
                           if (job.cancelled()) return nullptr;
                           if (!study) return [apply, error = study.error().message] { apply(nullptr, error); };
                           return [apply, study = std::move(*study)] { apply(study, {}); };
                         });
  }
}

}  // namespace gemmlab::desktop
