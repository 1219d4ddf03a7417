#include "gemmlab/sim/compiled_code.hpp"

#include <algorithm>
#include <cmath>

namespace gemmlab::sim {

std::string_view to_string(SassAnchor anchor) {
  switch (anchor) {
    case SassAnchor::Ffma: return "FFMA";
    case SassAnchor::Hmma: return "HMMA";
    case SassAnchor::Hgmma: return "HGMMA";
    case SassAnchor::Ldgsts: return "LDGSTS";
    case SassAnchor::Ldsm: return "LDSM";
    case SassAnchor::Lds: return "LDS";
    case SassAnchor::Sts: return "STS";
    case SassAnchor::Ldg: return "LDG";
    case SassAnchor::Stg: return "STG";
    case SassAnchor::Tma: return "UTMALDG";
  }
  return "?";
}

AnchorCounts description_anchors_per_warp(const Counters& counters, double warps) {
  AnchorCounts a{};
  const auto at = [&a](SassAnchor s) -> double& { return a[static_cast<std::size_t>(s)]; };
  at(SassAnchor::Ffma) = double(counters.fma) / 32;  // one FFMA is 32 lanes' multiply-adds
  at(SassAnchor::Hmma) = double(counters.mma);
  at(SassAnchor::Hgmma) = 4.0 * double(counters.wgmma);  // each warp of the warpgroup issues it
  at(SassAnchor::Tma) = double(counters.tma_copies);
  for (int c = 0; c < kOpClassCount; ++c) {
    const std::string_view name = op_class_name(c);
    const double n = double(counters.ops[static_cast<std::size_t>(c)].instructions);
    const SassAnchor s = name.starts_with("cp.async") ? SassAnchor::Ldgsts
                         : name.starts_with("ldsm")   ? SassAnchor::Ldsm
                         : name.starts_with("lds")    ? SassAnchor::Lds
                         : name.starts_with("sts")    ? SassAnchor::Sts
                         : name.starts_with("ldg")    ? SassAnchor::Ldg
                                                      : SassAnchor::Stg;
    at(s) += n;
  }
  if (warps > 0)
    for (double& v : a) v /= warps;
  return a;
}

Result<DynamicInstructions> dynamic_instructions(const CompiledCode& code, const AnchorCounts& per_warp) {
  const std::vector<CodeRegion>& regions = code.regions;
  if (regions.empty()) return Error{"the compiled code has no regions"};
  for (std::size_t i = 1; i < regions.size(); ++i)
    if (regions[i].parent < 0 || std::size_t(regions[i].parent) >= i)
      return Error{"region " + std::to_string(i) + " of the compiled code names a parent that does not come before it"};

  // Only the anchors the description counts constrain the loops: an anchor it has none of (the epilogue's FFMAs of
  // alpha and beta, say) is the compiler's own instruction there, counted in the region's size like any other.
  std::vector<int> kinds;
  for (int c = 0; c < kSassAnchorCount; ++c)
    if (per_warp[std::size_t(c)] > 0) kinds.push_back(c);
  const auto anchored = [&](const CodeRegion& r) {
    return std::any_of(kinds.begin(), kinds.end(), [&](int c) { return r.anchors[std::size_t(c)] > 0; });
  };

  // Least squares over the anchored loops' executions E >= 0, region 0 fixed at one execution: coordinate descent,
  // each step the exact minimum along one E, with the residual (SASS anchors minus the description's) kept up to date.
  std::vector<double> e(regions.size(), 1.0);
  std::vector<std::size_t> free;
  for (std::size_t i = 1; i < regions.size(); ++i)
    if (anchored(regions[i])) free.push_back(i);
  std::vector<double> residual(kSassAnchorCount, 0.0);
  for (const int c : kinds) {
    double sum = 0;
    for (std::size_t i = 0; i < regions.size(); ++i) sum += e[i] * regions[i].anchors[std::size_t(c)];
    residual[std::size_t(c)] = sum - per_warp[std::size_t(c)];
  }
  for (int sweep = 0; sweep < 5000; ++sweep) {
    double largest_step = 0, largest_value = 1;
    for (const std::size_t i : free) {
      double slope = 0, curvature = 0;
      for (const int c : kinds) {
        const double a = regions[i].anchors[std::size_t(c)];
        slope += residual[std::size_t(c)] * a;
        curvature += a * a;
      }
      if (curvature == 0) continue;
      const double next = std::max(0.0, e[i] - slope / curvature);
      const double step = next - e[i];
      if (step == 0) continue;
      for (const int c : kinds) residual[std::size_t(c)] += step * regions[i].anchors[std::size_t(c)];
      e[i] = next;
      largest_step = std::max(largest_step, std::abs(step));
      largest_value = std::max(largest_value, next);
    }
    if (largest_step <= 1e-9 * largest_value) break;
  }
  // A loop without anchors runs as often as the nearest anchored loop around it (once, at the top).
  for (std::size_t i = 1; i < regions.size(); ++i)
    if (!anchored(regions[i])) e[i] = e[std::size_t(regions[i].parent)];

  DynamicInstructions d;
  for (std::size_t i = 0; i < regions.size(); ++i) {
    double own = regions[i].instructions;
    for (const int c : kinds) own -= regions[i].anchors[std::size_t(c)];
    d.overhead_per_warp += e[i] * own;
  }
  for (const int c : kinds) d.per_warp += per_warp[std::size_t(c)];
  d.per_warp += d.overhead_per_warp;
  d.executions = std::move(e);
  return d;
}

MainLoop main_loop(const CompiledCode& code, const AnchorCounts& per_warp, double ksteps) {
  constexpr SassAnchor kMath[] = {SassAnchor::Ffma, SassAnchor::Hmma, SassAnchor::Hgmma};
  const auto math = [&](const auto& counts) {
    double sum = 0;
    for (const SassAnchor a : kMath) sum += double(counts[static_cast<std::size_t>(a)]);
    return sum;
  };
  const CodeRegion* loop = nullptr;
  for (std::size_t i = 1; i < code.regions.size(); ++i)
    if (loop == nullptr || math(code.regions[i].anchors) > math(loop->anchors)) loop = &code.regions[i];
  const double loop_math = loop != nullptr ? math(loop->anchors) : 0;
  const double per_kstep = ksteps > 0 ? math(per_warp) / ksteps : 0;
  if (loop_math <= 0 || per_kstep <= 0) return {};
  return {std::max(1, int(std::floor(loop_math / per_kstep + 1e-9))), loop->load_waits};
}

}  // namespace gemmlab::sim
