#include "gemmlab/sim/time_model.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "gemmlab/kernel/stream_k.hpp"
#include "gemmlab/sim/launch_order.hpp"
#include "gemmlab/sim/rung_model.hpp"
#include "gemmlab/sim/schedule_prediction.hpp"

namespace gemmlab::sim {
namespace {

DeviceProfile h100() { return *find_device("h100"); }

nlohmann::json read_json(const std::string& relative) {
  std::ifstream in(std::string(GEMMLAB_SOURCE_DIR) + "/" + relative);
  std::stringstream text;
  text << in.rdbuf();
  return nlohmann::json::parse(text.str());
}

constexpr int kLds32 = 6;  // op class of lds.32

// One kernel of `blocks` blocks, `ksteps` k-steps, 8 warps, 2 resident per SM, with the given whole-kernel counts.
struct Synthetic {
  KernelCounters counters;
  Occupancy occupancy;
  L2Result l2;

  Synthetic(int blocks, int ksteps) {
    counters.shape.blocks = blocks;
    counters.shape.ksteps = ksteps;
    counters.shape.threads_per_block = 256;
    counters.shape.warps_per_block = 8;
    occupancy.blocks_per_sm = 2;
  }
  Result<TimePrediction> predict(RungId rung = RungId::BlockTile2D, const DeviceProfile& device = h100()) const {
    return predict_time({rung, rung_model(rung).defaults, {4096, 4096, 4096}, &counters, &occupancy, &l2}, device);
  }
};

// tests/calibration/tma_dram_h200.json's cases (SMs, panels, stages), each run at two strip lengths: the seconds a
// further byte takes between the two, and the bytes each SM keeps in flight.
struct DramProbeCase {
  double seconds_per_byte = 0, in_flight_bytes = 0;
};
std::map<std::tuple<int, int, int>, DramProbeCase> dram_probe_cases() {
  const nlohmann::json probe = read_json("tests/calibration/tma_dram_h200.json");
  std::map<std::tuple<int, int, int>, std::vector<nlohmann::json>> runs;
  for (const auto& row : probe["rows"])
    runs[{row["sms"].get<int>(), row["panels"].get<int>(), row["stages"].get<int>()}].push_back(row);
  std::map<std::tuple<int, int, int>, DramProbeCase> cases;
  for (const auto& [key, pair] : runs) {
    if (pair.size() != 2) continue;
    const auto& shorter = pair[0]["rows"] < pair[1]["rows"] ? pair[0] : pair[1];
    const auto& longer = pair[0]["rows"] < pair[1]["rows"] ? pair[1] : pair[0];
    cases[key] = {(longer["us"].get<double>() - shorter["us"].get<double>()) * 1e-6 /
                      (longer["bytes"].get<double>() - shorter["bytes"].get<double>()),
                  shorter["in_flight_bytes"].get<double>()};
  }
  return cases;
}

// A profile's figures are copied from its probes' outputs (tests/calibration/*_NAME.json, written by
// profile_probes.sh; scripts/device-profile.py copies them): they must not drift from them.
void expect_timing_is_probe_output(const std::string& device, const std::string& name) {
  SCOPED_TRACE(device);
  const nlohmann::json probe = read_json("tests/calibration/timing_" + name + ".json");
  const DeviceProfile d = *find_device(device);
  ASSERT_TRUE(d.timing);
  const MachineTiming& t = *d.timing;
  EXPECT_DOUBLE_EQ(t.shared_wavefronts_per_clock_per_sm, probe["shared_wavefronts"]["per_clock_per_sm"].get<double>());
  EXPECT_DOUBLE_EQ(t.global_lines_per_clock_per_sm,
                   probe["global_lines_32_a_request_adjacent"]["per_clock_per_sm"].get<double>());
  EXPECT_DOUBLE_EQ(t.l2_bytes_per_second, probe["l2_bytes_per_second"].get<double>());
  EXPECT_DOUBLE_EQ(t.dram_bytes_per_second, probe["dram_bytes_per_second"].get<double>());
  EXPECT_NEAR(t.mma_sync_multiply_adds_per_clock_per_sm,
              probe["mma_sync_multiply_adds"]["per_clock_per_sm"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(t.latency_l1_cycles, probe["latency_l1_cycles"].get<double>());
  EXPECT_DOUBLE_EQ(t.latency_l2_cycles, probe["latency_l2_cycles"].get<double>());
  EXPECT_DOUBLE_EQ(t.latency_dram_cycles, probe["latency_dram_cycles"].get<double>());
  EXPECT_DOUBLE_EQ(t.latency_shared_cycles, probe["latency_shared_cycles"].get<double>());
  EXPECT_DOUBLE_EQ(t.barrier_cycles, probe["barrier_cycles"].get<double>());
  // What events add to a run queued as the benchmark queues it (tests/calibration/launch_overhead.cu).
  EXPECT_DOUBLE_EQ(t.launch_overhead_seconds,
                   read_json("tests/calibration/launch_overhead_" + name + ".json")["queued_seconds"].get<double>());
  // The clocks cuBLAS holds after ten seconds of GEMMs: FP32 (as FFMA alone holds, to a megahertz) and BF16 on the
  // tensor cores (mma.sync alone draws less power and holds more).
  EXPECT_NEAR(t.sustained_clock_mhz_fma, probe["sustained_clock_mhz_fma"].get<double>(), 10);
  const nlohmann::json gemm = read_json("tests/calibration/gemm_clock_" + name + ".json");
  EXPECT_DOUBLE_EQ(t.sustained_clock_mhz_tensor, gemm["cublas_bf16_8192"]["sm_clock_mhz_last"].get<double>());
  EXPECT_DOUBLE_EQ(t.sustained_clock_mhz_fma, gemm["cublas_fp32_8192"]["sm_clock_mhz_last"].get<double>());
}

TEST(TimeModel, TheShippedH100TimingIsTheRecordedProbeOutput) { expect_timing_is_probe_output("h100", "h100"); }

TEST(TimeModel, TheShippedH200TimingIsTheRecordedProbeOutput) { expect_timing_is_probe_output("h200", "h200"); }

TEST(TimeModel, AProfileWithoutTimingGetsASentenceNotAGuess) {
  DeviceProfile d = h100();
  d.timing.reset();
  Synthetic s(264, 16);
  const auto p = predict_time({RungId::BlockTile2D, rung_model(RungId::BlockTile2D).defaults, {4096, 4096, 4096},
                               &s.counters, &s.occupancy, &s.l2},
                              d);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().message.find("no measured timing"), std::string::npos) << p.error().message;
  EXPECT_FALSE(predict_time({RungId::BlockTile2D, {}, {64, 64, 64}, nullptr, &s.occupancy, &s.l2}, h100()).ok());
}

TEST(TimeModel, EachSmTermIsTheBusiestSmsWorkOverItsMeasuredRate) {
  const DeviceProfile d = h100();
  const MachineTiming& m = *d.timing;
  Synthetic s(264, 16);  // 2 blocks on every SM
  s.counters.total.fma = std::int64_t{1} << 34;
  s.counters.total.ops[kLds32].instructions = std::int64_t{1} << 28;
  s.counters.total.ops[kLds32].wavefronts = std::int64_t{1} << 30;
  const auto p = s.predict();
  ASSERT_TRUE(p.ok()) << p.error().message;
  const double hz = m.sustained_clock_mhz_fma * 1e6;
  const double instructions = double(s.counters.total.fma) / 32 + double(std::int64_t{1} << 28);
  EXPECT_EQ(p->tiles_on_busiest_sm, 2);
  EXPECT_NEAR(p->term(TimeTerm::Issue).seconds, instructions / 132 / 4 / hz, 1e-12);
  EXPECT_NEAR(p->term(TimeTerm::DataPipe).seconds, double(std::int64_t{1} << 30) / 132 / m.shared_wavefronts_per_clock_per_sm / hz,
              1e-12);
  EXPECT_EQ(p->term(TimeTerm::TensorCores).seconds, 0);
  // The SM's terms combine as a 2-norm: more than the largest, less than their sum.
  const double issue = p->term(TimeTerm::Issue).seconds, pipe = p->term(TimeTerm::DataPipe).seconds;
  EXPECT_NEAR(p->sm_seconds, std::hypot(issue, pipe), 1e-12);
  EXPECT_GT(p->sm_seconds, std::max(issue, pipe));
  EXPECT_LT(p->sm_seconds, issue + pipe);
  EXPECT_EQ(p->limit, pipe > issue ? TimeTerm::DataPipe : TimeTerm::Issue);
  EXPECT_NEAR(p->seconds, std::max(p->sm_seconds, p->term(TimeTerm::Latency).seconds) + p->launch_seconds + p->fill_seconds + p->drain_seconds,
              1e-15);
  EXPECT_NEAR(p->tflops, 2.0 * 4096 * 4096 * 4096 / p->seconds / 1e12, 1e-9);
  EXPECT_NE(p->explanation.find("is the limit"), std::string::npos) << p->explanation;
}

// The TMA copy engine's figures are the line through the probe's one-SM rows (tests/calibration/tma_rate.cu), in SM
// cycles, for boxes of fewer than 256 rows (a box takes at least a cycle a row: the probe's 256-row boxes of narrow rows
// sit on that floor, not on the line).
TEST(TimeModel, TheShippedTmaEngineIsTheLineThroughTheProbesRows) {
  for (const std::string name : {"h100", "h200"}) {
    SCOPED_TRACE(name);
    const nlohmann::json probe = read_json("tests/calibration/tma_rate_" + name + ".json");
    double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (const auto& row : probe["shapes"]) {
      if (row["sms"].get<int>() != 1 || row["panels"].get<int>() != 1 || row["prefetch"].get<bool>() ||
          row["box_rows"].get<int>() >= 256)
        continue;
      const double x = row["box_bytes"].get<double>(), y = row["cycles_per_box"].get<double>();
      n += 1, sx += x, sy += y, sxx += x * x, sxy += x * y;
    }
    ASSERT_GE(n, 10);
    const double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx), intercept = (sy - slope * sx) / n;
    const DeviceProfile d = *find_device(name);
    const MachineTiming& m = *d.timing;
    EXPECT_NEAR(m.tma_cycles_per_copy, intercept, 0.001 * intercept);
    EXPECT_NEAR(m.tma_bytes_per_clock_per_sm, 1 / slope, 0.001 / slope);
  }
}

// Each copy its fixed cycles plus its bytes at the engine's rate, on the busiest SM: many small copies make it the
// SM's largest term and the limit, and the explanation says so.
TEST(TimeModel, ManySmallTmaCopiesAreLimitedByTheCopyEngine) {
  const DeviceProfile d = h100();
  const MachineTiming& m = *d.timing;
  Synthetic s(4 * 132, 16);  // four blocks per SM, two resident at a time: they share the k-step chain
  s.counters.total.tma_copies = 4 * 132 * 16 * 20;                     // 20 copies a k-step
  s.counters.total.tma_sectors = 4 * 132 * 16 * 20 * 2048 / 32;  // of 2 KiB each
  s.counters.total.tma_bytes = s.counters.total.tma_sectors * 32;
  s.counters.total.wgmma_multiply_adds = std::int64_t{4} * 132 * 16 * 128 * 256 * 64;
  const auto p = s.predict(RungId::TmaWgmma);
  ASSERT_TRUE(p.ok()) << p.error().message;
  const double copies = 4 * 16 * 20, hz = p->clock_mhz * 1e6;  // the busiest SM's
  EXPECT_NEAR(p->term(TimeTerm::Copies).seconds,
              (copies * m.tma_cycles_per_copy + copies * 2048 / m.tma_bytes_per_clock_per_sm) / hz, 1e-12);
  // The copies are one of the SM's terms: in their 2-norm with the other three, and named where they are the largest.
  double squares = 0;
  for (const TimeTerm t : {TimeTerm::Issue, TimeTerm::DataPipe, TimeTerm::TensorCores, TimeTerm::Copies})
    squares += p->term(t).seconds * p->term(t).seconds;
  EXPECT_NEAR(p->sm_seconds, std::sqrt(squares), 1e-12);
  EXPECT_GT(p->sm_seconds, p->term(TimeTerm::Copies).seconds * 1.01);
  EXPECT_EQ(p->limit, TimeTerm::Copies);
  // And a block's own k-step carries its copies: with none, it is shorter.
  Synthetic none = s;
  none.counters.total.tma_copies = none.counters.total.tma_sectors = none.counters.total.tma_bytes = 0;
  const auto without = none.predict(RungId::TmaWgmma);
  ASSERT_TRUE(without.ok()) << without.error().message;
  EXPECT_DOUBLE_EQ(without->term(TimeTerm::Copies).seconds, 0);
  EXPECT_LT(without->block_kstep_cycles, p->block_kstep_cycles);
  EXPECT_NE(p->explanation.find("TMA copies are the limit"), std::string::npos) << p->explanation;
  EXPECT_EQ(p->explanation.find("stores of C"), std::string::npos) << p->explanation;
  // TMA stores of C go through the same engine: they are counted, and named.
  s.counters.total.tma_stores = 132 * 8;
  s.counters.total.tma_store_sectors = 132 * 8 * 16384 / 32;
  const auto stored = s.predict(RungId::TmaWgmmaPersistent);
  ASSERT_TRUE(stored.ok()) << stored.error().message;
  EXPECT_NEAR(stored->term(TimeTerm::Copies).seconds,
              ((copies + 8) * m.tma_cycles_per_copy + (copies * 2048 + 8 * 16384) / m.tma_bytes_per_clock_per_sm) / hz,
              1e-12);
  EXPECT_DOUBLE_EQ(stored->copy_stores, 8);
  EXPECT_NE(stored->explanation.find("(8 of them stores of C)"), std::string::npos) << stored->explanation;
}

// Where a producer warp issues the copies (a warp-specialised rung), they run beside the consumers' work: the SM takes
// the longer of the copies and the other terms' 2-norm, and so does a block's k-step (docs/time-model.md, "A
// producer's copies"). Rung 17, whose consumer thread issues them, keeps them in the 2-norm (the test above).
TEST(TimeModel, AProducerWarpsCopiesRunBesideTheConsumersWork) {
  Synthetic s(132, 64);
  s.occupancy.blocks_per_sm = 1;
  s.counters.total.tma_copies = 132 * 64 * 5;  // five 8 KiB copies a k-step, as rung 24's
  s.counters.total.tma_sectors = 132 * 64 * 5 * 8192 / 32;
  s.counters.total.tma_bytes = s.counters.total.tma_sectors * 32;
  s.counters.total.wgmma_multiply_adds = std::int64_t{132} * 64 * 64 * 256 * 64;  // fewer cycles than the copies
  const auto producer = s.predict(RungId::TmaWgmmaSpecialized);
  const auto consumer = s.predict(RungId::TmaWgmma);
  ASSERT_TRUE(producer.ok() && consumer.ok());
  EXPECT_TRUE(producer->copies_beside);
  EXPECT_FALSE(consumer->copies_beside);
  const auto others = [](const TimePrediction& p) {
    return std::hypot(p.term(TimeTerm::Issue).seconds, p.term(TimeTerm::DataPipe).seconds,
                      p.term(TimeTerm::TensorCores).seconds);
  };
  ASSERT_GT(producer->term(TimeTerm::Copies).seconds, others(*producer));
  EXPECT_DOUBLE_EQ(producer->sm_seconds, producer->term(TimeTerm::Copies).seconds);
  EXPECT_NEAR(consumer->sm_seconds, std::hypot(others(*consumer), consumer->term(TimeTerm::Copies).seconds), 1e-12);
  // A block's k-step likewise: the producer's is its copies' cycles (and its barriers), shorter than the 2-norm.
  const double copy_cycles = producer->term(TimeTerm::Copies).seconds * producer->clock_mhz * 1e6 / 64;
  const double barriers = producer->barriers_per_kstep * h100().timing->barrier_cycles;
  EXPECT_NEAR(producer->block_kstep_cycles, copy_cycles + barriers, 1e-6);
}

// The last round's epilogues store C after their last k-step, with nothing left to overlap them: rung 21 at 2048^3 has
// one tile a block, all 128 of them stored at the end. Twice the tiles in N is two tiles a block and the same last
// round: the same stores at the end of a longer kernel. Split-K's turns at C count its tiles' last stores already.
TEST(TimeModel, TheLastRoundsStoresComeAfterItsLastKstep) {
  const DeviceProfile h200 = *find_device("h200");
  const auto hilbert = *parse_order("hilbert");
  const auto predict = [&](RungId rung, Problem problem) {
    const auto p = predict_schedule(rung, rung_model(rung).defaults, problem, hilbert, h200);
    EXPECT_TRUE(p.ok() && p->time) << (p.ok() ? p->time_note : p.error().message);
    return p.ok() && p->time ? *p->time : TimePrediction{};
  };
  const TimePrediction one_round = predict(RungId::TmaWgmmaHilbert, {2048, 2048, 2048});
  const TimePrediction two_rounds = predict(RungId::TmaWgmmaHilbert, {2048, 4096, 2048});
  const double tile_c = 128.0 * 256 * 4;
  EXPECT_GE(one_round.drain_seconds, tile_c / (h200.timing->l2_bytes_per_second / h200.sms));
  EXPECT_GE(one_round.drain_seconds, 128 * tile_c / h200.timing->dram_bytes_per_second);  // at most the reads' rate
  const double longest = std::max({one_round.sm_and_dram_seconds, one_round.term(TimeTerm::L2).seconds,
                                   one_round.term(TimeTerm::Latency).seconds});
  EXPECT_NEAR(one_round.seconds,
              longest + one_round.launch_seconds + one_round.fill_seconds + one_round.drain_seconds, 1e-12);
  EXPECT_DOUBLE_EQ(two_rounds.drain_seconds, one_round.drain_seconds);
  EXPECT_GT(two_rounds.seconds, one_round.seconds);
  // 288 tiles over 128 blocks: 32 blocks walk a third tile, and only they store last, each at the SM's share of the
  // L2 (32 tiles at DRAM's rate would take less).
  const TimePrediction unequal = predict(RungId::TmaWgmmaHilbert, {4096, 2304, 768});
  EXPECT_DOUBLE_EQ(unequal.drain_seconds, tile_c / (h200.timing->l2_bytes_per_second / h200.sms));
  const TimePrediction split = predict(RungId::TmaWgmmaSplitK, {16, 4096, 14336});
  EXPECT_GT(split.split_seconds, 0.0);
  EXPECT_EQ(split.drain_seconds, 0.0);
}

// Split-K's serial turns at C, block by block. In one round every range ends its k-steps at once and the tile's chain
// of turns stands whole after them, however long the k-steps.
TEST(TimeModel, SplitKsFirstRoundWaitsOutTheWholeChain) {
  EXPECT_DOUBLE_EQ(split_turns_seconds(66, 4, 264, 10.0, 1.0), 3.0);
  EXPECT_DOUBLE_EQ(split_turns_seconds(66, 4, 264, 1.0, 10.0), 30.0);
  EXPECT_DOUBLE_EQ(split_turns_seconds(66, 4, 264, 10.0, 0.0), 0.0);
  EXPECT_DOUBLE_EQ(split_turns_seconds(10, 1, 264, 10.0, 5.0), 0.0);  // one range a tile: no turn
}

// A waiting range holds its slot. With one slot per range the next tile's ranges start where the last tile's turns
// freed theirs, one turn apart, so each later tile waits one turn more than its k-steps: (splits - 1) turns for the
// first tile, then one a tile.
TEST(TimeModel, SplitKsLaterTilesStartApartAndWaitOneTurnEach) {
  for (const int tiles : {1, 2, 7})
    EXPECT_DOUBLE_EQ(split_turns_seconds(tiles, 4, 4, 10.0, 1.0), 3.0 + (tiles - 1) * 1.0) << tiles << " tiles";
}

// A last round of one tile's ranges waits out its chain after the first round's k-steps, as the first round did; a
// tile whose ranges outnumber the slots runs its later ranges in the slots the earlier ones freed, one turn apart.
TEST(TimeModel, SplitKsPartialRoundsAndRangesBeyondTheSlots) {
  EXPECT_DOUBLE_EQ(split_turns_seconds(67, 4, 264, 10.0, 1.0), 3.0);  // 268 ranges on 264 slots: two rounds
  // Ranges 0 and 1 start together; 2 takes range 0's slot at 10 and ends its k-steps at 20, then takes its turn
  // after range 1's (11) at 20 to 21; 3 takes range 1's slot at 11, ends at 21, its turn 21 to 22: 2 beyond 2 x 10.
  EXPECT_DOUBLE_EQ(split_turns_seconds(1, 4, 2, 10.0, 1.0), 2.0);
}

// In a full kernel the turns of every round cost: more rounds, more of them; and ranges of a few k-steps (short K)
// leave more of each round's turns bare than long ones.
TEST(TimeModel, SplitKsTurnsGrowWithTheRoundsAndWithShortRanges) {
  const DeviceProfile h200 = *with_clock(*find_device("h200"), 1770);
  const auto predict = [&](int m, int k) {
    const auto config = *apply_knob_text(RungId::TmaWgmmaSplitK, rung_model(RungId::TmaWgmmaSplitK).defaults,
                                         "splits=4 workspace=0");
    const auto p = predict_schedule(RungId::TmaWgmmaSplitK, config, {m, 4096, k}, {}, h200);
    EXPECT_TRUE(p.ok() && p->time) << (p.ok() ? p->time_note : p.error().message);
    return p.ok() && p->time ? *p->time : TimePrediction{};
  };
  const double one_round = predict(64, 4096).split_seconds, many = predict(4096, 4096).split_seconds;
  ASSERT_GT(one_round, 0.0);
  EXPECT_GT(many, 4 * one_round);
  // The same tiles of C (the same turns), a quarter of the k-steps: a larger share of the k-steps' time.
  const TimePrediction long_k = predict(4096, 4096), short_k = predict(4096, 1024);
  EXPECT_GT(short_k.split_seconds / short_k.seconds, long_k.split_seconds / long_k.seconds);
}

// BERT-base's QKV projection over a 4096-token prompt (4096 x 2304 x 768: 12 k-steps of 64 a tile), the short-K shape
// the tests below predict: the rung's defaults with `knobs` applied, on `device`.
TimePrediction predict_bert_qkv(RungId rung, std::string_view knobs, const DeviceProfile& device) {
  auto config = rung_model(rung).defaults;
  if (!knobs.empty()) config = *apply_knob_text(rung, config, knobs);
  const auto p = predict_schedule(rung, config, {4096, 2304, 768}, {}, device);
  EXPECT_TRUE(p.ok() && p->time) << (p.ok() ? p->time_note : p.error().message);
  return p.ok() && p->time ? *p->time : TimePrediction{};
}

// A warp-specialised block that stores its tile from registers multiplies, then stores, with nothing else on its SM:
// BERT's QKV at K = 768 on rung 18 is three rounds of such blocks, and the path of the busiest SM's k-steps, then its
// tiles' stores, is longer than the terms. Not with TMA stores, nor without a producer (rung 17), nor on a profile
// that does not give the stores' rate; a persistent block (rungs 20, 21, 23 and 24) counts its tiles' switches
// instead.
TEST(TimeModel, ABlockThatStoresAfterItsKStepsAddsItsStoresToThem) {
  DeviceProfile h200 = *find_device("h200");
  const TimePrediction qkv = predict_bert_qkv(RungId::TmaWgmmaSpecialized, "", h200);
  const double tile_c = 128.0 * 256 * 4;
  const double rate = h200.timing->epilogue_store_share * h200.timing->l2_bytes_per_second / h200.sms;
  EXPECT_EQ(qkv.tiles_on_busiest_sm, 3);  // 288 tiles on 132 SMs, one block at a time
  EXPECT_NEAR(qkv.tile_stores_seconds, 3 * tile_c / rate, 1e-15);
  // The k-steps at the pace of the L2's reads: its term counts C's stores too, which the path counts apart.
  const TermTime& l2 = qkv.term(TimeTerm::L2);
  const double l2_reads = (l2.work - qkv.l2_store_bytes) / l2.rate;
  EXPECT_DOUBLE_EQ(qkv.stores_after_ksteps_seconds,
                   std::max({qkv.sm_seconds, qkv.term(TimeTerm::Latency).seconds, l2_reads}));
  const double path =
      qkv.stores_after_ksteps_seconds + qkv.tile_stores_seconds + qkv.launch_seconds + qkv.fill_seconds;
  EXPECT_NEAR(qkv.stores_after_seconds, path, 1e-12 * path);
  EXPECT_TRUE(qkv.stores_after_limit);
  EXPECT_DOUBLE_EQ(qkv.seconds, qkv.stores_after_seconds);
  EXPECT_NE(qkv.explanation.find("after its last k-step"), std::string::npos) << qkv.explanation;
  // Not a persistent block's (its tiles' switches instead: TimeModel.APersistentBlockPaysForEachSwitchBetweenTiles),
  // nor TMA stores', nor a rung without a producer warp.
  for (const auto& [rung, knobs] : std::vector<std::pair<RungId, std::string_view>>{
           {RungId::TmaWgmmaPersistent, "grid=0 tma_store=1"},
           {RungId::TmaWgmma, ""}}) {
    const TimePrediction p = predict_bert_qkv(rung, knobs, h200);
    EXPECT_EQ(p.tile_stores_seconds, 0.0) << rung_info(rung).slug << " " << knobs;
    EXPECT_FALSE(p.stores_after_limit) << rung_info(rung).slug << " " << knobs;
  }
  // Stream-K's blocks cut tiles there (12 k-steps a tile, shared by the last waves' blocks): each block stores every
  // piece it computes, a whole tile each, and switches to its next piece's k-steps, and waits for its turns at C too;
  // the turns' own writes of C are those stores, counted once.
  const TimePrediction stream_k = predict_bert_qkv(RungId::TmaWgmmaStreamK, "", h200);
  const TermTime& sk_l2 = stream_k.term(TimeTerm::L2);
  ASSERT_GT(stream_k.split_seconds, 0);
  // Each piece a whole tile's stores, and a switch to the next piece.
  const double pieces = stream_k.tile_stores_seconds / (tile_c / rate + h200.timing->tile_switch_seconds);
  EXPECT_NEAR(pieces, std::round(pieces), 1e-9);
  EXPECT_GE(pieces, stream_k.tiles_on_busiest_sm);
  EXPECT_DOUBLE_EQ(stream_k.stores_after_ksteps_seconds,
                   std::max({stream_k.sm_seconds, stream_k.term(TimeTerm::Latency).seconds,
                             (sk_l2.work - stream_k.l2_store_bytes) / sk_l2.rate}));
  EXPECT_GT(stream_k.stores_after_turn_waits_seconds, 0);
  EXPECT_LT(stream_k.stores_after_turn_waits_seconds, stream_k.split_seconds);  // the turns less their writes
  const double sk_path = stream_k.stores_after_ksteps_seconds + stream_k.tile_stores_seconds +
                         stream_k.launch_seconds + stream_k.fill_seconds + stream_k.stores_after_turn_waits_seconds;
  EXPECT_NEAR(stream_k.stores_after_seconds, sk_path, 1e-12 * sk_path);
  EXPECT_TRUE(stream_k.stores_after_limit);
  EXPECT_DOUBLE_EQ(stream_k.seconds, stream_k.stores_after_seconds);
  EXPECT_NE(stream_k.explanation.find("every piece of a tile"), std::string::npos) << stream_k.explanation;
  EXPECT_EQ(stream_k.after_ksteps, "the pieces' stores and switches");
  EXPECT_NE(stream_k.explanation.find("the pieces' stores and switches"), std::string::npos) << stream_k.explanation;
  // At K = 64 a tile is one k-step: no block cuts one, so no piece is stored apart and no turn is taken; its blocks
  // walk whole tiles, each a switch (TimeModel.APersistentBlockPaysForEachSwitchBetweenTiles).
  auto whole_tiles = predict_schedule(RungId::TmaWgmmaStreamK, rung_model(RungId::TmaWgmmaStreamK).defaults,
                                      {4096, 2304, 64}, {}, h200);
  ASSERT_TRUE(whole_tiles.ok() && whole_tiles->time);
  EXPECT_EQ(whole_tiles->time->split_seconds, 0.0);
  EXPECT_TRUE(whole_tiles->time->tile_switches);
  EXPECT_DOUBLE_EQ(whole_tiles->time->tile_stores_seconds,
                   whole_tiles->time->tiles_on_busiest_sm * h200.timing->tile_switch_seconds);
  h200.timing->epilogue_store_share = 0;
  const TimePrediction unmeasured = predict_bert_qkv(RungId::TmaWgmmaSpecialized, "", h200);
  EXPECT_EQ(unmeasured.tile_stores_seconds, 0.0);
  EXPECT_LT(unmeasured.seconds, qkv.seconds);
}

// A persistent block that walks whole tiles passes tile_switch_seconds between one tile's k-steps and the next one's,
// which nothing on its SM overlaps: at K = 768 (12 k-steps a tile) that path is as long as the terms, and where it is
// longer it sets the time, named in the explanation; ping-pong's consumers, which take turns, hand the turn over at
// each; a one-tile block (grid = 0) has none; without the figure (a profile that lacks it) the persistent block's tiles
// follow one another at no cost.
TEST(TimeModel, APersistentBlockPaysForEachSwitchBetweenTiles) {
  DeviceProfile h200 = *find_device("h200");
  ASSERT_GT(h200.timing->tile_switch_seconds, 0);
  const auto predict = [&](RungId rung, std::string_view knobs) { return predict_bert_qkv(rung, knobs, h200); };
  const TimePrediction walk = predict(RungId::TmaWgmmaHilbert, "");
  EXPECT_TRUE(walk.tile_switches);
  EXPECT_GT(walk.tiles_on_busiest_sm, 1);
  EXPECT_DOUBLE_EQ(walk.tile_stores_seconds, walk.tiles_on_busiest_sm * h200.timing->tile_switch_seconds);
  const double path =
      walk.stores_after_ksteps_seconds + walk.tile_stores_seconds + walk.launch_seconds + walk.fill_seconds;
  EXPECT_NEAR(walk.stores_after_seconds, path, 1e-12 * path);
  EXPECT_GE(walk.seconds, walk.stores_after_seconds);
  EXPECT_NEAR(walk.seconds, walk.stores_after_seconds, 0.02 * walk.seconds);
  {
    DeviceProfile slow = h200;
    slow.timing->tile_switch_seconds *= 3;  // a switch three times as long: the path is longer than every term
    const TimePrediction longer = predict_bert_qkv(RungId::TmaWgmmaHilbert, "", slow);
    EXPECT_TRUE(longer.stores_after_limit);
    EXPECT_DOUBLE_EQ(longer.seconds, longer.stores_after_seconds);
    EXPECT_NE(longer.explanation.find("tiles' switches"), std::string::npos) << longer.explanation;
  }

  EXPECT_FALSE(predict(RungId::TmaWgmmaHilbert, "grid=0").tile_switches);
  const TimePrediction ping_pong = predict(RungId::TmaWgmmaPingPong, "");
  EXPECT_TRUE(ping_pong.tile_switches);
  EXPECT_DOUBLE_EQ(ping_pong.tile_stores_seconds, ping_pong.tiles_on_busiest_sm * h200.timing->tile_switch_seconds);
  EXPECT_TRUE(ping_pong.stores_after_limit);
  EXPECT_EQ(ping_pong.after_ksteps, "the tiles' switches");

  h200.timing->tile_switch_seconds = 0;
  const TimePrediction free_switches = predict(RungId::TmaWgmmaHilbert, "");
  EXPECT_FALSE(free_switches.tile_switches);
  EXPECT_EQ(free_switches.tile_stores_seconds, 0.0);
  EXPECT_LT(free_switches.stores_after_seconds, walk.stores_after_seconds);
  EXPECT_LE(free_switches.seconds, walk.seconds);
  EXPECT_EQ(predict(RungId::TmaWgmmaStreamK, "").after_ksteps, "the pieces' stores");  // its cut tiles' stores alone
}

// C's stores go through the L2 beside the reads, from the threads (rung 18) or by TMA (rung 20's tma_store=1), and
// split-K's partial sums through its workspace too: the L2 term counts their bytes, at its rate.
TEST(TimeModel, TheL2TermCountsTheStoresBesideTheReads) {
  const DeviceProfile h200 = *find_device("h200");

  const auto predict = [&](RungId rung, std::string_view knobs) { return predict_bert_qkv(rung, knobs, h200); };
  const double c_bytes = 4096.0 * 2304 * 4;
  for (const auto& [rung, knobs] : std::vector<std::pair<RungId, std::string_view>>{
           {RungId::TmaWgmmaSpecialized, ""}, {RungId::TmaWgmmaPersistent, "tma_store=1"}}) {
    const TimePrediction p = predict(rung, knobs);
    EXPECT_EQ(p.l2_store_bytes, c_bytes) << rung_info(rung).slug << " " << knobs;
    const TermTime& l2 = p.term(TimeTerm::L2);
    EXPECT_GT(l2.work, p.l2_store_bytes);
    EXPECT_NEAR(l2.seconds, l2.work / l2.rate, 1e-9 * l2.seconds);
  }
  const TimePrediction workspace = predict(RungId::TmaWgmmaSplitK, "splits=3 workspace=1");
  EXPECT_GT(workspace.l2_store_bytes, c_bytes);  // the ranges' slices, then C
}

// The k-steps in flight but one cover a stage's wait (it is refilled once the k-step after the one that read it lets it
// go): a k-step takes at least the wait over them, so a block whose own k-step is shorter is never predicted slower.
// The chain took the wait less the block's work on those k-steps until 2026-11-30, and with three stages or more a
// shorter k-step exposed more of the wait than it saved.
TEST(TimeModel, AShorterKStepNeverMakesTheChainLonger) {
  Synthetic s(132, 256);
  s.l2.a = {1000, 1000};
  s.occupancy.blocks_per_sm = 1;
  double previous = 0;
  for (const std::int64_t instructions_a_kstep : {4096, 2048, 1024, 512, 256, 128, 64}) {
    s.counters.total.fma = std::int64_t{132} * 256 * instructions_a_kstep * 32;
    const auto p = s.predict(RungId::CpAsync);
    ASSERT_TRUE(p.ok()) << p.error().message;
    ASSERT_GE(p->ksteps_in_flight, 3);
    const double wait = p->term(TimeTerm::Latency).rate;
    EXPECT_NEAR(p->exposed_wait_cycles, std::max(0.0, wait / (p->ksteps_in_flight - 1) - p->block_kstep_cycles), 1e-9);
    const double chain = p->term(TimeTerm::Latency).seconds;
    if (previous > 0) {
      EXPECT_LE(chain, previous * (1 + 1e-12)) << instructions_a_kstep << " FFMA a k-step";
    }
    previous = chain;
  }
}

// A cluster partner's multicast copies that land in a block count in its SM's copies term as the block's own: half the
// copies issued and the other half a partner's cost what all of them issued here cost (docs/time-model.md, "Multicast
// copies": the sweep's pairs measured no saving, and the model stands in so for the pair's waits for each other), and
// the explanation says whose they are.
TEST(TimeModel, APartnersMulticastCopiesCountInTheSmsCopies) {
  Synthetic alone(4 * 132, 16);
  alone.counters.total.tma_copies = 4 * 132 * 16 * 20;  // 20 copies a k-step
  alone.counters.total.tma_sectors = alone.counters.total.tma_copies * 2048 / 32;
  alone.counters.total.tma_bytes = alone.counters.total.tma_sectors * 32;
  alone.counters.total.wgmma_multiply_adds = std::int64_t{4} * 132 * 16 * 128 * 256 * 64;
  Synthetic paired = alone;
  paired.counters.total.tma_copies = paired.counters.total.tma_partner_copies = alone.counters.total.tma_copies / 2;
  paired.counters.total.tma_sectors = paired.counters.total.tma_partner_sectors = alone.counters.total.tma_sectors / 2;
  const auto a = alone.predict(RungId::TmaWgmma);
  const auto p = paired.predict(RungId::TmaWgmma);
  ASSERT_TRUE(a.ok() && p.ok());
  EXPECT_GT(a->term(TimeTerm::Copies).seconds, 0);
  EXPECT_DOUBLE_EQ(p->term(TimeTerm::Copies).seconds, a->term(TimeTerm::Copies).seconds);
  EXPECT_DOUBLE_EQ(p->copy_partner, 4 * 16 * 10);  // the busiest SM's
  ASSERT_EQ(p->limit, TimeTerm::Copies);
  EXPECT_NE(p->explanation.find("(640 of them a cluster partner's multicast copies"), std::string::npos)
      << p->explanation;
  EXPECT_EQ(a->explanation.find("cluster partner"), std::string::npos) << a->explanation;
}

// A box takes the copy engine at least a cycle a row (tests/calibration/tma_rate.cu: 256 rows of 32 bytes take 256
// cycles): boxes whose rows outnumber their cycles on the line cost their rows; wide boxes cost the line.
TEST(TimeModel, ABoxOfManyNarrowRowsTakesACycleARow) {
  const DeviceProfile d = h100();
  const MachineTiming& m = *d.timing;
  const auto copies_cycles = [&](int rows, int bytes) {
    Synthetic s(4 * 132, 16);
    const std::int64_t copies = 4 * 132 * 16;
    s.counters.total.tma_copies = copies;
    s.counters.total.tma_sectors = copies * bytes / 32;
    s.counters.total.tma_bytes = copies * bytes;
    s.counters.total.tma_boxes = {{rows, bytes, copies}};
    s.counters.total.wgmma_multiply_adds = copies * 64 * 64 * 64;
    const auto p = s.predict(RungId::TmaWgmma);
    EXPECT_TRUE(p.ok());
    return p.ok() ? p->term(TimeTerm::Copies).seconds * p->clock_mhz * 1e6 / (4 * 16) : 0.0;  // per copy
  };
  const double line = m.tma_cycles_per_copy + 8192 / m.tma_bytes_per_clock_per_sm;
  ASSERT_LT(line, 256);
  EXPECT_NEAR(copies_cycles(256, 8192), 256, 1e-6);  // 256 rows of 32 bytes: the floor
  EXPECT_NEAR(copies_cycles(64, 8192), line, 1e-6);  // 64 rows of 128 bytes: the line
}

// A multicast copy is read from L2 once but lands in each block of the cluster: the L2 term counts what lands.
TEST(TimeModel, TheL2DeliversWhatMulticastCopiesLand) {
  const DeviceProfile d = h100();
  const MachineTiming& m = *d.timing;
  Synthetic s(132, 16);
  s.l2.a = {std::int64_t{1} << 20, 0};  // 32 MiB read from L2
  s.counters.total.tma_bytes = std::int64_t{1} << 26;  // 64 MiB landed
  const auto p = s.predict(RungId::TmaWgmmaMulticast);
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_NEAR(p->term(TimeTerm::L2).seconds, double(std::int64_t{1} << 26) / m.l2_bytes_per_second, 1e-12);
}

// Stream-K (rung 23): a tile's pieces take their turns at C one after another, so the turns' term grows with the most
// pieces a tile is cut into; at 128 rows of C the decode shape's turns move the same bytes as 4096^3's (at a given
// clock: the two shapes' tensor loads would set two).
TEST(TimeModel, StreamKsTurnsAtCFollowOneAnotherAcrossATilesPieces) {
  const RungId rung = RungId::TmaWgmmaStreamK;
  const kernel::KernelConfig c = rung_model(rung).defaults;
  const DeviceProfile h200 = *with_clock(*find_device("h200"), 1770);
  const auto decode = predict_schedule(rung, c, {128, 4096, 4096}, {kernel::OrderKind::Hilbert, 0}, h200);
  const auto square = predict_schedule(rung, c, {4096, 4096, 4096}, {kernel::OrderKind::Hilbert, 0}, h200);
  ASSERT_TRUE(decode.ok() && square.ok());
  ASSERT_TRUE(decode->time && square->time);
  const auto pieces = [&](const SchedulePrediction& p) {
    return p.shape.plan.most_pieces();
  };
  ASSERT_GT(pieces(*decode), pieces(*square)) << "a decode shape's few tiles are cut into more pieces";
  ASSERT_GT(square->time->split_seconds, 0);
  EXPECT_NEAR(decode->time->split_seconds / square->time->split_seconds,
              double(pieces(*decode) - 1) / std::max(1, pieces(*square) - 1), 1e-9);
}

// Split-K (rung 22): a serial reduction's ranges take splits - 1 turns at C one after another, each reading and writing
// the tile of C back through its SM; through the workspace the last range waits once and moves the other ranges' slices
// and C, splits tiles' bytes.
TEST(TimeModel, SplitKsTurnsMoveTheTileOfCThroughTheSm) {
  const RungId rung = RungId::TmaWgmmaSplitK;
  const DeviceProfile h200 = *find_device("h200");
  const MachineTiming& timing = *h200.timing;
  const double tile_bytes = 16.0 * rung_model(rung).defaults.bn * sizeof(float);  // 16 rows of C
  const double sm_rate = timing.l2_bytes_per_second / h200.sms;
  for (const auto& [splits, workspace] : {std::pair{1, 0}, {2, 0}, {4, 0}, {4, 1}}) {
    kernel::KernelConfig c = rung_model(rung).defaults;
    c.splits = splits, c.workspace = workspace;
    const auto p = predict_schedule(rung, c, {16, 4096, 14336}, {}, h200);
    ASSERT_TRUE(p.ok() && p->time) << (p.ok() ? p->time_note : p.error().message);
    const double hz = p->time->clock_mhz * 1e6;
    const auto trips = [&](double latencies_a_trip) {
      return (split_step_round_trips(rung, c) * latencies_a_trip * timing.latency_l2_cycles +
              2 * timing.barrier_cycles) /
             hz;
    };
    // One round of blocks here (splits x 32 tiles on 132 SMs). A serial turn's trips take kTurnTripLatencies each (the
    // traced turns); the workspace's one wait is counted at the L2's latency.
    const double expected = splits == 1  ? 0.0
                            : workspace ? trips(1) + splits * tile_bytes / sm_rate
                                        : (splits - 1) * (trips(kTurnTripLatencies) + 2 * tile_bytes / sm_rate);
    EXPECT_NEAR(p->time->split_seconds, expected, 1e-12) << splits << " ranges, workspace " << workspace;
  }
}

// Rule G5: what a padded layout's copies make the L2 send twice is delivered like any other byte.
TEST(TimeModel, TheL2DeliversTheSectorsPaddedCopiesSplit) {
  const DeviceProfile d = h100();
  const MachineTiming& m = *d.timing;
  Synthetic s(132, 16);
  s.l2.a = {std::int64_t{1} << 20, 0};                                 // 32 MiB the tiles need
  s.counters.total.ops[op_class(*parse_op("cp.async.cg.16"))].split_sectors = std::int64_t{1} << 19;  // 16 MiB twice
  const auto p = s.predict(RungId::MmaPadded);
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_NEAR(p->term(TimeTerm::L2).seconds, double(48 << 20) / m.l2_bytes_per_second, 1e-12);
  EXPECT_DOUBLE_EQ(p->l2_split_bytes, double(16 << 20));
  EXPECT_NE(p->explanation.find("0.02 GB are sectors it sends a second time"), std::string::npos) << p->explanation;
  // The k-step's wait streams them in too: the chain grows with them.
  Synthetic aligned = s;
  aligned.counters.total.ops[op_class(*parse_op("cp.async.cg.16"))].split_sectors = 0;
  const auto q = aligned.predict(RungId::MmaPadded);
  ASSERT_TRUE(q.ok()) << q.error().message;
  EXPECT_GT(p->term(TimeTerm::Latency).seconds, q->term(TimeTerm::Latency).seconds);
  EXPECT_EQ(q->explanation.find("a second time"), std::string::npos) << q->explanation;
}

TEST(TimeModel, L2AndDramAreSharedByEverySmAndTakeTheirMeasuredBandwidth) {
  const DeviceProfile d = h100();
  const MachineTiming& m = *d.timing;
  Synthetic s(133, 16);  // one SM runs 2 blocks, the others 1: the busiest SM's share does not apply to L2 or DRAM
  s.l2.a = {std::int64_t{1} << 28, 0};
  s.l2.dram_read_bytes = std::int64_t{1} << 34;
  s.counters.total.fma = 1 << 20;
  const auto p = s.predict();
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_NEAR(p->term(TimeTerm::L2).seconds, double(std::int64_t{1} << 33) / m.l2_bytes_per_second, 1e-12);
  EXPECT_NEAR(p->term(TimeTerm::Dram).seconds, double(std::int64_t{1} << 34) / m.dram_bytes_per_second, 1e-12);
  EXPECT_EQ(p->limit, TimeTerm::Dram);
  // DRAM and the SM's work combined (their norm, dram_overlap_norm: DRAM's term when it dominates), plus the launch and
  // the fill. Blocktile-2d has one k-step in flight, so its chain already waits in full at every k-step, the first
  // included: what fills is DRAM serving every SM's first k-step (all of them misses) at its bandwidth.
  const double norm = dram_overlap_norm(p->ksteps_in_flight);
  EXPECT_NEAR(p->sm_and_dram_seconds,
              std::pow(std::pow(p->sm_seconds, norm) + std::pow(p->term(TimeTerm::Dram).seconds, norm), 1 / norm),
              1e-15);
  EXPECT_DOUBLE_EQ(p->launch_seconds, m.launch_overhead_seconds);
  const double first_kstep_bytes = double(std::int64_t{1} << 33) / 133 / 16;  // each of the 2 blocks an SM holds
  EXPECT_NEAR(p->fill_seconds, 132 * 2 * first_kstep_bytes / m.dram_bytes_per_second, 1e-15);
  EXPECT_NEAR(p->seconds, p->sm_and_dram_seconds + p->launch_seconds + p->fill_seconds + p->drain_seconds, 1e-15);
  EXPECT_NE(p->explanation.find("DRAM is the limit"), std::string::npos) << p->explanation;
}

// The SM's work and DRAM's overlap more the more k-steps a block has coming while it multiplies one: 3 stages (two
// coming) combine as a 3-norm, each stage more or less moves the p by a half, up to 4.
TEST(TimeModel, DramOverlapsTheSmsWorkMoreWithDeeperRings) {
  EXPECT_DOUBLE_EQ(dram_overlap_norm(1), 2.0);
  EXPECT_DOUBLE_EQ(dram_overlap_norm(2), 2.5);
  EXPECT_DOUBLE_EQ(dram_overlap_norm(3), 3.0);
  EXPECT_DOUBLE_EQ(dram_overlap_norm(4), 3.5);
  EXPECT_DOUBLE_EQ(dram_overlap_norm(9), 4.0);
}

// A few SMs streaming from DRAM get what their bytes in flight bring in, W / (latency + W / rate) each
// (tests/calibration/tma_dram.cu), not a share of the whole bandwidth; the two combine as a 2-norm. A profile that has
// not measured the stream (the H100's) has the bandwidth alone.
TEST(TimeModel, FewSmsStreamingFromDramAreBoundByTheirBytesInFlight) {
  const DeviceProfile h200 = *find_device("h200");
  const MachineTiming& m = *h200.timing;
  ASSERT_GT(m.dram_stream_latency_seconds, 0);
  Synthetic s(16, 128);  // 16 blocks: 16 SMs stream
  s.occupancy.blocks_per_sm = 1;
  s.l2.a = {std::int64_t{1} << 22, 0};  // every read a miss: 128 MiB
  s.l2.dram_read_bytes = std::int64_t{1} << 27;
  const auto one = s.predict(RungId::BlockTile2D, h200);  // one k-step in flight
  const auto three = s.predict(RungId::CpAsync, h200);    // cp.async, 3 stages
  ASSERT_TRUE(one.ok() && three.ok());
  const double kstep_bytes = double(std::int64_t{1} << 27) / 16 / 128;
  for (const auto& p : {one, three}) {
    EXPECT_NEAR(p->in_flight_bytes, kstep_bytes * p->ksteps_in_flight, 1e-6);
    // Every read a miss; while a k-step waits, the stage its k-step before read is held: the others are loading (one
    // k-step in flight has nothing held to leave out).
    const double w = kstep_bytes * std::max(1, p->ksteps_in_flight - 1);
    EXPECT_NEAR(p->dram_in_flight_bytes, w, 1e-6);
    const double rate = w / (m.dram_stream_latency_seconds + w / m.dram_stream_bytes_per_second_per_sm);
    EXPECT_NEAR(p->dram_stream_seconds, double(std::int64_t{1} << 27) / 16 / rate, 1e-12);
    EXPECT_NEAR(p->term(TimeTerm::Dram).seconds,
                std::hypot(double(std::int64_t{1} << 27) / m.dram_bytes_per_second, p->dram_stream_seconds), 1e-12);
  }
  // Three k-steps in flight bring the stream in faster; the bandwidth alone would not tell them apart.
  EXPECT_LT(three->term(TimeTerm::Dram).seconds, one->term(TimeTerm::Dram).seconds);
  // Half the reads hit in L2 (as a decode shape's A does): DRAM streams only the other half, so each SM has half the
  // bytes in flight for it, and the stream of the same k-steps is slower per byte.
  Synthetic half = s;
  half.l2.a = {std::int64_t{1} << 22, std::int64_t{1} << 21};
  half.l2.dram_read_bytes = std::int64_t{1} << 26;
  const auto hits = half.predict(RungId::CpAsync, h200);
  ASSERT_TRUE(hits.ok());
  EXPECT_NEAR(hits->in_flight_bytes, three->in_flight_bytes, 1e-6);
  EXPECT_NEAR(hits->dram_in_flight_bytes, three->dram_in_flight_bytes / 2, 1e-6);
  const double w = hits->dram_in_flight_bytes;
  EXPECT_NEAR(hits->dram_stream_bytes_per_second,
              w / (m.dram_stream_latency_seconds + w / m.dram_stream_bytes_per_second_per_sm), 1e-3);
  EXPECT_LT(hits->dram_stream_bytes_per_second, three->dram_stream_bytes_per_second);
  const auto h100 = s.predict(RungId::BlockTile2D);
  ASSERT_TRUE(h100.ok());
  EXPECT_EQ(h100->dram_stream_seconds, 0);
  EXPECT_NEAR(h100->term(TimeTerm::Dram).seconds, double(std::int64_t{1} << 27) / h100->term(TimeTerm::Dram).rate,
              1e-15);
}

// While a k-step waits, the stage its k-step before read is still held, so a ring of S stages has S - 1 loading from
// DRAM: at a 16-token decode shape, 3 stages stream 2 stages' bytes where 4 stream 3, and take longer; the
// explanation says how many are loading.
TEST(TimeModel, TheDramStreamCountsTheStagesButTheOneHeld) {
  const DeviceProfile h200 = *find_device("h200");
  const auto predict = [&](int stages) {
    auto config = *apply_knob_text(RungId::TmaWgmmaSpecialized, rung_model(RungId::TmaWgmmaSpecialized).defaults,
                                   "bm=64 bn=64 bk=128 stages=" + std::to_string(stages));
    const auto p = predict_schedule(RungId::TmaWgmmaSpecialized, config, {16, 6144, 4096}, {}, h200);
    EXPECT_TRUE(p.ok() && p->time) << (p.ok() ? p->time_note : p.error().message);
    return p.ok() && p->time ? *p->time : TimePrediction{};
  };
  const TimePrediction three = predict(3), four = predict(4);
  ASSERT_EQ(three.ksteps_in_flight, 3);
  ASSERT_EQ(four.ksteps_in_flight, 4);
  // The same k-step's bytes in flight, per stage; of them, 2 and 3 stages' loading.
  EXPECT_NEAR(three.in_flight_bytes / 3, four.in_flight_bytes / 4, 1e-6);
  EXPECT_NEAR(three.dram_in_flight_bytes / 2, four.dram_in_flight_bytes / 3, 1e-6);
  EXPECT_GT(three.dram_stream_seconds, four.dram_stream_seconds);
  EXPECT_GT(three.seconds, four.seconds);
  EXPECT_NE(three.explanation.find("(2 of its 3 k-steps in flight, the stage of the one before still held)"),
            std::string::npos)
      << three.explanation;
}

// The L2's rate into TMA copies is the median of the TMA probe's rows with every SM copying boxes of 128-byte rows,
// 8 KiB or more (scripts/device-profile.py); a kernel whose tiles come by TMA takes its L2 term at that rate.
TEST(TimeModel, TmaKernelsTakeTheL2AtTheRateTheTmaProbeMeasured) {
  for (const std::string name : {"h100", "h200"}) {
    SCOPED_TRACE(name);
    const nlohmann::json probe = read_json("tests/calibration/tma_rate_" + name + ".json");
    std::vector<double> rates;
    for (const auto& row : probe["shapes"])
      if (row["sms"].get<int>() > 1 && row["row_bytes"].get<int>() == 128 && row["box_bytes"].get<int>() >= 8192 &&
          !row["prefetch"].get<bool>())
        rates.push_back(row["bytes_per_clock_per_sm"].get<double>() * row["clock_mhz"].get<double>() * 1e6 *
                        row["sms"].get<double>());
    ASSERT_GE(rates.size(), 3u);
    std::sort(rates.begin(), rates.end());
    const std::size_t middle = rates.size() / 2;
    const double median = rates.size() % 2 ? rates[middle] : (rates[middle - 1] + rates[middle]) / 2;
    const DeviceProfile d = *find_device(name);
    EXPECT_NEAR(d.timing->l2_tma_bytes_per_second, median, 0.001 * median);
  }
  Synthetic s(264, 16);
  s.l2.a = {std::int64_t{1} << 28, std::int64_t{1} << 27};
  const auto loads = s.predict();
  s.counters.total.tma_copies = 1 << 20;
  const auto copies = s.predict();
  ASSERT_TRUE(loads.ok() && copies.ok());
  EXPECT_EQ(loads->term(TimeTerm::L2).rate, h100().timing->l2_bytes_per_second);
  // With the ring's figures, the rate of the L2's queue (the ring's latency goes into the chain instead); without them,
  // the probe's rate with every SM copying.
  EXPECT_EQ(copies->term(TimeTerm::L2).rate, h100().timing->l2_tma_queue_bytes_per_second);
  DeviceProfile no_ring = h100();
  no_ring.timing->tma_ring_alone_seconds = no_ring.timing->l2_tma_queue_bytes_per_second = 0;
  const auto without_ring = s.predict(RungId::BlockTile2D, no_ring);
  ASSERT_TRUE(without_ring.ok());
  EXPECT_EQ(without_ring->term(TimeTerm::L2).rate, h100().timing->l2_tma_bytes_per_second);
}

// The ring's two figures are tma_rate.cu's ring of `stages` stages of `stage_bytes` (scripts/device-profile.py): its
// time on one SM alone, boxes of a whole stage, and the rate of the queue that makes every SM's ring take the time the
// L2's rate with every SM copying gives, T = alone + N W / R.
TEST(TimeModel, TheShippedTmaRingIsTheProbesRing) {
  for (const std::string name : {"h100", "h200"}) {
    SCOPED_TRACE(name);
    const nlohmann::json probe = read_json("tests/calibration/tma_rate_" + name + ".json");
    const double ring = probe["stages"].get<double>() * probe["stage_bytes"].get<double>(), sms = probe["sms"];
    double alone = 0;
    for (const auto& row : probe["shapes"])
      if (row["sms"].get<int>() == 1 && row["row_bytes"].get<int>() == 128 && !row["prefetch"].get<bool>() &&
          row["box_bytes"] == probe["stage_bytes"] && row["panels"].get<int>() == 1)
        alone = ring / (row["bytes_per_clock_per_sm"].get<double>() * row["clock_mhz"].get<double>() * 1e6);
    ASSERT_GT(alone, 0);
    const DeviceProfile d = *find_device(name);
    const MachineTiming& m = *d.timing;
    EXPECT_NEAR(m.tma_ring_alone_seconds, alone, 0.001 * alone);
    const double every_sm = sms * ring / m.l2_tma_bytes_per_second;
    EXPECT_NEAR(m.l2_tma_queue_bytes_per_second, sms * ring / (every_sm - alone), 0.002 * m.l2_tma_queue_bytes_per_second);
  }
}

// A cluster's barriers cost each wave what tests/calibration/cluster_waves.cu measured (scripts/device-profile.py: the
// slope of the synced kernel's time against waves less the plain kernel's, the median of the probe's cases), and the
// model adds them to each round of a clustered rung's resident blocks, to no other rung.
TEST(TimeModel, AClustersBarriersCostEachRoundWhatTheProbeMeasured) {
  const nlohmann::json probe = read_json("tests/calibration/cluster_waves_h200.json");
  std::map<std::pair<int, std::string>, std::vector<nlohmann::json>> cases;
  for (const auto& row : probe["rows"]) cases[{row["spin_ns"].get<int>(), row["wave_of"]}].push_back(row);
  std::vector<double> slopes;
  for (const auto& [key, rows] : cases) {
    const auto slope = [&](const char* field) {
      double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
      for (const auto& r : rows) {
        const double x = r["waves"], y = r[field];
        n += 1, sx += x, sy += y, sxx += x * x, sxy += x * y;
      }
      return (n * sxy - sx * sy) / (n * sxx - sx * sx);
    };
    slopes.push_back(slope("synced_s") - slope("plain_s"));
  }
  ASSERT_EQ(slopes.size(), 4u);
  std::sort(slopes.begin(), slopes.end());
  const double median = (slopes[1] + slopes[2]) / 2;
  const DeviceProfile h200 = *with_clock(*find_device("h200"), 1770);
  EXPECT_NEAR(h200.timing->cluster_barriers_seconds, median, 0.001 * median);

  DeviceProfile without = h200;
  without.timing->cluster_barriers_seconds = 0;
  const auto predict = [&](RungId rung, const DeviceProfile& d) {
    const auto p = predict_schedule(rung, rung_model(rung).defaults, {4096, 4096, 1024}, {}, d);
    EXPECT_TRUE(p.ok() && p->time) << (p.ok() ? p->time_note : p.error().message);
    return p.ok() && p->time ? *p->time : TimePrediction{};
  };
  const TimePrediction clustered = predict(RungId::TmaWgmmaMulticast, h200);
  const TimePrediction unclustered = predict(RungId::TmaWgmmaMulticast, without);
  ASSERT_EQ(warp_roles(RungId::TmaWgmmaMulticast, rung_model(RungId::TmaWgmmaMulticast).defaults)->cluster, 2);
  // 512 tiles of 128 x 256, one block resident on each of 132 SMs: 4 rounds.
  EXPECT_NEAR(clustered.cluster_barrier_seconds, 4 * median, 0.001 * median);
  EXPECT_NEAR(clustered.fill_seconds - unclustered.fill_seconds, clustered.cluster_barrier_seconds, 1e-12);
  EXPECT_EQ(predict(RungId::TmaWgmmaSpecialized, h200).cluster_barrier_seconds, 0);
}

// A TMA rung's k-step waits at least for its ring: the ring's latency over its stages plus the k-step's bytes queued
// behind every busy SM's. One stage fewer, the same tiles and residency, adds the ring's latency over the difference.
TEST(TimeModel, FewerStagesWaitLongerOnTheTmaRing) {
  const DeviceProfile h200 = *with_clock(*find_device("h200"), 1770);
  const auto predict = [&](const char* knobs) {
    const RungId rung = RungId::TmaWgmmaSpecialized;
    const auto config = *apply_knob_text(rung, rung_model(rung).defaults, knobs);
    const auto p = predict_schedule(rung, config, {4096, 4096, 4096}, {}, h200);
    EXPECT_TRUE(p.ok() && p->time) << (p.ok() ? p->time_note : p.error().message);
    return p.ok() && p->time ? *p->time : TimePrediction{};
  };
  const TimePrediction three = predict("stages=3"), four = predict("stages=4");
  ASSERT_EQ(three.ksteps_in_flight, 3);
  ASSERT_EQ(four.ksteps_in_flight, 4);
  ASSERT_GT(four.ring_kstep_cycles, 0);
  const double alone_cycles = h200.timing->tma_ring_alone_seconds * 1770e6;
  EXPECT_NEAR(three.ring_kstep_cycles - four.ring_kstep_cycles, alone_cycles / 3 - alone_cycles / 4, 1e-6);
  for (const TimePrediction* p : {&three, &four})
    EXPECT_GE(p->exposed_wait_cycles, p->ring_kstep_cycles - p->block_kstep_cycles - 1e-9);
  // Without the ring's figures there is no ring.
  DeviceProfile no_ring = h200;
  no_ring.timing->tma_ring_alone_seconds = no_ring.timing->l2_tma_queue_bytes_per_second = 0;
  const auto plain = predict_schedule(RungId::TmaWgmmaSpecialized, rung_model(RungId::TmaWgmmaSpecialized).defaults,
                                      {4096, 4096, 4096}, {}, no_ring);
  ASSERT_TRUE(plain.ok() && plain->time);
  EXPECT_EQ(plain->time->ring_kstep_cycles, 0);
}

// The stream's two figures are the line through the probe's rows of at most 16 SMs (scripts/device-profile.py):
// the time an SM's bytes in flight take, against those bytes.
TEST(TimeModel, TheShippedDramStreamIsTheLineThroughTheProbesFewSmRows) {
  double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (const auto& [key, c] : dram_probe_cases()) {
    if (std::get<0>(key) > 16) continue;
    const double per_sm = 1 / c.seconds_per_byte / std::get<0>(key);
    const double x = c.in_flight_bytes, y = x / per_sm;
    n += 1, sx += x, sy += y, sxx += x * x, sxy += x * y;
  }
  ASSERT_GE(n, 10);
  const double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx), intercept = (sy - slope * sx) / n;
  const DeviceProfile h200 = *find_device("h200");
  const MachineTiming& m = *h200.timing;
  EXPECT_NEAR(m.dram_stream_latency_seconds, intercept, 0.001 * intercept);
  EXPECT_NEAR(m.dram_stream_bytes_per_second_per_sm, 1 / slope, 0.001 / slope);
  EXPECT_EQ(h100().timing->dram_stream_latency_seconds, 0);
}

// C's stores from the accumulators reach DRAM at the rate the write probe's fragment kernel measured
// (tests/calibration/dram_write.cu), reads at the reads' rate, and the two add: they share DRAM. TMA stores of C write
// whole lines, at the reads' rate, as every write does on a profile without the write rate (the H100's).
TEST(TimeModel, StoresOfCReachDramAtTheRateTheWriteProbeMeasured) {
  const nlohmann::json probe = read_json("tests/calibration/dram_write_h200.json");
  const DeviceProfile h200 = *find_device("h200");
  const MachineTiming& m = *h200.timing;
  EXPECT_EQ(m.dram_write_bytes_per_second, probe["dram_fragment_write_bytes_per_second"].get<double>());
  EXPECT_LT(m.dram_write_bytes_per_second, m.dram_bytes_per_second);
  EXPECT_EQ(h100().timing->dram_write_bytes_per_second, 0);
  Synthetic s(264, 16);
  const double reads = double(std::int64_t{1} << 26), writes = double(std::int64_t{1} << 28);
  s.l2.a = {std::int64_t{1} << 21, 0};  // 64 MiB read, every sector a miss
  s.l2.dram_read_bytes = std::int64_t{1} << 26;
  s.l2.dram_write_bytes = std::int64_t{1} << 28;
  const auto from_registers = s.predict(RungId::BlockTile2D, h200);
  s.counters.total.tma_stores = 1 << 12;
  const auto by_tma = s.predict(RungId::BlockTile2D, h200);
  ASSERT_TRUE(from_registers.ok() && by_tma.ok());
  EXPECT_NEAR(from_registers->term(TimeTerm::Dram).seconds,
              std::hypot(reads / m.dram_bytes_per_second + writes / m.dram_write_bytes_per_second,
                         from_registers->dram_stream_seconds),
              1e-12);
  EXPECT_NEAR(by_tma->term(TimeTerm::Dram).seconds,
              std::hypot((reads + writes) / m.dram_bytes_per_second, by_tma->dram_stream_seconds), 1e-12);
  EXPECT_GT(from_registers->term(TimeTerm::Dram).seconds, by_tma->term(TimeTerm::Dram).seconds);
}

// The threads' own stores count by how whole their lines are: a warp store of whole lines (16-byte lanes, 4 lines of
// 4 sectors) reaches DRAM at the reads' rate, as TMA's stores do; one sector in each of 8 lines (wgmma's accumulator
// layout) at the probe's fragment rate; half of each, half the time at each rate.
TEST(TimeModel, StoresInWholeLinesReachDramAtTheReadsRate) {
  const DeviceProfile h200 = *find_device("h200");
  const MachineTiming& m = *h200.timing;
  const auto dram_seconds = [&](std::int64_t whole_requests, std::int64_t fragment_requests) {
    Synthetic s(264, 16);
    s.l2.dram_write_bytes = std::int64_t{1} << 28;
    OpCounters& whole = s.counters.total.ops[op_class(*parse_op("stg.128"))];
    whole.requests = whole_requests, whole.lines = whole.whole_lines = 4 * whole_requests;
    whole.sectors = 16 * whole_requests;
    OpCounters& fragments = s.counters.total.ops[op_class(*parse_op("stg.64"))];
    fragments.requests = fragment_requests, fragments.lines = 8 * fragment_requests;
    fragments.sectors = 8 * fragment_requests;
    const auto p = s.predict(RungId::BlockTile2D, h200);
    EXPECT_TRUE(p.ok());
    return p ? p->term(TimeTerm::Dram).seconds : 0.0;
  };
  const double writes = double(std::int64_t{1} << 28);
  EXPECT_NEAR(dram_seconds(1 << 20, 0), writes / m.dram_bytes_per_second, 1e-12);
  EXPECT_NEAR(dram_seconds(0, 1 << 21), writes / m.dram_write_bytes_per_second, 1e-12);
  EXPECT_NEAR(dram_seconds(1 << 19, 1 << 20),
              writes / 2 / m.dram_bytes_per_second + writes / 2 / m.dram_write_bytes_per_second, 1e-12);
}

// The one-panel figure is the median, over 48 SMs or more, of the DRAM probe's rate with boxes one 128-byte panel wide
// over its rate with two panels at the same bytes in flight (scripts/device-profile.py). A TMA kernel whose stage of B
// is one panel wide (64 16-bit columns) reads DRAM at that fraction of the bandwidth; a wider one at all of it.
TEST(TimeModel, OnePanelStagesReadDramAtTheFractionTheProbeMeasured) {
  const auto cases = dram_probe_cases();
  std::vector<double> ratios;
  for (const auto& [key, c] : cases) {
    const auto [sms, panels, stages] = key;
    const auto two = cases.find({sms, 2, 2});
    if (panels == 1 && stages == 4 && sms >= 48 && two != cases.end())
      ratios.push_back(two->second.seconds_per_byte / c.seconds_per_byte);
  }
  ASSERT_GE(ratios.size(), 3u);
  std::sort(ratios.begin(), ratios.end());
  const std::size_t middle = ratios.size() / 2;
  const double median = ratios.size() % 2 ? ratios[middle] : (ratios[middle - 1] + ratios[middle]) / 2;
  const DeviceProfile h200 = *find_device("h200");
  const MachineTiming& m = *h200.timing;
  EXPECT_NEAR(m.dram_one_panel_efficiency, median, 0.0005);
  EXPECT_LT(m.dram_one_panel_efficiency, 1);
  EXPECT_EQ(h100().timing->dram_one_panel_efficiency, 0);

  Synthetic s(264, 16);
  s.counters.total.tma_copies = 1 << 20;
  s.l2.a = {std::int64_t{1} << 21, 0};  // 64 MiB read, every sector a miss
  s.l2.dram_read_bytes = std::int64_t{1} << 26;
  const auto predict = [&](int bn) {
    kernel::KernelConfig c = rung_model(RungId::TmaWgmmaSplitK).defaults;
    c.bn = bn;
    return predict_time({RungId::TmaWgmmaSplitK, c, {4096, 4096, 4096}, &s.counters, &s.occupancy, &s.l2}, h200);
  };
  const auto one = predict(64), two = predict(128);
  ASSERT_TRUE(one.ok() && two.ok());
  const double reads = double(std::int64_t{1} << 26);
  EXPECT_NEAR(one->term(TimeTerm::Dram).seconds,
              std::hypot(reads / (m.dram_bytes_per_second * m.dram_one_panel_efficiency), one->dram_stream_seconds),
              1e-12);
  EXPECT_NEAR(two->term(TimeTerm::Dram).seconds, std::hypot(reads / m.dram_bytes_per_second, two->dram_stream_seconds),
              1e-12);
}

TEST(TimeModel, KStepsInFlightHideTheWaitForTiles) {
  Synthetic s(132, 256);
  s.counters.total.fma = std::int64_t{132} * 256 * 65536;  // 2048 FFMA instructions a block's k-step: 512 cycles
  s.l2.a = {1000, 1000};                                        // every read hits in L2
  s.occupancy.blocks_per_sm = 1;
  const auto one = s.predict(RungId::BlockTile2D);  // loads a k-step, then uses it
  const auto three = s.predict(RungId::CpAsync);    // cp.async, 3 stages by default
  ASSERT_TRUE(one.ok() && three.ok());
  EXPECT_EQ(one->ksteps_in_flight, 1);
  EXPECT_EQ(three->ksteps_in_flight, rung_model(RungId::CpAsync).defaults.stages);
  const DeviceProfile d = h100();
  const double hz = d.timing->sustained_clock_mhz_fma * 1e6;
  // The first bytes' latency, then the k-step's bytes (1000 sectors over 132 x 256 k-steps) at the SM's share of the
  // L2's bandwidth.
  const double stream = 1000.0 * 32 / 132 / 256 / (d.timing->l2_bytes_per_second / d.sms / hz);
  const double wait = d.timing->latency_l2_cycles + stream;
  // The block's own k-step: 512 cycles of FFMA, then the barriers its description puts in a k-step (each drains the
  // block).
  EXPECT_EQ(one->barriers_per_kstep, barriers_per_kstep(RungId::BlockTile2D, rung_model(RungId::BlockTile2D).defaults));
  const double issue = double(s.counters.total.fma) / 32 / 132 / 256 / 4;
  const double step_one = issue + one->barriers_per_kstep * d.timing->barrier_cycles;
  const double step_three = issue + three->barriers_per_kstep * d.timing->barrier_cycles;
  EXPECT_GT(one->barriers_per_kstep, 0);
  EXPECT_NEAR(one->term(TimeTerm::Latency).seconds, 256 * (step_one + wait) / hz, 1e-12);
  EXPECT_NEAR(three->term(TimeTerm::Latency).seconds, 256 * step_three / hz, 1e-12);  // 2 k-steps cover the wait
  EXPECT_EQ(one->limit, TimeTerm::Latency);
}

TEST(TimeModel, AKernelWithoutSharedMemoryWaitsWhereItsCompiledLoopWaits) {
  // naive-coalesced's shape: one FFMA a warp and k-step, no shared memory; its compiled loop does 16 k-steps a pass.
  Synthetic s(132, 4096);
  s.counters.shape.smem_bytes = 0;
  s.counters.total.fma = std::int64_t{132} * 8 * 32 * 4096;
  s.l2.a = {1000, 1000};  // every read hits in L2
  s.occupancy.blocks_per_sm = 1;
  CompiledCode code{{CodeRegion{-1, 50, {}}, CodeRegion{0, 118, {}}}};
  code.regions[1].anchors[static_cast<std::size_t>(SassAnchor::Ffma)] = 16;
  const auto predict = [&](int waits) {
    code.regions[1].load_waits = waits;
    return predict_time({RungId::NaiveCoalesced, rung_model(RungId::NaiveCoalesced).defaults, {4096, 4096, 4096},
                         &s.counters, &s.occupancy, &s.l2, &code}, h100());
  };
  const auto four = predict(4), none = predict(0);
  ASSERT_TRUE(four.ok() && none.ok());
  const DeviceProfile d = h100();
  const double hz = d.timing->sustained_clock_mhz_fma * 1e6;
  const double stream = 1000.0 * 32 / 132 / 4096 / (d.timing->l2_bytes_per_second / d.sms / hz);
  const double wait = d.timing->latency_l2_cycles + stream;
  // Four waits a pass of 16 k-steps: each the whole wait, once every 4 k-steps.
  EXPECT_DOUBLE_EQ(four->load_waits_per_kstep, 0.25);
  EXPECT_EQ(four->ksteps_in_flight, 4);
  EXPECT_NEAR(four->exposed_wait_cycles, wait / 4, 1e-9);
  EXPECT_NEAR(four->term(TimeTerm::Latency).seconds, 4096 * (four->block_kstep_cycles + wait / 4) / hz, 1e-12);
  EXPECT_NE(four->explanation.find("issues the loads of about 4 k-steps"), std::string::npos) << four->explanation;
  // A loop that never waits for its loads: the whole pass in flight, as for stages.
  EXPECT_EQ(none->load_waits_per_kstep, 0.0);
  EXPECT_EQ(none->ksteps_in_flight, 16);
  EXPECT_NEAR(none->exposed_wait_cycles, std::max(0.0, wait / 15 - none->block_kstep_cycles), 1e-9);
}

TEST(TimeModel, TheLimitIsWhatSetsThePredictionNotTheLargestSingleTerm) {
  const DeviceProfile d = h100();
  const MachineTiming& m = *d.timing;
  Synthetic s(264, 64);
  s.occupancy.blocks_per_sm = 8;  // the chain stays short
  // Issue and the data pipe 0.9 ms each on the busiest SM; the L2 1.0 ms: the SM's two together (1.27 ms) set the
  // prediction, so the limit named is the SM's largest term, not the L2.
  const double hz = m.sustained_clock_mhz_fma * 1e6;
  s.counters.total.ops[kLds32].instructions = static_cast<std::int64_t>(0.9e-3 * hz * 4 * 132);
  s.counters.total.ops[kLds32].wavefronts =
      static_cast<std::int64_t>(0.9e-3 * hz * 132 * m.shared_wavefronts_per_clock_per_sm * 1.0001);
  s.counters.total.ops[kLds32].ideal_wavefronts = s.counters.total.ops[kLds32].wavefronts;
  s.l2.a = {static_cast<std::int64_t>(1.0e-3 * m.l2_bytes_per_second / 32), std::int64_t{1} << 40};
  s.l2.a.hits = s.l2.a.sectors;
  const auto p = s.predict(RungId::CpAsync);  // its stages in flight hide the wait for each k-step's bytes
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_GT(p->term(TimeTerm::L2).seconds, p->term(TimeTerm::DataPipe).seconds);
  EXPECT_GT(p->sm_seconds, p->term(TimeTerm::L2).seconds);
  EXPECT_EQ(p->limit, TimeTerm::DataPipe);
  EXPECT_NEAR(p->seconds, p->sm_seconds + p->launch_seconds + p->fill_seconds + p->drain_seconds, 1e-15);
  EXPECT_NE(p->explanation.find("data pipe is the limit"), std::string::npos) << p->explanation;
  EXPECT_NE(p->explanation.find("overlap it only in part"), std::string::npos) << p->explanation;
  // No bank conflicts and no scattered loads in these counts: no advice about them.
  EXPECT_EQ(p->explanation.find("bank conflicts"), std::string::npos) << p->explanation;
}

// A persistent wgmma kernel of 512 tiles of 16 k-steps, one block an SM, its tensor cores the limit, on `grid` blocks.
Result<TimePrediction> persistent_wgmma(int grid, const DeviceProfile& device) {
  Synthetic s(512, 16);
  s.occupancy.blocks_per_sm = 1;
  s.counters.total.wgmma = 512 * 16 * 8;
  s.counters.total.wgmma_multiply_adds = s.counters.total.wgmma * 64 * 256 * 16;
  kernel::KernelConfig c = rung_model(RungId::TmaWgmmaPersistent).defaults;
  c.grid = grid;
  return predict_time({RungId::TmaWgmmaPersistent, c, {4096, 4096, 4096}, &s.counters, &s.occupancy, &s.l2}, device);
}

TEST(TimeModel, APersistentRungsBusiestSmComputesItsBlocksTiles) {
  const auto predict = [](int grid) { return persistent_wgmma(grid, h100()); };
  const auto one_per_tile = predict(0), grid_132 = predict(132), grid_66 = predict(66);
  ASSERT_TRUE(one_per_tile.ok() && grid_132.ok() && grid_66.ok());
  EXPECT_EQ(one_per_tile->tiles_on_busiest_sm, 4);  // ceil(512 / 132)
  EXPECT_EQ(grid_132->tiles_on_busiest_sm, 4);      // 1 block of ceil(512 / 132) tiles
  EXPECT_EQ(grid_66->tiles_on_busiest_sm, 8);       // 66 blocks on 66 SMs, 8 tiles each
  // Twice the tiles on the busiest SM: twice its tensor cores' cycles (half the SMs busy hold a higher clock).
  EXPECT_NEAR(grid_66->term(TimeTerm::TensorCores).seconds * grid_66->clock_mhz,
              2 * grid_132->term(TimeTerm::TensorCores).seconds * grid_132->clock_mhz, 1e-9);
  EXPECT_GT(grid_66->clock_mhz, grid_132->clock_mhz);
  EXPECT_EQ(grid_132->clock_mhz, h100().timing->sustained_clock_mhz_tensor);  // every SM busy: the full-load clock
  // One fill per persistent block: its ring of stages runs on from tile to tile.
  EXPECT_LT(grid_132->fill_seconds, one_per_tile->fill_seconds);
}

// On a profile with the clock's line (the H200's), a wgmma kernel's clock is the line's at the share of its predicted
// time the SMs' tensor cores work, on average: a prefill GEMM that keeps them busy runs slower than one of a single
// k-step, whose time its stores of C take. The mma.sync rungs and a given clock keep theirs.
TEST(TimeModel, AWgmmaKernelsClockFollowsItsTensorCoresLoad) {
  const DeviceProfile h200 = *find_device("h200");
  const MachineTiming& m = *h200.timing;
  ASSERT_GT(m.wgmma_clock_mhz_pipe_idle, m.wgmma_clock_mhz_pipe_busy);
  const auto predict = [&](RungId rung, Problem problem, const DeviceProfile& d) {
    const auto p = predict_schedule(rung, rung_model(rung).defaults, problem, {}, d);
    EXPECT_TRUE(p.ok() && p->time) << (p.ok() ? p->time_note : p.error().message);
    return p.ok() && p->time ? *p->time : TimePrediction{};
  };
  const TimePrediction prefill = predict(RungId::TmaWgmmaSpecialized, {4096, 6144, 4096}, h200);
  const TimePrediction short_k = predict(RungId::TmaWgmmaSpecialized, {4096, 4096, 64}, h200);
  for (const TimePrediction* p : {&prefill, &short_k}) {
    EXPECT_TRUE(p->clock_follows_tensor_load);
    // The average SM works no longer than the busiest.
    EXPECT_LE(p->tensor_busy_share, p->term(TimeTerm::TensorCores).seconds / p->seconds + 1e-12);
    EXPECT_NEAR(p->clock_mhz, wgmma_clock_mhz(m, p->tensor_busy_share), 1.0);  // solved together, to a MHz
    EXPECT_NE(p->explanation.find("% of the time, on average.)"), std::string::npos) << p->explanation;
  }
  EXPECT_GT(prefill.tensor_busy_share, 0.5);
  EXPECT_LT(short_k.tensor_busy_share, 0.2);
  EXPECT_LT(prefill.clock_mhz, short_k.clock_mhz);
  EXPECT_EQ(wgmma_clock_mhz(m, 0), m.wgmma_clock_mhz_pipe_idle);
  EXPECT_EQ(wgmma_clock_mhz(m, 2), m.wgmma_clock_mhz_pipe_busy);  // a share is at most 1
  // mma.sync: the sustained tensor-core clock, as before the line.
  const TimePrediction mma = predict(RungId::MmaStagedEpilogue, {4096, 4096, 4096}, h200);
  EXPECT_FALSE(mma.clock_follows_tensor_load);
  EXPECT_EQ(mma.clock_mhz, m.sustained_clock_mhz_tensor);
  // A clock given for the prediction is kept.
  const TimePrediction given = predict(RungId::TmaWgmmaSpecialized, {4096, 6144, 4096}, *with_clock(h200, 1500));
  EXPECT_FALSE(given.clock_follows_tensor_load);
  EXPECT_EQ(given.clock_mhz, 1500);
}

// Idle SMs' tensor cores do nothing, so the line counts them through the average share: a persistent grid on half the
// SMs, each walking twice the tiles, keeps the average SM about half as busy, and runs at the line's clock for that,
// with no step towards the boost clock on top (the line's probes had idle SMs too).
TEST(TimeModel, IdleSmsLowerTheAverageTensorLoadNotTheLinesClock) {
  const DeviceProfile h200 = *find_device("h200");
  const auto every_sm = persistent_wgmma(132, h200), half = persistent_wgmma(66, h200);
  ASSERT_TRUE(every_sm.ok() && half.ok());
  ASSERT_TRUE(every_sm->clock_follows_tensor_load && half->clock_follows_tensor_load);
  // About half: a little more, since the launch and the fill weigh more in the shorter kernel's time.
  EXPECT_GT(half->tensor_busy_share / every_sm->tensor_busy_share, 0.45);
  EXPECT_LT(half->tensor_busy_share / every_sm->tensor_busy_share, 0.65);
  EXPECT_NEAR(half->clock_mhz, wgmma_clock_mhz(*h200.timing, half->tensor_busy_share), 1.0);
  EXPECT_GT(half->clock_mhz, every_sm->clock_mhz);
}

TEST(TimeModel, KStepsInFlightComeFromTheRungsDescription) {
  EXPECT_EQ(ksteps_in_flight(RungId::NaiveCoalesced, rung_model(RungId::NaiveCoalesced).defaults), 1);
  EXPECT_EQ(ksteps_in_flight(RungId::DoubleBuffer, rung_model(RungId::DoubleBuffer).defaults), 2);
  kernel::KernelConfig c = rung_model(RungId::WarpTile).defaults;
  c.stages = 4;
  EXPECT_EQ(ksteps_in_flight(RungId::WarpTile, c), 4);
}

}  // namespace
}  // namespace gemmlab::sim
