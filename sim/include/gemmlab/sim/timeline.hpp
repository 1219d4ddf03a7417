#pragma once
// A timeline of what warps did inside a kernel: one track per recorded warp (its SM, block and warpgroup, and the
// warpgroup's role), each a list of spans (a phase of the description's schedule, and inside it the waits and issues
// of kernel/trace_ops.def) on one clock in nanoseconds. A traced GPU launch makes one (gemmlab/gpu/trace.hpp, from the
// records of kernel/trace_record.hpp); it is written and read in the Chrome trace-event format, which Perfetto and
// chrome://tracing open; and summarize() says where each role's time went.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gemmlab/kernel/context.hpp"
#include "gemmlab/kernel/trace_record.hpp"
#include "gemmlab/result.hpp"

namespace gemmlab::sim {

enum class TraceOpKind { Phase, Wait, Issue };

struct TraceOpInfo {
  std::string_view name;  // as the trace file names it: "mbarrier wait"
  TraceOpKind kind;
};
const TraceOpInfo& trace_op_info(kernel::TraceOp op);
std::string_view section_name(kernel::Section section);  // "prologue", "mainloop", "epilogue"
// A span's length as the faces print it: whole nanoseconds below a microsecond, then microseconds or milliseconds
// with two decimals.
std::string duration_text(double ns);

struct Span {
  kernel::TraceOp op = kernel::TraceOp::Phase;
  kernel::Section section = kernel::Section::Prologue;  // of the phase the op ran in
  int phase = 0;
  int arg = 0;                            // as kernel::TraceEvent's
  std::int64_t begin_ns = 0, end_ns = 0;  // from the timeline's zero: the first recorded warp's start
};

// A span's name, in the trace file and on the app's lanes: its operation's ("mbarrier wait"), or a phase's place in
// the schedule: "k-step 12", "prologue 1", "epilogue 0 (tile 3)".
std::string span_name(const Span& span);

struct Track {
  int sm = 0, block = 0, warpgroup = 0;
  std::string role;                       // "consumer", "producer", or "warpgroup" where the rung has no roles
  std::int64_t begin_ns = 0, end_ns = 0;  // the warp's start and end in the block
  std::uint32_t lost = 0;                 // events past the buffer: not in `spans`
  std::vector<Span> spans;                // by begin; a phase before the ops inside it
  bool predicted = false;                 // the time model's block (predicted_timeline.hpp), not a measured warp
};

struct Timeline {
  std::string kernel;  // "tma-wgmma-specialized (bm=128 bn=256 ...)"
  std::string source;  // how it was made: "measured on the NVIDIA H200, ... "
  int m = 0, n = 0, k = 0;
  std::string input;  // "bf16"
  int blocks_launched = 0;
  // Where the launch's blocks walk several tiles: how many a block walks at most, and how many a sampled block stamped
  // from its first (its tracks end there). Both 0 where a block walks one tile, or the file is older than them.
  int tiles_per_block = 0, stamped_tiles = 0;
  std::vector<Track> tracks;
};

// The tracks of a traced launch's records: headers and events as the kernel wrote them, `capacity` events per warp,
// `roles` the name of each warpgroup's role. The cycle counter is turned into nanoseconds at the clock rate the
// records themselves show (all warps' cycles over all warps' global-timer nanoseconds), and each warp starts at its
// global-timer start. An error where no warp recorded anything or a header is not one the kernel could write.
Result<Timeline> timeline_from_records(std::span<const kernel::TraceWarpHeader> headers,
                                       std::span<const kernel::TraceEvent> events, int capacity,
                                       std::span<const std::string> roles);

// The Chrome trace-event format (JSON): an SM is a process, a recorded warp a thread named "block B, consumer
// (warpgroup W)", the model's block (predicted tracks) a process of its own, listed first, each span a complete ("X")
// event, times in microseconds; otherData.gemmlab holds the timeline's own fields, so that parse_chrome_trace reads
// back exactly what was written.
inline constexpr int kTraceFormatVersion = 1;
std::string chrome_trace_json(const Timeline& timeline);
// A file chrome_trace_json wrote. An error names what is wrong: not JSON, not gemmlab's, another version, a span
// that ends before it begins or that overlaps another without nesting in it.
Result<Timeline> parse_chrome_trace(std::string_view text);

// Ok, or the first span of a track that is not nested: each span lies inside the track, and two spans either do not
// overlap or one contains the other.
Status check_nesting(const Timeline& timeline);

// A track's main-loop k-steps, in order: each from the start of its first phase to the start of the next k-step's (what
// the compiler schedules between two stamps is then counted too), or, where no next k-step follows in the tile (an
// epilogue comes first), its phase's own end; and how long the warp waited inside it (its wait operations, the
// barriers after phases left out).
struct KstepSpan {
  int kstep = 0;
  std::int64_t begin_ns = 0, end_ns = 0;
  std::int64_t waited_ns = 0;
};
std::vector<KstepSpan> kstep_spans(const Track& track);

// Where each role's time went, over its measured tracks (the predicted ones are left out): shares of the tracks' time
// (from each warp's start to its end).
// A wait on an mbarrier that none of its block's TMA copies complete on, only other warps' arrivals: the producer's
// wait for a free stage, or a consumer's wait for its turn (rung 24). The summary names it apart from the waits for
// copies.
inline constexpr std::string_view kMbarrierWaitNoCopy = "mbarrier wait, for other warps";

struct RoleSummary {
  std::string role;
  int tracks = 0;
  double total_ns = 0;
  double phases_ns = 0;                                  // inside the schedule's phases
  std::vector<std::pair<std::string, double>> waits_ns;  // per wait op (the barrier after a phase is one)
  double issue_ns = 0;                                   // handing copies and stores to the copy engine
  double busy_ns = 0;          // in phases, neither waiting nor issuing: the warp's own instructions
  double median_kstep_ns = 0;  // a k-step's median time: start to the next k-step's start (0: none)
  int ksteps = 0;              // main-loop phases measured
};
struct TimelineSummary {
  std::vector<RoleSummary> roles;
  double kernel_ns = 0;    // the first recorded warp's start to the last one's end
  std::uint32_t lost = 0;  // events past the buffers, all warps
  int tracks_with_lost = 0;
  // The copies' latency as the consumers see it (rungs whose copies complete on mbarriers): from the issue of a
  // stage's copies to the end of the consumer's wait for them; and how long the consumer waited. Medians over every
  // k-step of the sampled blocks (0 where no copy was matched).
  int copies_matched = 0;
  double median_copy_to_use_ns = 0, median_consumer_wait_ns = 0;
  // Blocks of several tiles (persistent rungs): during the consumers' epilogue of a tile that is not the block's last,
  // how many stages the producer began to fill, and how long the consumers then waited at the next tile's first k-step.
  int epilogues = 0;
  double mean_epilogue_ns = 0, mean_fills_during_epilogue = 0, mean_wait_after_epilogue_ns = 0;
};
TimelineSummary summarize(const Timeline& timeline);

// The summary in the words every face uses (gemmlab-cli trace, the app's Timeline panel):
std::string share_text(double part_ns, double whole_ns);  // a whole percentage: "42%"
std::string waits_text(const RoleSummary& role);          // each wait's share, largest first; "-" for none
// The role whose k-steps are the kernel's pace: the consumers, or every warpgroup where the rung has no roles.
const RoleSummary* pace_role(const TimelineSummary& summary);
// The sentences on the copies' latency and on a persistent block's epilogues, where the trace has them.
std::vector<std::string> findings_text(const TimelineSummary& summary);

}  // namespace gemmlab::sim
