#include "model/recorded_orders.hpp"

#include <algorithm>
#include <system_error>

#include "gemmlab/file_io.hpp"
#include "gemmlab/sim/launch_order.hpp"
#include "model/bench_results.hpp"

namespace gemmlab::desktop {

std::vector<gpu::BenchReport> load_order_reports(const std::vector<std::filesystem::path>& roots) {
  std::vector<gpu::BenchReport> reports;
  const std::filesystem::path relative = std::filesystem::path("assets") / "results" / "orders";
  std::vector<std::filesystem::path> files;
  for (const auto& root : roots) {
    std::error_code error;
    if (!std::filesystem::is_directory(root / relative, error)) continue;
    for (const auto& entry : std::filesystem::directory_iterator(root / relative, error))
      if (entry.path().extension() == ".json") files.push_back(entry.path());
    break;  // the first data folder that has them
  }
  std::ranges::sort(files);
  for (const auto& file : files)
    if (auto loaded = load_results_file(file)) reports.push_back(std::move(loaded->report));
  return reports;
}

std::vector<MeasuredOrder> measured_orders(std::span<const gpu::BenchReport> reports, RungId rung,
                                           const kernel::KernelConfig& config, const gpu::Shape& shape) {
  std::vector<MeasuredOrder> out;
  for (const auto& report : reports) {
    const gpu::BenchRow* row = find_measured(report, rung, config, shape);
    if (!row) continue;
    out.push_back(
        {sim::order_name(report.order), row->median_ms, row->ratio_to_cublas, report.device.name, report.date_utc});
  }
  return out;
}

}  // namespace gemmlab::desktop
