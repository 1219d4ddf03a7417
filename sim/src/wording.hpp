#pragma once
// Numbers in the sentences the roofline and the time model write for a learner.
#include <cstdio>
#include <string>

namespace gemmlab::sim::wording {

inline std::string format(const char* pattern, double value) {
  char text[64];
  std::snprintf(text, sizeof text, pattern, value);
  return text;
}

// 0.00273 -> "2.73 ms".
inline std::string duration(double seconds) {
  if (seconds >= 1) return format("%.2f s", seconds);
  if (seconds >= 1e-3) return format("%.2f ms", seconds * 1e3);
  return format("%.1f us", seconds * 1e6);
}

// A count in words a learner can read: 1.10e+12 -> "1.10 trillion".
inline std::string amount(double value) {
  if (value >= 1e12) return format("%.2f trillion", value / 1e12);
  if (value >= 1e9) return format("%.2f billion", value / 1e9);
  if (value >= 1e6) return format("%.2f million", value / 1e6);
  return format("%.0f", value);
}

}  // namespace gemmlab::sim::wording
