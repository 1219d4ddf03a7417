// The app model as the panels drive it: commands that cross features (the selection, the command line's indices,
// one GPU run at a time), invalid input as a sentence, leaving without waiting, and the settings it saves are the
// state it has. Each feature's own behaviour is tested beside it (stepper_model_test.cpp, ...).
#include "model/app_model.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include <unistd.h>

#include "app_model_support.hpp"
#include "gemmlab/sim/rung_model.hpp"
#include "model/docs_page.hpp"

namespace gemmlab::desktop {
namespace {

using namespace std::chrono_literals;

using test_support::model_with_recorded_data;
using test_support::options;
using test_support::settle;

TEST(AppModel, AnInvalidKnobShowsTheValidateSentenceAtOnce) {
  AppModel model(options());
  settle(model);
  model.set_knob("bm", 33);  // smem-tiling needs bm = bn = bk
  ASSERT_FALSE(model.validity().ok());
  EXPECT_EQ(model.validity().error().message,
            sim::validate(RungId::SmemTiling, model.config(), model.problem()).error().message);
  EXPECT_EQ(model.stepper().outline(), nullptr);
  settle(model);  // nothing to compute, nothing crashes
  model.reset_config();
  EXPECT_TRUE(model.validity().ok());
  settle(model);
  EXPECT_TRUE(model.stepper().view_current());
}

TEST(AppModel, KnobsOfOtherRungsAreIgnored) {
  AppModel model(options());
  const auto before = model.config();
  model.set_knob("swizzle", 1);  // smem-tiling has no swizzle
  EXPECT_EQ(model.config().swizzle, before.swizzle);
  EXPECT_TRUE(model.validity().ok());
}

TEST(AppModel, BadSavedValuesBecomeMessages) {
  Settings s;
  s.rung = "no-such-rung";
  s.knobs["vectorized"]["stages"] = 3;  // vectorized has no stages knob
  s.knobs["nonsense"]["bm"] = 1;
  AppModel model(options(s));
  EXPECT_EQ(model.rung(), RungId::SmemTiling);
  EXPECT_EQ(model.messages().size(), 3u);
}

TEST(AppModel, SettingsReflectTheState) {
  AppModel model(options());
  model.select_rung(RungId::Vectorized);
  model.set_knob("a_pad", 4);
  model.set_problem(512, 256, 128);
  model.select_panel("banks");
  const Settings s = model.settings();
  EXPECT_EQ(s.rung, "vectorized");
  EXPECT_EQ(s.knobs.at("vectorized").at("a_pad"), 4);
  EXPECT_EQ(s.knobs.at("vectorized").count("bm"), 0u);  // defaults are not written
  EXPECT_EQ(s.m, 512);
  EXPECT_EQ(s.panel, "banks");
}

TEST(AppModel, SavesItsSettingsWhenTheyChange) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("gemmlab-model-test-" + std::to_string(::getpid())) / "settings.json";
  std::filesystem::remove(path);
  auto o = options();
  o.settings_path = path;
  AppModel model(std::move(o));
  model.save_settings_if_changed(true);
  EXPECT_FALSE(std::filesystem::exists(path));  // nothing changed: nothing written
  model.select_rung(RungId::CpAsync);
  model.set_knob("stages", 4);
  model.save_settings_if_changed(true);
  const LoadedSettings loaded = load_settings(path);
  EXPECT_TRUE(loaded.messages.empty());
  EXPECT_EQ(loaded.settings.rung, "cp-async");
  EXPECT_EQ(loaded.settings.knobs.at("cp-async").at("stages"), 4);
}

TEST(AppModel, EditsSurviveSwitchingRungs) {
  AppModel model(options());
  model.select_rung(RungId::Vectorized);
  model.set_knob("swizzle", 1);
  model.select_rung(RungId::SmemTiling);
  model.select_rung(RungId::Vectorized);
  EXPECT_EQ(model.config().swizzle, 1);
}

// The command line's indices (gemmlab --phase, --warp, --instruction, --wave) count from 0 and are refused, not
// clamped, past the end: smem-tiling at 256^3 has 32 x 32 blocks of 1024 threads (32 warps) and 8 k-steps; 64
// blocks fit in one wave on the H100 (1 per SM, 132 SMs).
TEST(AppModel, CommandLineIndicesAreRefusedPastTheEnd) {
  AppModel model(options());
  settle(model);
  ASSERT_TRUE(model.stepper().outline_current());
  const auto phases = static_cast<std::int64_t>(model.stepper().outline()->schedule.size());
  const StepCursor before = model.stepper().cursor();

  auto status = model.stepper().go_to_warp(32);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().message, "warp 32 does not exist: the block has warps 0-31 (indices count from 0)");
  status = model.stepper().go_to_phase(static_cast<std::size_t>(phases));
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().message, "phase " + std::to_string(phases) + " does not exist: the block has phases 0-" +
                                        std::to_string(phases - 1) + " (indices count from 0)");
  status = model.go_to_wave(1);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().message, "wave 1 does not exist: the launch has only wave 0 (indices count from 0)");
  EXPECT_EQ(model.stepper().cursor().phase, before.phase) << "a refused index changes nothing";
  EXPECT_EQ(model.stepper().cursor().warp, before.warp);
  EXPECT_EQ(model.orders().selected_wave(), -1);

  // The last of each is accepted, and 0 is the first.
  EXPECT_TRUE(model.stepper().go_to_warp(31).ok());
  EXPECT_TRUE(model.stepper().go_to_phase(static_cast<std::size_t>(phases - 1)).ok());
  EXPECT_TRUE(model.go_to_wave(0).ok());
  EXPECT_EQ(model.orders().selected_wave(), 0);
  settle(model);
  // The last phase is the epilogue: each thread stores its one element of C, one st.global per warp.
  ASSERT_EQ(model.stepper().phase_view()->instruction_count(31), 1);
  status = model.stepper().go_to_instruction(1);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().message, "instruction 1 does not exist: warp 31 in phase " + std::to_string(phases - 1) +
                                        " has only instruction 0 (indices count from 0)");
  EXPECT_TRUE(model.stepper().go_to_instruction(0).ok());
  EXPECT_EQ(model.stepper().cursor().instruction, 0);
}

