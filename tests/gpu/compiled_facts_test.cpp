// What the time model takes from the build's compile (gpu::compiled_facts, instances.cpp): ptxas's registers and the
// SASS regions recorded by scripts/kernel_resources.py. Where the build recorded SASS, every compiled instance has
// its own; an uncompiled configuration borrows its nearest compiled neighbour's, and says so. The dynamic instruction
// count solved from them is checked against ncu's instructions executed, recorded on the H100.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "gemmlab/gpu/instances.hpp"
#include "gemmlab/gpu/tune.hpp"
#include "gemmlab/sim/compiled_code.hpp"
#include "gemmlab/sim/device_profile.hpp"
#include "gemmlab/sim/rung_model.hpp"
#include "gemmlab/sim/schedule_prediction.hpp"
#include "gemmlab/sim/simulate.hpp"

namespace gemmlab::gpu {
namespace {

sim::DeviceProfile h100() { return *sim::find_device("h100"); }

std::string read_text(const std::string& relative) {
  std::ifstream in(std::string(GEMMLAB_SOURCE_DIR) + "/" + relative);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// True where this build recorded the kernels' SASS (it had cuobjdump; scripts/setup installs it beside nvcc).
bool build_recorded_sass() {
  const RungId rung = RungId::SmemTiling;
  return compiled_facts(rung, sim::rung_model(rung).defaults, h100()).code.has_value();
}

#define SKIP_WITHOUT_SASS()                                                                                         \
  if (!build_recorded_sass())                                                                                        \
  GTEST_SKIP() << "this build recorded no SASS (no CUDA, or no cuobjdump with nvdisasm when it built): the time "   \
                  "model counts the description's instructions"

TEST(CompiledFacts, EveryInstanceHasItsOwnSass) {
  SKIP_WITHOUT_SASS();
  const sim::DeviceProfile device = h100();
  for (const auto& instance : gpu_instances()) {
    const std::string name = std::string(rung_info(instance.rung).slug) + " " + instance_label(instance);
    const auto facts = compiled_facts(instance.rung, instance.config, device);
    ASSERT_TRUE(facts.code.has_value()) << name;
    EXPECT_FALSE(facts.code->estimated) << name;
    ASSERT_TRUE(facts.registers.has_value()) << name;
    EXPECT_EQ(facts.registers->source, sim::RegisterSource::Measured) << name;
    int anchors = 0, instructions = 0;
    for (const auto& region : facts.code->regions) {
      instructions += region.instructions;
      for (const int a : region.anchors) anchors += a;
    }
    EXPECT_GT(anchors, 0) << name;
    EXPECT_GT(instructions, anchors) << name << ": a kernel is more than its loads, stores and math";
  }
}

TEST(CompiledFacts, AnUncompiledConfigurationBorrowsItsNearestNeighboursSass) {
  SKIP_WITHOUT_SASS();
  kernel::KernelConfig padded = sim::rung_model(RungId::BlockTile2D).defaults;
  padded.a_pad = 2;
  ASSERT_FALSE(find_gpu_instance(RungId::BlockTile2D, padded).has_value());
  const auto facts = compiled_facts(RungId::BlockTile2D, padded, h100());
  ASSERT_TRUE(facts.code.has_value());
  EXPECT_TRUE(facts.code->estimated);
  // Nothing was compiled for a device of another architecture: no SASS to borrow.
  sim::DeviceProfile other = h100();
  other.compute_capability = "1.0";
  EXPECT_FALSE(compiled_facts(RungId::BlockTile2D, sim::rung_model(RungId::BlockTile2D).defaults, other).code);
}

// ncu's raw CSV (docs/time-model-data/NN-slug.ncu.csv): the rung kernel's smsp__inst_executed.sum.
double ncu_instructions(const std::string& csv) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(csv);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] != '"') continue;
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (const char ch : line) {
      if (ch == '"') quoted = !quoted;
      else if (ch == ',' && !quoted) fields.emplace_back();
      else fields.back() += ch;
    }
    rows.push_back(fields);
  }
  if (rows.empty()) return 0;
  std::map<std::string, std::size_t> column;
  for (std::size_t i = 0; i < rows[0].size(); ++i) column[rows[0][i]] = i;
  for (std::size_t r = 2; r < rows.size(); ++r)
    if (rows[r][column.at("Kernel Name")].find("rung_kernel") != std::string::npos) {
      std::string digits;
      for (const char ch : rows[r][column.at("smsp__inst_executed.sum")])
        if (ch != ',') digits += ch;
      return std::stod(digits);
    }
  return 0;
}

