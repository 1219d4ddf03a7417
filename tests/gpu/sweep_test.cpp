// The sweep's shapes (presets, lists, files) and its model-only report (gpu/src/sweep.cpp); the timed side runs in
// the GPU tests of bench, which the sweep calls.
#include <gtest/gtest.h>

#include <atomic>
#include <cctype>
#include <map>
#include <string_view>

#include <nlohmann/json.hpp>

#include "gemmlab/file_io.hpp"
#include "gemmlab/gpu/instances.hpp"
#include "gemmlab/gpu/sweep.hpp"
#include "gemmlab/sim/device_profile.hpp"
#include "gemmlab/sim/launch_order.hpp"
#include "gemmlab/sim/rung_model.hpp"

namespace gemmlab::gpu {
namespace {

TEST(SweepShapes, PresetsExpandToTheirLayersAndSizesStayInOrder) {
  const auto shapes = parse_sweep_shapes("llama3-8b-prefill,16x4096x4096,attention-128");
  ASSERT_TRUE(shapes) << shapes.error().message;
  ASSERT_EQ(shapes->size(), 4u + 1u + 2u);
  EXPECT_EQ((*shapes)[0].label, "llama3-8b-prefill qkv");
  EXPECT_EQ((*shapes)[0].shape, (Shape{4096, 6144, 4096}));  // hidden 4096 + 2 x 8 KV heads x 128
  EXPECT_NE((*shapes)[0].source.find("Llama 3 8B"), std::string::npos);
  EXPECT_EQ((*shapes)[4].shape, (Shape{16, 4096, 4096}));
  EXPECT_EQ((*shapes)[4].source, "given");
  EXPECT_EQ((*shapes)[6].label, "attention-128 values");
  // Every preset has shapes, and together they cover K from 128 to beyond 16384 and decode's small M.
  int smallest_k = 1 << 30, largest_k = 0, smallest_m = 1 << 30;
  for (const ShapePreset& preset : shape_presets()) {
    const auto listed = parse_sweep_shapes(preset.name);
    ASSERT_TRUE(listed);
    EXPECT_FALSE(listed->empty()) << preset.name;
    for (const SweepShape& s : *listed) {
      smallest_k = std::min(smallest_k, s.shape.k), largest_k = std::max(largest_k, s.shape.k);
      smallest_m = std::min(smallest_m, s.shape.m);
    }
  }
  EXPECT_EQ(smallest_k, 128);
  EXPECT_GE(largest_k, 16384);
  EXPECT_LE(smallest_m, 16);
}

TEST(SweepShapes, BadItemsAndFileLinesAreNamed) {
  const auto unknown = parse_sweep_shapes("llama9");
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().message.find("unknown shape preset 'llama9'"), std::string::npos);
  EXPECT_NE(unknown.error().message.find("llama3-70b-decode"), std::string::npos);  // the presets are listed
  EXPECT_FALSE(parse_sweep_shapes("16x0x4"));

  const auto file = parse_shapes_file("# decode\n16x4096x4096 o proj\n\n  4096   # a cube\n", "mine.txt");
  ASSERT_TRUE(file) << file.error().message;
  ASSERT_EQ(file->size(), 2u);
  EXPECT_EQ((*file)[0].label, "o proj");
  EXPECT_EQ((*file)[0].source, "mine.txt:2");
  EXPECT_EQ((*file)[1].shape, (Shape{4096, 4096, 4096}));
  const auto bad = parse_shapes_file("16x4096x4096\n16x4096\n", "mine.txt");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message.rfind("mine.txt:2: ", 0), 0u) << bad.error().message;
  EXPECT_FALSE(parse_shapes_file("# nothing\n\n", "empty.txt"));
}

