#pragma once
// The benchmark: each rung's kernel next to cuBLAS FP32 (CUBLAS_COMPUTE_32F) in the same process, timed with CUDA
// events. The CLI's `bench` and the desktop app's live panel both call run_bench.
//
// Per shape: inputs are random (never zero) and rotate through enough buffer sets that the sets together are at
// least twice the L2 cache, so a timed run does not find its inputs in L2 from the run before. Every entry is first
// checked against the FP64 reference (as in verify.hpp, alpha = 1, beta = 0); one that fails is reported and not
// timed. Then a warm-up run, and the median of `runs` event-timed runs (fewer where one run takes seconds; the row
// says so).
#include <atomic>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "gemmlab/gpu/device.hpp"
#include "gemmlab/gpu/instances.hpp"
#include "gemmlab/gpu/shapes.hpp"
#include "gemmlab/kernel/block_order.hpp"
#include "gemmlab/kernel/element.hpp"
#include "gemmlab/result.hpp"
#include "gemmlab/rungs.hpp"

namespace gemmlab::gpu {

inline constexpr double kMaxHoldSeconds = 600;  // BenchOptions::hold_seconds' limit

struct BenchOptions {
  std::vector<RungId> rungs;  // empty: every rung with GPU instances
  bool all_instances = false;  // false: each rung's default configuration
  // Non-empty: exactly these configurations (rungs and all_instances are then not read), compiled at run time where
  // the build did not compile them (gemmlab/gpu/runtime_compile.hpp).
  std::vector<GpuInstance> kernels;
  std::vector<Shape> shapes{{1024, 1024, 1024}, {2048, 2048, 2048}, {4096, 4096, 4096}, {8192, 8192, 8192}};
  kernel::BlockOrder order{};
  std::vector<kernel::InputType> inputs;  // empty: every input type each kernel takes (FP32; FP16 and BF16)
  int device = 0;
  int runs = 20;                   // timed runs per entry and shape
  double seconds_per_entry = 15.0; // fewer runs (at least 3) where `runs` would take longer than this
  // Above 0: each entry runs alone, back to back, for this long before its timed runs, and its timed runs are not
  // paired with cuBLAS's: the card then runs at the clock it holds under that kernel's own load, which is what the
  // time model assumes (a kernel paired with cuBLAS runs at a clock cuBLAS's power draw also sets). Ratios to cuBLAS
  // are then against cuBLAS's own row, held the same way. At most kMaxHoldSeconds.
  double hold_seconds = 0;
  // The timed runs wait in the stream behind a gate until the host has queued a batch of them, then run back to back:
  // each run's events time the GPU, not the host submitting the launch, which for a GEMM of a few microseconds takes
  // about as long (gpu/src/stream_gate.hpp). false: each run as the host submits it, as bench timed before 2026-11-30.
  bool queued = true;
  std::uint64_t seed = 7;
};

// cuBLAS's row label for an input type: "CUBLAS_COMPUTE_32F" (FP32), "CUDA_R_16F, CUBLAS_COMPUTE_32F", ...
std::string_view cublas_label(kernel::InputType input);

enum class BenchStatus { Timed, FailedVerification, Refused };
std::string_view to_string(BenchStatus status);

struct BenchRow {
  std::string name;                  // the rung's slug, or "cublas"
  std::optional<GpuInstance> kernel;  // the rung and configuration; empty for cuBLAS
  bool compiled_at_run_time = false;  // the build did not compile it (gemmlab/gpu/runtime_compile.hpp)
  std::string config;                // "default", "stages=2", ... (cublas_label for cuBLAS)
  kernel::InputType input = kernel::InputType::F32;  // A and B's element type; the ratio is to cuBLAS on the same
  Shape shape;
  BenchStatus status = BenchStatus::Timed;
  std::string message;               // why it was not timed, or why it ran fewer times than asked
  int runs = 0;
  double median_ms = 0, min_ms = 0, max_ms = 0;
  double tflops = 0;                 // 2 m n k / median
  // A kernel's runs alternate with cuBLAS's on the same shape and input type (cuBLAS, kernel, cuBLAS, ...), so both
  // see the same clock: on the H100 the SM clock falls by a quarter over a ladder at 8192^3, and a cuBLAS timed once
  // at the start of the ladder flattered it against the kernels timed last. cuBLAS's own row is the median of all
  // its runs beside the kernels (its runs alone only verify it, where kernels ran). Held runs
  // (BenchOptions::hold_seconds) do not alternate: every row, cuBLAS's included, is its own runs back to back. The
  // median of the cuBLAS runs beside this row's:
  double cublas_paired_ms = 0;       // (0 for cuBLAS's own row, held runs, and reports written before the pairing)
  double ratio_to_cublas = 0;        // cublas_paired_ms / median_ms, held: cuBLAS's median / median_ms (cuBLAS's row:
                                     // 1; 0 where cuBLAS was not timed)
  // NVML's SM clock right after the row's timed runs (0: unavailable, and in reports written before it was kept): the
  // card lowers it under sustained load, which the time model's comparison (docs/fidelity.md) needs to know.
  int sm_clock_mhz = 0;
};

struct BenchReport {
  DeviceInfo device;
  SoftwareVersions software;
  std::string date_utc;              // ISO 8601, when the run started
  int sm_clock_start_mhz = 0, sm_clock_end_mhz = 0;  // NVML's reading before and after (0: unavailable)
  kernel::BlockOrder order{};
  int buffer_sets_max = 0;           // the most input sets rotated through at any shape
  double hold_seconds = 0;           // BenchOptions::hold_seconds of the run
  bool queued = false;               // BenchOptions::queued of the run (false in reports written before it)
  std::vector<BenchRow> rows;
  bool cancelled = false;
};

struct BenchProgress {
  std::size_t done = 0, total = 0;   // entries x shapes
  std::string what;                  // "cp-async 4096" as it starts
};

Result<BenchReport> run_bench(const BenchOptions& options, const std::function<void(const BenchProgress&)>& progress = {},
                              const std::atomic<bool>* cancel = nullptr);

// The report as JSON (the format of assets/results/*.json) and as CSV (one line per row), and back from JSON.
std::string bench_report_json(const BenchReport& report);
std::string bench_report_csv(const BenchReport& report);
Result<BenchReport> parse_bench_report_json(std::string_view text);

}  // namespace gemmlab::gpu
