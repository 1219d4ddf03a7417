// Timelines of traced kernels: built from a launch's records, written and read as Chrome trace events, summarised.
#include "gemmlab/sim/timeline.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <tuple>

#include "gemmlab/sim/statistics.hpp"

namespace gemmlab::sim {
namespace {

constexpr TraceOpInfo kOps[] = {
#define GEMMLAB_TRACE_OP_INFO(ident, name, kind) {name, TraceOpKind::kind},
    GEMMLAB_TRACE_OPS(GEMMLAB_TRACE_OP_INFO)
#undef GEMMLAB_TRACE_OP_INFO
};
constexpr int kOpCount = static_cast<int>(std::size(kOps));

std::string_view kind_name(TraceOpKind kind) {
  switch (kind) {
    case TraceOpKind::Phase:
      return "phase";
    case TraceOpKind::Wait:
      return "wait";
    case TraceOpKind::Issue:
      return "issue";
  }
  return "?";
}

// The trace's process and thread of a track. Perfetto reads a negative id as none, so every id is at least 0: an SM's
// process is its number, the model's block one past any SM's (its sort index puts it first); a warp's thread is its
// block's, a slot for each of up to kWarpgroupSlots warpgroups.
constexpr int kWarpgroupSlots = 16;
constexpr int kPredictedProcess = 1 << 20;
int process_id(const Track& t) { return t.predicted ? kPredictedProcess : t.sm; }
int thread_id(const Track& t) { return (t.predicted ? 0 : t.block) * kWarpgroupSlots + t.warpgroup; }

// Spans in the order they nest: by start, the longer first, and of two with the same times the phase first (the
// kernel writes a phase after the operations inside it).
bool nests_before(const Span& a, const Span& b) {
  const bool a_phase = a.op == kernel::TraceOp::Phase, b_phase = b.op == kernel::TraceOp::Phase;
  return std::tie(a.begin_ns, b.end_ns, b_phase) < std::tie(b.begin_ns, a.end_ns, a_phase);
}

void sort_spans(std::vector<Span>& spans) { std::ranges::stable_sort(spans, nests_before); }

}  // namespace

const TraceOpInfo& trace_op_info(kernel::TraceOp op) {
  const int i = static_cast<int>(op);
  return kOps[i >= 0 && i < kOpCount ? i : 0];
}

std::string_view section_name(kernel::Section section) {
  switch (section) {
    case kernel::Section::Prologue:
      return "prologue";
    case kernel::Section::Mainloop:
      return "mainloop";
    case kernel::Section::Epilogue:
      return "epilogue";
  }
  return "?";
}

std::string span_name(const Span& s) {
  if (s.op != kernel::TraceOp::Phase) return std::string(trace_op_info(s.op).name);
  switch (s.section) {
    case kernel::Section::Prologue:
      return "prologue " + std::to_string(s.phase);
    case kernel::Section::Mainloop:
      return "k-step " + std::to_string(s.arg) + (s.phase > 0 ? " phase " + std::to_string(s.phase) : "");
    case kernel::Section::Epilogue:
      return "epilogue " + std::to_string(s.phase) + " (tile " + std::to_string(s.arg) + ")";
  }
  return "phase";
}

std::string duration_text(double ns) {
  char text[32];
  if (ns >= 1e6) std::snprintf(text, sizeof text, "%.2f ms", ns / 1e6);
  else if (ns >= 1e3) std::snprintf(text, sizeof text, "%.2f us", ns / 1e3);
  else std::snprintf(text, sizeof text, "%.0f ns", ns);
  return text;
}

Result<Timeline> timeline_from_records(std::span<const kernel::TraceWarpHeader> headers,
                                       std::span<const kernel::TraceEvent> events, int capacity,
                                       std::span<const std::string> roles) {
  if (capacity <= 0 || events.size() < headers.size() * static_cast<std::size_t>(capacity))
    return Error{"the trace's event buffer is smaller than its headers say"};
  double cycles = 0, nanoseconds = 0;
  std::uint64_t zero = UINT64_MAX;
  for (const auto& h : headers) {
    if (h.block < 0) continue;
    if (h.warpgroup < 0 || static_cast<std::size_t>(h.warpgroup) >= roles.size() || h.end_cycles < h.start_cycles ||
        h.end_ns < h.start_ns)
      return Error{"a trace header the kernel could not have written (block " + std::to_string(h.block) + ")"};
    if (h.end_cycles - h.start_cycles >= (std::uint64_t{1} << 32))  // events hold 32 bits of the counter
      return Error{"a traced warp ran for 2^32 cycles or more, longer than its events' 32-bit times can say (block " +
                   std::to_string(h.block) + "): trace a smaller problem"};
    cycles += static_cast<double>(h.end_cycles - h.start_cycles);
    nanoseconds += static_cast<double>(h.end_ns - h.start_ns);
    zero = std::min(zero, h.start_ns);
  }
  if (zero == UINT64_MAX) return Error{"no sampled warp recorded anything (the launch ran no sampled block)"};
  if (nanoseconds <= 0 || cycles <= 0)
    return Error{"the traced warps ran too briefly for the global timer to advance: trace a larger problem"};
  const double cycles_per_ns = cycles / nanoseconds;

  Timeline out;
  for (std::size_t slot = 0; slot < headers.size(); ++slot) {
    const auto& h = headers[slot];
    if (h.block < 0) continue;
    Track track;
    track.sm = h.sm, track.block = h.block, track.warpgroup = h.warpgroup;
    track.role = roles[static_cast<std::size_t>(h.warpgroup)];
    const auto to_ns = [&](std::uint64_t offset_cycles) {
      return static_cast<std::int64_t>(h.start_ns - zero) +
             static_cast<std::int64_t>(std::llround(static_cast<double>(offset_cycles) / cycles_per_ns));
    };
    track.begin_ns = to_ns(0), track.end_ns = to_ns(h.end_cycles - h.start_cycles);
    const std::uint32_t kept = std::min<std::uint32_t>(h.events, static_cast<std::uint32_t>(capacity));
    track.lost = h.events - kept;
    const auto start = static_cast<std::uint32_t>(h.start_cycles);  // events hold the counter's low 32 bits
    for (std::uint32_t i = 0; i < kept; ++i) {
      const kernel::TraceEvent& e = events[slot * static_cast<std::size_t>(capacity) + i];
      const bool phase = e.op == static_cast<int>(kernel::TraceOp::Phase);
      if (e.op >= kOpCount || (phase ? e.section > static_cast<int>(kernel::Section::Epilogue)
                                     : e.section != kernel::kTraceSectionOfParent))
        return Error{"a trace event the kernel could not have written (block " + std::to_string(h.block) + ")"};
      Span s;
      s.op = static_cast<kernel::TraceOp>(e.op);
      if (phase) s.section = static_cast<kernel::Section>(e.section), s.phase = e.phase;
      s.arg = e.arg;
      s.begin_ns = to_ns(static_cast<std::uint32_t>(e.begin - start));
      s.end_ns = to_ns(static_cast<std::uint32_t>(e.end - start));
      track.spans.push_back(s);
    }
    sort_spans(track.spans);
    // An op's section and phase: those of the phase it ran in, or for the barrier after a phase, that phase's.
    const Span* last_phase = nullptr;
    for (Span& s : track.spans) {
      if (s.op == kernel::TraceOp::Phase) last_phase = &s;
      else if (last_phase != nullptr) s.section = last_phase->section, s.phase = last_phase->phase;
    }
    out.tracks.push_back(std::move(track));
  }
  std::ranges::sort(out.tracks, [](const Track& a, const Track& b) {
    return std::tie(a.sm, a.begin_ns, a.block, a.warpgroup) < std::tie(b.sm, b.begin_ns, b.block, b.warpgroup);
  });
  return out;
}

std::string chrome_trace_json(const Timeline& timeline) {
  using nlohmann::json;
  json events = json::array(), tracks = json::array();
  std::map<int, bool> named_sm;
  const auto us = [](std::int64_t ns) { return static_cast<double>(ns) / 1000.0; };
  for (const Track& t : timeline.tracks) {
    // The model's block is a process of its own, first; each SM a process after it.
    const int pid = process_id(t);
    if (!named_sm[pid]) {
      named_sm[pid] = true;
      const std::string process = t.predicted ? "predicted by the time model" : "SM " + std::to_string(t.sm);
      events.push_back({{"ph", "M"}, {"name", "process_name"}, {"pid", pid}, {"args", {{"name", process}}}});
      events.push_back({{"ph", "M"},
                        {"name", "process_sort_index"},
                        {"pid", pid},
                        {"args", {{"sort_index", t.predicted ? -1 : pid}}}});
    }
    const int tid = thread_id(t);
    std::string name = t.predicted ? "the model's block, " + t.role
                                   : "block " + std::to_string(t.block) + ", " + t.role + " (warpgroup " +
                                         std::to_string(t.warpgroup) + ")";
    if (t.lost > 0) name += ", " + std::to_string(t.lost) + " events lost";
    events.push_back({{"ph", "M"}, {"name", "thread_name"}, {"pid", pid}, {"tid", tid}, {"args", {{"name", name}}}});
    events.push_back(
        {{"ph", "M"}, {"name", "thread_sort_index"}, {"pid", pid}, {"tid", tid}, {"args", {{"sort_index", tid}}}});
    tracks.push_back({{"pid", pid},
                      {"tid", tid},
                      {"sm", t.sm},
                      {"block", t.block},
                      {"warpgroup", t.warpgroup},
                      {"role", t.role},
                      {"begin_ns", t.begin_ns},
                      {"end_ns", t.end_ns},
                      {"lost", t.lost},
                      {"predicted", t.predicted}});
    for (const Span& s : t.spans) {
      const TraceOpInfo& info = trace_op_info(s.op);
      events.push_back(
          {{"ph", "X"},
           {"name", span_name(s)},
           {"cat", kind_name(info.kind)},
           {"pid", pid},
           {"tid", tid},
           {"ts", us(s.begin_ns)},
           {"dur", us(s.end_ns - s.begin_ns)},
           {"args", {{"op", info.name}, {"section", section_name(s.section)}, {"phase", s.phase}, {"arg", s.arg}}}});
    }
  }
  const json header = {{"displayTimeUnit", "ns"},
                       {"otherData",
                        {{"gemmlab",
                          {{"version", kTraceFormatVersion},
                           {"kernel", timeline.kernel},
                           {"source", timeline.source},
                           {"m", timeline.m},
                           {"n", timeline.n},
                           {"k", timeline.k},
                           {"input", timeline.input},
                           {"blocks_launched", timeline.blocks_launched},
                           {"tiles_per_block", timeline.tiles_per_block},
                           {"stamped_tiles", timeline.stamped_tiles},
                           {"tracks", tracks}}}}}};
  // One event a line: a trace of thousands of spans stays small and can still be read and diffed.
  std::string text = header.dump(1);
  text.erase(text.find_last_of('}'));
  text += ",\n \"traceEvents\": [\n";
  for (std::size_t i = 0; i < events.size(); ++i)
    text += "  " + events[i].dump() + (i + 1 < events.size() ? ",\n" : "\n");
  return text + " ]\n}\n";
}

Result<Timeline> parse_chrome_trace(std::string_view text) {
  using nlohmann::json;
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::exception& e) {
    return Error{std::string("not a trace file (not JSON: ") + e.what() + ")"};
  }
  try {
    if (!doc.is_object() || !doc.contains("otherData") || !doc["otherData"].contains("gemmlab"))
      return Error{"not a gemmlab trace (no otherData.gemmlab: a trace another tool wrote?)"};
    const json& g = doc["otherData"]["gemmlab"];
    const int version = g.at("version").get<int>();
    if (version != kTraceFormatVersion)
      return Error{"a gemmlab trace of format " + std::to_string(version) + "; this build reads format " +
                   std::to_string(kTraceFormatVersion)};
    Timeline out;
    out.kernel = g.at("kernel").get<std::string>(), out.source = g.at("source").get<std::string>();
    out.m = g.at("m").get<int>(), out.n = g.at("n").get<int>(), out.k = g.at("k").get<int>();
    out.input = g.at("input").get<std::string>(), out.blocks_launched = g.at("blocks_launched").get<int>();
    out.tiles_per_block = g.value("tiles_per_block", 0), out.stamped_tiles = g.value("stamped_tiles", 0);
    std::map<std::pair<int, int>, std::size_t> by_thread;
    for (const json& t : g.at("tracks")) {
      Track track;
      track.sm = t.at("sm").get<int>(), track.block = t.at("block").get<int>();
      track.warpgroup = t.at("warpgroup").get<int>(), track.role = t.at("role").get<std::string>();
      track.begin_ns = t.at("begin_ns").get<std::int64_t>(), track.end_ns = t.at("end_ns").get<std::int64_t>();
      track.lost = t.at("lost").get<std::uint32_t>(), track.predicted = t.value("predicted", false);
      const std::pair key{t.at("pid").get<int>(), t.at("tid").get<int>()};
      if (!by_thread.emplace(key, out.tracks.size()).second)
        return Error{"two tracks of the trace share process " + std::to_string(key.first) + ", thread " +
                     std::to_string(key.second)};
      out.tracks.push_back(std::move(track));
    }
    std::map<std::string_view, kernel::TraceOp> ops;
    for (int i = 0; i < kOpCount; ++i) ops[kOps[i].name] = static_cast<kernel::TraceOp>(i);
    const auto& events = doc.at("traceEvents");
    for (std::size_t i = 0; i < events.size(); ++i) {
      const json& e = events[i];
      if (e.at("ph").get<std::string>() != "X") continue;
      const auto where = "trace event " + std::to_string(i) + " (" + e.value("name", std::string("?")) + ")";
      const auto track = by_thread.find({e.at("pid").get<int>(), e.at("tid").get<int>()});
      if (track == by_thread.end()) return Error{where + " is on a thread the trace does not list"};
      const json& args = e.at("args");
      const auto op = ops.find(args.at("op").get<std::string>());
      if (op == ops.end()) return Error{where + " names an operation this build does not know"};
      Span s;
      s.op = op->second, s.phase = args.at("phase").get<int>(), s.arg = args.at("arg").get<int>();
      const std::string section = args.at("section").get<std::string>();
      if (section == "prologue") s.section = kernel::Section::Prologue;
      else if (section == "mainloop") s.section = kernel::Section::Mainloop;
      else if (section == "epilogue") s.section = kernel::Section::Epilogue;
      else return Error{where + " has an unknown section '" + section + "'"};
      const double ts = e.at("ts").get<double>(), dur = e.at("dur").get<double>();
      if (!(dur >= 0)) return Error{where + " ends before it begins"};
      s.begin_ns = std::llround(ts * 1000.0), s.end_ns = std::llround((ts + dur) * 1000.0);
      out.tracks[track->second].spans.push_back(s);
    }
    for (Track& t : out.tracks) sort_spans(t.spans);
    if (auto nested = check_nesting(out); !nested) return nested.error();
    return out;
  } catch (const json::exception& e) {
    return Error{std::string("a gemmlab trace with a missing or malformed field: ") + e.what()};
  }
}

