#pragma once
// Long simulations (a whole kernel's counters, the L2 model of a big grid) report how far they are and can be
// stopped at any point: the desktop app's Cancel and closing the window, gemmlab-cli's Ctrl-C.
#include <functional>

namespace gemmlab::sim {

// Told the fraction done now and then; returning false stops the work, which then returns an error ("... cancelled").
using Progress = std::function<bool(double fraction_done)>;

// The part [from, to] of a larger piece of work: a callee's 0..1 becomes the caller's from..to. Empty stays empty.
inline Progress part_of(const Progress& whole, double from, double to) {
  if (!whole) return {};
  return [whole, from, to](double fraction) { return whole(from + (to - from) * fraction); };
}

}  // namespace gemmlab::sim
