#include "model/bench_results.hpp"

#include "gemmlab/file_io.hpp"
#include "model/paths.hpp"

namespace gemmlab::desktop {
namespace {

const std::filesystem::path kRecorded = std::filesystem::path("assets") / "results" / "h100.json";

}  // namespace

Result<ShownResults> load_results_file(const std::filesystem::path& path) {
  auto report = common::read_bench_report(path);
  if (!report) return report.error();
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

}  // namespace gemmlab::desktop