Status check_nesting(const Timeline& timeline) {
  for (const Track& t : timeline.tracks) {
    std::vector<const Span*> open;
    std::vector<const Span*> spans;
    for (const Span& s : t.spans) spans.push_back(&s);
    std::ranges::stable_sort(spans, [](const Span* a, const Span* b) { return nests_before(*a, *b); });
    const std::string track = "block " + std::to_string(t.block) + ", warpgroup " + std::to_string(t.warpgroup);
    for (const Span* s : spans) {
      if (s->end_ns < s->begin_ns) return Error{track + ": '" + span_name(*s) + "' ends before it begins"};
      if (s->begin_ns < t.begin_ns || s->end_ns > t.end_ns)
        return Error{track + ": '" + span_name(*s) + "' lies outside the warp's run"};
      while (!open.empty() && open.back()->end_ns <= s->begin_ns) open.pop_back();
      if (!open.empty() && s->end_ns > open.back()->end_ns)
        return Error{track + ": '" + span_name(*s) + "' overlaps '" + span_name(*open.back()) + "' without nesting"};
      open.push_back(s);
    }
  }
  return Ok{};
}

std::vector<KstepSpan> kstep_spans(const Track& track) {
  std::vector<KstepSpan> out;
  bool follows = false;  // the last k-step may still end where the next one starts (no epilogue between them)
  for (const Span& s : track.spans) {
    if (trace_op_info(s.op).kind != TraceOpKind::Phase) continue;
    if (s.section != kernel::Section::Mainloop) {
      follows = false;  // an epilogue: a tile's last k-step ends with its own phases
      continue;
    }
    if (s.phase != 0) {  // a later phase of the same k-step
      if (follows) out.back().end_ns = std::max(out.back().end_ns, s.end_ns);
      continue;
    }
    if (follows && s.arg == out.back().kstep + 1) out.back().end_ns = s.begin_ns;
    out.push_back({s.arg, s.begin_ns, s.end_ns, 0});
    follows = true;
  }
  // The waits inside each k-step (spans are in order of their begin).
  auto step = out.begin();
  for (const Span& s : track.spans) {
    if (trace_op_info(s.op).kind != TraceOpKind::Wait || s.op == kernel::TraceOp::Barrier) continue;
    while (step != out.end() && step->end_ns <= s.begin_ns) ++step;
    if (step == out.end()) break;
    if (s.begin_ns >= step->begin_ns) step->waited_ns += s.end_ns - s.begin_ns;
  }
  return out;
}

