#pragma once
// Pieces several panels share: the knob editor, the instruction picker, the "not ready" states, and the words that
// describe instructions, phases and elements. One implementation each, so every panel says the same thing.
#include <string>
#include <string_view>

#include "gemmlab/sim/rung_model.hpp"
#include "model/app_model.hpp"

namespace gemmlab::desktop {

// "A[12][3]" (row and column of the matrix), or "zero" for a word no element was written to.
std::string element_name(const ElementRef& element);

// "lds.128", "cp.async.16", ...
std::string instruction_name(const sim::WarpInstruction& instruction);
// What the instruction does, in a sentence a newcomer can follow.
std::string instruction_sentence(const InstructionView& instruction, const BlockOutline& outline);
// What the phase does: "loads the tiles from global memory, stores them to shared memory".
std::string phase_sentence(const PhaseView& view);

// The editor of one knob of the current rung: a checkbox for on/off knobs, a number with - + and, for sizes,
// halve / double buttons. Changes go straight to the model (validate() runs on every change).
// `compact`: name and value only (several on one line, with ImGui::SameLine between them).
void knob_editor(AppModel& model, const sim::Knob& knob, bool compact = false);

// Draws why the configuration cannot run (validate()'s sentence and what to do) and returns false; true when it is
// valid.
bool config_ready(const AppModel& model);

// Draws why there is nothing to show (an invalid configuration, an error, a computation in progress) and returns
// false; returns true when the outline and the cursor's phase are ready to draw.
bool block_ready(AppModel& model);

// The instruction a banks (Shared) or coalescing (Global) view shows: the cursor's when it is of that kind,
// otherwise the nearest one of that kind in the cursor's phase for the selected warp. -1 when there is none.
int pick_instruction(const StepperModel& stepper, InstructionKind kind);

// The picker row: previous / next instruction of the kind (across phases), the list of the phase's instructions
// of that kind for the selected warp, and the warp. Returns the picked instruction index; when there is none, says
// so and returns -1.
int instruction_picker(StepperModel& stepper, InstructionKind kind);

// One instruction in a line, for lists: "#3  lds.32  32 wavefronts (ideal 1)  A rows 0-31, column 3".
std::string instruction_brief(int index, const InstructionView& instruction, const BlockOutline& outline);

// Every instruction of the selected warp in the cursor's phase, one line each with what it moves and its cost; the
// cursor's is highlighted and a click goes to one. So a learner can find "the A-column read" without stepping.
void instruction_list(StepperModel& stepper, const BlockOutline& outline, const PhaseView& view);

// The warp selector (a number, clamped by the model to the block's warps).
void warp_selector(StepperModel& stepper);

// A button of a step bar, `widths` frame heights wide, that explains itself (and its key) when hovered; placed on
// the line of the previous item unless it is the first. True when clicked.
bool step_button(const char* label, float widths, const char* tooltip, bool first = false);

// Step controls (k-step and instruction back/forward, play/pause, speed) with the keyboard hint.
void step_controls(StepperModel& stepper);

// A text field with its label before it on the same line, `width` font sizes wide (a file name, a list of sizes):
// true when the user changed the text.
bool labelled_text_field(const char* label, const char* id, std::string& text, float width);

}  // namespace gemmlab::desktop
