#pragma once
// The command-line options every rung-taking subcommand shares: --rung, the problem size, and one flag per knob
// (generated from the simulator's knob table, so a new knob needs no CLI change).
#include <map>
#include <memory>
#include <string>

#include "gemmlab/kernel/config.hpp"
#include "gemmlab/result.hpp"
#include "gemmlab/rungs.hpp"
#include "gemmlab/sim/problem.hpp"

namespace CLI {
class App;
}

namespace gemmlab::common {

struct RungOptions {
  std::string rung_slug;
  int m = 1024, n = 1024, k = 1024;
  float alpha = 1.0f, beta = 0.0f;
  std::map<std::string, int> knob_values;  // only the knobs given on the command line

  // The rung, its configuration (the rung's defaults with the given knobs applied) and the problem; an error
  // names an unknown rung or a knob the rung does not have.
  struct Resolved {
    RungId rung;
    kernel::KernelConfig config;
    sim::Problem problem;
  };
  Result<Resolved> resolve() const;
};

// Adds --m, --n and --k, the problem's sizes, each a whole number from 1 to sim::kMaxDimension (every command that
// takes a problem size: the sentence for a bad one is the same everywhere).
void add_problem_size_options(CLI::App& app, int& m, int& n, int& k);

// Adds --rung, --m, --n, --k, --alpha, --beta and the knob flags to `app`, filling `options` when parsed. The
// desktop app makes --rung optional (it starts from the user's saved rung).
enum class RungFlag { Required, Optional };
void add_rung_options(CLI::App& app, const std::shared_ptr<RungOptions>& options,
                      RungFlag rung_flag = RungFlag::Required);

// "bm=128 bn=128 bk=8 ..." for the knobs the rung has.
std::string describe_config(RungId rung, const kernel::KernelConfig& config);

}  // namespace gemmlab::common