TimelineSummary summarize(const Timeline& timeline) {
  TimelineSummary out;
  // The mbarriers each block's TMA copies complete on: a wait on another (a free stage, rung 24's turns) is no wait
  // for copies.
  std::map<int, std::set<int>> copied_to;
  for (const Track& t : timeline.tracks)
    for (const Span& s : t.spans)
      if (!t.predicted && s.op == kernel::TraceOp::TmaLoad) copied_to[t.block].insert(s.arg);
  std::map<std::string, RoleSummary> roles;
  std::map<std::string, std::map<std::string, double>> waits;
  std::map<std::string, std::vector<double>> kstep_ns;
  std::int64_t first = INT64_MAX, last = INT64_MIN;
  std::map<int, std::vector<const Track*>> blocks;
  for (const Track& t : timeline.tracks) {
    if (t.predicted) continue;  // the model's block: beside the measurement, not part of it
    blocks[t.block].push_back(&t);
    first = std::min(first, t.begin_ns), last = std::max(last, t.end_ns);
    out.lost += t.lost, out.tracks_with_lost += t.lost > 0;
    RoleSummary& r = roles[t.role];
    r.role = t.role, ++r.tracks;
    r.total_ns += static_cast<double>(t.end_ns - t.begin_ns);
    for (const KstepSpan& step : kstep_spans(t))
      kstep_ns[t.role].push_back(static_cast<double>(step.end_ns - step.begin_ns));
    for (const Span& s : t.spans) {
      const double d = static_cast<double>(s.end_ns - s.begin_ns);
      const TraceOpInfo& info = trace_op_info(s.op);
      if (info.kind == TraceOpKind::Phase) {
        r.phases_ns += d;
      } else if (info.kind == TraceOpKind::Wait) {
        const bool no_copy = s.op == kernel::TraceOp::MbarrierWait && !copied_to[t.block].contains(s.arg);
        waits[t.role][no_copy ? std::string(kMbarrierWaitNoCopy) : std::string(info.name)] += d;
        if (s.op != kernel::TraceOp::Barrier) r.busy_ns -= d;  // a wait inside a phase: not the warp's own work
      } else {
        r.issue_ns += d;
      }
    }
  }
  for (auto& [name, r] : roles) {
    r.busy_ns += r.phases_ns - r.issue_ns;
    for (const auto& [op, ns] : waits[name]) r.waits_ns.emplace_back(op, ns);
    std::ranges::sort(r.waits_ns, [](const auto& a, const auto& b) { return a.second > b.second; });
    r.ksteps = static_cast<int>(kstep_ns[name].size());
    r.median_kstep_ns = median(kstep_ns[name]);
    out.roles.push_back(r);
  }
  std::ranges::sort(out.roles, [](const RoleSummary& a, const RoleSummary& b) { return a.role < b.role; });
  out.kernel_ns = timeline.tracks.empty() ? 0 : static_cast<double>(last - first);

  // The copies of a block, in issue order, grouped into fills (consecutive copies onto one mbarrier); the consumers'
  // waits on that mbarrier, in order, take them one by one.
  std::vector<double> copy_to_use, consumer_wait;
  double epilogue_ns = 0, fills_during = 0, wait_after = 0;
  for (const auto& [block, tracks] : blocks) {
    std::vector<const Span*> loads;
    for (const Track* t : tracks)
      for (const Span& s : t->spans)
        if (s.op == kernel::TraceOp::TmaLoad) loads.push_back(&s);
    std::ranges::stable_sort(loads, [](const Span* a, const Span* b) { return a->begin_ns < b->begin_ns; });
    // A fill: one span where the tracing build holds a stage's copies together, several where it stamped each copy.
    std::map<int, std::vector<std::int64_t>> fills;  // by mbarrier: each fill's first issue
    std::vector<std::int64_t> fill_starts;           // every fill's, in order
    for (std::size_t i = 0; i < loads.size(); ++i)
      if (i == 0 || loads[i - 1]->arg != loads[i]->arg)
        fills[loads[i]->arg].push_back(loads[i]->begin_ns), fill_starts.push_back(loads[i]->begin_ns);
    for (const Track* t : tracks) {
      if (t->role == "producer") continue;
      for (const Span& s : t->spans) {
        if (s.op != kernel::TraceOp::MbarrierWait) continue;
        const auto fill = fills.find(s.arg);
        if (fill == fills.end()) continue;
        // The fill a wait took: the last one issued before the wait ended (the stage is refilled only after its
        // consumers release it, so never again before this wait ends); a consumer that sits out tiles (rung 24)
        // skips fills.
        const auto taken = std::ranges::upper_bound(fill->second, static_cast<std::int64_t>(s.end_ns));
        if (taken == fill->second.begin()) continue;
        copy_to_use.push_back(static_cast<double>(s.end_ns - *std::prev(taken)));
        consumer_wait.push_back(static_cast<double>(s.end_ns - s.begin_ns));
      }
      // Epilogues followed by another tile (persistent blocks): their window, the copies issued in it, and the wait
      // at the next tile's first k-step.
      if (t->role != "consumer") continue;
      std::map<int, std::pair<std::int64_t, std::int64_t>> windows;
      for (const Span& s : t->spans)
        if (s.op == kernel::TraceOp::Phase && s.section == kernel::Section::Epilogue) {
          auto [it, made] = windows.try_emplace(s.arg, s.begin_ns, s.end_ns);
          if (!made)
            it->second.first = std::min(it->second.first, s.begin_ns),
            it->second.second = std::max(it->second.second, s.end_ns);
        }
      for (const auto& [tile, window] : windows) {
        const auto next_wait = std::ranges::find_if(t->spans, [&](const Span& s) {
          return s.op == kernel::TraceOp::MbarrierWait && s.begin_ns >= window.second;
        });
        if (next_wait == t->spans.end()) continue;  // the block's last tile
        ++out.epilogues;
        epilogue_ns += static_cast<double>(window.second - window.first);
        fills_during += static_cast<double>(std::ranges::count_if(
            fill_starts, [&](std::int64_t start) { return start >= window.first && start <= window.second; }));
        wait_after += static_cast<double>(next_wait->end_ns - next_wait->begin_ns);
      }
    }
  }
  out.copies_matched = static_cast<int>(copy_to_use.size());
  out.median_copy_to_use_ns = median(copy_to_use), out.median_consumer_wait_ns = median(consumer_wait);
  if (out.epilogues > 0) {
    out.mean_epilogue_ns = epilogue_ns / out.epilogues;
    out.mean_fills_during_epilogue = fills_during / out.epilogues;
    out.mean_wait_after_epilogue_ns = wait_after / out.epilogues;
  }
  return out;
}