// The SASS regions with the description's counts give each rung default's instructions within 0.6x to 1.7x of what
// ncu counted (docs/fidelity.md tabulates every ratio, regenerated with the model).
//
// Each at the problem its ncu record profiled (docs/time-model-data/ncu-problems.json): split-K at a decode step's
// 16 x 4096 x 14336, the shape it is made for. At 4096^3 (8192 blocks of 16 k-steps) the straight-line code, which the
// model counts once per warp though every warp runs only its role's copy of it and one of the epilogue's two paths,
// outweighs the short loop (docs/fidelity.md, "Rung 22 (split-K)").
sim::Problem ncu_problem(RungId rung) {
  const nlohmann::json problems = nlohmann::json::parse(read_text("docs/time-model-data/ncu-problems.json"));
  const std::string slug(rung_info(rung).slug);
  const auto& mnk = problems["problems"].contains(slug) ? problems["problems"][slug] : problems["default"];
  return {mnk[0].get<int>(), mnk[1].get<int>(), mnk[2].get<int>()};
}

TEST(CompiledFacts, SassInstructionsAgreeWithNcu) {
  SKIP_WITHOUT_SASS();
  const sim::DeviceProfile device = h100();
  int checked = 0;
  for (const RungInfo& info : rungs()) {
    const sim::Problem problem = ncu_problem(info.id);
    char prefix[8];
    std::snprintf(prefix, sizeof prefix, "%02d-", info.number);
    const std::string csv = read_text("docs/time-model-data/" + std::string(prefix) + std::string(info.slug) + ".ncu.csv");
    const double ncu = ncu_instructions(csv);
    ASSERT_GT(ncu, 0) << info.slug << ": no ncu record";
    const auto& config = sim::rung_model(info.id).defaults;
    const auto counters = sim::simulate_kernel(info.id, config, problem);
    ASSERT_TRUE(counters.ok()) << counters.error().message;
    const double warps = double(counters->shape.blocks) * counters->shape.warps_per_block;
    const auto facts = compiled_facts(info.id, config, device);
    ASSERT_TRUE(facts.code.has_value()) << info.slug;
    const auto sass = sim::dynamic_instructions(*facts.code, sim::description_anchors_per_warp(counters->total, warps));
    ASSERT_TRUE(sass.ok()) << sass.error().message;
    const double ratio = sass->per_warp * warps / ncu;
    EXPECT_GT(ratio, 0.6) << info.slug;
    // Rungs 23 (Stream-K) and 24 (ping-pong) count more than the others, why is not known yet (their pages give the
    // ratios); their issue terms are far from their limits.
    const double most =
        info.id == RungId::TmaWgmmaStreamK || info.id == RungId::TmaWgmmaPingPong ? 1.8 : 1.7;
    EXPECT_LT(ratio, most) << info.slug;
    ++checked;
  }
  EXPECT_EQ(checked, static_cast<int>(rungs().size()));
}

// docs/fidelity.md's table comes from docs/time-model-data/predictions.json (scripts/time-model-table.py, through
// gemmlab-cli sim): a change of the model that moves a prediction must regenerate them. A sample of rows at 1024^3 is
// re-predicted here, with what the build's compile gave, as the CLI predicts.
TEST(CompiledFacts, TheRecordedPredictionsAreTheModelsOwn) {
  SKIP_WITHOUT_SASS();
  const nlohmann::json data = nlohmann::json::parse(read_text("docs/time-model-data/predictions.json"));
  const sim::DeviceProfile d = h100();
  int checked = 0;
  for (const auto& row : data["rows"]) {
    if (row["size"].get<int>() != 1024 || row["config"].get<std::string>() != "default") continue;
    const auto rung = find_rung(row["rung"].get<std::string>());
    ASSERT_TRUE(rung.has_value()) << row["rung"];
    kernel::KernelConfig c = sim::rung_model(*rung).defaults;
    for (const sim::Knob& knob : sim::all_knobs())
      if (row["kernel_config"].contains(std::string(knob.name)))
        c.*knob.field =
            sim::recorded_knob_value(*rung, knob.name, row["kernel_config"][std::string(knob.name)].get<int>());
    const auto p = sim::predict_schedule(*rung, c, {1024, 1024, 1024}, kernel::BlockOrder{}, d, compiled_facts(*rung, c, d));
    ASSERT_TRUE(p.ok()) << p.error().message;
    ASSERT_TRUE(p->time.has_value()) << p->time_note;
    EXPECT_NEAR(p->time->seconds * 1e3, row["predicted_ms"].get<double>(), 1e-6 * row["predicted_ms"].get<double>())
        << row["rung"] << ": run scripts/time-model-table.py";
    ++checked;
  }
  EXPECT_GE(checked, 15);
}

