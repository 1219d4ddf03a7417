// run_bench(): verify, warm up, then time each entry with CUDA events (see bench.hpp).
#include "gemmlab/gpu/bench.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <optional>

#include "cuda_error.hpp"
#include "cuda_events.hpp"
#include "gemmlab/gpu/instances.hpp"
#include "gemmlab/gpu/runtime_compile.hpp"
#include "gemmlab/sim/statistics.hpp"
#include "reference.hpp"
#include "session.hpp"
#include "stream_gate.hpp"
#include "verify_detail.hpp"

namespace gemmlab::gpu {
namespace {

// Runs queued behind the gate at a time (each a few events and launches), and how long the gate waits for the host.
constexpr std::size_t kRunsPerGate = 32;
constexpr double kGateSeconds = 2.0;

// A row's figures from its runs' times (sorted, in ms): how many, the extremes, the median and its TFLOPS.
void set_times(BenchRow& row, const std::vector<double>& sorted, const Shape& shape) {
  row.runs = static_cast<int>(sorted.size());
  row.min_ms = sorted.front(), row.max_ms = sorted.back();
  row.median_ms = sim::median(sorted);
  row.tflops = 2.0 * shape.m * static_cast<double>(shape.n) * shape.k / (row.median_ms * 1e-3) / 1e12;
}

int sm_clock_now(int device) {
  const auto devices = list_devices();
  if (!devices || device >= static_cast<int>(devices->size())) return 0;
  return (*devices)[static_cast<std::size_t>(device)].sm_clock_now_mhz;
}

// One input set beyond the verified one: A, B and C of the shape (A and B as 16-bit copies for 16-bit inputs).
struct InputSet {
  DeviceBuffer<float> a, b, c;
  DeviceBuffer<std::uint16_t> a16, b16;
};

// An entry of the benchmark: cuBLAS or one instance, on one input type.
struct Entry {
  std::optional<GpuInstance> kernel;
  std::string name, config;
  kernel::InputType input = kernel::InputType::F32;
};

class ShapeRun {
 public:
  ShapeRun(Session& session, const BenchOptions& options, const Shape& shape, kernel::InputType input,
           const std::atomic<bool>* cancel)
      : session_(session), options_(options), shape_(shape), input_(input), cancel_(cancel) {}

  // Allocates and fills the verified set (with its FP64 reference) and enough further sets to exceed 2x L2 (at
  // least one).
  Status prepare(std::size_t shape_index) {
    auto buffers = GemmBuffers::allocate(shape_);
    if (!buffers) return buffers.error();
    buffers_.emplace(std::move(*buffers));
    const std::uint64_t seed = case_seed(options_.seed, shape_index, 0);
    if (auto ok = buffers_->prepare(shape_, 1.0f, 0.0f, seed, input_, session_.stream()); !ok) return ok;
    const bool sixteen_bit = input_ != kernel::InputType::F32;
    const std::size_t input_bytes = sixteen_bit ? 2 : 4;
    const std::size_t set_bytes = input_bytes * (elements(shape_.m, shape_.k) + elements(shape_.k, shape_.n)) +
                                  4 * elements(shape_.m, shape_.n);
    const std::size_t l2 = static_cast<std::size_t>(session_.device().l2_bytes);
    // At least two: a kernel's run and the cuBLAS run before it (run()) read different inputs, even where one set
    // alone exceeds the L2 and part of it would still be there.
    const std::size_t sets = std::clamp<std::size_t>((2 * l2 + set_bytes - 1) / set_bytes, 2, 64);
    for (std::size_t i = 1; i < sets; ++i) {
      const std::string what = "input set " + std::to_string(i) + " of the " + to_string(shape_) + " benchmark";
      auto a = DeviceBuffer<float>::allocate(elements(shape_.m, shape_.k), "A of " + what);
      if (!a) return a.error();
      auto b = DeviceBuffer<float>::allocate(elements(shape_.k, shape_.n), "B of " + what);
      if (!b) return b.error();
      auto c = DeviceBuffer<float>::allocate(elements(shape_.m, shape_.n), "C of " + what);
      if (!c) return c.error();
      if (auto ok = fill_random(a->data(), a->size(), seed * 7 + 3 * i, session_.stream()); !ok) return ok;
      if (auto ok = fill_random(b->data(), b->size(), seed * 7 + 3 * i + 1, session_.stream()); !ok) return ok;
      InputSet set{std::move(*a), std::move(*b), std::move(*c), {}, {}};
      if (sixteen_bit) {
        auto a16 = DeviceBuffer<std::uint16_t>::allocate(set.a.size(), "16-bit A of " + what);
        if (!a16) return a16.error();
        auto b16 = DeviceBuffer<std::uint16_t>::allocate(set.b.size(), "16-bit B of " + what);
        if (!b16) return b16.error();
        if (auto ok = round_to_input(set.a.data(), a16->data(), set.a.size(), input_, session_.stream()); !ok) return ok;
        if (auto ok = round_to_input(set.b.data(), b16->data(), set.b.size(), input_, session_.stream()); !ok) return ok;
        set.a16 = std::move(*a16), set.b16 = std::move(*b16);
      }
      extra_.push_back(std::move(set));
    }
    return finish(session_.stream(), "filling the benchmark's inputs");
  }

