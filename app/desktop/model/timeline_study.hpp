#pragma once
// What the Timeline panel shows: a trace of one kernel's warps (gemmlab-cli trace, the Chrome trace-event file of
// sim/timeline.hpp): the measured tracks of one sampled block, the time model's block above them where the file has
// it, and the summary of where each role's time went. A trace the user names, or the one recorded on the H200 for the
// rung selected (docs/timeline-data). The panel reads this type and calls its commands; it keeps no state.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "gemmlab/result.hpp"
#include "gemmlab/rungs.hpp"
#include "gemmlab/sim/timeline.hpp"

namespace gemmlab::desktop {

// Where the recorded trace of a rung lies, relative to a data root: docs/timeline-data/NN-slug.trace.json.
std::filesystem::path recorded_trace(RungId rung);
// The rungs with a recorded trace, in words: the Hopper rungs' first and last numbers ("17 to 24").
std::string rungs_with_recorded_traces();

class TimelineStudy {
 public:
  bool loaded() const { return !timeline_.tracks.empty(); }
  const sim::Timeline& timeline() const { return timeline_; }
  const sim::TimelineSummary& summary() const { return summary_; }
  const std::string& file() const { return file_; }
  const std::string& error() const { return error_; }
  std::string& path_text() { return path_text_; }
  // The lanes' view: how many times the block's run is magnified, and where the window starts (0 to 1 of what is left).
  float& zoom() { return zoom_; }
  float& pan() { return pan_; }

  // The blocks the trace sampled, in block order, and the one shown.
  const std::vector<int>& blocks() const { return blocks_; }
  int block() const { return block_; }
  void select_block(int block);
  // The tracks drawn: the model's block (where the file has one) then the shown block's warps, by warpgroup.
  std::vector<const sim::Track*> shown_tracks() const;
  // Whether the trace is of `rung` (its kernel is named by the rung's slug): the tile stepper then shows its k-steps.
  bool of_rung(RungId rung) const;
  // The shown block's track of `role` with the lowest warpgroup, or the model's track of `role` (predicted); null where
  // the trace has none.
  const sim::Track* track(std::string_view role, bool predicted) const;
  // What the tile stepper draws under its pipeline: the k-steps of the warpgroup that sets the pace (the consumers, or
  // a rung's warpgroups where it has no roles), of the shown block and of the model's block; empty where the trace has
  // none. Kept with the block shown.
  const std::vector<sim::KstepSpan>& measured_ksteps() const { return measured_ksteps_; }
  const std::vector<sim::KstepSpan>& model_ksteps() const { return model_ksteps_; }
  // The k-step numbered `kstep` in one of those lists; null where it has none.
  static const sim::KstepSpan* find_kstep(const std::vector<sim::KstepSpan>& ksteps, int kstep);

  // A trace file, named `shown_as` on the panel where given (a recorded trace by its path in the checkout, so that
  // the panel reads the same wherever the checkout is); an error (not a trace, another format, spans that do not
  // nest) leaves what is shown as it was and says why.
  Status load(const std::filesystem::path& path, const std::string& shown_as = {});
  // A trace that cannot be had (no recorded one for the rung): the sentence, shown as a failed load's; nothing else
  // changes.
  Status refuse(std::string why);

 private:
  void read_ksteps();
  const sim::Track* pace_track(bool predicted) const;

  sim::Timeline timeline_;
  sim::TimelineSummary summary_;
  std::vector<sim::KstepSpan> measured_ksteps_, model_ksteps_;
  std::vector<int> blocks_;
  int block_ = 0;
  std::string file_, error_, path_text_;
  float zoom_ = 1.0f, pan_ = 0.0f;
};

}  // namespace gemmlab::desktop
