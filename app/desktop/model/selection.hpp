#pragma once
// What every panel shows: the selected rung, each rung's configuration (edits are kept when switching rungs) and the
// problem size, with validate()'s verdict on them and, when they are valid, the launch's shape. The feature models
// read it; AppModel changes it and tells them. generation() moves on with every change, so a result computed on a
// worker can tell whether it is still of the selection on show.
#include <cstdint>
#include <map>
#include <optional>
#include <string_view>

#include "gemmlab/kernel/config.hpp"
#include "gemmlab/result.hpp"
#include "gemmlab/rungs.hpp"
#include "gemmlab/sim/problem.hpp"
#include "gemmlab/sim/simulate.hpp"
#include "model/messages.hpp"
#include "model/settings.hpp"

namespace gemmlab::desktop {

class Selection {
 public:
  Selection();  // smem-tiling, every rung at its defaults, and no problem yet (0 x 0 x 0: not valid)

  RungId rung() const { return rung_; }
  const kernel::KernelConfig& config() const { return configs_.at(rung_); }
  const kernel::KernelConfig& config_of(RungId rung) const { return configs_.at(rung); }
  const sim::Problem& problem() const { return problem_; }
  const Status& validity() const { return validity_; }  // validate() of rung, configuration and problem
  const std::optional<sim::LaunchShape>& launch() const { return launch_; }  // when valid
  std::uint64_t generation() const { return generation_; }

  // ---- Commands. A change is validated at once and moves the generation on; those that return a bool say whether
  // there was one (the others always count as one).
  bool select_rung(RungId rung);
  bool set_knob(std::string_view name, int value);      // of the selected rung; a knob it lacks changes nothing
  void set_config(const kernel::KernelConfig& config);  // every knob of the selected rung (a study's point)
  void reset_config();                                  // the rung's defaults
  bool set_problem(int m, int n, int k);

  // The saved rung, configurations and problem; what cannot be used becomes a warning in `messages`.
  void restore(const Settings& settings, MessageLog& messages);
  // Writes them into `settings`: the knobs only where they differ from the defaults.
  void save(Settings& settings) const;

 private:
  void changed();  // validate again, move the generation on

  RungId rung_ = RungId::SmemTiling;
  std::map<RungId, kernel::KernelConfig> configs_;
  sim::Problem problem_;
  Status validity_ = Ok{};
  std::optional<sim::LaunchShape> launch_;
  std::uint64_t generation_ = 1;
};

}  // namespace gemmlab::desktop
