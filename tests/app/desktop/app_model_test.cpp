// The app model as the panels drive it: commands change the state, long work arrives through jobs, invalid input
// becomes a sentence, and the settings it saves are the state it has.
#include "model/app_model.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include <unistd.h>

#include "gemmlab/gpu/instances.hpp"
#include "gemmlab/memory_model.hpp"
#include "gemmlab/sim/launch_order.hpp"
#include "gemmlab/sim/rung_model.hpp"
#include "model/docs_page.hpp"

namespace gemmlab::desktop {
namespace {

using namespace std::chrono_literals;

AppModel::Options options(Settings settings = {}) {
  AppModel::Options o;
  o.settings = std::move(settings);
  o.settings.m = o.settings.n = o.settings.k = 256;  // small: every test replays blocks many times
  return o;
}

void settle(AppModel& model) { ASSERT_TRUE(model.wait_until_idle(30s)); }

TEST(AppModel, StartsOnTheFirstPhaseThatTouchesMemory) {
  Settings s;
  s.rung = "vectorized";  // its prologue only clears registers
  AppModel model(options(s));
  settle(model);
  ASSERT_TRUE(model.view_current());
  EXPECT_FALSE(model.phase_view()->instructions.empty());
  EXPECT_EQ(model.phase_view()->ref.section, kernel::Section::Mainloop);
  ASSERT_NE(model.cursor_instruction(), nullptr);
  EXPECT_TRUE(model.kernel_counters_current());
}

TEST(AppModel, AnInvalidKnobShowsTheValidateSentenceAtOnce) {
  AppModel model(options());
  settle(model);
  model.set_knob("bm", 33);  // smem-tiling needs bm = bn = bk
  ASSERT_FALSE(model.validity().ok());
  EXPECT_EQ(model.validity().error().message,
            sim::validate(RungId::SmemTiling, model.config(), model.problem()).error().message);
  EXPECT_EQ(model.outline(), nullptr);
  settle(model);  // nothing to compute, nothing crashes
  model.reset_config();
  EXPECT_TRUE(model.validity().ok());
  settle(model);
  EXPECT_TRUE(model.view_current());
}

TEST(AppModel, KnobsOfOtherRungsAreIgnored) {
  AppModel model(options());
  const auto before = model.config();
  model.set_knob("swizzle", 1);  // smem-tiling has no swizzle
  EXPECT_EQ(model.config().swizzle, before.swizzle);
  EXPECT_TRUE(model.validity().ok());
}

TEST(AppModel, StepsByInstructionAcrossPhases) {
  AppModel model(options());
  settle(model);
  const std::size_t phase = model.cursor().phase;
  const int count = model.phase_view()->instruction_count(model.cursor().warp);
  ASSERT_GT(count, 0);
  for (int i = 1; i < count; ++i) model.step_instruction(+1);
  EXPECT_EQ(model.cursor().instruction, count - 1);
  model.step_instruction(+1);
  EXPECT_EQ(model.cursor().phase, phase + 1);
  settle(model);
  EXPECT_EQ(model.cursor().instruction, 0);
  model.step_instruction(-1);  // back into the previous phase, at its last instruction
  settle(model);
  EXPECT_EQ(model.cursor().phase, phase);
  EXPECT_EQ(model.cursor().instruction, count - 1);
}

TEST(AppModel, StepsByKstep) {
  AppModel model(options());
  settle(model);
  ASSERT_EQ(model.phase_view()->ref.kstep, 0);
  model.step_kstep(+1);
  settle(model);
  EXPECT_EQ(model.phase_view()->ref.section, kernel::Section::Mainloop);
  EXPECT_EQ(model.phase_view()->ref.kstep, 1);
  EXPECT_EQ(model.phase_view()->ref.phase, 0);
  model.step_kstep(-1);
  settle(model);
  EXPECT_EQ(model.phase_view()->ref.kstep, 0);
}

TEST(AppModel, SeeksTheNextSharedInstruction) {
  AppModel model(options());
  settle(model);
  model.seek_instruction(InstructionKind::Shared, +1);
  settle(model);
  const InstructionView* iv = model.cursor_instruction();
  ASSERT_NE(iv, nullptr);
  EXPECT_TRUE(sim::touches_shared(iv->instruction.access.op));
}

TEST(AppModel, PlaybackAdvancesTheCursor) {
  AppModel model(options());
  settle(model);
  const auto before = model.cursor();
  model.set_play_speed(10.0);
  model.set_playing(true);
  model.update(0.35);  // 3.5 instructions' worth
  EXPECT_EQ(model.cursor().phase, before.phase);
  EXPECT_EQ(model.cursor().instruction, before.instruction + 3);
}

TEST(AppModel, BlockIsClampedToTheGrid) {
  AppModel model(options());
  model.select_block({99, -4});
  EXPECT_EQ(model.block().row, model.launch()->tiles_m - 1);
  EXPECT_EQ(model.block().col, 0);
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

TEST(AppModel, PredictsEveryRungOnTheDevice) {
  AppModel model(options());
  settle(model);
  ASSERT_NE(model.device(), nullptr);
  ASSERT_EQ(model.ladder_predictions().size(), rungs().size());
  const auto& selected = model.ladder_predictions()[static_cast<std::size_t>(rung_info(model.rung()).number - 1)];
  ASSERT_TRUE(selected.tflops.has_value()) << selected.note;
  ASSERT_TRUE(model.prediction().has_value()) << model.prediction_error();
  EXPECT_DOUBLE_EQ(*selected.tflops, model.prediction()->roofline.predicted_tflops);
  EXPECT_GT(model.prediction()->occupancy.blocks_per_sm, 0);
}

// The ladder's figures fill in one rung at a time, after the work of what is on show (the block, the kernel's
// counters) and the selected rung first; the others stay pending ("...") until their turn.
TEST(AppModel, LadderFillsInAfterThePanelSelectedRungFirst) {
  Settings s;
  s.rung = "warptile";
  AppModel model(options(s));
  const auto selected = static_cast<std::size_t>(rung_info(RungId::WarpTile).number - 1);
  const auto done = [&] {
    return std::ranges::count_if(model.ladder_predictions(), [](const RungPrediction& p) { return !p.pending; });
  };
  const auto deadline = std::chrono::steady_clock::now() + 30s;
  while (done() == 0 && std::chrono::steady_clock::now() < deadline) {
    model.update(0.0);
    model.jobs().wait_idle(10ms);
  }
  ASSERT_EQ(done(), 1);
  EXPECT_FALSE(model.ladder_predictions()[selected].pending) << "the selected rung comes first";
  EXPECT_TRUE(model.kernel_counters_current()) << "the panel's own work comes before the ladder";
  settle(model);
  EXPECT_EQ(done(), static_cast<std::ptrdiff_t>(rungs().size()));
}

// The occupancy panel's registers: the build's count for a compiled configuration (in a CUDA build), the estimate
// for one that is not compiled; the panel prints which.
TEST(AppModel, OccupancyUsesTheBuildsRegistersWhereTheConfigurationIsCompiled) {
  AppModel model(options());
  model.select_rung(RungId::BlockTile2D);
  settle(model);
  ASSERT_NE(model.device(), nullptr);
  ASSERT_TRUE(model.prediction().has_value()) << model.prediction_error();
  const auto measured = gpu::measured_registers(RungId::BlockTile2D, model.config(), *model.device());
  const sim::RegisterCount& used = model.prediction()->occupancy.block.registers;
  EXPECT_EQ(used.source, measured ? sim::RegisterSource::Measured : sim::RegisterSource::Estimated);
  if (measured) {
    EXPECT_EQ(used.per_thread, measured->per_thread);
  }

  // Not compiled: a CUDA build starts from the nearest compiled configuration (a layout knob apart, so the count does
  // not move and occupancy does not halve); a build without CUDA estimates alone. Either way it says "estimated".
  model.select_rung(RungId::SmemTiling);
  settle(model);
  const auto compiled = gpu::measured_registers(RungId::SmemTiling, model.config(), *model.device());
  const int blocks_compiled = model.prediction()->occupancy.blocks_per_sm;
  model.set_knob("a_pad", 1);
  settle(model);
  ASSERT_TRUE(model.prediction().has_value()) << model.prediction_error();
  const sim::RegisterCount& padded = model.prediction()->occupancy.block.registers;
  if (compiled) {
    EXPECT_EQ(padded.source, sim::RegisterSource::NearestCompiled);
    EXPECT_EQ(padded.per_thread, compiled->per_thread);
    EXPECT_EQ(model.prediction()->occupancy.blocks_per_sm, blocks_compiled);
  } else {
    EXPECT_EQ(padded.source, sim::RegisterSource::Estimated);
  }
  EXPECT_NE(std::string(sim::to_string(padded.source)).find("estimated"), std::string::npos);
}

TEST(AppModel, StudiesBothLaunchOrdersOnWorkers) {
  AppModel model(options());
  EXPECT_EQ(model.order_study(0), nullptr);  // nothing runs until the panel asks
  model.request_order_studies();
  settle(model);
  for (int side = 0; side < AppModel::kOrderSides; ++side) {
    ASSERT_TRUE(model.order_study_current(side)) << model.order_error(side);
    EXPECT_EQ(model.order_study(side)->prediction.order.kind, model.order_choice(side).kind);
  }
  EXPECT_EQ(model.order_choice(1).name(), "groupm:8");  // the defaults compare row with Triton's usual group
  EXPECT_EQ(model.wave_count(), 1);  // 256^3 in 32 x 32 tiles: 64 blocks, one wave

  model.set_order_choice(1, {kernel::OrderKind::Cutlass, 4});
  EXPECT_FALSE(model.order_study_current(1));
  EXPECT_NE(model.order_study(1), nullptr) << "the previous study stays on show while the new one is computed";
  model.request_order_studies();
  settle(model);
  ASSERT_TRUE(model.order_study_current(1));
  EXPECT_EQ(sim::order_name(model.order_study(1)->prediction.order), "cutlass:4");
}

TEST(AppModel, AnOrderThatDoesNotFitIsASentence) {
  AppModel model(options());
  model.set_order_choice(0, {kernel::OrderKind::GroupM, 9});  // the grid has 8 tile rows
  model.set_order_choice(1, {kernel::OrderKind::Cutlass, 3});
  model.request_order_studies();
  settle(model);
  EXPECT_NE(model.order_error(0).find("larger than the grid's 8 tile rows"), std::string::npos) << model.order_error(0);
  EXPECT_NE(model.order_error(1).find("power of two"), std::string::npos) << model.order_error(1);
  model.set_order_choice(1, {kernel::OrderKind::Cutlass, 4});
  EXPECT_TRUE(model.order_error(1).empty()) << "an error belongs to the order that caused it";
}

TEST(AppModel, StepsThroughWaves) {
  AppModel model(options());
  // 1024 blocks of 1024 threads, 132 or 264 at a time (1 or 2 per SM, as the registers per thread allow): 8 or 4 waves.
  model.set_problem(1024, 1024, 1024);
  model.select_wave(100);  // before the waves are known: kept, clamped when they are
  model.request_order_studies();
  settle(model);
  const int last = model.wave_count() - 1;
  ASSERT_GE(last, 3);
  EXPECT_EQ(model.selected_wave(), last);
  model.select_wave(-1);
  model.step_wave(+1);
  EXPECT_EQ(model.selected_wave(), 0);
  model.step_wave(-1);
  EXPECT_EQ(model.selected_wave(), 0);  // no wave before the first
  model.select_wave(-1);
  model.step_wave(-1);
  EXPECT_EQ(model.selected_wave(), last);  // from all waves, back to the last
  model.step_wave(+3);
  EXPECT_EQ(model.selected_wave(), last);
  model.set_problem(256, 256, 256);  // one wave: the selection follows once the new studies arrive
  model.request_order_studies();
  settle(model);
  EXPECT_EQ(model.selected_wave(), 0);
}

// The command line's indices (gemmlab --phase, --warp, --instruction, --wave) count from 0 and are refused, not
// clamped, past the end: smem-tiling at 256^3 has 32 x 32 blocks of 1024 threads (32 warps) and 8 k-steps; 64
// blocks fit in one wave on the H100 (1 per SM, 132 SMs).
TEST(AppModel, CommandLineIndicesAreRefusedPastTheEnd) {
  AppModel model(options());
  settle(model);
  ASSERT_TRUE(model.outline_current());
  const auto phases = static_cast<std::int64_t>(model.outline()->schedule.size());
  const StepCursor before = model.cursor();

  auto status = model.go_to_warp(32);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().message, "warp 32 does not exist: the block has warps 0-31 (indices count from 0)");
  status = model.go_to_phase(static_cast<std::size_t>(phases));
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().message, "phase " + std::to_string(phases) + " does not exist: the block has phases 0-" +
                                        std::to_string(phases - 1) + " (indices count from 0)");
  status = model.go_to_wave(1);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().message, "wave 1 does not exist: the launch has only wave 0 (indices count from 0)");
  EXPECT_EQ(model.cursor().phase, before.phase) << "a refused index changes nothing";
  EXPECT_EQ(model.cursor().warp, before.warp);
  EXPECT_EQ(model.selected_wave(), -1);

