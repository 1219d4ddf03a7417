#include "common/recorded_orders.hpp"

#include <sstream>
#include <string>

#include "common/bench_reports.hpp"
#include "common/data_files.hpp"
#include "gemmlab/file_io.hpp"
#include "gemmlab/kernel/element.hpp"
#include "gemmlab/sim/launch_order.hpp"

namespace gemmlab::common {

std::vector<gpu::BenchReport> load_order_reports(const std::vector<std::filesystem::path>& roots) {
  std::vector<gpu::BenchReport> reports;
  const auto list = find_data_file(roots, kOrderRunsList);
  if (!list) return reports;
  auto text = read_input_file(list->string(), "the list of recorded order runs");
  if (!text) return reports;
  std::istringstream lines(*text);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line.front() == '#') continue;
    if (const auto file = find_data_file(roots, line))
      if (auto loaded = read_bench_report(*file)) reports.push_back(std::move(*loaded));
  }
  return reports;
}

std::vector<MeasuredOrder> measured_orders(std::span<const gpu::BenchReport> reports, RungId rung,
                                           const kernel::KernelConfig& config, const gpu::Shape& shape) {
  std::vector<MeasuredOrder> out;
  for (const auto& report : reports) {
    const gpu::BenchRow* row = find_measured(report, rung, config, shape);
    if (!row) continue;
    out.push_back({sim::order_name(report.order), row->median_ms, row->ratio_to_cublas,
                   std::string(kernel::input_name(row->input)), report.device.name, report.date_utc});
  }
  return out;
}

std::optional<std::pair<MeasuredOrder, MeasuredOrder>> measured_pair(std::span<const MeasuredOrder> measured,
                                                                     std::string_view first, std::string_view second) {
  if (first == second) return std::nullopt;
  for (const MeasuredOrder& a : measured)
    for (const MeasuredOrder& b : measured)
      if (a.order == first && b.order == second && a.device == b.device) return std::pair{a, b};
  return std::nullopt;
}

}  // namespace gemmlab::common
