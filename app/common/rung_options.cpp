#include "common/rung_options.hpp"

#include <CLI/CLI.hpp>

#include "gemmlab/sim/rung_model.hpp"
#include "common/number_options.hpp"

namespace gemmlab::common {

void add_problem_size_options(CLI::App& app, int& m, int& n, int& k) {
  const auto size = whole_number(1, sim::kMaxDimension);
  app.add_option("--m", m, "Rows of A and C")->capture_default_str()->transform(size);
  app.add_option("--n", n, "Columns of B and C")->capture_default_str()->transform(size);
  app.add_option("--k", k, "Columns of A, rows of B")->capture_default_str()->transform(size);
}

void add_rung_options(CLI::App& app, const std::shared_ptr<RungOptions>& options, RungFlag rung_flag) {
  std::string slugs;
  for (const auto& rung : rungs()) slugs += (slugs.empty() ? "" : ", ") + std::string(rung.slug);
  app.add_option("--rung", options->rung_slug, "The rung (kernel variant): " + slugs)
      ->required(rung_flag == RungFlag::Required)
      ->check(non_empty_text("a rung: " + slugs));
  // Sizes and knobs are refused here, where the flag is named, when no rung could take them (the rung's own rules
  // are checked later, with the configuration).
  add_problem_size_options(app, options->m, options->n, options->k);
  app.add_option("--alpha", options->alpha, "C = alpha * A * B + beta * C")->capture_default_str()->check(finite_number());
  app.add_option("--beta", options->beta, "C = alpha * A * B + beta * C")->capture_default_str()->check(finite_number());
  for (const auto& knob : sim::all_knobs()) {
    const std::string name(knob.name);
    std::string flag = "--" + name;
    for (auto& ch : flag)
      if (ch == '_') ch = '-';
    app.add_option_function<int>(
        flag, [options, name](const int& value) { options->knob_values[name] = value; },
        std::string(knob.help) + " (rungs that have this knob; default: the rung's)")
        ->transform(whole_number(knob.min, knob.max));
  }
}

Result<RungOptions::Resolved> RungOptions::resolve() const {
  const auto rung = find_rung(rung_slug);
  if (!rung) return Error{"unknown rung '" + rung_slug + "' (give a slug or a ladder number; gemmlab-cli list shows them)"};
  const sim::RungModel& model = sim::rung_model(*rung);
  Resolved out{*rung, model.defaults, {m, n, k, alpha, beta}};
  for (const auto& [name, value] : knob_values) {
    if (!model.has_knob(name)) {
      std::string knobs;
      for (const auto known : model.knobs) knobs += (knobs.empty() ? "" : ", ") + std::string(known);
      return Error{"rung " + rung_slug + " has no knob '" + name + "' (its knobs: " + (knobs.empty() ? "none" : knobs) +
                   ")"};
    }
    out.config.*sim::find_knob(name)->field = value;
  }
  return out;
}

std::string describe_config(RungId rung, const kernel::KernelConfig& config) {
  std::string out;
  for (const auto name : sim::rung_model(rung).knobs)
    out += (out.empty() ? "" : " ") + std::string(name) + "=" + std::to_string(config.*sim::find_knob(name)->field);
  return out;
}

}  // namespace gemmlab::common