  // The last of each is accepted, and 0 is the first.
  EXPECT_TRUE(model.go_to_warp(31).ok());
  EXPECT_TRUE(model.go_to_phase(static_cast<std::size_t>(phases - 1)).ok());
  EXPECT_TRUE(model.go_to_wave(0).ok());
  EXPECT_EQ(model.selected_wave(), 0);
  settle(model);
  // The last phase is the epilogue: each thread stores its one element of C, one st.global per warp.
  ASSERT_EQ(model.phase_view()->instruction_count(31), 1);
  status = model.go_to_instruction(1);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().message, "instruction 1 does not exist: warp 31 in phase " + std::to_string(phases - 1) +
                                        " has only instruction 0 (indices count from 0)");
  EXPECT_TRUE(model.go_to_instruction(0).ok());
  EXPECT_EQ(model.cursor().instruction, 0);
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
    model.request_order_studies();
    model.update(0.0);
    EXPECT_FALSE(model.wait_until_idle(500ms));  // still working
  }
  EXPECT_LT(std::chrono::steady_clock::now() - started, 10s);
}

TEST(AppModel, ACancelledStudyWaitsToBeAskedAgain) {
  Settings s;
  s.rung = "naive-coalesced";  // 32 x 32 tiles, one k per step: the L2 model takes a while
  AppModel model(options(s));
  // Catch the study in flight: on a fast machine it can finish before it is looked for, so ask again at another size
  // until one is caught (the cancel is what is tested, not the race).
  std::optional<JobStatus> job;
  for (int size = 1024; size <= 2048 && !job; size += 64) {
    model.set_problem(size, size, size);
    model.request_order_studies();
    job = model.order_job(0);
  }
  ASSERT_TRUE(job.has_value());
  model.jobs().cancel(job->id);
  settle(model);
  EXPECT_FALSE(model.order_study_current(0));
  EXPECT_TRUE(model.order_error(0).empty());
  model.request_order_studies();  // the panel asks every frame: a cancelled study is not restarted by itself
  EXPECT_FALSE(model.order_job(0).has_value());
  model.recompute_order_study(0);
  model.request_order_studies();
  settle(model);
  EXPECT_TRUE(model.order_study_current(0));
}