TEST(AppModel, LeavingDoesNotWaitForBigWork) {
  // 65536^3: the kernel simulation, the ladder's predictions and the L2 models take minutes. Leaving (destroying the
  // model, as closing the window does) cancels them, and each stops at its next check.
  Settings s;
  s.rung = "warptile";
  s.panel = "launch-order";
  const auto started = std::chrono::steady_clock::now();
  {
    AppModel::Options o;
    o.settings = s;
    o.settings.m = o.settings.n = o.settings.k = 65536;
    AppModel model(std::move(o));
    model.orders().request_studies();
    model.update(0.0);
    EXPECT_FALSE(model.wait_until_idle(500ms));  // still working
  }
  EXPECT_LT(std::chrono::steady_clock::now() - started, 10s);
}

TEST(AppModel, LaunchOrdersAndColouringAreSaved) {
  Settings s;
  s.launch_orders[0] = {"cutlass", 2};
  s.launch_orders[1] = {"no-such-order", 4};
  s.grid_colouring = "launch";
  AppModel model(options(s));
  EXPECT_EQ(model.orders().choice(0), (OrderChoice{kernel::OrderKind::Cutlass, 2}));
  EXPECT_EQ(model.orders().choice(1), (OrderChoice{kernel::OrderKind::RowMajor, 4}));
  ASSERT_EQ(model.messages().size(), 1u);
  EXPECT_NE(model.messages()[0].text.find("no-such-order"), std::string::npos);
  EXPECT_EQ(model.orders().grid_colouring(), GridColouring::LaunchOrder);
  model.orders().set_choice(1, {kernel::OrderKind::GroupM, 16});
  model.orders().set_grid_colouring(GridColouring::Wave);
  const Settings saved = model.settings();
  EXPECT_EQ(saved.launch_orders[0].kind, "cutlass");
  EXPECT_EQ(saved.launch_orders[0].group_size, 2);
  EXPECT_EQ(saved.launch_orders[1].kind, "groupm");
  EXPECT_EQ(saved.launch_orders[1].group_size, 16);
  EXPECT_EQ(saved.grid_colouring, "wave");
}

TEST(AppModel, TheTmaSwizzleShownIsOneTmaHasAndIsSaved) {
  Settings s;
  s.tma_swizzle = 48;  // no such mode: the default stays, and a message says why
  AppModel model(options(s));
  EXPECT_EQ(model.tma_swizzle(), 128);
  ASSERT_EQ(model.messages().size(), 1u);
  EXPECT_NE(model.messages()[0].text.find("48"), std::string::npos);
  EXPECT_TRUE(model.set_tma_swizzle(0).ok());
  EXPECT_FALSE(model.set_tma_swizzle(16).ok());
  EXPECT_EQ(model.tma_swizzle(), 0);
  EXPECT_TRUE(model.set_tma_swizzle(64).ok());
  EXPECT_EQ(model.settings().tma_swizzle, 64);
}

