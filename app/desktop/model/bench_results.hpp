#pragma once
// Measured results: the recorded H100 run shipped in assets/results/ (for machines with no GPU), a run made here,
// or a file the user loaded. Rows are matched to a rung and configuration knob by knob, so a configuration only gets
// a measured figure when exactly that configuration was timed (compiled by the build or at run time).
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "common/bench_reports.hpp"
#include "gemmlab/gpu/bench.hpp"
#include "gemmlab/kernel/config.hpp"
#include "gemmlab/result.hpp"
#include "gemmlab/rungs.hpp"

namespace gemmlab::desktop {

struct ShownResults {
  gpu::BenchReport report;
  std::string source;  // "recorded on ... (assets/results/h100.json)", "measured now", "loaded from FILE"
};

// The recorded results in the data folders (assets/results/h100.json); an error says where they were looked for
// or why they could not be read.
Result<ShownResults> load_recorded_results(const std::vector<std::filesystem::path>& roots);
Result<ShownResults> load_results_file(const std::filesystem::path& path);
Status save_results_file(const std::filesystem::path& path, const gpu::BenchReport& report);

using common::find_cublas;
using common::find_measured;

}  // namespace gemmlab::desktop
