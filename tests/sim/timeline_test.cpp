// Timelines (gemmlab/sim/timeline.hpp): built from records as a traced kernel writes them, written and read back in
// the Chrome trace-event format, checked for nesting, summarised. The GPU side is tests/gpu/trace_test.cpp.
#include "gemmlab/sim/timeline.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "gemmlab/file_io.hpp"

namespace gemmlab::sim {
namespace {

using kernel::Section;
using kernel::TraceEvent;
using kernel::TraceOp;
using kernel::TraceWarpHeader;

bool contains(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

// A phase as the kernel stamps it (its section and number), or an operation (the enclosing phase's: left to the host).
TraceEvent event(TraceOp op, std::uint32_t begin, std::uint32_t end, int arg, Section section = Section::Mainloop,
                 int phase = 0) {
  if (op != TraceOp::Phase)
    return {begin, end, arg, static_cast<std::uint8_t>(op), kernel::kTraceSectionOfParent, 0, 0};
  return {begin,
          end,
          arg,
          static_cast<std::uint8_t>(op),
          static_cast<std::uint8_t>(section),
          static_cast<std::uint8_t>(phase),
          0};
}

// One block of a warp-specialised kernel at 2 cycles per nanosecond: a consumer (slot 0) and a producer (slot 1),
// capacity 8 events each. The producer copies into stage 0 (mbarrier at byte 64) at cycle 100 and 120 after its start;
// the consumer waits for that mbarrier from 200 to 600 cycles after its own start, 100 ns later than the producer's.
struct Records {
  static constexpr int capacity = 8;
  std::vector<TraceWarpHeader> headers;
  std::vector<TraceEvent> events = std::vector<TraceEvent>(3 * capacity);
  std::vector<std::string> roles{"consumer", "producer"};
  Records() {
    // Counters near the 32-bit wrap: an event's 32 bits come after the start's.
    const std::uint64_t consumer_start = (1ull << 32) - 100, producer_start = 5000;
    headers.push_back({0, 3, 0, 4, consumer_start, consumer_start + 2000, 1'000'100, 1'001'100});
    headers.push_back({0, 3, 1, 3, producer_start, producer_start + 2000, 1'000'000, 1'001'000});
    headers.push_back({});  // a slot no block wrote (block -1)
    const auto c = [&](std::uint64_t offset) { return static_cast<std::uint32_t>(consumer_start + offset); };
    const auto p = [&](std::uint64_t offset) { return static_cast<std::uint32_t>(producer_start + offset); };
    events[0] = event(TraceOp::Phase, c(100), c(1000), 0);
    events[1] = event(TraceOp::MbarrierWait, c(200), c(600), 64);
    events[2] = event(TraceOp::WgmmaWait, c(700), c(900), 1);
    events[3] = event(TraceOp::Barrier, c(1100), c(1200), 0);
    events[capacity + 0] = event(TraceOp::Phase, p(50), p(300), 0);
    events[capacity + 1] = event(TraceOp::TmaLoad, p(100), p(110), 64);
    events[capacity + 2] = event(TraceOp::TmaLoad, p(120), p(130), 64);
  }
};

TEST(Timeline, RecordsBecomeTracksOnOneClockInNanoseconds) {
  const Records r;
  const auto t = timeline_from_records(r.headers, r.events, Records::capacity, r.roles);
  ASSERT_TRUE(t) << t.error().message;
  ASSERT_EQ(t->tracks.size(), 2u);  // the unwritten slot is left out
  // By SM, then start: the producer started 100 ns before the consumer.
  const Track& producer = t->tracks[0];
  const Track& consumer = t->tracks[1];
  EXPECT_EQ(producer.role, "producer");
  EXPECT_EQ(consumer.role, "consumer");
  EXPECT_EQ(consumer.sm, 3);
  EXPECT_EQ(producer.begin_ns, 0);
  EXPECT_EQ(consumer.begin_ns, 100);
  EXPECT_EQ(consumer.end_ns, 100 + 1000);  // 2000 cycles at 2 cycles per ns
  ASSERT_EQ(consumer.spans.size(), 4u);
  EXPECT_EQ(consumer.spans[0].op, TraceOp::Phase);  // the phase before the wait inside it
  EXPECT_EQ(consumer.spans[1].op, TraceOp::MbarrierWait);
  EXPECT_EQ(consumer.spans[1].begin_ns, 100 + 100);
  EXPECT_EQ(consumer.spans[1].end_ns, 100 + 300);
  EXPECT_EQ(consumer.spans[1].arg, 64);
  EXPECT_EQ(consumer.spans[1].section, Section::Mainloop);  // the enclosing phase's
  EXPECT_EQ(consumer.spans[3].op, TraceOp::Barrier);
  EXPECT_EQ(consumer.spans[3].section, Section::Mainloop);  // the barrier after the phase: that phase's
  EXPECT_EQ(producer.spans[1].begin_ns, 50);
  EXPECT_TRUE(check_nesting(*t));
}

TEST(Timeline, AWarpThatRanOutOfBufferSaysHowManyEventsItLost) {
  Records r;
  r.headers[1].events = Records::capacity + 5;  // stamped 13, room for 8
  const auto t = timeline_from_records(r.headers, r.events, Records::capacity, r.roles);
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(t->tracks[0].lost, 5u);
  EXPECT_EQ(t->tracks[0].spans.size(), static_cast<std::size_t>(Records::capacity));
  const TimelineSummary s = summarize(*t);
  EXPECT_EQ(s.lost, 5u);
  EXPECT_EQ(s.tracks_with_lost, 1);
  EXPECT_TRUE(contains(chrome_trace_json(*t), "5 events lost"));
}

TEST(Timeline, RecordsNoKernelCouldWriteAreRefused) {
  Records r;
  std::vector<TraceWarpHeader> none(2);
  EXPECT_FALSE(timeline_from_records(none, r.events, Records::capacity, r.roles));
  r.headers[0].warpgroup = 7;  // no such role
  EXPECT_FALSE(timeline_from_records(r.headers, r.events, Records::capacity, r.roles));
  Records bad_section;
  bad_section.events[0].section = 9;
  EXPECT_FALSE(timeline_from_records(bad_section.headers, bad_section.events, Records::capacity, bad_section.roles));
  Records bad_op;
  bad_op.events[2].op = 200;
  const auto t = timeline_from_records(bad_op.headers, bad_op.events, Records::capacity, bad_op.roles);
  ASSERT_FALSE(t);
  EXPECT_TRUE(contains(t.error().message, "could not have written"));
  EXPECT_FALSE(timeline_from_records(r.headers, std::span(r.events).first(4), Records::capacity, r.roles));
}

TEST(Timeline, TheChromeTraceReadsBackAsWritten) {
  const Records r;
  auto t = timeline_from_records(r.headers, r.events, Records::capacity, r.roles);
  ASSERT_TRUE(t);
  t->kernel = "tma-wgmma-specialized (default)", t->source = "made up for the test";
  t->m = 128, t->n = 256, t->k = 64, t->input = "bf16", t->blocks_launched = 1;
  t->tiles_per_block = 4, t->stamped_tiles = 2;
  const std::string text = chrome_trace_json(*t);
  // What Perfetto reads: complete events with times in microseconds, and the names of processes and threads.
  const auto doc = nlohmann::json::parse(text);
  int complete = 0;
  bool named_thread = false;
  for (const auto& e : doc["traceEvents"]) {
    if (e["ph"] == "X") ++complete;
    if (e["ph"] == "M" && e["name"] == "thread_name")
      named_thread = named_thread || e["args"]["name"] == "block 0, consumer (warpgroup 0)";
  }
  EXPECT_EQ(complete, 7);
  EXPECT_TRUE(named_thread);
  EXPECT_TRUE(contains(text, "\"name\":\"k-step 0\""));
  const auto back = parse_chrome_trace(text);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->kernel, t->kernel);
  EXPECT_EQ(back->k, 64);
  EXPECT_EQ(back->tiles_per_block, 4);
  EXPECT_EQ(back->stamped_tiles, 2);
  ASSERT_EQ(back->tracks.size(), t->tracks.size());
  for (std::size_t i = 0; i < t->tracks.size(); ++i) {
    const Track& a = t->tracks[i];
    const Track& b = back->tracks[i];
    EXPECT_EQ(std::tie(a.sm, a.block, a.warpgroup, a.role, a.begin_ns, a.end_ns, a.lost),
              std::tie(b.sm, b.block, b.warpgroup, b.role, b.begin_ns, b.end_ns, b.lost));
    ASSERT_EQ(a.spans.size(), b.spans.size());
    for (std::size_t j = 0; j < a.spans.size(); ++j) {
      EXPECT_EQ(a.spans[j].op, b.spans[j].op);
      EXPECT_EQ(a.spans[j].section, b.spans[j].section);
      EXPECT_EQ(a.spans[j].arg, b.spans[j].arg);
      EXPECT_EQ(a.spans[j].begin_ns, b.spans[j].begin_ns);
      EXPECT_EQ(a.spans[j].end_ns, b.spans[j].end_ns);
    }
  }
}

TEST(Timeline, AMalformedOrForeignTraceIsASentence) {
  EXPECT_TRUE(contains(parse_chrome_trace("{").error().message, "not JSON"));
  EXPECT_TRUE(contains(parse_chrome_trace(R"({"traceEvents": []})").error().message, "not a gemmlab trace"));
  const Records r;
  auto t = timeline_from_records(r.headers, r.events, Records::capacity, r.roles);
  ASSERT_TRUE(t);
  auto doc = nlohmann::json::parse(chrome_trace_json(*t));
  doc["otherData"]["gemmlab"]["version"] = kTraceFormatVersion + 1;
  EXPECT_TRUE(contains(parse_chrome_trace(doc.dump()).error().message, "this build reads format"));
  doc = nlohmann::json::parse(chrome_trace_json(*t));
  doc["otherData"]["gemmlab"].erase("tracks");
  EXPECT_TRUE(contains(parse_chrome_trace(doc.dump()).error().message, "missing or malformed"));
  // A wait that starts inside a phase and ends after it: the spans do not nest.
  doc = nlohmann::json::parse(chrome_trace_json(*t));
  for (auto& e : doc["traceEvents"])
    if (e["ph"] == "X" && e["name"] == "mbarrier wait")
      e["dur"] = 0.45;  // from 200 ns to 650 ns: past the phase (to 600 ns), inside the run
  const auto overlapping = parse_chrome_trace(doc.dump());
  ASSERT_FALSE(overlapping);
  EXPECT_TRUE(contains(overlapping.error().message, "without nesting")) << overlapping.error().message;
}

TEST(Timeline, AKStepLastsFromItsStartToTheNextOnesStart) {
  Records r;
  const std::uint64_t start = r.headers[0].start_cycles;
  const auto c = [&](std::uint64_t offset) { return static_cast<std::uint32_t>(start + offset); };
  r.events[3] = event(TraceOp::Phase, c(1300), c(1500), 1);  // k-step 1 starts 1200 cycles after k-step 0
  r.events[4] = event(TraceOp::Phase, c(1700), c(1800), 3);  // k-step 3: not the next one, its own length
  r.headers[0].events = 5;
  const auto t = timeline_from_records(r.headers, r.events, Records::capacity, r.roles);
  ASSERT_TRUE(t) << t.error().message;
  const RoleSummary& consumer = summarize(*t).roles[0];
  EXPECT_EQ(consumer.ksteps, 3);
  EXPECT_DOUBLE_EQ(consumer.median_kstep_ns, 100);  // of 600 (k-step 0), 100 (k-step 1), 50 (k-step 3)
}

TEST(Timeline, ATilesLastKStepEndsAtItsEpilogue) {
  // A persistent block: k-steps 0 and 1 of tile 0, its epilogue, then k-step 2 (tile 1's first).
  Timeline t;
  Track c{0, 0, 0, "consumer", 0, 10000, 0, {}, false};
  c.spans = {{TraceOp::Phase, Section::Mainloop, 0, 0, 0, 100},
             {TraceOp::Phase, Section::Mainloop, 0, 1, 1000, 1100},
             {TraceOp::Phase, Section::Epilogue, 0, 0, 1200, 5000},
             {TraceOp::Phase, Section::Mainloop, 0, 2, 6000, 6100}};
  t.tracks.push_back(c);
  const RoleSummary& r = summarize(t).roles[0];
  EXPECT_EQ(r.ksteps, 3);
  EXPECT_DOUBLE_EQ(r.median_kstep_ns, 100);  // 1000 (start to start), then 100 and 100: not 5000 across the epilogue
}

TEST(Timeline, EachKStepSaysHowLongItsWarpWaitedInsideIt) {
  Track c{0, 0, 0, "consumer", 0, 10000, 0, {}, false};
  c.spans = {{TraceOp::Phase, Section::Prologue, 0, 0, 0, 50},
             {TraceOp::MbarrierWait, Section::Prologue, 0, 0, 10, 40},  // in the prologue: no k-step's
             {TraceOp::Phase, Section::Mainloop, 0, 0, 100, 500},
             {TraceOp::MbarrierWait, Section::Mainloop, 0, 64, 120, 300},
             {TraceOp::WgmmaWait, Section::Mainloop, 0, 1, 400, 450},
             {TraceOp::Barrier, Section::Mainloop, 0, 0, 500, 600},  // the barrier after a phase: not counted
             {TraceOp::Phase, Section::Mainloop, 1, 0, 500, 700},    // k-step 0's second phase
             {TraceOp::WgmmaWait, Section::Mainloop, 1, 1, 600, 650},
             {TraceOp::Phase, Section::Mainloop, 0, 1, 1000, 1100},
             {TraceOp::Phase, Section::Epilogue, 0, 0, 1200, 5000},
             {TraceOp::WgmmaWait, Section::Epilogue, 0, 0, 1300, 1400}};  // in the epilogue: no k-step's
  const auto steps = kstep_spans(c);
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(steps[0].kstep, 0);
  EXPECT_EQ(steps[0].begin_ns, 100);
  EXPECT_EQ(steps[0].end_ns, 1000);  // to the next k-step's start
  EXPECT_EQ(steps[0].waited_ns, 180 + 50 + 50);
  EXPECT_EQ(steps[1].end_ns, 1100);  // the tile's last: its own end
  EXPECT_EQ(steps[1].waited_ns, 0);
}

TEST(Timeline, AnOperationAsLongAsItsPhaseNestsInsideIt) {
  Records r;
  const std::uint64_t start = r.headers[0].start_cycles;
  const auto c = [&](std::uint64_t offset) { return static_cast<std::uint32_t>(start + offset); };
  r.events[0] = event(TraceOp::MbarrierWait, c(100), c(1000), 64);  // written before its phase, as the kernel does
  r.events[1] = event(TraceOp::Phase, c(100), c(1000), 5);
  r.headers[0].events = 2;
  const auto t = timeline_from_records(r.headers, r.events, Records::capacity, r.roles);
  ASSERT_TRUE(t) << t.error().message;
  const Track& consumer = t->tracks[1];
  EXPECT_EQ(consumer.spans[0].op, TraceOp::Phase);
  EXPECT_EQ(consumer.spans[1].section, Section::Mainloop);  // the phase's, not the one before
  EXPECT_TRUE(check_nesting(*t));
}

TEST(Timeline, AWarpLongerThanItsEventsCanSayIsRefused) {
  Records r;
  r.headers[0].end_cycles = r.headers[0].start_cycles + (1ull << 32);
  const auto t = timeline_from_records(r.headers, r.events, Records::capacity, r.roles);
  ASSERT_FALSE(t);
  EXPECT_TRUE(contains(t.error().message, "2^32 cycles"));
}

TEST(Timeline, EveryProcessAndThreadIdIsAtLeastZero) {
  // Perfetto reads a negative id as none: the model's block (block -1) and SM 0 would share a thread.
  const Records r;
  auto t = timeline_from_records(r.headers, r.events, Records::capacity, r.roles);
  ASSERT_TRUE(t);
  t->tracks.push_back({-1, -1, 0, "consumer", 0, 100, 0, {}, true});
  const auto doc = nlohmann::json::parse(chrome_trace_json(*t));
  for (const auto& e : doc["traceEvents"]) {
    EXPECT_GE(e["pid"].get<int>(), 0) << e.dump();
    if (e.contains("tid")) {
      EXPECT_GE(e["tid"].get<int>(), 0) << e.dump();
    }
  }
  // A file written before tracks said whether they were predicted reads as measured tracks.
  auto old = doc;
  for (auto& track : old["otherData"]["gemmlab"]["tracks"]) track.erase("predicted");
  const auto back = parse_chrome_trace(old.dump());
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_FALSE(back->tracks[0].predicted);
}

TEST(Timeline, TheSummarySaysWhereEachRolesTimeWent) {
  const Records r;
  const auto t = timeline_from_records(r.headers, r.events, Records::capacity, r.roles);
  ASSERT_TRUE(t);
  const TimelineSummary s = summarize(*t);
  ASSERT_EQ(s.roles.size(), 2u);
  const RoleSummary& consumer = s.roles[0];
  EXPECT_EQ(consumer.role, "consumer");
  EXPECT_DOUBLE_EQ(consumer.total_ns, 1000);
  EXPECT_DOUBLE_EQ(consumer.phases_ns, 450);
  EXPECT_DOUBLE_EQ(consumer.busy_ns, 450 - 200 - 100);  // the phase less the mbarrier and wgmma waits inside it
  ASSERT_EQ(consumer.waits_ns.size(), 3u);
  EXPECT_EQ(consumer.waits_ns[0].first, "mbarrier wait");  // largest first
  EXPECT_DOUBLE_EQ(consumer.waits_ns[0].second, 200);
  EXPECT_EQ(consumer.ksteps, 1);
  EXPECT_DOUBLE_EQ(consumer.median_kstep_ns, 450);
  const RoleSummary& producer = s.roles[1];
  EXPECT_DOUBLE_EQ(producer.issue_ns, 10);
  // The stage's copies were issued at 50 ns; the consumer's wait for them ended at 400 ns.
  EXPECT_EQ(s.copies_matched, 1);
  EXPECT_DOUBLE_EQ(s.median_copy_to_use_ns, 350);
  EXPECT_DOUBLE_EQ(s.median_consumer_wait_ns, 200);
  EXPECT_DOUBLE_EQ(s.kernel_ns, 1100);
  EXPECT_EQ(s.epilogues, 0);
  // In the words every face uses.
  EXPECT_EQ(waits_text(consumer), "mbarrier wait 20%, wgmma wait 10%, block barrier 5%");
  EXPECT_EQ(share_text(150, 1000), "15%");
  EXPECT_EQ(pace_role(s), &s.roles[0]);
  const auto findings = findings_text(s);
  ASSERT_EQ(findings.size(), 1u);  // the copies; no epilogue followed by another tile
  EXPECT_TRUE(contains(findings[0], "median 350 ns from the issue")) << findings[0];
  EXPECT_TRUE(contains(findings[0], "the consumer waited 200 ns")) << findings[0];
  RoleSummary idle;
  EXPECT_EQ(waits_text(idle), "-");
}

// Rung 24's consumers take turns: each waits on a stage's mbarrier only for its own tiles, and on its turn's mbarrier,
// which no copy completes. A wait takes the last fill of its stage before it ended, and a turn is no wait for copies.
TEST(Timeline, AConsumerThatSitsOutTilesTakesItsOwnFills) {
  const auto span = [](TraceOp op, int arg, std::int64_t begin, std::int64_t end) {
    return Span{op, Section::Mainloop, 0, arg, begin, end};
  };
  Timeline t;
  t.tracks.push_back({0,
                      0,
                      2,
                      "producer",
                      0,
                      3000,
                      0,
                      {span(TraceOp::TmaLoad, 64, 0, 10), span(TraceOp::TmaLoad, 72, 500, 510),
                       span(TraceOp::TmaLoad, 64, 1000, 1010)},
                      false});
  // Stage 64 is filled twice (stage 72 between). Consumer 0 takes the first fill, then waits 300 ns for its turn;
  // consumer 1 sits out the first and takes the second.
  t.tracks.push_back({0,
                      0,
                      0,
                      "consumer",
                      0,
                      3000,
                      0,
                      {span(TraceOp::MbarrierWait, 64, 300, 500), span(TraceOp::MbarrierWait, 128, 600, 900)},
                      false});
  t.tracks.push_back({0, 0, 1, "consumer", 0, 3000, 0, {span(TraceOp::MbarrierWait, 64, 1200, 1600)}, false});
  const TimelineSummary s = summarize(t);
  EXPECT_EQ(s.copies_matched, 2);
  EXPECT_DOUBLE_EQ(s.median_copy_to_use_ns, (500 + 600) / 2.0);  // not 1600: the first fill was consumer 0's
  const RoleSummary& consumers = s.roles[0];
  ASSERT_EQ(consumers.role, "consumer");
  ASSERT_EQ(consumers.waits_ns.size(), 2u);
  EXPECT_EQ(consumers.waits_ns[0], (std::pair<std::string, double>{"mbarrier wait", 600}));
  EXPECT_EQ(consumers.waits_ns[1], (std::pair<std::string, double>{std::string(kMbarrierWaitNoCopy), 300}));
}

// A persistent block's epilogue: the stages the producer began to fill during it, whether the tracing build held a
// stage's copies as one span (as it does now) or stamped each copy (the traces recorded before).
TEST(Timeline, AnEpilogueCountsTheStagesFilledDuringIt) {
  const auto span = [](TraceOp op, Section section, int arg, std::int64_t begin, std::int64_t end) {
    return Span{op, section, 0, arg, begin, end};
  };
  for (const bool per_copy : {false, true}) {
    std::vector<Span> copies;
    for (const auto& [barrier, at] : {std::pair{64, 1100}, std::pair{72, 1300}, std::pair{80, 2500}}) {
      copies.push_back(span(TraceOp::TmaLoad, Section::Mainloop, barrier, at, at + 20));
      if (per_copy) copies.push_back(span(TraceOp::TmaLoad, Section::Mainloop, barrier, at + 30, at + 40));
    }
    Timeline t;
    t.tracks.push_back({0, 0, 1, "producer", 0, 3000, 0, copies, false});
    // Tile 0's epilogue from 1000 to 2000, then tile 1's first k-step waits 100 ns.
    t.tracks.push_back({0,
                        0,
                        0,
                        "consumer",
                        0,
                        3000,
                        0,
                        {span(TraceOp::Phase, Section::Epilogue, 0, 1000, 2000),
                         span(TraceOp::Phase, Section::Mainloop, 1, 2000, 2400),
                         span(TraceOp::MbarrierWait, Section::Mainloop, 64, 2000, 2100)},
                        false});
    const TimelineSummary s = summarize(t);
    ASSERT_EQ(s.epilogues, 1) << per_copy;
    EXPECT_DOUBLE_EQ(s.mean_fills_during_epilogue, 2) << per_copy;  // stages 64 and 72; 80 came after
    EXPECT_DOUBLE_EQ(s.mean_wait_after_epilogue_ns, 100) << per_copy;
    const auto findings = findings_text(s);
    EXPECT_TRUE(contains(findings.back(), "began to fill 2.0 stages meanwhile")) << findings.back();
  }
}

// The traces recorded on the H200 (docs/timeline-data and a folder per later run, scripts/trace-run): this build reads
// every one, its spans nest, and each has the main loop of every rung's consumers.
TEST(Timeline, TheRecordedTracesReadBackAndNest) {
  int files = 0;
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(std::string(GEMMLAB_SOURCE_DIR) + "/docs/timeline-data")) {
    if (!entry.path().string().ends_with(".trace.json")) continue;
    ++files;
    const auto text = read_input_file(entry.path().string(), "trace");
    ASSERT_TRUE(text) << text.error().message;
    const auto t = parse_chrome_trace(*text);
    ASSERT_TRUE(t) << entry.path() << ": " << t.error().message;
    EXPECT_FALSE(t->tracks.empty()) << entry.path();
    const TimelineSummary s = summarize(*t);
    EXPECT_EQ(s.lost, 0u) << entry.path();
    const auto consumers = std::ranges::find_if(
        s.roles, [](const RoleSummary& r) { return r.role == "consumer" || r.role == "warpgroup"; });
    ASSERT_NE(consumers, s.roles.end()) << entry.path();
    EXPECT_GT(consumers->ksteps, 0) << entry.path();
  }
  EXPECT_GE(files, 8);  // rungs 17 to 24
}

}  // namespace
}  // namespace gemmlab::sim
