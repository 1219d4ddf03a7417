// The layout lab panel's model: an edit recomputes the answer, a question that cannot be answered is a sentence and
// no report, a suggestion applied writes a conflict-free layout into the fields, and every preset of the gallery loads.
#include "model/layout_lab_model.hpp"

#include <gtest/gtest.h>

#include "gemmlab/lab/access.hpp"

namespace gemmlab::desktop {
namespace {

TEST(LayoutLabModel, StartsOnTheGallerysFirstQuestionWithItsWorstInstructionSelected) {
  LayoutLabModel lab;
  ASSERT_NE(lab.preset(), nullptr);
  EXPECT_EQ(lab.preset()->name, lab::presets().front().name);
  ASSERT_TRUE(lab.report()) << lab.error();
  EXPECT_TRUE(lab.error().empty());
  ASSERT_TRUE(lab.expressions());
  ASSERT_TRUE(lab.suggestions()) << lab.suggestions_error();
  EXPECT_GE(lab.selected_instruction(), 0);
  EXPECT_EQ(lab.selected_instruction(), lab.worst_instruction());
}

TEST(LayoutLabModel, EditingAFieldRecomputes) {
  LayoutLabModel lab;
  ASSERT_TRUE(lab.load_preset("rows-of-64-halves"));
  ASSERT_TRUE(lab.report());
  // Rows of 128 bytes: every ldmatrix row of a column lands on the same 4 banks, 8 ways.
  EXPECT_GT(lab.report()->totals.conflicts(), 0);
  const int worst = lab.selected_instruction();
  const auto& phase = lab.report()->instructions[static_cast<std::size_t>(worst)].phases.front();
  EXPECT_EQ(phase.worst_way, 8);
  EXPECT_EQ(lab.tile_rows(), 64);
  EXPECT_EQ(lab.tile_columns(), 64);
  // Element (1, 0) starts 128 bytes after (0, 0): bank 0 again; (0, 2) is in word 1, bank 1.
  EXPECT_EQ(lab.cell_banks()[64], 0);
  EXPECT_EQ(lab.cell_banks()[2], 1);

  lab::QueryText padded = lab.query();
  padded.layout = "(64,64):(72,1)";
  lab.set_query(padded);
  ASSERT_TRUE(lab.report()) << lab.error();
  EXPECT_EQ(lab.report()->totals.conflicts(), 0);
  EXPECT_EQ(lab.preset(), lab::find_preset("padded-72"));  // the same question as the gallery's
  EXPECT_EQ(lab.cell_banks()[64], 4);                      // row 1 now starts 144 bytes in: bank 36 mod 32
  ASSERT_TRUE(lab.expressions());
  EXPECT_EQ(lab.expressions()->printed, "(64,64):(72,1)");

  lab::QueryText other = lab.query();
  other.element = "fp32";  // 4-byte elements: ldmatrix still reads 16-byte rows, now of 4 elements
  lab.set_query(other);
  EXPECT_EQ(lab.query().element, "fp32");
  EXPECT_EQ(lab.preset(), nullptr);
}

TEST(LayoutLabModel, TheSelectedInstructionsLanesAreMarkedOnTheTile) {
  LayoutLabModel lab;
  ASSERT_TRUE(lab.load_preset("rows-of-64-halves"));
  lab.select_instruction(0);
  ASSERT_EQ(lab.selected_instruction(), 0);
  // ldmatrix.x4 at (0, 0): lanes 0-7 give rows 0-7 of columns 0-7, lanes 8-15 rows 8-15, lanes 16-23 rows 0-7 of
  // columns 8-15: 256 elements in all.
  const auto& lanes = lab.cell_lanes();
  EXPECT_EQ(lanes[0], 0);
  EXPECT_EQ(lanes[7], 0);
  EXPECT_EQ(lanes[64 * 3], 3);
  EXPECT_EQ(lanes[64 * 9], 9);
  EXPECT_EQ(lanes[8], 16);
  EXPECT_EQ(lanes[16], -1);
  int touched = 0;
  for (const auto lane : lanes) touched += lane >= 0;
  EXPECT_EQ(touched, 256);
  // Past the end is clamped, as the panel's stepper is.
  lab.select_instruction(1000);
  EXPECT_EQ(lab.selected_instruction(), static_cast<int>(lab.report()->instructions.size()) - 1);
}

TEST(LayoutLabModel, ABadLayoutIsASentenceAndNoReport) {
  LayoutLabModel lab;
  lab::QueryText bad = lab.query();
  bad.layout = "(64,64):(64,";
  lab.set_query(bad);
  EXPECT_FALSE(lab.report());
  EXPECT_FALSE(lab.expressions());
  EXPECT_FALSE(lab.suggestions());
  EXPECT_EQ(lab.selected_instruction(), -1);
  EXPECT_EQ(lab.tile_rows(), 0);
  EXPECT_TRUE(lab.cell_banks().empty());
  EXPECT_NE(lab.error().find("--layout"), std::string::npos) << lab.error();
  lab.select_instruction(3);  // nothing to select: no change, no crash
  EXPECT_EQ(lab.selected_instruction(), -1);
  // Two elements at one offset is a sentence too, naming what collides.
  bad.layout = "(64,64):(1,1)";
  lab.set_query(bad);
  EXPECT_FALSE(lab.report());
  EXPECT_FALSE(lab.error().empty());
  // And the fields stay as typed, so the user can mend them.
  EXPECT_EQ(lab.query().layout, "(64,64):(1,1)");
}

TEST(LayoutLabModel, ApplyingASuggestionWritesAConflictFreeLayoutIntoTheFields) {
  LayoutLabModel lab;
  ASSERT_TRUE(lab.load_preset("rows-of-64-halves"));
  ASSERT_TRUE(lab.suggestions()) << lab.suggestions_error();
  ASSERT_GT(lab.suggestions()->conflict_free, 0);
  const lab::Candidate first = lab.suggestions()->candidates.front();
  ASSERT_TRUE(first.conflict_free());  // conflict-free ones come first
  lab.select_instruction(2);
  ASSERT_TRUE(lab.apply_suggestion(0));
  ASSERT_TRUE(lab.report()) << lab.error();
  EXPECT_EQ(lab.report()->totals.conflicts(), 0);
  EXPECT_EQ(lab.report()->tile.layout, first.tile.layout);
  EXPECT_EQ(lab.report()->tile.swizzle, first.tile.swizzle);
  EXPECT_EQ(lab.query().op, "ldmatrix.x4");  // the access stays
  EXPECT_EQ(lab.query().element, "fp16");
  EXPECT_EQ(lab.selected_instruction(), 2);  // the same instruction, now without its conflict
  // Every conflict-free suggestion applies as one.
  for (int i = 0; i < lab.suggestions()->conflict_free; ++i) {
    ASSERT_TRUE(lab.load_preset("rows-of-64-halves"));
    ASSERT_TRUE(lab.apply_suggestion(static_cast<std::size_t>(i)));
    ASSERT_TRUE(lab.report()) << lab.error();
    EXPECT_EQ(lab.report()->totals.conflicts(), 0) << "suggestion " << i;
  }
  EXPECT_FALSE(lab.apply_suggestion(100000));
}

TEST(LayoutLabModel, EveryPresetLoads) {
  LayoutLabModel lab;
  for (const auto& preset : lab::presets()) {
    ASSERT_TRUE(lab.load_preset(preset.name)) << preset.name;
    EXPECT_EQ(lab.preset(), &preset);
    EXPECT_TRUE(lab.report()) << preset.name << ": " << lab.error();
    EXPECT_TRUE(lab.expressions()) << preset.name;
  }
  const auto unknown = lab.load_preset("no-such-preset");
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().message.find("rows-of-64-halves"), std::string::npos);
}

TEST(LayoutLabModel, TheCombosOfferOnlyWhatTheLabKnows) {
  for (const auto op : layout_lab_ops()) EXPECT_TRUE(lab::access_kind(op)) << op;
  for (const auto element : layout_lab_elements()) EXPECT_TRUE(lab::parse_element(element)) << element;
  EXPECT_TRUE(layout_lab_is_copy("cp.async.16"));
  EXPECT_TRUE(layout_lab_is_copy("lds.128"));
  EXPECT_FALSE(layout_lab_is_copy("ldmatrix.x4"));
  EXPECT_FALSE(layout_lab_is_copy("wgmma"));
}

}  // namespace
}  // namespace gemmlab::desktop
