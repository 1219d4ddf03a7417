#include "model/bench_results.hpp"

#include "gemmlab/file_io.hpp"
#include "gemmlab/gpu/instances.hpp"
#include "gemmlab/sim/simulate.hpp"
#include "model/paths.hpp"

namespace gemmlab::desktop {
namespace {

const std::filesystem::path kRecorded = std::filesystem::path("assets") / "results" / "h100.json";

}  // namespace

Result<ShownResults> load_results_file(const std::filesystem::path& path) {
  auto text = read_input_file(path.string(), "results file");
  if (!text) return text.error();
  auto report = gpu::parse_bench_report_json(*text);
  if (!report) return Error{path.string() + " is not a results file: " + report.error().message};
  return ShownResults{std::move(*report), "loaded from " + path.string()};
}

Result<ShownResults> load_recorded_results(const std::vector<std::filesystem::path>& roots) {
  const auto path = find_data_file(roots, kRecorded);
  if (!path) return Error{"no recorded results: " + kRecorded.string() + " is not in " + describe_roots(roots)};
  auto loaded = load_results_file(*path);
  if (!loaded) return loaded.error();
  loaded->source = "recorded on the " + loaded->report.device.name + ", " + loaded->report.date_utc + " (" +
                   path->string() + ")";
  return loaded;
}

Status save_results_file(const std::filesystem::path& path, const gpu::BenchReport& report) {
  return write_output_file(path.string(), gpu::bench_report_json(report), "results file");
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

}  // namespace gemmlab::desktop
