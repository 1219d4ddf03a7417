#include "gemmlab/sim/time_model.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <initializer_list>
#include <queue>
#include <vector>

#include "gemmlab/kernel/stream_k.hpp"
#include "gemmlab/sim/rung_model.hpp"
#include "wording.hpp"

namespace gemmlab::sim {
namespace {

using wording::amount;
using wording::duration;
using wording::format;

// While a k-step waits for its stage, the stage the k-step before read is still held: its wgmma group (or the barrier
// after it) lets it go only once this stage has come. So of a block's k-steps in flight all but that one are loading,
// and they cover the wait (the k-step chain's divisor, the DRAM stream's bytes); with one k-step in flight nothing is
// held, and that one loads.
int ksteps_loading(int ksteps_in_flight) { return std::max(1, ksteps_in_flight - 1); }

// The explanation's words for them: "2 of its 3 k-steps in flight, the stage of the one before still held".
std::string loading_ksteps_text(int ksteps_in_flight) {
  if (ksteps_in_flight <= 1) return "its one k-step in flight";
  return std::to_string(ksteps_loading(ksteps_in_flight)) + " of its " + std::to_string(ksteps_in_flight) +
         " k-steps in flight, the stage of the one before still held";
}

// What the counters say could be better: advice is given only where it applies.
struct Hints {
  bool bank_conflicts = false;  // shared accesses take more wavefronts than their bytes need
  bool scattered = false;       // global accesses touch more sectors than their bytes need
  bool dram_rereads = false;    // DRAM reads more than half again the bytes A and B hold
};

// Where the issue term's count comes from, for the explanation.
std::string issue_origin(const TimePrediction& p) {
  const TermTime& issue = p.term(TimeTerm::Issue);
  const double own = p.kernel_instructions > 0 ? issue.work * p.kernel_description_instructions / p.kernel_instructions : 0;
  const std::string of_description = amount(own) + " of them the description's own";
  switch (p.issue_source) {
    case TimePrediction::IssueSource::Sass:
      return " (counted in the compiled SASS, address arithmetic and loop control included; " + of_description + ")";
    case TimePrediction::IssueSource::NeighbourSass:
      return " (estimated from the SASS of the nearest compiled configuration; " + of_description + ")";
    case TimePrediction::IssueSource::Description:
      return " (the description's instructions only: this build recorded no SASS of the kernel)";
  }
  return "";
}

std::string explain(const TimePrediction& p, const MachineTiming& m, const Hints& hints) {
  const TermTime& top = p.term(p.limit);
  const std::string per_sm = " per clock per SM take " + duration(top.seconds);
  const std::string work = amount(top.work) + " " + std::string(unit_of(top.term));
  std::string s;
  switch (p.limit) {
    case TimeTerm::Issue:
      s = "Instruction issue is the limit: the busiest SM's " + work + " at " + format("%.0f", top.rate) + per_sm +
          issue_origin(p) + ".";
      break;
    case TimeTerm::DataPipe:
      s = "The L1/shared-memory data pipe is the limit: the busiest SM's " + work +
          " (shared-memory wavefronts, and global accesses' wavefronts: a line each, or 128 bytes a load delivers) at " +
          format("%.2g", top.rate) +
          per_sm + (hints.bank_conflicts && hints.scattered ? "; fewer bank conflicts and coalesced accesses would help."
                    : hints.bank_conflicts                   ? "; fewer bank conflicts would help."
                    : hints.scattered                        ? "; coalesced accesses would help."
                                                             : "; more reuse of each loaded value in registers would "
                                                               "help.");
      break;
    case TimeTerm::TensorCores:
      s = "The tensor cores are the limit: " + work + " at " + format("%.0f", top.rate) + per_sm + ".";
      break;
    case TimeTerm::L2:
      s = "The L2's traffic with the SMs is the limit: the SMs together read " +
          format("%.2f", (top.work - p.l2_store_bytes) / 1e9) + " GB from it and store " +
          format("%.2f", p.l2_store_bytes / 1e9) + " GB through it (C, and any partial sums) at " +
          format("%.2f", top.rate / 1e12) + " TB/s, which takes " + duration(top.seconds) +
          "; larger tiles (more reuse of each byte in shared memory) would cut the reads.";
      break;
    case TimeTerm::Copies: {
      // Which of the copies are not the SM's own loads: stores of C, a cluster partner's multicast copies.
      std::string whose = p.copy_stores > 0 ? amount(p.copy_stores) + " of them stores of C" : std::string();
      if (p.copy_partner > 0)
        whose += (whose.empty() ? "" : "; ") + amount(p.copy_partner) +
                 " of them a cluster partner's multicast copies, counted as the SM's own: measured, a cluster's waits "
                 "for each other cost about what sharing them saves";
      s = "The TMA copies are the limit: one thread of each block issues them, and the busiest SM's " + work +
          (whose.empty() ? std::string() : " (" + whose + ")") + " of " + format("%.0f", p.copy_bytes_per_copy) + " bytes on average, each " + format("%.0f", m.tma_cycles_per_copy) +
          " cycles plus its bytes at " + format("%.0f", m.tma_bytes_per_clock_per_sm) +
          " bytes a cycle (at least a cycle a row of its box), take " + duration(top.seconds) +
          "; fewer, larger copies (a wider swizzle mode, wider boxes) would help.";
      break;
    }
    case TimeTerm::Dram: {
      const double bandwidth_seconds = top.work / top.rate;
      s = "DRAM is the limit: " + format("%.2f", top.work / 1e9) + " GB at " + format("%.2f", top.rate / 1e12) +
          " TB/s take " + duration(bandwidth_seconds);
      // Where what each SM keeps in flight, not the bandwidth, holds the stream back.
      if (p.dram_stream_seconds > 0.5 * bandwidth_seconds)
        s += ", and each SM has only " + format("%.0f", p.dram_in_flight_bytes / 1024) +
             " KiB of DRAM's bytes loading while a k-step waits (" + loading_ksteps_text(p.ksteps_in_flight) +
             "), which its latency brings in at " + format("%.0f", p.dram_stream_bytes_per_second / 1e9) +
             " GB/s: the busiest SM's share takes " + duration(p.dram_stream_seconds) + ", together " +
             duration(top.seconds) + "; more stages in flight, or more SMs streaming (split-K), would help.";
      else
        s += (top.seconds > 1.02 * bandwidth_seconds
                  ? ", " + duration(top.seconds) + " with what each SM keeps in flight streaming in"
                  : std::string()) +
             (hints.dram_rereads ? "; a grouped launch order (better L2 reuse) would help." : ".");
      break;
    }
    case TimeTerm::Latency:
      if (p.load_waits_per_kstep > 0)
        s = "Latency is the limit (the blocks' chain of k-steps): the compiled loop issues the loads of about " +
            std::to_string(p.ksteps_in_flight) + " k-step" + (p.ksteps_in_flight == 1 ? "" : "s") +
            ", then waits for them where its math needs them, each time about " + format("%.0f", top.rate) +
            " cycles for its tiles from L2 (" + format("%.0f", m.latency_l2_cycles) + " for a hit, " +
            format("%.0f", m.latency_dram_cycles) + " from DRAM, then its bytes streaming in): " +
            format("%.0f", p.exposed_wait_cycles) + " cycles a k-step, and " + amount(top.work) +
            " k-steps on the busiest SM take " + duration(top.seconds) +
            "; tiles staged in shared memory, loaded a k-step or more ahead, would hide it.";
      else if (p.ring_kstep_cycles > 0 && p.exposed_wait_cycles > 0 &&
               p.ring_kstep_cycles - p.block_kstep_cycles >= p.exposed_wait_cycles)
        s = "Latency is the limit (the blocks' chain of k-steps): each k-step's copies take about " +
            format("%.0f", p.ring_kstep_cycles) + " cycles through the ring of " + std::to_string(p.ksteps_in_flight) +
            " stages, the ring's latency over its stages and the k-step's bytes queued at the L2 behind every busy SM's, " +
            format("%.0f", p.exposed_wait_cycles) + " of them beyond the block's own " + format("%.0f", p.block_kstep_cycles) +
            ", and " + amount(top.work) + " k-steps on the busiest SM take " + duration(top.seconds) +
            "; more stages in flight would hide the ring's latency, and bigger tiles (fewer bytes a multiply-add) shorten the queue.";
      else if (p.exposed_wait_cycles > 0)
        s = "Latency is the limit (the blocks' chain of k-steps): each k-step waits about " + format("%.0f", top.rate) +
            " cycles for its tiles from L2 (" + format("%.0f", m.latency_l2_cycles) + " for a hit, " +
            format("%.0f", m.latency_dram_cycles) + " from DRAM, then its bytes streaming in), " + format("%.0f", p.exposed_wait_cycles) +
            " of them not hidden by the " + std::to_string(p.ksteps_in_flight) + " k-step" +
            (p.ksteps_in_flight == 1 ? "" : "s") + " in flight, and " + amount(top.work) +
            " k-steps on the busiest SM take " + duration(top.seconds) +
            "; more stages in flight or more resident blocks would hide it.";
      else
        s = "The blocks' own k-steps are the limit: each takes " + format("%.0f", p.block_kstep_cycles) +
            " cycles (its resources combined" +
            (p.barriers_per_kstep == 0 ? std::string()
                                       : ", then " + std::to_string(p.barriers_per_kstep) + " barrier" +
                                             (p.barriers_per_kstep == 1 ? "" : "s") + ", each draining its warps") +
            "), too few blocks share an SM to fill the gaps, and " + amount(top.work) + " k-steps on the busiest SM take " + duration(top.seconds) +
            "; the wait for tiles is hidden by the " + std::to_string(p.ksteps_in_flight) + " k-steps in flight.";
      break;
  }
  // Sectors sent twice to padded copies (Rule G5) weigh on the L2 term and on the chain's wait for a k-step's bytes:
  // said whatever the limit, once they are a noticeable share of the L2's bytes.
  constexpr double kNoticeableShare = 0.05;
  const TermTime& l2 = p.term(TimeTerm::L2);
  if (p.l2_split_bytes > kNoticeableShare * l2.work)
    s += " Of the " + format("%.2f", l2.work / 1e9) + " GB the L2 delivers, " + format("%.2f", p.l2_split_bytes / 1e9) +
         " GB are sectors it sends a second time, to cp.async copies whose shared rows sit at another offset than their "
         "global ones (padding; a swizzled layout would not need them).";
  const bool sm_wins = p.limit == TimeTerm::Issue || p.limit == TimeTerm::DataPipe || p.limit == TimeTerm::TensorCores ||
                       p.limit == TimeTerm::Copies;
  if (sm_wins && p.sm_seconds > top.seconds * 1.02)
    s += " The SM's other terms overlap it only in part: together they take " + duration(p.sm_seconds) + ".";
  if ((sm_wins || p.limit == TimeTerm::Dram) && p.sm_and_dram_seconds > std::max(p.sm_seconds, p.term(TimeTerm::Dram).seconds) * 1.02)
    s += std::string(p.limit == TimeTerm::Dram ? " The SM's work overlaps it" : " DRAM's traffic overlaps the SM's work") +
         " only in part (the SM waits for the stages DRAM fills): together " +
         duration(p.sm_and_dram_seconds) + ".";
  // The costs on top of the terms, as every sentence below names them.
  const std::string launch_and_fill =
      "the launch (" + duration(p.launch_seconds) + "), filling the pipeline (" + duration(p.fill_seconds) +
      (p.cluster_barrier_seconds > 0 ? ", " + duration(p.cluster_barrier_seconds) + " of it the clusters' barriers" : "") +
      ")";
  if (p.stores_after_limit)
    s += std::string(p.tile_switches ? " Each persistent block passes " + duration(m.tile_switch_seconds) +
                                           " between one tile's k-steps and the next one's that nothing on its SM "
                                           "overlaps (the last group's wait, the stores or the consumers' turn, the "
                                           "next tile's start): the "
                     : p.split_seconds > 0
                         ? " Each block stores every piece of a tile it computes into C (or adds it there in its "
                           "turn) after the piece's last k-step, and its SM has nothing else to do meanwhile: the "
                         : " Each block stores its tile of C after its last k-step, and its SM has nothing else to do "
                           "meanwhile: the ") +
         "busiest SM's k-steps (" + duration(p.stores_after_ksteps_seconds) + "), then " +
         std::string(p.after_ksteps) + " (" + duration(p.tile_stores_seconds) + "), with " + launch_and_fill +
         (p.split_seconds > 0 ? " and the turns' waits at C (" + duration(p.stores_after_turn_waits_seconds) + ")"
                              : "") +
         " take longer than the terms above, so that path sets the time: the model predicts " + duration(p.seconds) +
         ".";
  else if (p.split_seconds > 0)
    s += " With " + launch_and_fill + " and " + std::string(p.split_wording) + " (" + duration(p.split_seconds) + "), the model predicts " +
         duration(p.seconds) + ".";
  else if (p.launch_seconds + p.fill_seconds + p.drain_seconds > 0.02 * p.seconds)
    s += " With " + launch_and_fill + " and the last epilogues' stores (" + duration(p.drain_seconds) + "), the model predicts " +
         duration(p.seconds) + ".";
  if (p.stores_after_limit && !s.empty())  // the terms' limit first, then the path that sets the time
    s = "Of the terms alone: " + s;
  return s + " (At the " + format("%.0f", p.clock_mhz) +
         (m.clock_given ? " MHz given for this prediction.)"
          : p.clock_follows_tensor_load
              ? " MHz the card holds with its SMs' tensor cores busy " + format("%.0f", 100 * p.tensor_busy_share) +
                    "% of the time, on average.)"
              : " MHz the card holds under this load.)");
}

// Times that overlap only in part: their p-norm (the SM's own terms: kOverlapNorm).
double overlap_norm(std::initializer_list<double> times, double p = kOverlapNorm) {
  double norm = 0;
  for (const double t : times) norm += std::pow(t, p);
  return std::pow(norm, 1.0 / p);
}

// The SM's own terms together. Issue, data pipe and tensor cores share the warps that multiply: their p-norm. The TMA
// copies too where those warps issue them (rung 17: a consumer thread between its wgmma); where a producer warp of its
// own issues them (the warp-specialised rungs), they run beside the consumers' work, and the SM takes the longer of the
// two (docs/time-model.md, "A producer's copies").
double sm_terms(double issue, double data_pipe, double tensor, double copies, bool producer_warp) {
  return producer_warp ? std::max(copies, overlap_norm({issue, data_pipe, tensor}))
                       : overlap_norm({issue, data_pipe, tensor, copies});
}

// TMA copies issued by one thread, in SM cycles (tests/calibration/tma_rate.cu): a fixed cost per copy, then its bytes
// at the measured rate; a box of many narrow rows takes at least a cycle a row, so each such box adds what its rows
// take beyond its own cost on that line.
double copies_cycles(double copies, double bytes, const std::vector<TmaBoxShape>& boxes, const MachineTiming& m) {
  const auto bytes_cycles = [&](double b) {
    return m.tma_bytes_per_clock_per_sm > 0 ? b / m.tma_bytes_per_clock_per_sm : 0;
  };
  double cycles = copies * m.tma_cycles_per_copy + bytes_cycles(bytes);
  for (const TmaBoxShape& box : boxes)
    cycles += double(box.copies) * std::max(0.0, box.rows - (m.tma_cycles_per_copy + bytes_cycles(box.bytes)));
  return cycles;
}

// The rate the L2 delivers a kernel's bytes at. It delivers to TMA copies faster than to loads, and on some cards much
// faster (tests/calibration/tma_rate.cu with every SM copying): a kernel whose tiles come by TMA takes that rate where
// the profile measured it, and where the profile has the ring's figures, its queue's rate: the L2 serves TMA copies
// that fast when the SMs keep enough in flight, which the chain then counts (the ring, in predict_at).
double l2_delivery_rate(bool by_tma, const MachineTiming& m) {
  if (!by_tma) return m.l2_bytes_per_second;
  if (m.l2_tma_queue_bytes_per_second > 0) return m.l2_tma_queue_bytes_per_second;
  if (m.l2_tma_bytes_per_second > 0) return m.l2_tma_bytes_per_second;
  return m.l2_bytes_per_second;
}

// The share of C's stores that write whole 128-byte lines, by sectors. A line whose four sectors one request writes
// reaches DRAM at the reads' rate (tests/calibration/dram_write.cu's coalesced stores); a sector of a line written
// alone (wgmma's accumulator layout: a warp store writes a sector in each of 8 lines, the probe's fragment kernel) at
// the measured write rate. TMA stores write whole lines.
double whole_line_store_share(const Counters& counted) {
  const OpCounters stores = counted.global_stores();
  const double store_sectors = double(stores.sectors), tma_sectors = double(counted.tma_store_sectors);
  if (store_sectors + tma_sectors == 0) return counted.tma_stores > 0 ? 1.0 : 0.0;
  constexpr double kSectorsPerLine = 128 / kL2SectorBytes;
  return (kSectorsPerLine * double(stores.whole_lines) + tma_sectors) / (store_sectors + tma_sectors);
}

}  // namespace

double split_turns_seconds(int tiles, int splits, int slots, double range_seconds, double turn_seconds) {
  if (tiles <= 0 || splits <= 0 || slots <= 0) return 0.0;
  std::priority_queue<double, std::vector<double>, std::greater<>> free_at;  // when each slot is next free
  for (int slot = 0; slot < slots; ++slot) free_at.push(0.0);
  double last_turn_end = 0;
  for (int tile = 0; tile < tiles; ++tile) {
    double turn_end = 0;  // of the tile's range before
    for (int range = 0; range < splits; ++range) {
      const double ksteps_done = free_at.top() + range_seconds;
      free_at.pop();
      turn_end = range == 0 ? ksteps_done : std::max(ksteps_done, turn_end) + turn_seconds;
      free_at.push(turn_end);
      last_turn_end = std::max(last_turn_end, turn_end);
    }
  }
  const double rounds = std::ceil(double(tiles) * splits / slots);
  return std::max(0.0, last_turn_end - rounds * range_seconds);
}

double dram_overlap_norm(int ksteps_in_flight) {
  return std::min(kDramOverlapBase + kDramOverlapPerKstep * (ksteps_in_flight - 1), kDramOverlapMax);
}

std::string_view to_string(TimeTerm term) {
  switch (term) {
    case TimeTerm::Issue: return "instruction issue";
    case TimeTerm::DataPipe: return "L1/shared data pipe";
    case TimeTerm::TensorCores: return "tensor cores";
    case TimeTerm::L2: return "L2";
    case TimeTerm::Dram: return "DRAM";
    case TimeTerm::Latency: return "k-step chain";
    case TimeTerm::Copies: return "TMA copies";
  }
  return "?";
}

std::string_view unit_of(TimeTerm term) {
  switch (term) {
    case TimeTerm::Issue: return "warp instructions";
    case TimeTerm::DataPipe: return "wavefronts";
    case TimeTerm::TensorCores: return "multiply-adds";
    case TimeTerm::L2: return "bytes";
    case TimeTerm::Dram: return "bytes";
    case TimeTerm::Latency: return "k-steps";
    case TimeTerm::Copies: return "TMA copies";
  }
  return "";
}

namespace {

// The prediction at a wgmma kernel's clock from the profile's line (0: the profile's sustained clock).
Result<TimePrediction> predict_at(const TimeModelInput& in, const DeviceProfile& d, double line_mhz) {
  if (!d.timing)
    return Error{"the " + d.name + " profile has no measured timing (\"timing\", measured by "
                 "tests/calibration/timing.cu): the roofline is all the simulator can say for it"};
  if (in.counters == nullptr || in.occupancy == nullptr || in.l2 == nullptr)
    return Error{"the time model needs the kernel's counters, its occupancy and its L2 traffic"};
  const MachineTiming& timing = *d.timing;
  const LaunchShape& shape = in.counters->shape;
  const Counters& counted = in.counters->total;
  if (shape.blocks < 1 || shape.ksteps < 1 || in.occupancy->blocks_per_sm < 1)
    return Error{"the time model needs at least one block, one k-step and one resident block per SM"};

  // Work of the whole kernel, by resource.
  // The data pipe's work: shared wavefronts and global accesses' wavefronts (a line each, or 128 bytes a load
  // delivers: Rule G6), each at its measured rate, in cycles.
  double memory_instructions = 0, wavefronts = 0, data_pipe_cycles = 0;
  for (const OpCounters& op : counted.ops) {
    memory_instructions += double(op.instructions);
    wavefronts += double(op.wavefronts + op.global_wavefronts);
    data_pipe_cycles += double(op.wavefronts) / timing.shared_wavefronts_per_clock_per_sm +
                        double(op.global_wavefronts) / timing.global_lines_per_clock_per_sm;
  }
  // A wgmma is issued by each of its warpgroup's 4 warps; a TMA copy by one thread.
  const double description_instructions =
      double(counted.fma) / 32 + double(counted.mma) + 4.0 * double(counted.wgmma) + double(counted.tma_copies) +
      memory_instructions;
  // What the warps really issue: the SASS's count, with the compiler's address arithmetic and loop control, where the
  // build recorded the kernel's code.
  double instructions = description_instructions;
  TimePrediction::IssueSource issue_source = TimePrediction::IssueSource::Description;
  MainLoop loop;  // the compiled main loop: its k-steps a pass and its waits for global loads
  if (in.code != nullptr) {
    const double warps = double(shape.blocks) * shape.warps_per_block;
    const AnchorCounts per_warp = description_anchors_per_warp(counted, warps);
    const auto sass = dynamic_instructions(*in.code, per_warp);
    if (!sass) return Error{"the compiled code of this kernel: " + sass.error().message};
    instructions = sass->per_warp * warps;
    issue_source = in.code->estimated ? TimePrediction::IssueSource::NeighbourSass : TimePrediction::IssueSource::Sass;
    loop = main_loop(*in.code, per_warp, shape.ksteps);
  }
  const double wgmma_per_clock = timing.wgmma_multiply_adds_per_clock_per_sm;
  const double tensor_macs = double(counted.tensor_multiply_adds());
  const double tensor_cycles =
      double(counted.mma) * double(kMmaMultiplyAdds) / timing.mma_sync_multiply_adds_per_clock_per_sm +
      (counted.wgmma_multiply_adds > 0 ? double(counted.wgmma_multiply_adds) / wgmma_per_clock : 0.0);
  const SectorReads l2_reads = in.l2->reads();
  // What the L2 delivers into the SMs: its reads, plus the sectors it sends twice to cp.async copies whose shared rows
  // sit at another offset than their source (Rule G5: a padded row), or more where a multicast copy lands in several
  // SMs.
  const double split_sectors = double(counted.global_loads().split_sectors);
  const double l2_bytes =
      std::max((double(l2_reads.sectors) + split_sectors) * kL2SectorBytes, double(counted.tma_bytes));
  // C's stores go through the L2 as well, from the threads or by TMA: the L2's term counts their bytes beside the
  // reads. Not a k-step's wait, nor its bytes in flight: a tile's stores leave after its k-steps. At short K, where a
  // tile's FP32 stores are a large share of what its few k-steps read, leaving them out predicted the persistent rungs
  // too fast (docs/time-model-data/l2-stores-2026-12-01.txt).
  const double l2_store_bytes =
      double(counted.global_stores().sectors + counted.tma_store_sectors) * kL2SectorBytes;
  // The TMA copies of the busiest SM, and their bytes (what the copies read inside the matrices): those its blocks issue,
  // and a cluster partner's multicast copies that land in them, counted as its own. What a cluster saves in issuing, its
  // blocks pay in waiting for each other (a stage is full when both producers' copies land, free when both blocks'
  // consumers are done), which the model does not count apart: measured, multicast was no faster than each block
  // copying its own B (docs/time-model.md, "Multicast copies"). TMA stores of C go through the same engine, with the
  // bytes they write.
  const double copies = double(counted.tma_copies + counted.tma_partner_copies + counted.tma_stores);
  const double copy_bytes =
      double(counted.tma_sectors + counted.tma_partner_sectors + counted.tma_store_sectors) * kL2SectorBytes;
  const double copy_cycles = copies_cycles(copies, copy_bytes, counted.tma_boxes, timing);
  const double dram_bytes = double(in.l2->dram_read_bytes + in.l2->dram_write_bytes);
  const double l2_rate = l2_delivery_rate(counted.tma_copies > 0, timing);

  // The busiest SM: ceil(blocks / SMs) blocks, or for a persistent rung (KernelConfig::grid) ceil(grid / SMs) blocks
  // that each compute ceil(tiles / grid) tiles, or under Stream-K (rung 23) the longest share of the k-steps. Its share
  // of every count is its tiles over all of them (the counters count a persistent block's tiles as blocks, and a
  // Stream-K block's segments).
  TimePrediction p;
  const int tiles = shape.blocks;
  const bool stream_k = walks_stream_k(in.rung);
  const int launched = stream_k ? in.config.grid : in.config.grid > 0 ? std::min(in.config.grid, tiles) : tiles;
  const int blocks_per_sm_launched = (launched + d.sms - 1) / d.sms;
  const kernel::StreamKPlan& plan = shape.plan;  // the simulator's: Stream-K's walk (persistent rungs only)
  p.tiles_on_busiest_sm = blocks_per_sm_launched * (stream_k ? plan.busiest_tiles() : (tiles + launched - 1) / launched);
  const double share = p.tiles_on_busiest_sm / tiles;
  p.issue_source = issue_source;
  p.kernel_instructions = instructions;
  p.kernel_description_instructions = description_instructions;
  // The clock the card holds: with every SM busy, the sustained clock measured under a full load (the power limit
  // holds it below the boost clock on the tensor cores); with fewer SMs busy the card draws less and holds more, up to
  // the boost clock, in proportion to the SMs left idle. A wgmma kernel on a profile with the clock's line takes the
  // line's clock at its tensor cores' load instead (predict_time), which counts the idle SMs already: their tensor
  // cores do nothing. A clock given for the prediction is kept as given.
  p.clock_follows_tensor_load = line_mhz > 0;
  const double full_load_mhz = tensor_macs > 0 ? timing.sustained_clock_mhz_tensor : timing.sustained_clock_mhz_fma;
  const double idle_share = 1.0 - double(std::min(launched, d.sms)) / d.sms;
  p.clock_mhz = timing.clock_given            ? full_load_mhz
                : p.clock_follows_tensor_load ? line_mhz
                                              : full_load_mhz + std::max(0.0, d.boost_clock_mhz - full_load_mhz) * idle_share;
  const double hz = p.clock_mhz * 1e6;

  // Latency: a block's k-step waits for its tiles from L2 (from DRAM for the misses), less what the k-steps already
  // in flight cover (below); the other resident blocks fill the wait.
  const double blocks = shape.blocks, ksteps = shape.ksteps;
  const double schedulers = std::min<double>(d.warp_schedulers_per_sm, shape.warps_per_block);
  // A block's own k-step: its issue, data pipe, tensor cores and copies combined as the SM's are (sm_terms: in part, or
  // a producer warp's copies beside the rest), then its barriers, each draining its warps (the other resident blocks
  // fill those bubbles, so they count here and not in the SM's terms). Taking only the busiest of them made a lone
  // block per SM (small grids) look faster than it runs (docs/time-model.md, "Small problems").
  p.barriers_per_kstep = barriers_per_kstep(in.rung, in.config);
  const std::optional<WarpRoles> roles = warp_roles(in.rung, in.config);
  const bool producer_warp = roles.has_value();
  const double block_step_cycles =
      sm_terms(instructions / blocks / ksteps / schedulers, data_pipe_cycles / blocks / ksteps,
               tensor_cycles / blocks / ksteps, copy_cycles / blocks / ksteps, producer_warp) +
      p.barriers_per_kstep * timing.barrier_cycles;
  const double miss = l2_reads.sectors > 0 ? 1.0 - l2_reads.hit_rate() : 0.0;
  // The wait for a k-step's tiles: the latency of the first sector, then the rest streaming in at one SM's share of
  // what the L2 delivers when every SM reads (the probe of loads', also for TMA kernels: their faster rate, the L2
  // term's, here made the LLM sweep's predictions worse, docs/time-model.md; a small grid's SMs may get more, which
  // the model does not credit), shared by the SM's resident blocks. A 112 KiB stage of TMA copies takes longer to
  // arrive than its first bytes.
  // Blocks that wait together: as many as fit, but no more than the SM gets (a small grid leaves one per SM).
  const double resident = std::min(in.occupancy->blocks_per_sm, blocks_per_sm_launched);
  const double stream_cycles = l2_bytes / blocks / ksteps * resident / (timing.l2_bytes_per_second / d.sms / hz);
  // A TMA kernel's misses wait as long as the DRAM probe's TMA stages took to start arriving (its line's intercept,
  // tests/calibration/tma_dram.cu), where the profile measured it; a load's, the pointer chase's latency.
  const double dram_latency_cycles = counted.tma_copies > 0 && timing.dram_stream_latency_seconds > 0
                                         ? timing.dram_stream_latency_seconds * hz
                                         : timing.latency_dram_cycles;
  const double wait = timing.latency_l2_cycles + miss * (dram_latency_cycles - timing.latency_l2_cycles) + stream_cycles;
  // In flight: the description's stages, whose copies for a later k-step go out while this one computes. A stage is
  // refilled once the k-step after the one that read it has let it go (its wgmma wait, or the barrier after it), so the
  // k-steps in flight but one cover its wait: a k-step takes at least wait / (in flight - 1), its own work or more (so
  // a shorter step never exposes more of the wait than it saves). A kernel that loads straight into registers (no
  // shared memory, so no barrier between k-steps) has what ptxas made of its unrolled loop instead: a warp issues some
  // k-steps' loads, then waits where their math needs them, and each such wait (CodeRegion::load_waits) is the whole
  // latency; the loads issued since the last one arrive with it (docs/time-model.md, "Instructions from the SASS").
  p.ksteps_in_flight = ksteps_in_flight(in.rung, in.config);
  double exposed = 0;
  if (shape.smem_bytes == 0 && p.ksteps_in_flight == 1 && loop.load_waits > 0) {
    p.load_waits_per_kstep = double(loop.load_waits) / loop.ksteps_per_pass;
    p.ksteps_in_flight = std::max(1, int(std::lround(1 / p.load_waits_per_kstep)));
    exposed = wait * p.load_waits_per_kstep;
  } else {
    if (shape.smem_bytes == 0 && p.ksteps_in_flight == 1) p.ksteps_in_flight = loop.ksteps_per_pass;
    exposed = p.ksteps_in_flight > 1 ? std::max(0.0, wait / ksteps_loading(p.ksteps_in_flight) - block_step_cycles)
                                     : wait;
  }
  // A TMA kernel's ring under load: the SM's stages of copies in flight, W bytes, come in as the TMA probe's rings did
  // (tests/calibration/tma_rate.cu): a ring's latency with the L2 to itself, plus its wait behind the other busy SMs'
  // bytes, which the L2 serves at its queue's rate, so that every SM's ring takes T = latency + N W / R. Each k-step's
  // bytes B then take at least latency / stages + N B / R. With every SM copying, as the probe measured, that is the
  // L2's whole TMA rate; fewer stages, or fewer SMs asking, shift the balance (where a profile has the two figures:
  // docs/time-model-data/ring-of-copies-2026-12-01.txt).
  if (counted.tma_copies > 0 && timing.tma_ring_alone_seconds > 0 && timing.l2_tma_queue_bytes_per_second > 0 &&
      p.ksteps_in_flight > 1) {
    const double busy_sms = std::min(launched, d.sms);
    p.ring_kstep_cycles = timing.tma_ring_alone_seconds * hz / p.ksteps_in_flight +
                          l2_bytes / blocks / ksteps * resident * busy_sms / timing.l2_tma_queue_bytes_per_second * hz;
    exposed = std::max(exposed, p.ring_kstep_cycles - block_step_cycles);
  }
  p.main_loop = loop;
  p.block_kstep_cycles = block_step_cycles;
  p.exposed_wait_cycles = exposed;
  p.copy_latency_cycles = wait - stream_cycles, p.copy_stream_cycles = stream_cycles;
  const double busiest_ksteps = ksteps * p.tiles_on_busiest_sm;
  const double latency_cycles = busiest_ksteps * (block_step_cycles + exposed) / resident;

  // DRAM: the whole kernel's bytes at its bandwidth; and, where the profile measured it, each SM's stream: the bytes
  // an SM keeps in flight (its k-steps in flight, of each resident block) arrive at W / (latency + W / rate), so a few
  // SMs streaming are bound by what they have in flight, every SM by the bandwidth. The two combine as the SM's terms
  // do (the norm kOverlapNorm), which gave tests/calibration/tma_dram.cu's rates within about 10% from 8 to 132 SMs.
  const double kstep_bytes = l2_bytes / blocks / ksteps * resident;  // a k-step's, of each resident block
  p.in_flight_bytes = kstep_bytes * p.ksteps_in_flight;
  // Of those, the ones loading while a k-step waits (ksteps_loading): the probe's ring refilled each stage as soon as
  // it landed, every stage in flight, and counting the held one too made 3 stages look almost as fast as 4 on the
  // decode shapes (docs/time-model-data/dram-stages-loading-2026-12-02.txt).
  // And of those, the ones DRAM brings in: the misses. The probe's stream read every byte from DRAM; a kernel whose A
  // hits in L2 (a decode shape's few rows of activations, which every block reads) streams only B's bytes from DRAM,
  // and counting A's too made fewer stages look as fast as more (docs/time-model-data/dram-in-flight-2026-12-01.txt).
  // Where few bytes miss, every stage then waits for DRAM's latency: an upper bound there (the k-step chain weighs
  // that latency by the misses instead).
  p.dram_in_flight_bytes = kstep_bytes * ksteps_loading(p.ksteps_in_flight) * miss;
  const double dram_read_bytes = double(in.l2->dram_read_bytes);
  // Reads and writes share DRAM, each at its own rate: C's stores in partial lines reach DRAM slower than reads where
  // the profile measured them (tests/calibration/dram_write.cu); whole lines, TMA's or the threads', at the reads'.
  const double whole_lines = whole_line_store_share(counted);
  const double write_rate =
      timing.dram_write_bytes_per_second > 0
          ? 1.0 / (whole_lines / timing.dram_bytes_per_second + (1.0 - whole_lines) / timing.dram_write_bytes_per_second)
          : timing.dram_bytes_per_second;
  // A TMA kernel whose stage holds one 128-byte panel of each row of B reads DRAM slower, every SM at once, than one
  // whose stages are wider (tests/calibration/tma_dram.cu's one-panel rows).
  const bool one_panel = counted.tma_copies > 0 && timing.dram_one_panel_efficiency > 0 &&
                         in.config.bn * operand_bytes(in.rung)[1] <= 128;
  const double read_rate = timing.dram_bytes_per_second * (one_panel ? timing.dram_one_panel_efficiency : 1.0);
  double dram_seconds = dram_read_bytes / read_rate + double(in.l2->dram_write_bytes) / write_rate;
  const double dram_rate = dram_seconds > 0 ? dram_bytes / dram_seconds : timing.dram_bytes_per_second;
  if (timing.dram_stream_latency_seconds > 0 && timing.dram_stream_bytes_per_second_per_sm > 0 && dram_read_bytes > 0 &&
      p.dram_in_flight_bytes > 0) {
    p.dram_stream_bytes_per_second =
        p.dram_in_flight_bytes /
        (timing.dram_stream_latency_seconds + p.dram_in_flight_bytes / timing.dram_stream_bytes_per_second_per_sm);
    p.dram_stream_seconds = dram_read_bytes * share / p.dram_stream_bytes_per_second;
    dram_seconds = overlap_norm({dram_seconds, p.dram_stream_seconds});
  }
  // The busiest SM's copies; their rate is copies a clock, their bytes included.
  const double busiest_copies = copies * share;
  const auto sm_term = [&](TimeTerm t, double work, double per_clock) {
    return TermTime{t, work / per_clock / hz, work, per_clock};
  };
  p.terms = {sm_term(TimeTerm::Issue, instructions * share, d.warp_schedulers_per_sm),
             TermTime{TimeTerm::DataPipe, data_pipe_cycles * share / hz, wavefronts * share,
                      data_pipe_cycles > 0 ? wavefronts / data_pipe_cycles : timing.shared_wavefronts_per_clock_per_sm},
             TermTime{TimeTerm::TensorCores, tensor_cycles * share / hz, tensor_macs * share,
                      tensor_cycles > 0 ? tensor_macs / tensor_cycles : 0.0},
             TermTime{TimeTerm::L2, (l2_bytes + l2_store_bytes) / l2_rate, l2_bytes + l2_store_bytes, l2_rate},
             TermTime{TimeTerm::Dram, dram_seconds, dram_bytes, dram_rate},
             TermTime{TimeTerm::Latency, latency_cycles / hz, busiest_ksteps, wait},
             TermTime{TimeTerm::Copies, copy_cycles * share / hz, busiest_copies,
                      copy_cycles > 0 ? copies / copy_cycles : 0.0}};
  p.l2_store_bytes = l2_store_bytes;
  p.copy_bytes_per_copy = copies > 0 ? copy_bytes / copies : 0;
  p.l2_split_bytes = split_sectors * kL2SectorBytes;
  p.copy_stores = double(counted.tma_stores) * share;
  p.copy_partner = double(counted.tma_partner_copies) * share;

  p.copies_beside = producer_warp;
  p.sm_seconds = sm_terms(p.term(TimeTerm::Issue).seconds, p.term(TimeTerm::DataPipe).seconds,
                          p.term(TimeTerm::TensorCores).seconds, p.term(TimeTerm::Copies).seconds, producer_warp);
  // Each round of resident blocks starts with an empty pipeline: its first k-step waits for its tiles in full, where
  // the chain counts only what the k-steps in flight leave (a persistent block fills once, then runs on).
  p.launch_seconds = timing.launch_overhead_seconds;
  const double rounds = std::ceil(blocks_per_sm_launched / resident);  // of resident blocks, on the busiest SM
  // (A loop that waits for its loads more than once a k-step exposes more than one wait: nothing left to fill.)
  p.fill_seconds = rounds * std::max(0.0, wait - exposed) / hz;
  // At the start every SM asks for its first k-steps at once, and DRAM serves the misses among them at its bandwidth:
  // the last of them waits for all (tests/calibration/tma_dram.cu: the stream's fixed part grows so with the SMs).
  const double first_requests = std::min(launched, d.sms) * p.dram_in_flight_bytes;
  p.fill_seconds += std::min(first_requests, dram_read_bytes) / timing.dram_bytes_per_second;
  // A cluster's blocks meet at its barrier before their first copy and again before they exit: each round of resident
  // blocks waits for both (tests/calibration/cluster_waves.cu, where the barriers alone cost that much a wave).
  if (roles && roles->cluster > 1) p.cluster_barrier_seconds = rounds * timing.cluster_barriers_seconds;
  p.fill_seconds += p.cluster_barrier_seconds;
  // The prediction: the largest of the L2, the chain, and the SM's combined terms with DRAM's. The limit it names is
  // that one, or of the SM's and DRAM's the larger (the SM's largest term for the SM); a tie goes to the SM's side.
  struct Candidate {
    double seconds;
    TimeTerm term;
  };
  const TimeTerm sm_largest =
      std::max({TimeTerm::Issue, TimeTerm::DataPipe, TimeTerm::TensorCores, TimeTerm::Copies},
               [&](TimeTerm a, TimeTerm b) { return p.term(a).seconds < p.term(b).seconds; });
  // DRAM fills the stages the SM's work waits for, and the two overlap only in part: the more k-steps in flight, the
  // more of DRAM's filling hides behind the SM's work (dram_overlap_norm).
  const TermTime& dram = p.term(TimeTerm::Dram);
  p.sm_and_dram_seconds = overlap_norm({p.sm_seconds, dram.seconds}, dram_overlap_norm(p.ksteps_in_flight));
  Candidate winner{p.sm_and_dram_seconds, dram.seconds > p.term(sm_largest).seconds ? TimeTerm::Dram : sm_largest};
  for (const TimeTerm t : {TimeTerm::L2, TimeTerm::Latency})
    if (p.term(t).seconds > winner.seconds * (1 + 1e-9)) winner = {p.term(t).seconds, t};
  p.limit = winner.term;
  // Split-K (rung 22): a tile's ranges take turns at C (all ending their k-steps together in the first round, further
  // apart later: split_turns_seconds): each range after the first waits for the one before, its trips to the L2 one
  // after another (kTurnTripLatencies each), and two consumers' barriers; and it moves its tile of C through its SM,
  // read and written back, at the SM's share of the L2's bandwidth.
  // Stream-K: a tile's pieces take turns likewise. Where the ranges are longer than a tile, a tile has two pieces, the
  // first done long before the last looks: one turn at the end of each block's walk. Shorter ranges (few tiles: a
  // decode shape's) cut a tile into more pieces, the middle ones whole ranges that end together, and their turns follow
  // one another.
  const int trips = split_step_round_trips(in.rung, in.config);
  const double tile_c_bytes =
      double(std::min(in.config.bm, in.problem.m)) * std::min(in.config.bn, in.problem.n) * sizeof(float);
  const double sm_l2_rate = timing.l2_bytes_per_second / d.sms;
  const double tile_c_pass = tile_c_bytes / sm_l2_rate;  // a tile of C through its SM once, read or written
  // One wait at C: its trips (at `latencies` of the L2's each) and two barriers.
  const auto wait_seconds = [&](double latencies) {
    return (trips * latencies * timing.latency_l2_cycles + 2 * timing.barrier_cycles) / hz;
  };
  // A turn: its wait, then the tile of C read and written back.
  const double turn_wait_seconds = wait_seconds(kTurnTripLatencies) + tile_c_pass;
  const double turn_seconds = turn_wait_seconds + tile_c_pass;
  // Stream-K's turns, where its walk cuts a tile (a tile of one k-step is never cut, and takes no turn).
  const int turns_per_round = stream_k ? plan.most_pieces() - 1 : 0;
  if (trips > 0 && turns_per_round > 0) {
    p.split_wording = "a tile's pieces taking turns at C";
    p.split_seconds = rounds * turns_per_round * turn_seconds;
  } else if (trips > 0 && !stream_k && in.config.workspace && shape.splits > 1) {
    // Split-K through its workspace (workspace = 1): only the last range waits, once (its trips at the L2's latency:
    // the traces that measured kTurnTripLatencies were of the serial turns), then reads the other ranges' slices and
    // writes C.
    p.split_wording = "the last range of each tile adding up the others' sums";
    p.split_seconds = rounds * (wait_seconds(1) + shape.splits * tile_c_pass);
  } else if (trips > 0 && !stream_k && shape.splits > 1) {
    // Block by block: the first round's ranges end their k-steps together and wait out the whole chain; after it a
    // tile's ranges start apart, where slots came free, and wait less, but a range that waits holds its slot, so no
    // round's turns come free (docs/time-model-data/split-turns-by-block-2026-12-02.txt).
    // Every range is a block of its own: the launch's blocks are its tiles' `splits` ranges each.
    p.split_wording = "split-K's ranges waiting for their turns at C, each keeping its room on its SM meanwhile";
    p.split_seconds = split_turns_seconds(shape.blocks / shape.splits, shape.splits, int(resident) * d.sms,
                                          winner.seconds / rounds, turn_seconds);
  }
  // The last round's epilogues: once its blocks have done their last k-step, nothing is left to overlap their stores
  // of C. The SMs storing at once write at DRAM's write rate for the kernel's stores, none faster than the SM's share
  // of the L2. That holds where DRAM's traffic sets the time too: DRAM's term spreads C's bytes over the whole kernel,
  // but no store goes out before the first round's tiles are done, so one round's stores stand apart either way
  // (measured: the DRAM-bound configurations of attention's scores at K = 128, docs/time-model.md). Split-K's and
  // Stream-K's turns at C count their tiles' last stores already.
  if (p.split_seconds == 0) {
    // The tiles computed at once (a block each, or a persistent grid's blocks), and of the tiles those take in turn,
    // the last round's: where a grid's blocks walk unequal numbers of tiles, only the ones with the most store last.
    const double at_once = std::min<double>(launched, resident * d.sms);
    const double last_round = tiles - (std::ceil(tiles / at_once) - 1) * at_once;
    p.drain_seconds = std::max(last_round * tile_c_bytes / write_rate, tile_c_pass);
  }
  p.seconds = winner.seconds + p.launch_seconds + p.fill_seconds + p.split_seconds + p.drain_seconds;
  // A tile's stores after its k-steps. A warp-specialised block whose consumers store their accumulators themselves
  // (no TMA stores) multiplies, then stores. Where the block is not persistent (a persistent one's producer fills the
  // next tile's stages during the stores) and its consumers do not take turns (ping-pong's other consumer multiplies
  // then), the busiest SM's tiles each add their stores to its k-steps. (A second resident block's k-steps could
  // overlap them; leaving such SMs out put fewer short-K pairs within 20%: docs/time-model-data/tile-stores-2026-11-30.txt.)
  // A Stream-K block whose walk cuts tiles likewise stores each piece it computes into C (a tile's first piece) or
  // adds it there in its turn, from its consumers' registers, before its next piece's k-steps: each of its pieces
  // (segments) stores a whole tile, and the path takes its turns at C without their writes, which those stores are
  // (docs/time-model-data/stream-k-pieces-2026-12-01.txt).
  // Traced at short K, a round's stores took a third of it (docs/timeline-data/short-k-2026-11-30); the rate, a share
  // of the SM's part of the L2, is fitted to the sweeps. The k-steps go at the pace of the slowest of the SM's work,
  // the chain and the L2's reads; not of DRAM's term, nor the L2's stores, which count C's stores that the path counts
  // apart.
  const bool one_tile_blocks = p.split_seconds == 0 && producer_warp && in.config.tma_store == 0 &&
                               in.config.grid == 0 && !consumers_take_turns(in.rung);
  const bool cut_tiles = stream_k && p.split_seconds > 0;
  // A persistent block that walks whole tiles passes some time between one tile's k-steps and the next one's that
  // nothing on its SM overlaps: the wait for the tile's last group, its stores, the next tile's start (ping-pong's
  // consumers store while the other multiplies, but hand the turn over: the turn's barrier, the next consumer's first
  // group). Its producer has the next tile's first stages in by then, so what is left is short against a tile's
  // k-steps at long K, but not at short K. A Stream-K block that cuts tiles stores its pieces
  // apart (above), and switches from piece to piece as well. One figure for both, fitted to the sweeps, counted for
  // every tile or piece, the last's standing for its stores at the end
  // (docs/time-model-data/tile-switch-2026-12-02.txt).
  p.tile_switches = timing.tile_switch_seconds > 0 && p.split_seconds == 0 && producer_warp && in.config.grid > 0;
  if (p.tile_switches) {
    p.tile_stores_seconds = p.tiles_on_busiest_sm * timing.tile_switch_seconds;
    p.after_ksteps = "the tiles' switches";
  } else if ((timing.epilogue_store_share > 0 || (cut_tiles && timing.tile_switch_seconds > 0)) &&
             (one_tile_blocks || cut_tiles)) {
    const double stored_tiles =
        cut_tiles ? double(blocks_per_sm_launched) * plan.most_segments() : p.tiles_on_busiest_sm;
    const double stores = timing.epilogue_store_share > 0 ? tile_c_pass / timing.epilogue_store_share : 0.0;
    p.tile_stores_seconds = stored_tiles * (stores + (cut_tiles ? timing.tile_switch_seconds : 0.0));
    p.after_ksteps = !cut_tiles                          ? "the tiles' stores"
                     : timing.tile_switch_seconds == 0   ? "the pieces' stores"
                     : timing.epilogue_store_share == 0  ? "the pieces' switches"
                                                         : "the pieces' stores and switches";
  }
  if (p.tile_stores_seconds > 0) {
    p.stores_after_turn_waits_seconds = cut_tiles ? rounds * turns_per_round * turn_wait_seconds : 0.0;
    p.stores_after_ksteps_seconds =
        std::max({p.sm_seconds, p.term(TimeTerm::Latency).seconds, l2_bytes / l2_rate});
    p.stores_after_seconds = p.stores_after_ksteps_seconds + p.tile_stores_seconds + p.launch_seconds +
                             p.fill_seconds + p.stores_after_turn_waits_seconds;
    if (p.stores_after_seconds > p.seconds) p.seconds = p.stores_after_seconds, p.stores_after_limit = true;
  }
  p.tflops = 2.0 * in.problem.m * in.problem.n * double(in.problem.k) / p.seconds / 1e12;
  // The SMs' tensor cores' average share of the time, as ncu counts it (sm__pipe_tensor_cycles_active's average):
  // the busiest SM's, times the SMs' average tiles over its tiles.
  p.tensor_busy_share = std::min(1.0, p.term(TimeTerm::TensorCores).seconds / p.seconds / share / d.sms);
  Hints hints;
  double sectors = 0, ideal_sectors = 0;
  for (const OpCounters& op : counted.ops) {
    hints.bank_conflicts = hints.bank_conflicts || op.bank_conflicts() > 0;
    sectors += double(op.sectors);
    ideal_sectors += double(op.ideal_sectors);
  }
  // Uncoalesced: the accesses touch more sectors than their bytes need (a warp's ldg.128 touches four lines, and is
  // coalesced).
  hints.scattered = sectors > 1.25 * ideal_sectors;
  hints.dram_rereads = double(in.l2->dram_read_bytes) > 1.5 * double(in.l2->min_dram_read_bytes);
  p.explanation = explain(p, timing, hints);
  return p;
}

// A wgmma kernel's clock follows how busy it keeps the tensor cores (the profile's line, MachineTiming): the share
// of the predicted time they work, on average over the SMs, sets the clock, and the clock the prediction. A few rounds
// from the sustained clock settle the two together: the share moves little with the clock, since the tensor cores'
// time and most of the kernel's are cycles alike.
constexpr int kClockRounds = 4;

bool clock_follows_tensor_load(const TimeModelInput& in, const MachineTiming& timing) {
  return !timing.clock_given && timing.wgmma_clock_mhz_pipe_idle > 0 && timing.wgmma_clock_mhz_pipe_busy > 0 &&
         in.counters->total.wgmma_multiply_adds > 0;
}

}  // namespace

double wgmma_clock_mhz(const MachineTiming& timing, double tensor_busy_share) {
  const double share = std::clamp(tensor_busy_share, 0.0, 1.0);
  return timing.wgmma_clock_mhz_pipe_idle + (timing.wgmma_clock_mhz_pipe_busy - timing.wgmma_clock_mhz_pipe_idle) * share;
}

Result<TimePrediction> predict_time(const TimeModelInput& in, const DeviceProfile& d) {
  auto p = predict_at(in, d, 0);
  if (!p || !clock_follows_tensor_load(in, *d.timing)) return p;
  for (int round = 0; round < kClockRounds; ++round) {
    const double before = p->clock_mhz;
    p = predict_at(in, d, wgmma_clock_mhz(*d.timing, p->tensor_busy_share));
    if (!p || std::abs(p->clock_mhz - before) < 0.5) break;
  }
  return p;
}

}  // namespace gemmlab::sim
