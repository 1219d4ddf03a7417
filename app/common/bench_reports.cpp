#include "common/bench_reports.hpp"

#include "gemmlab/file_io.hpp"
#include "gemmlab/gpu/instances.hpp"
#include "gemmlab/sim/simulate.hpp"

namespace gemmlab::common {

Result<gpu::BenchReport> read_bench_report(const std::filesystem::path& path) {
  auto text = read_input_file(path.string(), "results file");
  if (!text) return text.error();
  auto report = gpu::parse_bench_report_json(*text);
  if (!report) return Error{path.string() + " is not a results file: " + report.error().message};
  return report;
}

const gpu::BenchRow* find_measured(const gpu::BenchReport& report, RungId rung, const kernel::KernelConfig& config,
                                   const gpu::Shape& shape, std::optional<kernel::InputType> input) {
  const kernel::InputType type = input.value_or(sim::input_types(rung).front());
  for (const auto& row : report.rows)
    if (row.kernel && row.kernel->rung == rung && gpu::same_config(row.kernel->config, config) && row.input == type &&
        row.shape == shape && row.status == gpu::BenchStatus::Timed)
      return &row;
  return nullptr;
}

const gpu::BenchRow* find_cublas(const gpu::BenchReport& report, const gpu::Shape& shape, kernel::InputType input) {
  for (const auto& row : report.rows)
    if (row.name == "cublas" && row.input == input && row.shape == shape && row.status == gpu::BenchStatus::Timed)
      return &row;
  return nullptr;
}

}  // namespace gemmlab::common