TEST(AppModel, WithoutAGpuTheBenchmarkSaysSo) {
  AppModel model(options());
  if (model.gpu_available()) GTEST_SKIP() << "this machine has a GPU";
  EXPECT_FALSE(model.gpu_status().empty());
}

TEST(AppModel, OneGpuRunAtATimeAndAFailedOneFreesTheGpu) {
  AppModel model(options());
  if (model.gpu_available()) GTEST_SKIP() << "this machine has a GPU: the run itself is the live test's";
  settle(model);
  gpu::TuneOptions tune;
  tune.rung = RungId::BlockTile2D;
  tune.shape = {256, 256, 256};
  model.run_tuning_study(tune);
  EXPECT_TRUE(model.tuning().running());
  EXPECT_TRUE(model.gpu_busy());
  model.run_benchmark({});  // refused while the study holds the GPU
  EXPECT_FALSE(model.benchmark().running());
  settle(model);
  model.update(0.0);  // the failed study's completion: no GPU here
  EXPECT_FALSE(model.tuning().running());
  EXPECT_FALSE(model.gpu_busy());
  ASSERT_FALSE(model.messages().empty());
  EXPECT_NE(model.messages().back().text.find("tuning: "), std::string::npos) << model.messages().back().text;
}

TEST(AppModel, TheRecordedTraceOfTheRungIsShownByItsNameInTheCheckout) {
  AppModel model = model_with_recorded_data("tma-wgmma-persistent");
  ASSERT_TRUE(model.load_recorded_trace()) << model.timeline().error();
  EXPECT_EQ(model.timeline().file(), "docs/timeline-data/20-tma-wgmma-persistent.trace.json");
  // The name the panel shows loads again from anywhere: it is looked for in the data roots.
  ASSERT_TRUE(model.load_trace(model.timeline().path_text())) << model.timeline().error();
  model.select_rung(RungId::NaiveUncoalesced);  // no trace recorded: a sentence, and the shown trace stays
  EXPECT_FALSE(model.load_recorded_trace());
  EXPECT_NE(model.timeline().error().find("01-naive-uncoalesced.trace.json"), std::string::npos);
  EXPECT_NE(model.timeline().error().find("has no recorded trace"), std::string::npos) << model.timeline().error();
  EXPECT_TRUE(model.timeline().loaded());
}

TEST(AppModel, TheTopRungsRecordedTraceIsTheShippedSets) {
  AppModel model = model_with_recorded_data("tma-wgmma-pingpong");
  ASSERT_TRUE(model.load_recorded_trace()) << model.timeline().error();
  EXPECT_EQ(model.timeline().file(), "docs/timeline-data/24-tma-wgmma-pingpong.trace.json");
  EXPECT_TRUE(model.timeline().of_rung(RungId::TmaWgmmaPingPong));
}

TEST(DocsPage, FindsTheRungPageInTheSourceTree) {
  const DocsPage page = load_rung_docs(rung_info(RungId::SmemTiling), {GEMMLAB_SOURCE_DIR});
  ASSERT_TRUE(page.found) << page.message;
  EXPECT_EQ(page.path.filename(), "03-smem-tiling.md");
  EXPECT_NE(page.text.find("# Rung 3"), std::string::npos);
}

TEST(DocsPage, AMissingPageSaysWhereItLooked) {
  const DocsPage page = load_rung_docs(rung_info(RungId::SmemTiling), {"/nonexistent/gemmlab"});
  EXPECT_FALSE(page.found);
  EXPECT_NE(page.message.find("docs/rungs/03-smem-tiling.md"), std::string::npos);
  EXPECT_NE(page.message.find("/nonexistent/gemmlab"), std::string::npos);
}

// The Shapes panel's prediction with the model's picks ranks every configuration of every rung: a job, whose result
// is shown once it is done; without picks it is shown at once.
TEST(AppModel, ShapesWithThePicksArePredictedAsAJob) {
  AppModel model(options());
  settle(model);
  model.shapes().set_shapes_text("128x4096x4096");
  model.shapes().set_tuned(1);
  ASSERT_TRUE(model.predict_shapes());
  settle(model);
  ASSERT_EQ(model.shapes().rows().size(), 1u);
  EXPECT_NE(model.shapes().source().find("ranks fastest"), std::string::npos) << model.shapes().source();
  model.shapes().set_shapes_text("llama9");  // a bad shape: said, and the rows stay
  ASSERT_TRUE(model.predict_shapes());       // submitted; the job finds the error
  settle(model);
  EXPECT_NE(model.shapes().error().find("unknown shape preset"), std::string::npos) << model.shapes().error();
  EXPECT_EQ(model.shapes().rows().size(), 1u);
}

}  // namespace
}  // namespace gemmlab::desktop