  std::size_t sets() const { return 1 + extra_.size(); }

  // cuBLAS's own row, once every kernel has run: the median of all the cuBLAS runs interleaved with them (where there
  // were any). Timed alone, back to back, a small cuBLAS GEMM waits on its own host-side launch, which is not the GPU's
  // time (at 1024^3 on the H100, 2026-11-24: 13.6 us a run alone against about 10 us between kernels); held runs
  // (BenchOptions::hold_seconds) are all timed so, which flatters the kernels' ratios at small sizes.
  void describe_cublas(BenchRow& row) const {
    if (paired_cublas_ms_.empty()) return;
    std::vector<double> ms = paired_cublas_ms_;
    std::sort(ms.begin(), ms.end());
    set_times(row, ms, shape_);
  }

  // Times `entry`; a kernel's runs alternate with cuBLAS's (`yardstick`), each on its own input set, so neither finds
  // the other's inputs in L2.
  Result<BenchRow> run(const Entry& entry, const Entry& yardstick) {
    BenchRow row;
    row.name = entry.name;
    row.kernel = entry.kernel;
    row.compiled_at_run_time = entry.kernel && compiled_at_run_time(*entry.kernel);
    row.config = entry.config;
    row.input = entry.input;
    row.shape = shape_;
    // Verify first: a kernel that computes the wrong thing is not timed.
    auto checked = check(entry);
    if (!checked) return checked.error();
    if (checked->status != CheckStatus::Passed) {
      row.status = checked->status == CheckStatus::Refused ? BenchStatus::Refused : BenchStatus::FailedVerification;
      row.message = checked->message;
      return row;
    }
    // Warm-up, itself timed to choose how many runs fit.
    Events probe(2);
    if (auto ok = probe.create(); !ok) return ok.error();
    GEMMLAB_CUDA_TRY(cudaEventRecord(probe[0], session_.stream()));
    if (auto ok = launch(entry, 1 % sets()); !ok) return ok.error();
    GEMMLAB_CUDA_TRY(cudaEventRecord(probe[1], session_.stream()));
    if (auto ok = finish(session_.stream(), row.name + " at " + to_string(shape_)); !ok) return ok.error();
    float warm_ms = 0;
    GEMMLAB_CUDA_TRY(cudaEventElapsedTime(&warm_ms, probe[0], probe[1]));
    int runs = options_.runs;
    if (static_cast<double>(warm_ms) * runs > options_.seconds_per_entry * 1000.0) {
      runs = std::max(3, static_cast<int>(options_.seconds_per_entry * 1000.0 / static_cast<double>(warm_ms)));
      char text[160];
      std::snprintf(text, sizeof text, "%d runs instead of %d: one run takes %.2f s", runs, options_.runs,
                    static_cast<double>(warm_ms) / 1000.0);
      row.message = text;
    }
    if (auto ok = hold(entry, warm_ms); !ok) return ok.error();
    // Events per run: [before cuBLAS,] before the entry, after it.
    const bool paired = entry.kernel.has_value() && options_.hold_seconds <= 0;
    const std::size_t per_run = paired ? 3 : 2, first = paired ? 1 : 0;
    Events events(per_run * static_cast<std::size_t>(runs));
    if (auto ok = events.create(); !ok) return ok.error();
    // The runs are queued behind the stream's gate (BenchOptions::queued) a batch at a time: the stream's queue holds
    // a bounded number of launches, and the host must not wait for room in it while the gate holds it shut.
    StreamGate* gate = nullptr;
    if (options_.queued) {
      auto made = session_.gate();
      if (!made) return made.error();
      gate = *made;
      gate->take_timed_out();  // a gate that gave up in an earlier row is that row's news, reported there
    }
    for (std::size_t begin = 0; begin < static_cast<std::size_t>(runs); begin += kRunsPerGate) {
      if (gate) {
        if (auto ok = gate->close(session_.stream(), kGateSeconds); !ok) return ok.error();
      }
      const OpenOnExit opens(gate);
      for (std::size_t i = begin; i < std::min(begin + kRunsPerGate, static_cast<std::size_t>(runs)); ++i) {
        const std::size_t e = per_run * i;
        if (paired) {
          GEMMLAB_CUDA_TRY(cudaEventRecord(events[e], session_.stream()));
          if (auto ok = launch(yardstick, (2 * i) % sets()); !ok) return ok.error();
        }
        GEMMLAB_CUDA_TRY(cudaEventRecord(events[e + first], session_.stream()));
        if (auto ok = launch(entry, (paired ? 2 * i + 1 : i) % sets()); !ok) return ok.error();
        GEMMLAB_CUDA_TRY(cudaEventRecord(events[e + first + 1], session_.stream()));
      }
    }
    if (auto ok = finish(session_.stream(), row.name + " at " + to_string(shape_)); !ok) return ok.error();
    if (gate && gate->take_timed_out())
      row.message += std::string(row.message.empty() ? "" : "; ") +
                     "the host took longer to queue the runs than the gate waits: some include its launch time";
    // The runs' times between events `from` and `from + 1` of each run, sorted.
    const auto sorted_times = [&](std::size_t from) -> Result<std::vector<double>> {
      std::vector<double> ms(static_cast<std::size_t>(runs));
      for (std::size_t i = 0; i < ms.size(); ++i) {
        float t = 0;
        GEMMLAB_CUDA_TRY(cudaEventElapsedTime(&t, events[per_run * i + from], events[per_run * i + from + 1]));
        ms[i] = t;
      }
      std::sort(ms.begin(), ms.end());
      return ms;
    };
    row.sm_clock_mhz = sm_clock_now(options_.device);
    auto ms = sorted_times(first);
    if (!ms) return ms.error();
    set_times(row, *ms, shape_);
    if (paired) {
      auto yard = sorted_times(0);
      if (!yard) return yard.error();
      row.cublas_paired_ms = sim::median(*yard);
      paired_cublas_ms_.insert(paired_cublas_ms_.end(), yard->begin(), yard->end());
    }
    return row;
  }

