#include "gemmlab/sim/tuning.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <numeric>
#include <string_view>

#include "gemmlab/sim/rung_model.hpp"

namespace gemmlab::sim {
namespace {

using kernel::KernelConfig;

constexpr std::string_view kTileKnobs[] = {"bm", "bn", "bk", "tm", "tn", "wm", "wn"};

bool is_tile_knob(std::string_view knob) { return std::ranges::find(kTileKnobs, knob) != std::end(kTileKnobs); }

// Every combination of the given knobs' candidates applied to `base`, kept where validate() accepts it.
void combine(RungId rung, const std::vector<std::string_view>& knobs, std::size_t next, KernelConfig config,
             const Problem& problem, const DeviceLimits& limits, std::vector<KernelConfig>& out) {
  if (next == knobs.size()) {
    if (validate(rung, config, problem, limits)) out.push_back(config);
    return;
  }
  const Knob& knob = *find_knob(knobs[next]);
  for (const int value : knob_candidates(rung, knob.name)) {
    config.*knob.field = value;
    combine(rung, knobs, next + 1, config, problem, limits, out);
  }
}

// Whether two configurations have the same tile knobs.
bool same_tile(const KernelConfig& a, const KernelConfig& b, const std::vector<std::string_view>& tile) {
  for (const auto knob : tile)
    if (a.*find_knob(knob)->field != b.*find_knob(knob)->field) return false;
  return true;
}

}  // namespace

std::vector<int> knob_candidates(RungId rung, std::string_view name) {
  const RungModel& model = rung_model(rung);
  const Knob* knob = find_knob(name);
  if (knob == nullptr) return {};
  const int fallback = model.defaults.*knob->field;
  std::vector<int> values;
  // A description that lists a knob's values (the wgmma widths, the swizzle modes) is searched over all of them.
  if (const auto listed = model.values_of(name); !listed.empty()) {
    values.assign(listed.begin(), listed.end());
  } else if (is_tile_knob(name)) {
    for (int v = std::max(fallback / 2, 1); v <= fallback * 2; v *= 2) values.push_back(v);
  } else if (name == "a_pad" || name == "b_pad") {
    // None, or the padding that keeps rows 16-byte aligned while shifting them 4 banks: 4 floats or 8 halves.
    values = {0, operand_bytes(rung)[0] == 2 ? 8 : 4};
  } else if (name == "cluster") {
    values = {knob->min, knob->max};
  } else if (name == "stages") {
    for (int v = knob->min; v <= knob->max; ++v) values.push_back(v);
  } else if (name == "grid") {
    // One tile a block, the default's persistent blocks and twice as many, and where the default is not a power of two
    // (132, one block per SM) the power of two below it: LLM shapes' grids of tiles mostly divide into its waves.
    values = {0, fallback, 2 * fallback};
    if (fallback > 0 && !std::has_single_bit(static_cast<unsigned>(fallback)))
      values.push_back(static_cast<int>(std::bit_floor(static_cast<unsigned>(fallback))));
  } else if (name == "splits") {  // split-K: none, then ranges of k-steps enough to fill the SMs of a skinny shape
    values = {1, 2, 3, 4, 6, 8};
  }
  values.push_back(fallback);
  std::erase_if(values, [&](int v) { return v < knob->min || v > knob->max; });
  std::ranges::sort(values);
  values.erase(std::unique(values.begin(), values.end()), values.end());
  return values;
}

std::vector<KernelConfig> tuning_space(RungId rung, const Problem& problem, const DeviceLimits& limits) {
  const RungModel& model = rung_model(rung);
  std::vector<std::string_view> tile, layout;
  // The accumulators' precision is the user's choice of accuracy, not a speed knob: it keeps the default's.
  for (const auto knob : model.knobs)
    if (knob != "acc") (is_tile_knob(knob) ? tile : layout).push_back(knob);
  // Tile shapes first, each with its least demanding layouts: no padding, no swizzle, no cluster, the default grid, and
  // each number of stages in turn (a rung may refuse too few stages as it refuses too many); then every layout on
  // each shape that passed with one of them, or with the default layout (a rung whose rules tie a layout to a shape).
  // A layout only adds shared memory, threads or rules to a shape, so no valid configuration is lost, and the walk
  // validates thousands of configurations instead of millions.
  std::vector<KernelConfig> probes{model.defaults};
  KernelConfig least = model.defaults;
  for (const auto knob : layout)
    if (knob != "grid" && knob != "conflicting" && knob != "stages")
      least.*find_knob(knob)->field = knob_candidates(rung, knob).front();
  if (model.has_knob("stages"))
    for (const int stages : knob_candidates(rung, "stages")) probes.push_back(least), probes.back().stages = stages;
  else
    probes.push_back(least);
  std::vector<KernelConfig> shapes, out;
  for (const KernelConfig& probe : probes) {
    std::vector<KernelConfig> found;
    combine(rung, tile, 0, probe, problem, limits, found);
    for (const KernelConfig& shape : found)
      if (std::ranges::none_of(shapes, [&](const KernelConfig& t) { return same_tile(t, shape, tile); }))
        shapes.push_back(shape);
  }
  for (const KernelConfig& shape : shapes) combine(rung, layout, 0, shape, problem, limits, out);
  const auto is_default = [&](const KernelConfig& c) {
    for (const auto& knob : all_knobs())
      if (c.*knob.field != model.defaults.*knob.field) return false;
    return true;
  };
  if (const auto it = std::ranges::find_if(out, is_default); it != out.end()) std::rotate(out.begin(), it, it + 1);
  return out;
}

std::vector<double> average_ranks(std::span<const double> values) {
  std::vector<std::size_t> order(values.size());
  std::iota(order.begin(), order.end(), 0);
  std::ranges::stable_sort(order, [&](std::size_t a, std::size_t b) { return values[a] < values[b]; });
  std::vector<double> rank(values.size());
  for (std::size_t i = 0; i < order.size();) {
    std::size_t j = i;
    while (j + 1 < order.size() && values[order[j + 1]] == values[order[i]]) ++j;
    const double average = (static_cast<double>(i) + static_cast<double>(j)) / 2.0 + 1.0;
    for (std::size_t t = i; t <= j; ++t) rank[order[t]] = average;
    i = j + 1;
  }
  return rank;
}

double spearman(std::span<const double> a, std::span<const double> b) {
  if (a.size() != b.size() || a.size() < 2) return 0.0;
  const std::vector<double> ra = average_ranks(a), rb = average_ranks(b);
  const double n = static_cast<double>(a.size()), mean = (n + 1.0) / 2.0;
  double cov = 0, va = 0, vb = 0;
  for (std::size_t i = 0; i < ra.size(); ++i) {
    cov += (ra[i] - mean) * (rb[i] - mean);
    va += (ra[i] - mean) * (ra[i] - mean);
    vb += (rb[i] - mean) * (rb[i] - mean);
  }
  if (va == 0 || vb == 0) return 0.0;
  return cov / std::sqrt(va * vb);
}

}  // namespace gemmlab::sim
