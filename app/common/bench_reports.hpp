#pragma once
// Benchmark reports (`gemmlab-cli bench --json`) read back, and their rows found by what was timed. Rows are matched to
// a rung and configuration knob by knob, so a configuration only gets a measured figure when exactly that
// configuration was timed (compiled by the build or at run time).
#include <filesystem>
#include <optional>

#include "gemmlab/gpu/bench.hpp"
#include "gemmlab/kernel/config.hpp"
#include "gemmlab/kernel/element.hpp"
#include "gemmlab/result.hpp"
#include "gemmlab/rungs.hpp"

namespace gemmlab::common {

// The report in a file; an error says that the file cannot be read, or is not a report and why.
Result<gpu::BenchReport> read_bench_report(const std::filesystem::path& path);

// The timed row of this rung and configuration at this shape, if the report has one: on `input` (empty: the rung's
// first input type, FP32 or FP16).
const gpu::BenchRow* find_measured(const gpu::BenchReport& report, RungId rung, const kernel::KernelConfig& config,
                                   const gpu::Shape& shape, std::optional<kernel::InputType> input = std::nullopt);
// cuBLAS's timed row at this shape on this input type.
const gpu::BenchRow* find_cublas(const gpu::BenchReport& report, const gpu::Shape& shape,
                                 kernel::InputType input = kernel::InputType::F32);

}  // namespace gemmlab::common
