#pragma once
// Recorded runs of the same kernels in different launch orders (the reports assets/results/order-runs.txt names, each
// a `gemmlab-cli bench --all --order ...` report of one GPU): what an order changed on the hardware, shown beside what
// the model predicts for it (`gemmlab-cli schedule` and the launch-order panel), which for an L2- or tensor-bound
// kernel is often nothing.
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gemmlab/gpu/bench.hpp"
#include "gemmlab/kernel/config.hpp"
#include "gemmlab/rungs.hpp"

namespace gemmlab::common {

struct MeasuredOrder {
  std::string order;  // as sim::order_name writes it: "row", "groupm:8"
  double median_ms = 0.0;
  double ratio_to_cublas = 0.0;  // 0: the report has none
  std::string input;             // "fp16": the rung's first input type, the one compared
  std::string device, date_utc;
};

// The list of the reports, relative to a data folder.
inline constexpr const char* kOrderRunsList = "assets/results/order-runs.txt";

// The reports assets/results/order-runs.txt lists, in its order, each from the first data folder that has it; a file
// that is missing or not a report is left out (they are the repository's own, checked by
// tests/app/common/recorded_orders_test.cpp).
std::vector<gpu::BenchReport> load_order_reports(const std::vector<std::filesystem::path>& roots);

// This rung and configuration's timed runs at this shape on the rung's first input type, one per report (so one per
// launch order and GPU).
std::vector<MeasuredOrder> measured_orders(std::span<const gpu::BenchReport> reports, RungId rung,
                                           const kernel::KernelConfig& config, const gpu::Shape& shape);

// The runs of orders `first` and `second` on one GPU, where both were timed: what the launch-order panel compares.
std::optional<std::pair<MeasuredOrder, MeasuredOrder>> measured_pair(std::span<const MeasuredOrder> measured,
                                                                     std::string_view first, std::string_view second);

}  // namespace gemmlab::common