TEST(Sweep, ModelOnlyPredictsEveryRungAndSaysWhyOneCannotRun) {
  SweepOptions o;
  auto shapes = parse_sweep_shapes("16x4096x14336,100x100x100");
  ASSERT_TRUE(shapes);
  o.shapes = *shapes;
  o.rungs = {RungId::MmaStagedEpilogue, RungId::TmaWgmmaHilbert};
  o.profile = *sim::find_device("h100");
  o.model_only = true;
  const auto r = run_sweep(o);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->entries.size(), 4u);
  const SweepEntry& decode = r->entries[1];  // rung 21 at 16 x 4096 x 14336: 1 x 16 tiles, rounded to clusters of 2
  EXPECT_TRUE(decode.refused.empty()) << decode.refused;
  EXPECT_EQ(decode.tiles.blocks, 2 * 16);
  EXPECT_EQ(decode.tiles.blocks_per_wave, 128);  // its persistent grid
  EXPECT_EQ(decode.tiles.last_wave_blocks, 32);
  EXPECT_GT(decode.predicted_tflops, 0);
  EXPECT_FALSE(decode.limit.empty());
  EXPECT_FALSE(decode.measured);
  EXPECT_NE(r->entries[3].refused.find("multiples of 8"), std::string::npos);  // TMA: 100 is not
  EXPECT_TRUE(r->entries[2].refused.empty());                                  // rung 16 takes any size

  const auto json = nlohmann::json::parse(sweep_report_json(*r));
  EXPECT_EQ(json["schema"], "gemmlab-sweep-1");
  EXPECT_EQ(json["shapes"].size(), 2u);
  EXPECT_EQ(json["shapes"][0]["entries"][1]["tiles"], 32);
  EXPECT_TRUE(json["shapes"][1]["entries"][1].contains("refused"));
  const std::string csv = sweep_report_csv(*r);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + 4);
}

// A model-only sweep of rung 17 and rung 21 at `shapes` on the H200's profile, in the launch orders `orders`.
SweepReport predicted_in_orders(std::string_view shapes, std::string_view orders, int tuned = 0) {
  SweepOptions o;
  o.shapes = *parse_sweep_shapes(shapes);
  o.rungs = {RungId::TmaWgmma, RungId::TmaWgmmaHilbert};
  o.profile = *sim::find_device("h200");
  o.model_only = true;
  o.tuned = tuned;
  EXPECT_TRUE(set_sweep_order(o, orders));
  auto r = run_sweep(o);
  EXPECT_TRUE(r) << r.error().message;
  return *r;
}

// --order preferred: each rung launched and predicted in its own order (rung 21's Hilbert curve, row for rung 17), the
// same predictions as a sweep of that rung in that order; the report says "preferred", and its rescore keeps it. An
// order that is neither names the choices.
TEST(Sweep, PreferredOrderRunsEachRungInItsOwn) {
  const auto predicted = [](std::string_view order) { return predicted_in_orders("4096x6144x4096", order); };
  const SweepReport own = predicted("preferred"), row = predicted("row"), hilbert = predicted("hilbert");
  ASSERT_EQ(own.entries.size(), 2u);
  EXPECT_EQ(sweep_order(own.options.orders.front(), RungId::TmaWgmmaHilbert).kind, kernel::OrderKind::Hilbert);
  EXPECT_EQ(sweep_order(own.options.orders.front(), RungId::TmaWgmma).kind, kernel::OrderKind::RowMajor);
  EXPECT_EQ(own.entries[0].predicted_seconds, row.entries[0].predicted_seconds);
  EXPECT_EQ(own.entries[1].predicted_seconds, hilbert.entries[1].predicted_seconds);
  EXPECT_NE(row.entries[1].predicted_seconds, hilbert.entries[1].predicted_seconds);
  const std::string json = sweep_report_json(own);
  EXPECT_EQ(nlohmann::json::parse(json)["order"], "preferred");
  const auto rescored = rescore_sweep_report(json, *sim::find_device("h200"));
  ASSERT_TRUE(rescored) << rescored.error().message;
  const auto again = nlohmann::json::parse(*rescored);
  EXPECT_EQ(again["order"], "preferred");
  EXPECT_EQ(again["shapes"][0]["entries"][1]["predicted_seconds"], own.entries[1].predicted_seconds);
  SweepOptions bad;
  const auto refused = set_sweep_order(bad, "spiral");
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("preferred"), std::string::npos);
  EXPECT_NE(refused.error().message.find(rungs_own_order_help()), std::string::npos);
}