 private:
  // BenchOptions::hold_seconds: the entry alone, back to back, in batches of about a tenth of the time (at most a
  // tenth of a second, so that a cancel is seen soon), until the time is up.
  Status hold(const Entry& entry, float warm_ms) {
    if (options_.hold_seconds <= 0) return Ok{};
    const auto start = std::chrono::steady_clock::now();
    const double batch_ms = std::min(options_.hold_seconds * 100.0, 100.0);
    const int batch = std::max(1, static_cast<int>(batch_ms / std::max(warm_ms, 0.001f)));
    for (std::size_t launched = 0;
         std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < options_.hold_seconds &&
         !(cancel_ && cancel_->load());) {
      for (int i = 0; i < batch; ++i, ++launched)
        if (auto ok = launch(entry, launched % sets()); !ok) return ok;
      if (auto ok = finish(session_.stream(), entry.name + " held at " + to_string(shape_)); !ok) return ok;
    }
    return Ok{};
  }

  static std::size_t elements(int rows, int cols) { return static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols); }

  GemmArgs args(std::size_t set) const {
    GemmArgs g = buffers_->args(shape_, 1.0f, 0.0f, options_.order);
    if (set == 0) return g;
    const InputSet& s = extra_[set - 1];
    const bool sixteen_bit = input_ != kernel::InputType::F32;
    g.a = sixteen_bit ? static_cast<const void*>(s.a16.data()) : s.a.data();
    g.b = sixteen_bit ? static_cast<const void*>(s.b16.data()) : s.b.data();
    g.c = const_cast<float*>(s.c.data());
    return g;
  }

  Status launch(const Entry& entry, std::size_t set) {
    if (entry.kernel) return launch_gemm(*entry.kernel, args(set), session_.stream());
    auto handle = session_.cublas();
    if (!handle) return handle.error();
    return launch_cublas(*handle, args(set));
  }

  Result<CheckResult> check(const Entry& entry) {
    if (entry.kernel) return run_and_check(session_, *buffers_, *entry.kernel, shape_, 1.0f, 0.0f, options_.order);
    if (auto ok = buffers_->reset_c(0.0f, session_.stream()); !ok) return ok.error();
    if (auto ok = launch(entry, 0); !ok) return ok.error();
    if (auto ok = finish(session_.stream(), "cuBLAS at " + to_string(shape_)); !ok) return ok.error();
    return buffers_->check(shape_, kernel::KernelConfig{}, session_.stream());  // cuBLAS accumulates in FP32
  }

