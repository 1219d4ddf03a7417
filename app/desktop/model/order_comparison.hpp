#pragma once
// The launch-order panel's comparison of two orders of the current kernel, side 0 (left) and side 1 (right): each
// side's choice and its study (the L2 model of the grid in that order, computed on a worker of its own, so the two run
// side by side), the wave selected in both, how the grid is coloured, and what the recorded runs measured for the
// orders at this size.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/recorded_orders.hpp"
#include "gemmlab/gpu/bench.hpp"
#include "model/model_context.hpp"
#include "model/order_study.hpp"

namespace gemmlab::desktop {

using common::MeasuredOrder;

// How the launch-order panel colours the grid's tiles: one colour per wave, or a gradient along the launch sequence.
enum class GridColouring { Wave, LaunchOrder };
// "wave", "launch": what the settings and gemmlab --colour-by say.
std::string_view to_string(GridColouring colouring);
std::optional<GridColouring> parse_grid_colouring(std::string_view name);

class OrderComparison {
 public:
  static constexpr int kSides = 2;

  explicit OrderComparison(ModelContext context);  // reads the recorded order runs of the data roots
  OrderComparison(const OrderComparison&) = delete;
  OrderComparison& operator=(const OrderComparison&) = delete;

  // ---- What the panel reads.
  const OrderChoice& choice(int side) const { return sides_.at(static_cast<std::size_t>(side)).choice; }
  // The side's study: null before the first one; for earlier inputs (not current) while a worker computes the new.
  std::shared_ptr<const OrderStudy> study(int side) const;
  bool study_current(int side) const;
  const std::string& error(int side) const;      // why the side has no study for the current inputs
  std::optional<JobStatus> job(int side) const;  // the worker computing the side's study, if one is
  // What launch orders measured for the current rung, configuration and problem in the recorded runs (none where
  // nothing was recorded at this size): the hardware's answer beside the studies' predictions.
  std::vector<MeasuredOrder> measured_orders() const;
  int wave_count() const;                               // of the studies on show; 0 before the first
  int selected_wave() const { return selected_wave_; }  // -1: all waves
  GridColouring grid_colouring() const { return grid_colouring_; }

  // ---- Commands.
  void set_choice(int side, OrderChoice choice);
  void select_wave(int wave);  // -1: all waves; clamped once the waves are known
  void step_wave(int delta);   // from all waves, +1 goes to the first and -1 to the last
  void set_grid_colouring(GridColouring colouring);
  // Starts the studies the panel lacks; the panel asks every frame it is shown, so the L2 model of a big grid runs
  // only for someone who looks at it. A study the user cancelled waits for recompute.
  void request_studies();
  void recompute(int side);

  // AppModel's: the selection changed (an invalid one has nothing to study).
  void selection_changed();

 private:
  void clamp_selected_wave();

  // One side, with the inputs its study and error belong to and those last asked for.
  struct Side {
    OrderChoice choice;
    std::shared_ptr<const OrderStudy> study;
    std::string error;
    std::uint64_t result_generation = 0, requested_generation = 0;  // the selection's of the result, the request
    OrderChoice result_choice, requested_choice;
  };

  ModelContext context_;
  std::vector<gpu::BenchReport> reports_;  // assets/results/order-runs.txt's reports, read once
  std::array<Side, kSides> sides_;
  int selected_wave_ = -1;
  GridColouring grid_colouring_ = GridColouring::Wave;
};

}  // namespace gemmlab::desktop
