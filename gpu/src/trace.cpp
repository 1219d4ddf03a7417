// trace_kernel(): validate, trace, then time the traced kernel against the untraced one (see trace.hpp).
#include "gemmlab/gpu/trace.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "cuda_events.hpp"
#include "device_buffer.hpp"
#include "gemmlab/gpu/device.hpp"
#include "gemmlab/gpu/runtime_compile.hpp"
#include "gemmlab/sim/rung_model.hpp"
#include "gemmlab/sim/simulate.hpp"
#include "gemmlab/sim/statistics.hpp"
#include "session.hpp"
#include "verify_detail.hpp"

namespace gemmlab::gpu {
namespace {

// The most tiles one block walks: a persistent grid's share of the tiles, Stream-K's most segments, else one.
int tiles_per_block(const GpuInstance& kernel, const sim::LaunchShape& shape, int launched) {
  if (sim::walks_stream_k(kernel.rung)) return shape.plan.most_segments();
  if (kernel.config.grid <= 0) return 1;
  const int tiles = shape.blocks / std::max(1, shape.splits);
  return (tiles + launched - 1) / launched;
}

// Enough events for the phases one block stamps: each phase, a wait or two and the barrier after it, and the copies of
// a stage (the TMA boxes of A and B, which a producer issues in one phase); with room for the prologue and epilogues.
int default_events(const GpuInstance& kernel, const Shape& problem, const sim::LaunchShape& shape, int stamped_tiles) {
  const kernel::KernelConfig& c = kernel.config;
  int copies = 0;
  if (const auto boxes = sim::tma_box_shapes(kernel.rung, c, {problem.m, problem.n, problem.k});
      boxes && boxes->a_rows > 0 && boxes->b_rows > 0)  // one box of A's rows per column of boxes; B's panels
    copies = kernel::ceil_div(c.bk, boxes->a_cols) +
             kernel::ceil_div(c.bk, boxes->b_rows) * kernel::ceil_div(c.bn, boxes->b_cols);
  const long phases = static_cast<long>(stamped_tiles) *
                      (static_cast<long>(shape.ksteps) * static_cast<long>(shape.schedule_of_one_kstep.size()) + 40);
  return static_cast<int>(std::min<long>(kMaxTraceEventsPerWarp, (4 + copies) * phases + 256));
}

// The role of each warpgroup of a block: a warp-specialised rung's consumers and producer, else "warpgroup".
std::vector<std::string> warpgroup_roles(const GpuInstance& kernel, int warpgroups) {
  const auto roles = sim::warp_roles(kernel.rung, kernel.config);
  std::vector<std::string> out;
  for (int w = 0; w < warpgroups; ++w)
    out.push_back(!roles ? "warpgroup" : 128 * w < roles->consumer_threads ? "consumer" : "producer");
  return out;
}

Result<std::vector<float>> copy_c(const GemmBuffers& buffers, cudaStream_t stream) {
  std::vector<float> host(buffers.c.size());
  GEMMLAB_CUDA_TRY(
      cudaMemcpyAsync(host.data(), buffers.c.data(), host.size() * sizeof(float), cudaMemcpyDeviceToHost, stream));
  if (auto ok = finish(stream, "copying C back"); !ok) return ok.error();
  return host;
}

}  // namespace

Result<TraceRun> trace_kernel(const TraceOptions& o) {
  if (o.blocks < 1 || o.blocks > kMaxTracedBlocks)
    return Error{"the sampled blocks must be 1 to " + std::to_string(kMaxTracedBlocks) + ", not " +
                 std::to_string(o.blocks)};
  if (o.events_per_warp < 0 || o.events_per_warp > kMaxTraceEventsPerWarp)
    return Error{"the events per warp must be 1 to " + std::to_string(kMaxTraceEventsPerWarp) +
                 " (0: chosen for the shape)"};
  if (o.runs < 1 || o.runs > 1000) return Error{"the timed runs must be 1 to 1000, not " + std::to_string(o.runs)};
  if (o.tiles < 0) return Error{"the stamped tiles must be 1 or more (0: every tile), not " + std::to_string(o.tiles)};
  auto session = Session::open(o.device);
  if (!session) return session.error();
  const Shape& s = o.shape;
  const sim::Problem problem{s.m, s.n, s.k, o.alpha, o.beta};
  if (auto valid = sim::validate(o.kernel.rung, o.kernel.config, problem, session->limits()); !valid)
    return valid.error();
  if (auto takes = sim::validate_input(o.kernel.rung, o.kernel.config, o.input); !takes) return takes.error();
  auto launch = sim::launch_shape(o.kernel.rung, o.kernel.config, problem);
  if (!launch) return launch.error();
  const std::string what = std::string(rung_info(o.kernel.rung).slug) + " (" + instance_label(o.kernel) + ", " +
                           std::string(kernel::input_name(o.input)) + ") at " + to_string(s);

  // Validate: the untraced kernel against the FP64 reference.
  auto buffers = GemmBuffers::allocate(s);
  if (!buffers) return buffers.error();
  if (auto ok = buffers->prepare(s, o.alpha, o.beta, o.seed, o.input, session->stream()); !ok) return ok.error();
  auto checked = run_and_check(*session, *buffers, o.kernel, s, o.alpha, o.beta, o.order);
  if (!checked) return checked.error();
  if (checked->status != CheckStatus::Passed) return Error{what + ": " + checked->message};
  auto untraced_c = copy_c(*buffers, session->stream());
  if (!untraced_c) return untraced_c.error();

  // The trace's buffers: the sampled blocks spread over the launch.
  const GemmArgs args = buffers->args(s, o.alpha, o.beta, o.order);
  const int launched = launched_blocks(o.kernel, args);
  TraceRun run;
  run.blocks_sampled = std::min(o.blocks, launched);
  run.tiles_per_block = tiles_per_block(o.kernel, *launch, launched);
  run.tiles_stamped = o.tiles == 0 ? run.tiles_per_block : std::min(o.tiles, run.tiles_per_block);
  run.events_per_warp =
      o.events_per_warp > 0 ? o.events_per_warp : default_events(o.kernel, o.shape, *launch, run.tiles_stamped);
  TraceRequest request;
  request.stamped_tiles = run.tiles_stamped < run.tiles_per_block ? run.tiles_stamped : 0;
  kernel::TraceSink& sink = request.sink;
  sink.blocks = run.blocks_sampled, sink.stride = launched / run.blocks_sampled;
  sink.warpgroups = (launch->threads_per_block + 127) / 128, sink.capacity = run.events_per_warp;
  const auto slots = static_cast<std::size_t>(sink.slots());
  auto headers = DeviceBuffer<kernel::TraceWarpHeader>::allocate(slots, "the trace's warp headers");
  if (!headers) return headers.error();
  auto events = DeviceBuffer<kernel::TraceEvent>::allocate(slots * static_cast<std::size_t>(sink.capacity),
                                                           "the trace's events (use fewer --blocks or --events)");
  if (!events) return events.error();
  sink.headers = headers->data(), sink.events = events->data();

  // The tracing build (compiled now, or found in the cache), then one traced launch whose C must be the same.
  auto variant = kernel_variant(o.kernel, o.input, s.n, s.k);  // the launch's own variant, traced
  if (!variant) return variant.error();
  variant->traced = true, variant->stamped_tiles = request.stamped_tiles;
  auto compiled = prepare_runtime_kernel(o.kernel, *variant, o.device);
  if (!compiled) return compiled.error();
  run.traced_registers = compiled->registers, run.traced_spill_bytes = compiled->spill_bytes;
  run.traced_ptxas_warnings = compiled->ptxas_warnings;
  const auto traced_launch = [&]() -> Status {
    GEMMLAB_CUDA_TRY(cudaMemsetAsync(sink.headers, 0xff, slots * sizeof(kernel::TraceWarpHeader), session->stream()));
    return launch_gemm(o.kernel, args, session->stream(), &request);
  };
  if (auto ok = buffers->reset_c(o.beta, session->stream()); !ok) return ok.error();
  if (auto ok = traced_launch(); !ok) return ok.error();
  if (auto ok = finish(session->stream(), "the traced " + what); !ok) return ok.error();
  auto traced_c = copy_c(*buffers, session->stream());
  if (!traced_c) return traced_c.error();
  if (std::memcmp(traced_c->data(), untraced_c->data(), traced_c->size() * sizeof(float)) != 0)
    return Error{"the traced " + what + " computed a different C from the untraced kernel: the tracing changed it"};

  // Time: the two kernels alternate, each run between its own pair of events.
  Events marks(4 * static_cast<std::size_t>(o.runs));
  if (auto ok = marks.create(); !ok) return ok.error();
  for (std::size_t i = 0; i < static_cast<std::size_t>(o.runs); ++i) {
    GEMMLAB_CUDA_TRY(cudaEventRecord(marks[4 * i], session->stream()));
    if (auto ok = launch_gemm(o.kernel, args, session->stream()); !ok) return ok.error();
    GEMMLAB_CUDA_TRY(cudaEventRecord(marks[4 * i + 1], session->stream()));
    GEMMLAB_CUDA_TRY(cudaMemsetAsync(sink.headers, 0xff, slots * sizeof(kernel::TraceWarpHeader), session->stream()));
    GEMMLAB_CUDA_TRY(cudaEventRecord(marks[4 * i + 2], session->stream()));
    if (auto ok = launch_gemm(o.kernel, args, session->stream(), &request); !ok) return ok.error();
    GEMMLAB_CUDA_TRY(cudaEventRecord(marks[4 * i + 3], session->stream()));
  }
  if (auto ok = finish(session->stream(), "timing the traced " + what); !ok) return ok.error();
  std::vector<double> untraced_ms, traced_ms;
  for (std::size_t i = 0; i < static_cast<std::size_t>(o.runs); ++i) {
    float a = 0, b = 0;
    GEMMLAB_CUDA_TRY(cudaEventElapsedTime(&a, marks[4 * i], marks[4 * i + 1]));
    GEMMLAB_CUDA_TRY(cudaEventElapsedTime(&b, marks[4 * i + 2], marks[4 * i + 3]));
    untraced_ms.push_back(a), traced_ms.push_back(b);
  }
  run.runs = o.runs, run.untraced_ms = sim::median(untraced_ms), run.traced_ms = sim::median(traced_ms);

  // The last traced run's records.
  std::vector<kernel::TraceWarpHeader> host_headers(slots);
  std::vector<kernel::TraceEvent> host_events(events->size());
  GEMMLAB_CUDA_TRY(
      cudaMemcpy(host_headers.data(), sink.headers, slots * sizeof(kernel::TraceWarpHeader), cudaMemcpyDeviceToHost));
  GEMMLAB_CUDA_TRY(cudaMemcpy(host_events.data(), sink.events, host_events.size() * sizeof(kernel::TraceEvent),
                              cudaMemcpyDeviceToHost));
  const auto roles = warpgroup_roles(o.kernel, sink.warpgroups);
  auto timeline = sim::timeline_from_records(host_headers, host_events, sink.capacity, roles);
  if (!timeline) return timeline.error();
  run.timeline = std::move(*timeline);
  run.device = session->device().name, run.measured_at = utc_now();
  if (auto versions = software_versions())
    run.driver = versions->driver, run.cuda = format_cuda_version(versions->runtime_version);
  sim::Timeline& t = run.timeline;
  t.kernel = std::string(rung_info(o.kernel.rung).slug) + " (" + instance_label(o.kernel) + ")";
  t.source = "measured on the " + run.device + " (driver " + run.driver + ", CUDA " + run.cuda + ") at " +
             run.measured_at + ": " + std::to_string(run.blocks_sampled) + " of " + std::to_string(launched) +
             " blocks sampled, the first warp of each warpgroup";
  if (run.tiles_per_block > 1)
    t.source += run.tiles_stamped >= run.tiles_per_block ? ", every tile stamped"
                : run.tiles_stamped == 1
                    ? ", the first of up to " + std::to_string(run.tiles_per_block) + " tiles stamped"
                    : ", the first " + std::to_string(run.tiles_stamped) + " of up to " +
                          std::to_string(run.tiles_per_block) + " tiles stamped";
  t.m = s.m, t.n = s.n, t.k = s.k, t.input = std::string(kernel::input_name(o.input)), t.blocks_launched = launched;
  if (run.tiles_per_block > 1) t.tiles_per_block = run.tiles_per_block, t.stamped_tiles = run.tiles_stamped;
  return run;
}

}  // namespace gemmlab::gpu