// "preferred" in words, from the rungs' own orders: "rungs 21, 23 and 24 in hilbert, ...": every rung whose order is
// not row-major named, by its number, in the group of its own order.
// Several orders ("preferred,groupm:8"): each configuration predicted in each order its grid of tiles takes, as a
// sweep in that order alone predicts it, the entry naming its order. The 16-row shape's single row of tiles refuses
// groupm:8, so there its entries run in their preferred order only; an order that gives a rung the order it already
// runs in adds nothing. The report lists the orders, each entry its own, and a rescore keeps each entry's order.
// An order named twice, or none, is a sentence.
TEST(Sweep, SeveralOrdersRunEachConfigurationInEachOrderItsGridTakes) {
  const auto predicted = [](std::string_view order) {
    return predicted_in_orders("4096x6144x4096,16x4096x4096", order);
  };
  const SweepReport both = predicted("preferred,groupm:8,row"), grouped = predicted("groupm:8");
  EXPECT_EQ(sweep_order_name(both.options), "preferred,groupm:8,row");
  std::vector<std::string> orders;
  for (const SweepEntry& e : both.entries)
    orders.push_back(std::to_string(e.shape) + " " + std::string(rung_info(e.rung).slug) + " " +
                     sim::order_name(e.order));
  EXPECT_EQ(orders,
            (std::vector<std::string>{"0 tma-wgmma row", "0 tma-wgmma groupm:8", "0 tma-wgmma-hilbert hilbert",
                                      "0 tma-wgmma-hilbert groupm:8", "0 tma-wgmma-hilbert row", "1 tma-wgmma row",
                                      "1 tma-wgmma-hilbert hilbert", "1 tma-wgmma-hilbert row"}));
  for (const SweepEntry& e : both.entries) EXPECT_TRUE(e.refused.empty()) << e.refused;
  EXPECT_EQ(both.entries[1].predicted_seconds, grouped.entries[0].predicted_seconds);
  EXPECT_EQ(both.entries[3].predicted_seconds, grouped.entries[1].predicted_seconds);
  ASSERT_FALSE(grouped.entries[2].refused.empty());  // groupm:8 alone: the 16-row shape's grid says why
  const std::string json = sweep_report_json(both);
  const auto written = nlohmann::json::parse(json);
  EXPECT_EQ(written["order"], "preferred,groupm:8,row");
  EXPECT_EQ(written["shapes"][0]["entries"][3]["order"], "groupm:8");
  const auto rescored = rescore_sweep_report(json, *sim::find_device("h200"));
  ASSERT_TRUE(rescored) << rescored.error().message;
  const auto again = nlohmann::json::parse(*rescored);
  for (std::size_t i = 0; i < 5; ++i)
    EXPECT_EQ(again["shapes"][0]["entries"][i]["predicted_seconds"], both.entries[i].predicted_seconds) << i;
  const std::string csv = sweep_report_csv(both);
  EXPECT_NE(csv.find(",ratio_to_cublas,order\n"), std::string::npos);
  EXPECT_NE(csv.find(",groupm:8\n"), std::string::npos);
  // An order the grid refuses listed first: the default and the model's pick run in the next one, which ranks them.
  const SweepReport refused_first = predicted_in_orders("16x4096x4096", "groupm:8,preferred", 1);
  ASSERT_EQ(refused_first.entries.size(), 4u);
  for (const SweepEntry& e : refused_first.entries) {
    EXPECT_TRUE(e.refused.empty()) << e.refused;
    EXPECT_EQ(sim::order_name(e.order), e.rung == RungId::TmaWgmma ? "row" : "hilbert");
  }
  EXPECT_GT(refused_first.entries[1].model_rank, 0);
  SweepOptions bad;
  const auto twice = set_sweep_order(bad, "row,hilbert,row");
  ASSERT_FALSE(twice);
  EXPECT_NE(twice.error().message.find("'row' is listed twice"), std::string::npos) << twice.error().message;
  EXPECT_FALSE(set_sweep_order(bad, ""));
  EXPECT_EQ(sweep_order_name(bad), "row");  // unchanged by the refusals
}

