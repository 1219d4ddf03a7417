#include "model/timeline_study.hpp"

#include <algorithm>
#include <cstdio>
#include <tuple>

#include "gemmlab/file_io.hpp"
#include "gemmlab/sim/rung_model.hpp"

namespace gemmlab::desktop {

std::filesystem::path recorded_trace(RungId rung) {
  const RungInfo& info = rung_info(rung);
  char name[96];
  std::snprintf(name, sizeof name, "%02d-%s.trace.json", info.number, std::string(info.slug).c_str());
  return std::filesystem::path("docs/timeline-data") / name;
}

std::string rungs_with_recorded_traces() {
  int first = 0, last = 0;
  for (const RungInfo& info : rungs())
    if (sim::needs_sm90a(info.id)) {
      first = first == 0 ? info.number : first;
      last = info.number;
    }
  return std::to_string(first) + " to " + std::to_string(last);
}

void TimelineStudy::select_block(int block) {
  if (std::ranges::find(blocks_, block) == blocks_.end()) return;
  block_ = block;
  read_ksteps();
}

std::vector<const sim::Track*> TimelineStudy::shown_tracks() const {
  std::vector<const sim::Track*> out;
  for (const sim::Track& t : timeline_.tracks)
    if (t.predicted) out.push_back(&t);
  for (const sim::Track& t : timeline_.tracks)
    if (!t.predicted && t.block == block_) out.push_back(&t);
  std::stable_sort(out.begin(), out.end(), [](const sim::Track* a, const sim::Track* b) {
    return std::tie(b->predicted, a->warpgroup) < std::tie(a->predicted, b->warpgroup);  // predicted first
  });
  return out;
}

bool TimelineStudy::of_rung(RungId rung) const {
  const std::string_view slug = rung_info(rung).slug;
  const std::string& kernel = timeline_.kernel;
  return loaded() && kernel.starts_with(slug) && (kernel.size() == slug.size() || kernel[slug.size()] == ' ');
}

const sim::Track* TimelineStudy::track(std::string_view role, bool predicted) const {
  const sim::Track* found = nullptr;
  for (const sim::Track& t : timeline_.tracks)
    if (t.predicted == predicted && t.role == role && (predicted || t.block == block_) &&
        (found == nullptr || t.warpgroup < found->warpgroup))
      found = &t;
  return found;
}

Status TimelineStudy::refuse(std::string why) {
  error_ = std::move(why);
  return Error{error_};
}

const sim::Track* TimelineStudy::pace_track(bool predicted) const {
  const sim::Track* consumer = track("consumer", predicted);
  return consumer != nullptr ? consumer : track("warpgroup", predicted);
}

void TimelineStudy::read_ksteps() {
  const sim::Track* measured = pace_track(false);
  const sim::Track* model = pace_track(true);
  measured_ksteps_ = measured != nullptr ? sim::kstep_spans(*measured) : std::vector<sim::KstepSpan>{};
  model_ksteps_ = model != nullptr ? sim::kstep_spans(*model) : std::vector<sim::KstepSpan>{};
}

const sim::KstepSpan* TimelineStudy::find_kstep(const std::vector<sim::KstepSpan>& ksteps, int kstep) {
  const auto it = std::ranges::find(ksteps, kstep, &sim::KstepSpan::kstep);
  return it == ksteps.end() ? nullptr : &*it;
}

Status TimelineStudy::load(const std::filesystem::path& path, const std::string& shown_as) {
  const auto fail = [&](const std::string& why) -> Status {
    error_ = (shown_as.empty() ? path.string() : shown_as) + ": " + why;
    return Error{error_};
  };
  const auto text = read_input_file(path.string(), "trace", std::size_t{256} << 20);
  if (!text) return fail(text.error().message);
  auto timeline = sim::parse_chrome_trace(*text);
  if (!timeline) return fail(timeline.error().message);
  std::vector<int> blocks;
  for (const sim::Track& t : timeline->tracks)
    if (!t.predicted && std::ranges::find(blocks, t.block) == blocks.end()) blocks.push_back(t.block);
  if (blocks.empty()) return fail("the trace has no measured warp");
  std::ranges::sort(blocks);
  timeline_ = std::move(*timeline);
  summary_ = sim::summarize(timeline_);
  blocks_ = std::move(blocks);
  block_ = blocks_.front();
  read_ksteps();
  file_ = shown_as.empty() ? path.string() : shown_as;
  path_text_ = file_;
  error_.clear();
  return Ok{};
}

}  // namespace gemmlab::desktop
