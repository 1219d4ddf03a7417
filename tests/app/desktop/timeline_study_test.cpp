// The Timeline panel's model (app/desktop/model/timeline_study.cpp): the recorded H200 traces read back by rung, a
// block chosen, the model's block first, and bad files that change nothing.
#include "model/timeline_study.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

namespace gemmlab::desktop {
namespace {

const std::filesystem::path kSource = GEMMLAB_SOURCE_DIR;

TEST(TimelineStudy, ARungsRecordedTraceIsFoundByItsNumberAndSlug) {
  EXPECT_EQ(recorded_trace(RungId::TmaWgmmaSpecialized), "docs/timeline-data/18-tma-wgmma-specialized.trace.json");
  EXPECT_EQ(recorded_trace(RungId::NaiveUncoalesced), "docs/timeline-data/01-naive-uncoalesced.trace.json");
}

// Every rung the sentence names has its recorded trace in the checkout (docs/timeline-data), and the rung after the
// last has none.
TEST(TimelineStudy, TheRungsSaidToHaveRecordedTracesHaveThem) {
  const std::string range = rungs_with_recorded_traces();
  int first = 0, last = 0;
  ASSERT_EQ(std::sscanf(range.c_str(), "%d to %d", &first, &last), 2) << range;
  EXPECT_EQ(first, 17);
  for (const RungInfo& info : rungs()) {
    if (info.number < first || info.number > last) continue;
    const std::filesystem::path trace = recorded_trace(info.id);
    EXPECT_TRUE(std::filesystem::is_regular_file(kSource / trace)) << info.slug;
  }
  EXPECT_EQ(last, static_cast<int>(rungs().size()));
}

TEST(TimelineStudy, ShowsOneSampledBlockAtATime) {
  TimelineStudy study;
  ASSERT_TRUE(study.load(kSource / recorded_trace(RungId::TmaWgmmaSpecialized))) << study.error();
  ASSERT_TRUE(study.loaded());
  ASSERT_EQ(study.blocks().size(), 4u);  // the shipped set was traced with TRACE_BLOCKS=4
  EXPECT_EQ(study.block(), study.blocks().front());
  auto shown = study.shown_tracks();
  ASSERT_EQ(shown.size(), 5u);  // the model's consumer and producer, then two consumer warpgroups and the producer
  EXPECT_EQ(shown[2]->warpgroup, 0);
  EXPECT_EQ(shown[4]->role, "producer");
  for (const sim::Track* t : shown) {
    if (!t->predicted) {
      EXPECT_EQ(t->block, study.block());
    }
  }
  study.select_block(study.blocks().back());
  EXPECT_EQ(study.block(), study.blocks().back());
  study.select_block(-5);  // not a sampled block: nothing changes
  EXPECT_EQ(study.block(), study.blocks().back());
  EXPECT_FALSE(study.summary().roles.empty());
  // Named on the panel as the caller says: a recorded trace by its path in the checkout, wherever that is.
  ASSERT_TRUE(study.load(kSource / recorded_trace(RungId::TmaWgmmaSpecialized), "docs/timeline-data/x.trace.json"));
  EXPECT_EQ(study.file(), "docs/timeline-data/x.trace.json");
  EXPECT_EQ(study.path_text(), "docs/timeline-data/x.trace.json");
}

TEST(TimelineStudy, TheModelsBlockComesFirst) {
  TimelineStudy study;
  ASSERT_TRUE(study.load(kSource / recorded_trace(RungId::TmaWgmmaSpecialized))) << study.error();
  const auto shown = study.shown_tracks();
  ASSERT_GE(shown.size(), 3u);
  EXPECT_TRUE(shown[0]->predicted);
  EXPECT_TRUE(shown[1]->predicted);
  EXPECT_FALSE(shown[2]->predicted);
  EXPECT_EQ(study.summary().roles.size(), 2u);  // the measured consumer and producer only
}

TEST(TimelineStudy, TheStepperFindsTheRungsConsumerAndTheModelsTrack) {
  TimelineStudy study;
  EXPECT_FALSE(study.of_rung(RungId::TmaWgmmaSpecialized));  // nothing loaded
  ASSERT_TRUE(study.load(kSource / recorded_trace(RungId::TmaWgmmaSpecialized))) << study.error();
  EXPECT_TRUE(study.of_rung(RungId::TmaWgmmaSpecialized));
  EXPECT_FALSE(study.of_rung(RungId::TmaWgmma));  // tma-wgmma is a prefix of the kernel's name, not its rung
  const sim::Track* consumer = study.track("consumer", false);
  ASSERT_NE(consumer, nullptr);
  EXPECT_EQ(consumer->block, study.block());
  EXPECT_EQ(consumer->warpgroup, 0);
  const sim::Track* model = study.track("consumer", true);
  ASSERT_NE(model, nullptr);
  EXPECT_TRUE(model->predicted);
  EXPECT_EQ(study.track("nobody", false), nullptr);
  // Its k-steps as the stepper draws them: the 64 of 4096 / 64, each with its waits.
  const auto steps = sim::kstep_spans(*consumer);
  ASSERT_EQ(steps.size(), 64u);
  EXPECT_EQ(steps.front().kstep, 0);
  for (const sim::KstepSpan& step : steps) EXPECT_LE(step.waited_ns, step.end_ns - step.begin_ns);
  // What the stepper draws, read once with the block shown.
  ASSERT_EQ(study.measured_ksteps().size(), steps.size());
  EXPECT_EQ(study.measured_ksteps().front().begin_ns, steps.front().begin_ns);
  EXPECT_EQ(study.model_ksteps().size(), sim::kstep_spans(*model).size());
  ASSERT_NE(TimelineStudy::find_kstep(study.measured_ksteps(), 10), nullptr);
  EXPECT_EQ(TimelineStudy::find_kstep(study.measured_ksteps(), 10)->kstep, 10);
  EXPECT_EQ(TimelineStudy::find_kstep(study.measured_ksteps(), 64), nullptr);
  study.select_block(study.blocks().back());
  EXPECT_EQ(study.measured_ksteps().size(), sim::kstep_spans(*study.track("consumer", false)).size());
  EXPECT_NE(study.measured_ksteps().front().begin_ns, steps.front().begin_ns);  // the other block's
}

TEST(TimelineStudy, ABadFileIsASentenceAndChangesNothing) {
  TimelineStudy study;
  ASSERT_TRUE(study.load(kSource / recorded_trace(RungId::TmaWgmmaSpecialized)));
  const std::string shown = study.file();
  EXPECT_FALSE(study.load("/nonexistent/trace.json"));
  EXPECT_NE(study.error().find("/nonexistent/trace.json"), std::string::npos) << study.error();
  const auto foreign = std::filesystem::temp_directory_path() / "gemmlab_timeline_study_foreign.json";
  std::ofstream(foreign) << R"({"traceEvents": []})";
  EXPECT_FALSE(study.load(foreign));
  EXPECT_NE(study.error().find("not a gemmlab trace"), std::string::npos) << study.error();
  EXPECT_EQ(study.file(), shown);
  EXPECT_TRUE(study.loaded());
  std::filesystem::remove(foreign);
}

}  // namespace
}  // namespace gemmlab::desktop
