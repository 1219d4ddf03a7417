// The tile stepper as its panel drives it: the block's stream decoded on a worker, the cursor stepped by
// instruction, k-step and kind across phases, playback, and the block kept inside the grid.
#include "model/app_model.hpp"

#include <gtest/gtest.h>

#include "app_model_support.hpp"
#include "gemmlab/memory_model.hpp"

namespace gemmlab::desktop {
namespace {

using test_support::options;
using test_support::settle;

TEST(StepperModel, StartsOnTheFirstPhaseThatTouchesMemory) {
  Settings s;
  s.rung = "vectorized";  // its prologue only clears registers
  AppModel model(options(s));
  StepperModel& stepper = model.stepper();
  settle(model);
  ASSERT_TRUE(stepper.view_current());
  EXPECT_FALSE(stepper.phase_view()->instructions.empty());
  EXPECT_EQ(stepper.phase_view()->ref.section, kernel::Section::Mainloop);
  ASSERT_NE(stepper.cursor_instruction(), nullptr);
  EXPECT_TRUE(model.predictions().kernel_counters_current());
}

TEST(StepperModel, StepsByInstructionAcrossPhases) {
  AppModel model(options());
  StepperModel& stepper = model.stepper();
  settle(model);
  const std::size_t phase = stepper.cursor().phase;
  const int count = stepper.phase_view()->instruction_count(stepper.cursor().warp);
  ASSERT_GT(count, 0);
  for (int i = 1; i < count; ++i) stepper.step_instruction(+1);
  EXPECT_EQ(stepper.cursor().instruction, count - 1);
  stepper.step_instruction(+1);
  EXPECT_EQ(stepper.cursor().phase, phase + 1);
  settle(model);
  EXPECT_EQ(stepper.cursor().instruction, 0);
  stepper.step_instruction(-1);  // back into the previous phase, at its last instruction
  settle(model);
  EXPECT_EQ(stepper.cursor().phase, phase);
  EXPECT_EQ(stepper.cursor().instruction, count - 1);
}

TEST(StepperModel, StepsByKstep) {
  AppModel model(options());
  StepperModel& stepper = model.stepper();
  settle(model);
  ASSERT_EQ(stepper.phase_view()->ref.kstep, 0);
  stepper.step_kstep(+1);
  settle(model);
  EXPECT_EQ(stepper.phase_view()->ref.section, kernel::Section::Mainloop);
  EXPECT_EQ(stepper.phase_view()->ref.kstep, 1);
  EXPECT_EQ(stepper.phase_view()->ref.phase, 0);
  stepper.step_kstep(-1);
  settle(model);
  EXPECT_EQ(stepper.phase_view()->ref.kstep, 0);
}

TEST(StepperModel, SeeksTheNextSharedInstruction) {
  AppModel model(options());
  StepperModel& stepper = model.stepper();
  settle(model);
  stepper.seek_instruction(InstructionKind::Shared, +1);
  settle(model);
  const InstructionView* iv = stepper.cursor_instruction();
  ASSERT_NE(iv, nullptr);
  EXPECT_TRUE(sim::touches_shared(iv->instruction.access.op));
}

TEST(StepperModel, PlaybackAdvancesTheCursor) {
  AppModel model(options());
  StepperModel& stepper = model.stepper();
  settle(model);
  const auto before = stepper.cursor();
  stepper.set_play_speed(10.0);
  stepper.set_playing(true);
  model.update(0.35);  // 3.5 instructions' worth
  EXPECT_EQ(stepper.cursor().phase, before.phase);
  EXPECT_EQ(stepper.cursor().instruction, before.instruction + 3);
}

TEST(StepperModel, BlockIsClampedToTheGrid) {
  AppModel model(options());
  StepperModel& stepper = model.stepper();
  stepper.select_block({99, -4});
  EXPECT_EQ(stepper.block().row, model.launch()->tiles_m - 1);
  EXPECT_EQ(stepper.block().col, 0);
}

}  // namespace
}  // namespace gemmlab::desktop