TEST(Sweep, PreferredOrderIsWordedFromTheRungs) {
  const std::string help = rungs_own_order_help();
  std::map<int, std::string> named;  // rung number -> the order its group names
  // After "each rung in its own: ", the groups.
  for (std::size_t at = help.find("rung", help.find(": ")); at != std::string::npos; at = help.find("rung", at + 1)) {
    const std::size_t in = help.find(" in ", at), end = help.find(", ", in);
    ASSERT_NE(in, std::string::npos) << help;
    const std::string order = help.substr(in + 4, end - in - 4), numbers = help.substr(at, in - at);
    for (std::size_t i = 0; i < numbers.size();) {
      if (!std::isdigit(static_cast<unsigned char>(numbers[i]))) {
        ++i;
        continue;
      }
      std::size_t digits = i;
      while (digits < numbers.size() && std::isdigit(static_cast<unsigned char>(numbers[digits]))) ++digits;
      named[std::stoi(numbers.substr(i, digits - i))] = order;
      i = digits;
    }
    at = in;
  }
  for (const RungInfo& rung : rungs()) {
    const kernel::BlockOrder order = sim::rung_model(rung.id).preferred_order;
    if (order.kind == kernel::OrderKind::RowMajor) {
      EXPECT_EQ(named.count(rung.number), 0u) << rung.slug << " in: " << help;
    } else {
      ASSERT_EQ(named.count(rung.number), 1u) << rung.slug << " in: " << help;
      EXPECT_EQ(named[rung.number], sim::order_name(order)) << rung.slug << " in: " << help;
    }
  }
  EXPECT_NE(help.find("row for the others"), std::string::npos) << help;
}

// A model-only sweep of rung 17 and split-K at `shapes` on the H200's profile, with the model's 2 best of each.
SweepOptions model_only_tuned(std::string_view shapes) {
  SweepOptions o;
  o.shapes = *parse_sweep_shapes(shapes);
  o.rungs = {RungId::TmaWgmma, RungId::TmaWgmmaSplitK};
  o.profile = *sim::find_device("h200");
  o.model_only = true;
  o.tuned = 2;
  return o;
}

