#pragma once
// gemmlab-cli sim --list-phase P --warp W: one warp's instructions in one phase of the first block, each with what
// it moves (which elements of A, B and C) and its cost, so a learner finds "the A-column read" and its wavefronts
// without stepping through the desktop app. The same decoding as the app's tile stepper (sim::BlockWalker).
#include "gemmlab/kernel/config.hpp"
#include "gemmlab/rungs.hpp"
#include "gemmlab/sim/problem.hpp"

namespace gemmlab::cli {

// Prints the listing (or its JSON) and returns the exit code: 2 for a phase or warp that does not exist.
int print_phase_listing(RungId rung, const kernel::KernelConfig& config, const sim::Problem& problem, int phase,
                        int warp, bool json);

}  // namespace gemmlab::cli