  Session& session_;
  const BenchOptions& options_;
  Shape shape_;
  kernel::InputType input_;
  const std::atomic<bool>* cancel_;  // run_bench's: a held entry stops holding when it is set
  std::optional<GemmBuffers> buffers_;
  std::vector<InputSet> extra_;
  std::vector<double> paired_cublas_ms_;  // every cuBLAS run timed beside a kernel at this shape and input type
};

}  // namespace

Result<BenchReport> run_bench(const BenchOptions& options, const std::function<void(const BenchProgress&)>& progress,
                              const std::atomic<bool>* cancel) {
  auto selected = select_instances(options.rungs, options.all_instances, options.kernels);
  if (!selected) return selected.error();
  if (options.runs < 1) return Error{"runs must be at least 1"};
  if (!(options.hold_seconds >= 0 && options.hold_seconds <= kMaxHoldSeconds))
    return Error{"hold must be 0 to " + std::to_string(int(kMaxHoldSeconds)) + " seconds"};
  auto types = input_types_to_run(*selected, options.inputs);
  if (!types) return types.error();
  auto session = Session::open(options.device);
  if (!session) return session.error();
  auto software = software_versions();
  if (!software) return software.error();

  BenchReport report;
  report.device = session->device();
  report.software = *software;
  report.date_utc = utc_now();
  report.order = options.order;
  report.sm_clock_start_mhz = sm_clock_now(options.device);
  report.hold_seconds = options.hold_seconds;
  report.queued = options.queued;

  // Per input type: cuBLAS on that type first (the yardstick of the kernels after it), then every selected instance
  // that takes it.
  std::vector<std::vector<Entry>> groups;
  std::size_t total = 0;
  for (const kernel::InputType type : *types) {
    std::vector<Entry> group{{std::nullopt, "cublas", std::string(cublas_label(type)), type}};
    for (const GpuInstance& i : *selected) {
      const auto takes = inputs_for(i, options.inputs);
      if (std::find(takes.begin(), takes.end(), type) != takes.end())
        group.push_back({i, std::string(rung_info(i.rung).slug), instance_label(i), type});
    }
    total += group.size() * options.shapes.size();
    groups.push_back(std::move(group));
  }

  std::size_t done = 0;
  for (std::size_t si = 0; si < options.shapes.size() && !report.cancelled; ++si)
  for (const std::vector<Entry>& entries : groups) {
    const Shape& shape = options.shapes[si];
    const kernel::InputType type = entries.front().input;
    if (progress) progress({done, total, "preparing " + to_string(shape) + " " + std::string(kernel::input_name(type))});
    ShapeRun run(*session, options, shape, type, cancel);
    if (auto ok = run.prepare(si); !ok) return ok.error();
    report.buffer_sets_max = std::max(report.buffer_sets_max, static_cast<int>(run.sets()));
    const std::size_t first_row = report.rows.size();
    for (const Entry& entry : entries) {
      if (progress) progress({done, total, entry.name + " " + to_string(shape)});
      if (cancel && cancel->load()) {
        report.cancelled = true;
        break;
      }
      auto row = run.run(entry, entries.front());
      if (!row) return row.error();
      report.rows.push_back(std::move(*row));
      ++done;
    }
    // Ratios against the cuBLAS runs interleaved with each kernel's, where cuBLAS's own row was timed; held runs
    // (BenchOptions::hold_seconds) against cuBLAS's own row.
    if (report.rows.size() == first_row) break;  // cancelled before the shape's first entry
    if (report.rows[first_row].status == BenchStatus::Timed) {
      report.rows[first_row].ratio_to_cublas = 1.0;
      for (std::size_t r = first_row + 1; r < report.rows.size(); ++r)
        if (BenchRow& row = report.rows[r]; row.status == BenchStatus::Timed)
          row.ratio_to_cublas = (options.hold_seconds > 0 ? report.rows[first_row].median_ms : row.cublas_paired_ms) /
                                row.median_ms;
      run.describe_cublas(report.rows[first_row]);
    }
    if (report.cancelled) break;
  }
  report.sm_clock_end_mhz = sm_clock_now(options.device);
  if (progress) progress({done, total, "done"});
  return report;
}

}  // namespace gemmlab::gpu
