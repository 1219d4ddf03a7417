// The selection the feature models read: validated at every change, its generation moving on only when something
// changed, and restored from the settings with a sentence for what cannot be used.
#include "model/selection.hpp"

#include <gtest/gtest.h>

#include "gemmlab/sim/rung_model.hpp"

namespace gemmlab::desktop {
namespace {

Selection restored(Settings settings, MessageLog& messages) {
  Selection selection;
  selection.restore(settings, messages);
  return selection;
}

TEST(Selection, AChangeIsValidatedAndMovesTheGenerationOn) {
  MessageLog messages;
  Selection selection = restored({}, messages);
  ASSERT_TRUE(selection.validity().ok());
  ASSERT_TRUE(selection.launch().has_value());
  std::uint64_t generation = selection.generation();

  EXPECT_FALSE(selection.set_knob("swizzle", 1)) << "smem-tiling has no swizzle";
  EXPECT_FALSE(selection.set_problem(selection.problem().m, selection.problem().n, selection.problem().k));
  EXPECT_FALSE(selection.select_rung(selection.rung()));
  EXPECT_EQ(selection.generation(), generation) << "nothing changed";

  EXPECT_TRUE(selection.set_knob("bm", 33));  // smem-tiling needs bm = bn = bk
  EXPECT_GT(selection.generation(), generation);
  ASSERT_FALSE(selection.validity().ok());
  EXPECT_EQ(selection.validity().error().message,
            sim::validate(selection.rung(), selection.config(), selection.problem()).error().message);
  EXPECT_FALSE(selection.launch().has_value());

  generation = selection.generation();
  selection.reset_config();
  EXPECT_GT(selection.generation(), generation);
  EXPECT_TRUE(selection.validity().ok());
  EXPECT_TRUE(selection.launch().has_value());
}

TEST(Selection, EachRungKeepsItsOwnConfiguration) {
  MessageLog messages;
  Selection selection = restored({}, messages);
  ASSERT_TRUE(selection.select_rung(RungId::Vectorized));
  ASSERT_TRUE(selection.set_knob("a_pad", 4));
  ASSERT_TRUE(selection.select_rung(RungId::SmemTiling));
  EXPECT_EQ(selection.config_of(RungId::Vectorized).a_pad, 4);
  EXPECT_EQ(selection.config().a_pad, sim::rung_model(RungId::SmemTiling).defaults.a_pad);
}

TEST(Selection, SavesWhatItRestores) {
  Settings s;
  s.rung = "cp-async";
  s.knobs["cp-async"]["stages"] = 4;
  s.knobs["vectorized"]["stages"] = 3;  // vectorized has no stages knob
  s.m = 512, s.n = 256, s.k = 128;
  MessageLog messages;
  const Selection selection = restored(s, messages);
  ASSERT_EQ(messages.list().size(), 1u);
  EXPECT_NE(messages.list()[0].text.find("vectorized has no knob 'stages'"), std::string::npos);
  EXPECT_EQ(selection.rung(), RungId::CpAsync);
  EXPECT_EQ(selection.config().stages, 4);
  EXPECT_EQ(selection.problem().m, 512);
  Settings saved;
  selection.save(saved);
  EXPECT_EQ(saved.rung, "cp-async");
  EXPECT_EQ(saved.knobs.at("cp-async").at("stages"), 4);
  EXPECT_EQ(saved.knobs.count("vectorized"), 0u);
  EXPECT_EQ(saved.k, 128);
}

}  // namespace
}  // namespace gemmlab::desktop
