#pragma once
// Problem shapes and block orders as the CLI and the desktop app write them: "1000" is 1000 x 1000 x 1000, "MxNxK"
// any GEMM; "row", "col", "cutlass:N", "groupm:N" a launch order.
#include <string>
#include <string_view>
#include <vector>

#include "gemmlab/kernel/block_order.hpp"
#include "gemmlab/result.hpp"

namespace gemmlab::gpu {

struct Shape {
  int m = 0, n = 0, k = 0;
  friend bool operator==(const Shape&, const Shape&) = default;
};

// "1,7,64x32x16" -> {1,1,1}, {7,7,7}, {64,32,16}. Each dimension is a positive integer; the error names the bad item.
Result<std::vector<Shape>> parse_shapes(std::string_view list);

// "4096" for a cube, "64x32x16" otherwise.
std::string to_string(const Shape& shape);

// Block orders are named and parsed by sim::parse_order / sim::order_name (gemmlab/sim/launch_order.hpp).

}  // namespace gemmlab::gpu