// --tuned N: each rung's default, then the N other configurations the model ranks fastest at the shape, in its order;
// the report names each and gives its rank, and a rescore with the same profile predicts each configuration again
// as it was (not the default in its place).
TEST(Sweep, TunedAddsTheModelsBestConfigurationsAfterEachDefault) {
  const SweepOptions o = model_only_tuned("16x4096x14336,128x6144x4096");
  const auto r = run_sweep(o);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->entries.size(), 2u * 2u * 3u);
  for (std::size_t first = 0; first < r->entries.size(); first += 3) {
    const SweepEntry& def = r->entries[first];
    EXPECT_TRUE(same_config(def.config, sim::rung_model(def.rung).defaults));
    EXPECT_GT(def.model_rank, 0);
    int expected_rank = 1;
    for (std::size_t i = first + 1; i < first + 3; ++i, ++expected_rank) {
      const SweepEntry& t = r->entries[i];
      EXPECT_EQ(t.rung, def.rung);
      EXPECT_EQ(t.shape, def.shape);
      EXPECT_FALSE(same_config(t.config, def.config));
      if (expected_rank == def.model_rank) ++expected_rank;  // the default is not picked twice
      EXPECT_EQ(t.model_rank, expected_rank) << instance_label({t.rung, t.config});
      EXPECT_LE(t.predicted_seconds, def.predicted_seconds * (1 + 1e-9)) << "ranked ahead of the default, or it";
    }
  }
  const std::string json = sweep_report_json(*r);
  const auto j = nlohmann::json::parse(json);
  EXPECT_EQ(j["shapes"][0]["entries"][0]["config"], "default");
  EXPECT_NE(j["shapes"][0]["entries"][1]["config"], "default");
  EXPECT_EQ(j["shapes"][0]["entries"][1]["model_rank"], r->entries[1].model_rank);
  const auto again = rescore_sweep_report(json, o.profile);
  ASSERT_TRUE(again) << again.error().message;
  const auto rescored = nlohmann::json::parse(*again);
  for (std::size_t s = 0; s < 2; ++s)
    for (std::size_t e = 0; e < 6; ++e)
      EXPECT_DOUBLE_EQ(rescored["shapes"][s]["entries"][e]["predicted_seconds"].get<double>(),
                       j["shapes"][s]["entries"][e]["predicted_seconds"].get<double>())
          << j["shapes"][s]["entries"][e]["config"];
  auto bad = j;
  bad["shapes"][0]["entries"][1]["config"] = "nosuchknob=1";
  const auto refused = rescore_sweep_report(bad.dump(), o.profile);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("nosuchknob"), std::string::npos) << refused.error().message;
}

TEST(Sweep, CtrlCWhileRankingKeepsNothingHalfPredicted) {
  const SweepOptions o = model_only_tuned("16x4096x14336,128x6144x4096,4096,2048");
  std::atomic<bool> cancel{false};
  std::size_t calls = 0;
  const auto r = run_sweep(
      o,
      [&](const SweepProgress& p) {
        ++calls;
        cancel = cancel || p.done >= 1;
      },
      &cancel);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_GT(calls, 0u) << "the ranking reports its progress";
  EXPECT_TRUE(r->cancelled);
  EXPECT_TRUE(r->entries.empty()) << "a shape with some rungs ranked and others not";
}

TEST(Sweep, AnInputTypeARungDoesNotTakeIsASentence) {
  SweepOptions o;
  o.shapes = *parse_sweep_shapes("64");
  o.rungs = {RungId::NaiveCoalesced};
  o.profile = *sim::find_device("h100");
  o.model_only = true;  // bf16 by default
  const auto r = run_sweep(o);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("not bf16"), std::string::npos) << r.error().message;
}

TEST(SweepShards, ShardsAreIOfNAndMergeRefusesOverlapsAndStrangers) {
  const auto shard = parse_shard("1/4");
  ASSERT_TRUE(shard);
  EXPECT_EQ(shard->index, 1);
  EXPECT_EQ(shard->count, 4);
  for (const char* bad : {"3/2", "4/4", "-1/2", "1/0", "1", "a/b", "1/2/3"}) EXPECT_FALSE(parse_shard(bad)) << bad;

  SweepOptions o;
  o.shapes = *parse_sweep_shapes("64,128");
  for (std::size_t i = 0; i < o.shapes.size(); ++i) o.shapes[i].index = i;
  o.rungs = {RungId::TmaWgmmaHilbert};
  o.profile = *sim::find_device("h100");
  o.model_only = true;
  SweepOptions first = o, second = o;
  first.shapes = {o.shapes[0]}, second.shapes = {o.shapes[1]};
  const std::string a = sweep_report_json(*run_sweep(first)), b = sweep_report_json(*run_sweep(second));
  const auto merged = merge_sweep_reports({b, a});
  ASSERT_TRUE(merged) << merged.error().message;
  EXPECT_EQ(nlohmann::json::parse(*merged), nlohmann::json::parse(sweep_report_json(*run_sweep(o))));
  EXPECT_FALSE(merge_sweep_reports({a, a}));             // shape 0 twice
  EXPECT_FALSE(merge_sweep_reports({a, "{\"x\": 1}"}));  // not a sweep's
  SweepOptions fp16 = second;
  fp16.input = kernel::InputType::F16;
  const auto other = merge_sweep_reports({a, sweep_report_json(*run_sweep(fp16))});
  ASSERT_FALSE(other);
  EXPECT_NE(other.error().message.find("input"), std::string::npos) << other.error().message;
}