// fidelity.md's held runs are predicted at each row's own clock (gemmlab-cli sim --clock-mhz): the defaults at 4096^3
// again here, with the profile's sustained clocks set to the row's.
TEST(CompiledFacts, TheHeldRowsArePredictedAtTheirOwnClock) {
  SKIP_WITHOUT_SASS();
  const nlohmann::json data = nlohmann::json::parse(read_text("docs/time-model-data/predictions.json"));
  int checked = 0;
  for (const auto& row : data["held"]["rows"]) {
    if (row["size"].get<int>() != 4096 || row["config"].get<std::string>() != "default") continue;
    const auto rung = find_rung(row["rung"].get<std::string>());
    ASSERT_TRUE(rung.has_value()) << row["rung"];
    const auto d = sim::with_clock(h100(), row["sm_clock_mhz"].get<double>());
    ASSERT_TRUE(d.ok()) << d.error().message;
    const kernel::KernelConfig c = sim::rung_model(*rung).defaults;
    const auto p = sim::predict_schedule(*rung, c, {4096, 4096, 4096}, kernel::BlockOrder{}, *d, compiled_facts(*rung, c, *d));
    ASSERT_TRUE(p.ok() && p->time.has_value()) << row["rung"];
    const double recorded = row["predicted_at_clock_ms"].get<double>();
    EXPECT_NEAR(p->time->seconds * 1e3, recorded, 1e-6 * recorded) << row["rung"] << ": run scripts/time-model-table.py";
    EXPECT_DOUBLE_EQ(p->time->clock_mhz, row["sm_clock_mhz"].get<double>());
    ++checked;
  }
  EXPECT_EQ(checked, 10);  // rungs 11 to 20
}

// docs/tuning.md's re-scored studies come from docs/tuning-data/rescored.json (scripts/tuning-table.py --rescore): a
// change of the model must regenerate it. Two studies are predicted again here, configuration by configuration.
TEST(CompiledFacts, TheRescoredStudiesAreTheModelsOwn) {
  SKIP_WITHOUT_SASS();
  const nlohmann::json rescored = nlohmann::json::parse(read_text("docs/tuning-data/rescored.json"));
  int checked = 0;
  for (const auto& study : rescored["studies"]) {
    const std::string rung = study["rung"].get<std::string>();
    if (rung != "warptile" && rung != "mma-multistage") continue;
    auto report = parse_tune_report_json(read_text(study["file"].get<std::string>()));
    ASSERT_TRUE(report.ok()) << report.error().message;
    ASSERT_TRUE(repredict_tune(*report, h100()).ok());
    for (const TuneMeasurement& m : report->measured) {
      const std::string label = instance_label(GpuInstance{report->options.rung, m.candidate.config});
      ASSERT_TRUE(study["predicted_ms"].contains(label)) << rung << " " << label;
      EXPECT_NEAR(m.candidate.predicted_seconds * 1e3, study["predicted_ms"][label].get<double>(),
                  1e-6 * m.candidate.predicted_seconds * 1e3)
          << rung << " " << label << ": run scripts/tuning-table.py --rescore";
    }
    EXPECT_NEAR(report->spearman, study["today"]["spearman"].get<double>(), 1e-9) << rung;
    ++checked;
  }
  EXPECT_EQ(checked, 2);
}

}  // namespace
}  // namespace gemmlab::gpu
