#pragma once
// What the autotuner searches and how it scores the model: a rung's configurations worth trying for a problem, and
// the rank correlation between predicted and measured times. Plain C++: the CLI's `tune` and the desktop app's study
// both read it; the GPU side only times what it is given.
#include <span>
#include <vector>

#include "gemmlab/kernel/config.hpp"
#include "gemmlab/rungs.hpp"
#include "gemmlab/sim/problem.hpp"

namespace gemmlab::sim {

// The values the search tries for one knob of a rung, the default always among them: every value the rung's
// description lists for it (its knob_choices: the Hopper rungs' wgmma widths, TMA's swizzle modes); other tile sizes
// of half, once and twice the default; padding of none or 4 floats (8 halves: 16 bytes, which keeps 128-bit accesses
// aligned); swizzle off and on; 1 to 4 stages; clusters of 1 and 2; persistent grids of 0, the default and twice it.
// `conflicting` keeps the default: it only teaches a conflict.
std::vector<int> knob_candidates(RungId rung, std::string_view knob);

// Every configuration of the rung that the candidates above combine to and validate() accepts for the problem and
// the limits: tile shapes first (each with its least demanding layout), then the layout knobs (padding, swizzle,
// stages, cluster) crossed with each shape that passed. The rung's default is always first (validate permitting), the
// rest in enumeration order.
std::vector<kernel::KernelConfig> tuning_space(RungId rung, const Problem& problem, const DeviceLimits& limits);

// Each value's rank, from 1 for the smallest; ties share their average rank (2.5 for the second and third of four).
std::vector<double> average_ranks(std::span<const double> values);

// Spearman's rank correlation of two equally long series (ties take their average rank); 0 for fewer than two
// points or a series with no spread.
double spearman(std::span<const double> a, std::span<const double> b);

}  // namespace gemmlab::sim
