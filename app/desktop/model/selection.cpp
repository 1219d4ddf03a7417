#include "model/selection.hpp"

#include "gemmlab/sim/rung_model.hpp"

namespace gemmlab::desktop {
namespace {

std::string slug_of(RungId rung) { return std::string(gemmlab::rung_info(rung).slug); }

}  // namespace

Selection::Selection() {
  for (const auto& rung : rungs()) configs_[rung.id] = sim::rung_model(rung.id).defaults;
  changed();
}

void Selection::changed() {
  validity_ = sim::validate(rung_, config(), problem_);
  launch_.reset();
  if (validity_) {
    auto shape = sim::launch_shape(rung_, config(), problem_);
    if (shape) launch_ = std::move(*shape);
    else validity_ = shape.error();
  }
  ++generation_;
}

bool Selection::select_rung(RungId rung) {
  if (rung == rung_) return false;
  rung_ = rung;
  changed();
  return true;
}

bool Selection::set_knob(std::string_view name, int value) {
  const sim::Knob* knob = sim::find_knob(name);
  if (!knob || !sim::rung_model(rung_).has_knob(name)) return false;
  if (configs_[rung_].*knob->field == value) return false;
  configs_[rung_].*knob->field = value;
  changed();
  return true;
}

void Selection::set_config(const kernel::KernelConfig& config) {
  configs_[rung_] = config;
  changed();
}

void Selection::reset_config() {
  configs_[rung_] = sim::rung_model(rung_).defaults;
  changed();
}

bool Selection::set_problem(int m, int n, int k) {
  if (m == problem_.m && n == problem_.n && k == problem_.k) return false;
  problem_.m = m, problem_.n = n, problem_.k = k;
  changed();
  return true;
}

void Selection::restore(const Settings& s, MessageLog& messages) {
  if (const auto rung = find_rung(s.rung)) rung_ = *rung;
  else messages.add(Message::Level::Warning, "saved rung '" + s.rung + "' is unknown; showing " + slug_of(rung_));
  for (const auto& [slug, values] : s.knobs) {
    const auto rung = find_rung(slug);
    if (!rung) {
      messages.add(Message::Level::Warning, "saved settings name an unknown rung '" + slug + "'; ignored");
      continue;
    }
    const auto& model = sim::rung_model(*rung);
    for (const auto& [name, value] : values) {
      if (!model.has_knob(name)) {
        messages.add(Message::Level::Warning,
                     "rung " + slug + " has no knob '" + name + "'; the saved value was ignored");
        continue;
      }
      configs_[*rung].*sim::find_knob(name)->field = value;
    }
  }
  problem_ = {s.m, s.n, s.k, s.alpha, s.beta};
  changed();
}

void Selection::save(Settings& s) const {
  s.rung = slug_of(rung_);
  for (const auto& [rung, config] : configs_) {
    const auto& model = sim::rung_model(rung);
    for (const auto name : model.knobs) {
      const int value = config.*sim::find_knob(name)->field;
      // Only what differs from the defaults, so a change of default reaches users who never touched the knob.
      if (value != model.defaults.*sim::find_knob(name)->field) s.knobs[slug_of(rung)][std::string(name)] = value;
    }
  }
  s.m = problem_.m, s.n = problem_.n, s.k = problem_.k;
  s.alpha = problem_.alpha, s.beta = problem_.beta;
}

}  // namespace gemmlab::desktop