TEST(AppModel, LaunchOrdersAndColouringAreSaved) {
  Settings s;
  s.launch_orders[0] = {"cutlass", 2};
  s.launch_orders[1] = {"no-such-order", 4};
  s.grid_colouring = "launch";
  AppModel model(options(s));
  EXPECT_EQ(model.order_choice(0), (OrderChoice{kernel::OrderKind::Cutlass, 2}));
  EXPECT_EQ(model.order_choice(1), (OrderChoice{kernel::OrderKind::RowMajor, 4}));
  ASSERT_EQ(model.messages().size(), 1u);
  EXPECT_NE(model.messages()[0].text.find("no-such-order"), std::string::npos);
  EXPECT_EQ(model.grid_colouring(), GridColouring::LaunchOrder);
  model.set_order_choice(1, {kernel::OrderKind::GroupM, 16});
  model.set_grid_colouring(GridColouring::Wave);
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
  EXPECT_TRUE(model.tuning_running());
  EXPECT_TRUE(model.gpu_busy());
  model.run_benchmark({});  // refused while the study holds the GPU
  EXPECT_FALSE(model.benchmark_running());
  settle(model);
  model.update(0.0);  // the failed study's completion: no GPU here
  EXPECT_FALSE(model.tuning_running());
  EXPECT_FALSE(model.gpu_busy());
  ASSERT_FALSE(model.messages().empty());
  EXPECT_NE(model.messages().back().text.find("tuning: "), std::string::npos) << model.messages().back().text;
}