std::string share_text(double part_ns, double whole_ns) {
  char text[16];
  std::snprintf(text, sizeof text, "%.0f%%", whole_ns > 0 ? 100.0 * part_ns / whole_ns : 0.0);
  return text;
}

std::string waits_text(const RoleSummary& role) {
  std::string out;
  for (const auto& [op, ns] : role.waits_ns)
    out += (out.empty() ? "" : ", ") + op + " " + share_text(ns, role.total_ns);
  return out.empty() ? "-" : out;
}

const RoleSummary* pace_role(const TimelineSummary& summary) {
  for (const RoleSummary& r : summary.roles)
    if (r.role == "consumer" || r.role == "warpgroup") return &r;
  return nullptr;
}

std::vector<std::string> findings_text(const TimelineSummary& s) {
  std::vector<std::string> out;
  if (s.copies_matched > 0)
    out.push_back("Copies as the consumers see them (" + std::to_string(s.copies_matched) + " k-steps): median " +
                  duration_text(s.median_copy_to_use_ns) +
                  " from the issue of a stage's copies to the end of the consumer's wait for them, of which the "
                  "consumer waited " +
                  duration_text(s.median_consumer_wait_ns) + ".");
  if (s.epilogues > 0) {
    char fills[16];
    std::snprintf(fills, sizeof fills, "%.1f", s.mean_fills_during_epilogue);
    out.push_back("Epilogues followed by another tile (" + std::to_string(s.epilogues) +
                  "): " + duration_text(s.mean_epilogue_ns) + " each on average; the producer began to fill " + fills +
                  " stages meanwhile, and the consumers then waited " + duration_text(s.mean_wait_after_epilogue_ns) +
                  " at the next tile's first k-step.");
  }
  return out;
}

}  // namespace gemmlab::sim
