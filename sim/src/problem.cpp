#include "gemmlab/sim/problem.hpp"

#include <cstdint>
#include <string>

namespace gemmlab::sim {

Status validate_problem(const Problem& p) {
  const struct {
    const char* name;
    int value;
  } dims[] = {{"m", p.m}, {"n", p.n}, {"k", p.k}};
  for (const auto& d : dims) {
    if (d.value < 1)
      return Error{std::string(d.name) + " = " + std::to_string(d.value) + ": matrix sizes must be at least 1"};
    if (d.value > kMaxDimension)
      return Error{std::string(d.name) + " = " + std::to_string(d.value) + " is larger than the " +
                   std::to_string(kMaxDimension) + " gemmlab accepts"};
  }
  constexpr std::int64_t kMaxElements = std::int64_t{1} << 34;
  const struct {
    const char* name;
    std::int64_t elements;
  } mats[] = {{"A (m x k)", std::int64_t{p.m} * p.k}, {"B (k x n)", std::int64_t{p.k} * p.n},
              {"C (m x n)", std::int64_t{p.m} * p.n}};
  for (const auto& mat : mats)
    if (mat.elements > kMaxElements)
      return Error{std::string(mat.name) + " would have " + std::to_string(mat.elements) +
                   " elements; gemmlab accepts at most 2^34 per matrix"};
  return Ok{};
}

}  // namespace gemmlab::sim
