#pragma once
// The tile stepper's state (which the banks, coalescing and fragments panels read too): the selected block of the
// grid, the cursor in its instruction stream, the stream decoded up to the cursor's phase, and playback. Opening and
// replaying the block's stream takes a while, so it runs as jobs of the "block" group; their results are applied
// in update() and trail the inputs for a frame or two.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gemmlab/kernel/block_order.hpp"
#include "gemmlab/result.hpp"
#include "gemmlab/sim/block_walker.hpp"
#include "model/model_context.hpp"

namespace gemmlab::desktop {

// The decoded block stream lives in the simulator (gemmlab-cli lists a phase's instructions with it too); the app
// names its pieces as its own.
using sim::BlockOutline;
using sim::BlockWalker;
using sim::decode_global;
using sim::describe_elements;
using sim::ElementRef;
using sim::elements_in_word;
using sim::index_of;
using sim::index_range;
using sim::InstructionKind;
using sim::InstructionView;
using sim::is_kind;
using sim::KeepGoing;
using sim::LaneView;
using sim::PhaseView;
using sim::step_name;

// Where the stepper stands in the selected block's stream: a phase of its schedule, a warp, and that warp's
// instruction within the phase (-1 until the phase is loaded: "its last one", when stepping backwards into it).
struct StepCursor {
  // The block's first phase with memory instructions, once the schedule is known.
  static constexpr std::size_t kFirstBusyPhase = static_cast<std::size_t>(-1);
  std::size_t phase = kFirstBusyPhase;
  int warp = 0;
  int instruction = 0;
};

// The command line's refusal of an index (gemmlab --phase, --warp, --instruction, --wave): "warp 40 does not exist:
// the block has warps 0-3 (indices count from 0)".
Error index_out_of_range(const std::string& what, std::int64_t index, const std::string& whose, std::int64_t count);

class StepperModel {
 public:
  explicit StepperModel(ModelContext context) : context_(context) {}
  StepperModel(const StepperModel&) = delete;
  StepperModel& operator=(const StepperModel&) = delete;

  // ---- What the views read.
  kernel::TileCoord block() const { return block_; }
  const StepCursor& cursor() const { return cursor_; }
  // The selected block and the cursor's phase, decoded. They may trail the inputs for a frame or two while a job
  // computes the new ones (then *_current() is false); null before the first result or for an invalid config.
  std::shared_ptr<const BlockOutline> outline() const { return outline_; }
  std::shared_ptr<const PhaseView> phase_view() const { return view_; }
  bool outline_current() const { return outline_ && outline_generation_ == block_generation_; }
  bool view_current() const { return outline_current() && view_ && view_->phase_index == cursor_.phase; }
  // The cursor's instruction (of the selected warp), when the view is current; nullptr otherwise.
  const InstructionView* cursor_instruction() const;
  const std::string& block_error() const { return block_error_; }  // why the block could not be opened
  bool playing() const { return playing_; }
  double play_speed() const { return play_speed_; }  // instructions per second

  // ---- Commands.
  void select_block(kernel::TileCoord tile);  // clamped to the grid
  void step_instruction(int delta);           // by instruction of the selected warp, across phases
  void step_kstep(int delta);                 // to the first phase of the next (previous) k-step, prologue or epilogue
  void seek_phase(std::size_t phase);
  void select_warp(int warp);
  void select_instruction(int index);  // of the selected warp in the cursor's phase
  // The command line's way to place the stepper (gemmlab --phase, --warp, --instruction). Indices count from 0, as
  // everywhere in gemmlab; one out of range is an error sentence and changes nothing (the commands above clamp, for
  // the keys and buttons). Each needs what it indexes to be known: the block's schedule or the phase's instructions.
  Status go_to_phase(std::size_t phase);
  Status go_to_warp(int warp);
  Status go_to_instruction(int index);
  // The next (direction > 0) or previous instruction of `kind` of the selected warp, looking across phases.
  void seek_instruction(InstructionKind kind, int direction);
  void set_playing(bool playing);
  void set_play_speed(double instructions_per_second);

  // AppModel's: the selection changed (a new rung starts the cursor again at the block's first busy phase).
  void selection_changed(bool new_rung);
  // Once per frame: advances playback by `seconds`, asks for the phase the cursor needs.
  void update(double seconds);

 private:
  void block_changed();  // clamp the block, move the generation on, drop the walker
  void request_view();
  void resolve_cursor();                         // clamps the cursor's warp and instruction into the current view
  std::vector<std::size_t> step_starts() const;  // the first phase of the prologue, each k-step and the epilogue

  ModelContext context_;
  kernel::TileCoord block_;
  StepCursor cursor_;
  bool playing_ = false;
  double play_speed_ = 8.0;
  double play_clock_ = 0.0;

  // Results and the generation of the inputs they belong to.
  std::uint64_t block_generation_ = 1;   // the selection's, or the selected block
  std::shared_ptr<BlockWalker> walker_;  // used by jobs of the "block" group only, one at a time
  std::shared_ptr<const BlockOutline> outline_;
  std::shared_ptr<const PhaseView> view_;
  std::uint64_t outline_generation_ = 0;
  std::string block_error_;
  std::uint64_t requested_generation_ = 0;
  std::size_t requested_phase_ = 0;
};

}  // namespace gemmlab::desktop
