#include "model/stepper_model.hpp"

#include <algorithm>

namespace gemmlab::desktop {
namespace {

// A phase's place among the block's steps: the prologue, k-step 0, 1, ..., the epilogue.
int step_of(const sim::PhaseRef& ref, int ksteps) {
  switch (ref.section) {
    case kernel::Section::Prologue:
      return -1;
    case kernel::Section::Mainloop:
      return ref.kstep;
    case kernel::Section::Epilogue:
      return ksteps;
  }
  return 0;
}

}  // namespace

Error index_out_of_range(const std::string& what, std::int64_t index, const std::string& whose, std::int64_t count) {
  const std::string has = count > 1    ? what + "s " + index_range(count)
                          : count == 1 ? "only " + what + " 0"
                                       : "no " + what + "s";
  return Error{what + " " + std::to_string(index) + " does not exist: " + whose + " " + has +
               " (indices count from 0)"};
}

const InstructionView* StepperModel::cursor_instruction() const {
  if (!view_current()) return nullptr;
  return view_->find(cursor_.warp, cursor_.instruction);
}

void StepperModel::selection_changed(bool new_rung) {
  if (new_rung) cursor_ = {};
  block_changed();
}

void StepperModel::block_changed() {
  if (const auto& launch = context_.selection.launch()) {
    block_.row = std::clamp(block_.row, 0, launch->tiles_m - 1);
    block_.col = std::clamp(block_.col, 0, launch->tiles_n - 1);
    cursor_.warp = std::clamp(cursor_.warp, 0, launch->warps_per_block - 1);
  }
  ++block_generation_;
  walker_.reset();
  block_error_.clear();
  if (!context_.selection.validity()) {
    // Nothing to show for an invalid configuration: the views show the validate() sentence instead.
    outline_.reset();
    view_.reset();
    playing_ = false;
  }
}

void StepperModel::select_block(kernel::TileCoord tile) {
  if (tile.row == block_.row && tile.col == block_.col) return;
  block_ = tile;
  block_changed();
}

std::vector<std::size_t> StepperModel::step_starts() const {
  std::vector<std::size_t> starts;
  if (!outline_current()) return starts;
  const auto& schedule = outline_->schedule;
  for (std::size_t i = 0; i < schedule.size(); ++i)
    if (i == 0 || step_of(schedule[i], outline_->shape.ksteps) != step_of(schedule[i - 1], outline_->shape.ksteps))
      starts.push_back(i);
  return starts;
}

void StepperModel::step_instruction(int delta) {
  if (!view_current()) return;  // wait for the cursor's phase: stepping needs its instruction count
  const std::size_t phases = outline_->schedule.size();
  int index = cursor_.instruction + delta;
  if (index >= 0 && index < view_->instruction_count(cursor_.warp)) {
    cursor_.instruction = index;
    return;
  }
  if (delta > 0 && cursor_.phase + 1 < phases) {
    cursor_.phase += 1;
    cursor_.instruction = 0;
  } else if (delta < 0 && cursor_.phase > 0) {
    cursor_.phase -= 1;
    cursor_.instruction = -1;  // the last one, once the phase is loaded
  } else if (delta > 0) {
    playing_ = false;  // the end of the block's stream
  }
}

void StepperModel::step_kstep(int delta) {
  const auto starts = step_starts();
  if (starts.empty()) return;
  const auto current = std::upper_bound(starts.begin(), starts.end(), cursor_.phase) - starts.begin() - 1;
  const auto target = std::clamp<std::ptrdiff_t>(current + delta, 0, static_cast<std::ptrdiff_t>(starts.size()) - 1);
  // Stepping back from inside a step goes to that step's start first, like a media player.
  const bool inside = cursor_.phase != starts[static_cast<std::size_t>(current)] || cursor_.instruction > 0;
  const std::size_t phase =
      delta < 0 && inside ? starts[static_cast<std::size_t>(current)] : starts[static_cast<std::size_t>(target)];
  cursor_.phase = phase;
  cursor_.instruction = 0;
}

void StepperModel::seek_phase(std::size_t phase) {
  if (outline_current() && phase >= outline_->schedule.size()) return;
  cursor_.phase = phase;
  cursor_.instruction = 0;
}

void StepperModel::select_warp(int warp) {
  const auto& launch = context_.selection.launch();
  if (!launch) return;
  cursor_.warp = std::clamp(warp, 0, launch->warps_per_block - 1);
  resolve_cursor();
}

void StepperModel::select_instruction(int index) {
  cursor_.instruction = index;
  resolve_cursor();
}

Status StepperModel::go_to_phase(std::size_t phase) {
  if (!outline_current())
    return Error{"the block's schedule is not known" + (block_error_.empty() ? std::string() : ": " + block_error_)};
  const auto phases = static_cast<std::int64_t>(outline_->schedule.size());
  if (phase >= outline_->schedule.size())
    return index_out_of_range("phase", static_cast<std::int64_t>(phase), "the block has", phases);
  seek_phase(phase);
  return Ok{};
}

Status StepperModel::go_to_warp(int warp) {
  const Status& validity = context_.selection.validity();
  const auto& launch = context_.selection.launch();
  if (!launch)
    return Error{"there is no launch to pick a warp from: " +
                 (validity ? std::string("not computed yet") : validity.error().message)};
  if (warp < 0 || warp >= launch->warps_per_block)
    return index_out_of_range("warp", warp, "the block has", launch->warps_per_block);
  select_warp(warp);
  return Ok{};
}

Status StepperModel::go_to_instruction(int index) {
  if (!view_current()) return Error{"the phase's instructions are not known yet"};
  const int count = view_->instruction_count(cursor_.warp);
  if (index < 0 || index >= count)
    return index_out_of_range(
        "instruction", index,
        "warp " + std::to_string(cursor_.warp) + " in phase " + std::to_string(cursor_.phase) + " has", count);
  select_instruction(index);
  return Ok{};
}

void StepperModel::resolve_cursor() {
  if (!view_current()) return;
  const int count = view_->instruction_count(cursor_.warp);
  if (cursor_.instruction < 0 || cursor_.instruction >= count) cursor_.instruction = std::max(0, count - 1);
}

void StepperModel::seek_instruction(InstructionKind kind, int direction) {
  if (!view_current() || !walker_) return;
  const int step = direction >= 0 ? 1 : -1;
  for (int i = cursor_.instruction + step; i >= 0 && i < view_->instruction_count(cursor_.warp); i += step)
    if (is_kind(view_->find(cursor_.warp, i)->instruction, kind)) {
      cursor_.instruction = i;
      return;
    }
  // Not in this phase: a job looks through the following (or preceding) phases.
  auto walker = walker_;
  const std::size_t from = cursor_.phase;
  const std::uint64_t generation = block_generation_;
  const int warp = cursor_.warp;
  context_.jobs.submit("block", "finding the next instruction", [=, this](JobContext& job) -> JobRunner::Completion {
    const KeepGoing keep_going = [&](double f) {
      job.set_progress(f);
      return !job.cancelled();
    };
    auto found = walker->find_phase(from, step, kind, keep_going);
    if (!found) return nullptr;
    if (!*found)
      return [this, generation, kind, step] {
        if (generation != block_generation_) return;
        const std::string what = kind == InstructionKind::Shared ? "shared-memory" : "global-memory";
        context_.messages.add(Message::Level::Info, std::string("no ") + (step > 0 ? "later " : "earlier ") + what +
                                                        " instruction in this block's stream");
      };
    auto view = walker->view(**found, keep_going);
    if (!view) return nullptr;
    return [this, generation, kind, step, warp, view = *view] {
      if (generation != block_generation_) return;
      view_ = view;
      cursor_.phase = view->phase_index;
      cursor_.warp = warp;
      const int count = view->instruction_count(warp);
      cursor_.instruction = step > 0 ? 0 : std::max(0, count - 1);
      for (int i = 0; i < count; ++i) {
        const int candidate = step > 0 ? i : count - 1 - i;
        if (is_kind(view->find(warp, candidate)->instruction, kind)) {
          cursor_.instruction = candidate;
          break;
        }
      }
    };
  });
}

void StepperModel::set_playing(bool playing) {
  playing_ = playing && static_cast<bool>(context_.selection.validity());
  play_clock_ = 0.0;
}

void StepperModel::set_play_speed(double instructions_per_second) {
  play_speed_ = std::clamp(instructions_per_second, 0.5, 240.0);
}

void StepperModel::request_view() {
  const Selection& selection = context_.selection;
  if (!selection.validity()) return;
  if (view_current()) return;
  if (requested_generation_ == block_generation_ && requested_phase_ == cursor_.phase) return;
  requested_generation_ = block_generation_;
  requested_phase_ = cursor_.phase;
  auto walker = walker_;
  const RungId rung = selection.rung();
  const kernel::KernelConfig config = selection.config();
  const sim::Problem problem = selection.problem();
  const kernel::TileCoord tile = block_;
  const std::size_t phase = cursor_.phase;
  const std::uint64_t generation = block_generation_;
  context_.jobs.submit("block", "replaying the block's stream", [=, this](JobContext& job) -> JobRunner::Completion {
    std::shared_ptr<BlockWalker> w = walker;
    if (!w) {
      auto opened = BlockWalker::open(rung, config, problem, tile);
      if (!opened)
        return [this, generation, error = opened.error().message] {
          if (generation != block_generation_) return;
          block_error_ = error;
        };
      w = std::move(*opened);
    }
    std::size_t target = std::min(phase, w->outline()->schedule.size() - 1);
    if (phase == StepCursor::kFirstBusyPhase) {
      // Start where the block first touches memory (a prologue may only clear registers).
      auto first = w->first_busy_phase();
      target = first ? *first : 0;
    }
    auto view = w->view(target, [&](double f) {
      job.set_progress(f);
      return !job.cancelled();
    });
    if (!view) {
      if (job.cancelled()) return nullptr;
      return [this, generation, error = view.error().message] {
        if (generation == block_generation_) block_error_ = error;
      };
    }
    return [this, generation, w, view = *view] {
      if (generation != block_generation_) return;
      walker_ = w;
      outline_ = w->outline();
      outline_generation_ = generation;
      view_ = view;
      cursor_.phase = view->phase_index;
      resolve_cursor();
    };
  });
}

void StepperModel::update(double seconds) {
  if (playing_ && view_current()) {
    play_clock_ += seconds * play_speed_;
    // At most a few steps per frame, so a slow frame does not skip whole phases.
    for (int steps = 0; play_clock_ >= 1.0 && steps < 4 && playing_ && view_current(); ++steps) {
      play_clock_ -= 1.0;
      step_instruction(+1);
    }
    play_clock_ = std::min(play_clock_, 1.0);
  }
  request_view();
}

}  // namespace gemmlab::desktop