// A model on `rung` that finds the recorded data (docs/, assets/) in the source tree.
AppModel model_with_recorded_data(const std::string& rung) {
  Settings s;
  s.rung = rung;
  auto o = options(s);
  o.data_roots = {GEMMLAB_SOURCE_DIR};
  return AppModel(std::move(o));
}

TEST(AppModel, TheRecordedTuningStudyOfTheRungIsShown) {
  AppModel model = model_with_recorded_data("warptile");
  model.request_tuning_study();
  const ShownStudy* study = model.tuning_study();
  if (study == nullptr && !std::filesystem::exists(std::filesystem::path(GEMMLAB_SOURCE_DIR) / "assets/tuning/h100"))
    GTEST_SKIP() << "no recorded studies in this checkout";
  ASSERT_NE(study, nullptr) << model.tuning_message();
  EXPECT_EQ(study->report.options.rung, RungId::WarpTile);
  EXPECT_NE(study->source.find("assets/tuning/h100/warptile.json"), std::string::npos) << study->source;
  model.select_rung(RungId::NaiveUncoalesced);  // no study recorded for a rung of two knobs
  model.request_tuning_study();
  EXPECT_EQ(model.tuning_study(), nullptr);
  EXPECT_NE(model.tuning_message().find("no recorded study"), std::string::npos) << model.tuning_message();
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
  EXPECT_TRUE(model.timeline().loaded());
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

TEST(AppModel, RanksTheRungByTheModelWithoutAGpuAtTheSizeTyped) {
  Settings s;
  s.rung = "tma-wgmma";
  AppModel model(options(s));
  settle(model);
  EXPECT_EQ(model.model_ranking(), nullptr);
  model.rank_by_model();
  settle(model);
  const AppModel::ModelRanking* ranking = model.model_ranking();
  ASSERT_NE(ranking, nullptr);
  ASSERT_FALSE(ranking->best.empty());
  EXPECT_LE(ranking->best.size(), AppModel::kRankingShown);
  EXPECT_EQ(ranking->best.front().model_rank, 1);
  EXPECT_GE(ranking->space, ranking->ranked);
  for (std::size_t i = 1; i < ranking->best.size(); ++i)
    EXPECT_LE(ranking->best[i - 1].predicted_seconds, ranking->best[i].predicted_seconds);
  // Another size: the ranking is of the old one, so it is not shown.
  model.set_problem(512, 256, 256);
  settle(model);
  EXPECT_EQ(model.model_ranking(), nullptr);
}

}  // namespace
}  // namespace gemmlab::desktop