TEST(SweepRescore, PredictsAgainForAnotherProfileAndKeepsWhatWasMeasured) {
  SweepOptions o;
  o.shapes = *parse_sweep_shapes("16x28672x4096");
  o.rungs = {RungId::TmaWgmmaSpecialized};
  o.profile = *sim::find_device("h100");
  o.model_only = true;
  auto recorded = nlohmann::json::parse(sweep_report_json(*run_sweep(o)));
  auto& entry = recorded["shapes"][0]["entries"][0];
  entry["measured"] = {{"status", "timed"}, {"median_ms", 0.1}, {"tflops", 20.0}};  // as a GPU run records it
  entry["predicted_seconds"] = 1.0;                                                 // a model that has changed since

  const auto rescored = rescore_sweep_report(recorded.dump(), *sim::find_device("h200"));
  ASSERT_TRUE(rescored) << rescored.error().message;
  const auto j = nlohmann::json::parse(*rescored);
  EXPECT_EQ(j["profile"]["id"], "h200-sxm");
  const auto& again = j["shapes"][0]["entries"][0];
  EXPECT_EQ(again["measured"], entry["measured"]);
  EXPECT_LT(again["predicted_seconds"].get<double>(), 1.0);
  EXPECT_EQ(again["tiles"], entry["tiles"]);
  // The H200's faster memory: this decode shape (Llama 3 8B's gate and up projections at 16 tokens, 112 SMs reading
  // the weights from DRAM), limited by DRAM, is predicted sooner.
  const auto h100 = nlohmann::json::parse(*rescore_sweep_report(recorded.dump(), *sim::find_device("h100")));
  EXPECT_LT(again["predicted_seconds"].get<double>(),
            h100["shapes"][0]["entries"][0]["predicted_seconds"].get<double>());

  EXPECT_FALSE(rescore_sweep_report("{\"x\": 1}", *sim::find_device("h200")));
  auto stranger = recorded;
  stranger["shapes"][0]["entries"][0]["rung"] = "no-such-rung";
  const auto refused = rescore_sweep_report(stranger.dump(), *sim::find_device("h200"));
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("no-such-rung"), std::string::npos) << refused.error().message;
}

// docs/sweep.md quotes the recorded LLM sweep rescored for the H200's profile: a change of the model that moves a
// prediction must regenerate it (the command is on the page).
TEST(SweepRescore, TheRecordedH200RescoreIsTheModelsOwn) {
  const std::string folder = std::string(GEMMLAB_SOURCE_DIR) + "/docs/results-data/sweep/";
  const auto recorded = read_input_file(folder + "sweep-llm-bf16.json", "sweep report");
  const auto rescored = read_input_file(folder + "sweep-llm-bf16-h200-model.json", "sweep report");
  ASSERT_TRUE(recorded && rescored);
  const auto again = rescore_sweep_report(*recorded, *sim::find_device("h200"));
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_TRUE(*again == *rescored)
      << "docs/results-data/sweep/sweep-llm-bf16-h200-model.json is stale: run gemmlab-cli "
         "sweep --rescore docs/results-data/sweep/sweep-llm-bf16.json --profile h200 --json "
         "docs/results-data/sweep/sweep-llm-bf16-h200-model.json, then "
         "scripts/results-tables.py --ratio-tables";
}

}  // namespace
}  // namespace gemmlab::gpu
