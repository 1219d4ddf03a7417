#pragma once
// The few statistics the reports take of repeated measurements.
#include <algorithm>
#include <vector>

namespace gemmlab::sim {

// The median (the mean of the middle two for an even count); 0 for none.
inline double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::ranges::sort(values);
  const std::size_t mid = values.size() / 2;
  return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

}  // namespace gemmlab::sim
