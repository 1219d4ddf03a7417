#pragma once
// The sweep: the user's shapes (or named presets of real models' GEMMs) x rungs. For each shape and rung's default
// configuration (and, asked, the configurations the time model ranks best for that shape), what the model says (tiles,
// waves and how full the last one is, the predicted speed and the resource that limits it), and with a GPU what `bench`
// measures beside cuBLAS in the same process. The CLI's `sweep` calls it.
#include <atomic>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gemmlab/gpu/bench.hpp"
#include "gemmlab/gpu/cublas_choice.hpp"
#include "gemmlab/gpu/shapes.hpp"
#include "gemmlab/kernel/block_order.hpp"
#include "gemmlab/kernel/config.hpp"
#include "gemmlab/kernel/element.hpp"
#include "gemmlab/result.hpp"
#include "gemmlab/rungs.hpp"
#include "gemmlab/sim/device_profile.hpp"
#include "gemmlab/sim/occupancy.hpp"

namespace gemmlab::gpu {

// A shape of the sweep, with where it comes from ("llama3-8b-decode qkv" and the preset's source; a shape given on the
// command line or in a file: its text and "given").
struct SweepShape {
  Shape shape;
  std::string label;
  std::string source;
  std::size_t index = 0;  // its place in the whole list, which a shard of the sweep keeps (merge_sweep_reports)
};

struct ShapePreset {
  std::string_view name, source;
};
std::span<const ShapePreset> shape_presets();

// "llama3-8b-decode,4096,16x4096x4096": presets and sizes, comma-separated, in order. Errors name the item.
Result<std::vector<SweepShape>> parse_sweep_shapes(std::string_view list);
// A shapes file: one shape a line ("MxNxK" or "N", then an optional label), '#' starts a comment. Errors say
// "FILE:LINE: what is wrong".
Result<std::vector<SweepShape>> parse_shapes_file(std::string_view text, std::string_view origin);

// One of the sweep's launch orders: one order for every rung, or each rung in its own preferred one
// (sim::RungModel::preferred_order), `order` then unused.
struct SweepOrder {
  kernel::BlockOrder order{};
  bool rungs_own = false;
};

struct SweepOptions {
  std::vector<SweepShape> shapes;
  std::vector<RungId> rungs;  // empty: every rung that takes `input`
  kernel::InputType input = kernel::InputType::BF16;
  // The launch orders: each configuration is predicted and timed in each of them that its grid of tiles takes (an
  // order the grid refuses, as groupm:8 a grid of fewer than 8 rows of tiles, is left out where another is not). The
  // first one a shape's grid takes also orders the model's ranking of the configurations there (SweepOptions::tuned).
  std::vector<SweepOrder> orders{SweepOrder{}};
  sim::DeviceProfile profile;  // the device the model predicts for
  bool model_only = false;     // no GPU: the model's columns only
  // CUDA devices that time the shapes, one worker each (the largest shapes first, each to the least loaded GPU).
  std::vector<int> devices{0};
  int runs = 20;  // timed runs per kernel and shape
  // Above 0: beside each rung's default, the `tuned` configurations the time model ranks fastest for the shape among
  // all the rung's valid ones (rank_configurations, as `tune` ranks them), compiled at run time where the build lacks
  // them (`compile_jobs` nvcc at once, 0: one per core) and timed like the defaults.
  int tuned = 0;
  int compile_jobs = 0;
};

// The sweep's launch orders, comma-separated: "preferred" (each rung in its own, SweepOrder::rungs_own) or one of
// sim::parse_order's for every rung, e.g. "preferred,groupm:8"; the names sweep_order_name gives back.
inline constexpr std::string_view kRungsOwnOrder = "preferred";
Status set_sweep_order(SweepOptions& options, std::string_view text);
std::string sweep_order_name(const SweepOptions& options);
// What "preferred" means, from the rungs' descriptions: "each rung in its own: rungs 21, 23 and 24 in hilbert, row for
// the others".
std::string rungs_own_order_help();
// The order one of the sweep's orders launches and predicts `rung` in.
kernel::BlockOrder sweep_order(const SweepOrder& order, RungId rung);

// One configuration of a rung on one shape: its default, or one the model ranked best there (SweepOptions::tuned).
struct SweepEntry {
  std::size_t shape = 0;  // index into SweepOptions::shapes
  RungId rung{};
  kernel::KernelConfig config;
  kernel::BlockOrder order{};  // the launch order it is predicted and timed in (one of SweepOptions::orders')
  // The configuration's place in the model's ranking of the rung's configurations at this shape (1: predicted
  // fastest); 0 where the sweep did not rank them (SweepOptions::tuned is 0).
  int model_rank = 0;
  std::string refused;  // non-empty: validate's sentence (or why it did not compile), nothing predicted or timed
  // The model: the output tiles in waves of the blocks that run at once (a persistent rung: its grid), so
  // tiles.blocks is the tiles (under split-K, rung 22, their k-ranges: a block each), tiles.blocks_per_wave the blocks
  // at once and tiles.last_wave_blocks the last wave's; the predicted speed and what limits it.
  sim::Waves tiles;
  double predicted_tflops = 0, predicted_seconds = 0;
  std::string limit;
  bool from_time_model = false;      // false: the roofline's bound (the profile has no measured timing)
  std::optional<BenchRow> measured;  // with a GPU: the benchmark's row (timed, refused or failed verification)
  int device = -1;                   // the CUDA device that timed it
};

struct SweepReport {
  SweepOptions options;
  std::vector<SweepEntry> entries;              // shape by shape, rungs in order, each rung's default first
  std::vector<std::optional<BenchRow>> cublas;  // per shape, with a GPU
  // Per shape, with a GPU: the algorithm cuBLAS runs there, decoded, or why it could not be (cublas_decode_notes).
  std::vector<std::optional<CublasChoice>> cublas_decoded;
  std::vector<std::string> cublas_decode_notes;
  // With a GPU: each device's run (device, software, date; their rows are in the entries), in SweepOptions::devices'
  // order.
  std::vector<BenchReport> bench;
  bool cancelled = false;  // Ctrl-C: the shapes timed so far, whole (none while the model still ranked them)
};

struct SweepProgress {
  std::size_t done = 0, total = 0;
  std::string what;
};

Result<SweepReport> run_sweep(const SweepOptions& options,
                              const std::function<void(const SweepProgress&)>& progress = {},
                              const std::atomic<bool>* cancel = nullptr);

// JSON (schema gemmlab-sweep-1) and CSV (one line per entry).
std::string sweep_report_json(const SweepReport& report);
std::string sweep_report_csv(const SweepReport& report);

// "i/N": shard i (from 0) of N, for a sweep spread over machines (each takes the shapes whose index % N == i).
struct Shard {
  int index = 0, count = 1;
};
Result<Shard> parse_shard(std::string_view text);
// The JSON reports of a sweep's shards as one report, its shapes in their original order. Errors: a report that is
// not a sweep's, shards of different sweeps (input, order, profile, rungs), a shape in two shards.
Result<std::string> merge_sweep_reports(const std::vector<std::string>& reports);

// A recorded sweep's report (its JSON) with the model's columns predicted again, by this build's model for `profile`
// (the GPU the report was measured on, say), and its measured columns as recorded: what the model gets right on a
// sweep timed before it changed, or on another GPU than the one it was run with.
Result<std::string> rescore_sweep_report(std::string_view report, const sim::DeviceProfile& profile);

}  // namespace gemmlab::gpu
