#include "schedule_report.hpp"

#include <algorithm>
#include <cstdio>
#include <ostream>
#include <string>
#include <vector>

#include "gemmlab/sim/launch_order.hpp"
#include "gemmlab/sim/predicted_timeline.hpp"
#include "table.hpp"

namespace gemmlab::cli {
std::string fixed(double value, int digits) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", digits, value);
  return text;
}

namespace {

std::string percent(double fraction) { return fixed(100 * fraction, 1) + "%"; }
std::string gigabytes(double bytes) { return fixed(bytes / 1e9, 3) + " GB"; }
std::string milliseconds(double seconds) { return fixed(seconds * 1e3, 3) + " ms"; }

// "1.10 T", "33.5 G": a count with an SI prefix.
std::string si(double value) {
  const char* prefixes[] = {"", " k", " M", " G", " T", " P"};
  int i = 0;
  while (value >= 1000 && i < 5) value /= 1000, ++i;
  return fixed(value, value < 10 ? 2 : 1) + prefixes[i];
}

std::string limiter_unit(sim::Limiter l) {
  switch (l) {
    case sim::Limiter::FmaUnits: return "FMAs";
    case sim::Limiter::TensorCores: return "tensor-core multiply-adds";
    case sim::Limiter::InstructionIssue: return "warp instructions";
    case sim::Limiter::SharedMemory: return "wavefronts";
    case sim::Limiter::Dram: return "bytes";
  }
  return "";
}

nlohmann::json reads_json(const sim::SectorReads& r) {
  return {{"sectors", r.sectors}, {"hits", r.hits}, {"hit_rate", r.hit_rate()}};
}

nlohmann::json fetches_json(const sim::TileFetches& f) {
  nlohmann::json rows = nlohmann::json::array();
  for (int r = 0; r < f.rows; ++r) {
    nlohmann::json row = nlohmann::json::array();
    for (int c = 0; c < f.cols; ++c) row.push_back(f.times(r, c));
    rows.push_back(std::move(row));
  }
  return {{"rows", f.rows}, {"cols", f.cols}, {"times", std::move(rows)}};
}

}  // namespace

std::string l2_size_text(const sim::DeviceProfile& device) {
  const auto mib = [](std::int64_t bytes) { return fixed(static_cast<double>(bytes) / (1 << 20), 0) + " MiB"; };
  const std::int64_t held = sim::l2_held_bytes(device);
  if (held == device.l2_bytes) return mib(device.l2_bytes);
  return mib(device.l2_bytes) + " (the model holds " + mib(held) + " of it: l2_held_share " +
         fixed(device.timing->l2_held_share, 3) + ")";
}

void print_occupancy(const sim::SchedulePrediction& p, std::ostream& out) {
  const sim::Occupancy& o = p.occupancy;
  const sim::Waves& w = p.l2.waves;
  const auto& regs = o.block.registers;
  const char* why = regs.source == sim::RegisterSource::Measured
                        ? ": ptxas's count when this build compiled the kernel for "
                    : regs.source == sim::RegisterSource::NearestCompiled
                        ? ": ptxas's count of the nearest configuration this build compiled, adjusted, for "
                    : regs.source == sim::RegisterSource::LaunchBound
                        ? ": the most a block of its threads can have (65,536 over its threads, in multiples of 8), which ptxas is made to use, for "
                        : ": this build compiled no kernel of this rung for ";
  out << "registers per thread: " << regs.per_thread << " (" << sim::to_string(regs.source) << why
      << "compute capability " << p.device.compute_capability << ")\n"
      << "resident blocks per SM: " << o.blocks_per_sm << ", limited by " << o.limit_sentence() << "\n"
      << "  each resource alone allows: registers " << o.blocks_by_registers << ", shared memory " << o.blocks_by_smem
      << ", threads " << o.blocks_by_threads << ", block slots " << o.blocks_by_slots << "\n"
      << "occupancy: " << o.warps_per_sm << " of " << p.device.max_warps_per_sm() << " warps per SM ("
      << percent(o.occupancy) << ")\n"
      << "waves: " << w.blocks << " blocks / " << w.blocks_per_wave << " per wave ("
      << (w.blocks_per_wave < sim::resident_tiles(p)
              ? "the " + std::to_string(p.shape.persistent_blocks) + " persistent blocks: " + std::to_string(p.device.sms) +
                    " SMs x " + std::to_string(o.blocks_per_sm) + " would fit"
              : std::to_string(p.device.sms) + " SMs x " + std::to_string(o.blocks_per_sm))
      << ") = " << fixed(w.fractional(), 2) << " -> " << w.waves << " wave" << (w.waves == 1 ? "" : "s")
      << ", the last with " << w.last_wave_blocks << " blocks\n";
}

void print_l2(const sim::SchedulePrediction& p, int waves_shown, std::ostream& out) {
  const sim::L2Result& l2 = p.l2;
  out << "reads of A: " << l2.a.sectors << " sectors, " << percent(l2.a.hit_rate()) << " hit in L2\n"
      << "reads of B: " << l2.b.sectors << " sectors, " << percent(l2.b.hit_rate()) << " hit in L2\n";
  if (l2.c.sectors) out << "reads of C: " << l2.c.sectors << " sectors, " << percent(l2.c.hit_rate()) << " hit in L2\n";
  out << "DRAM read: " << gigabytes(double(l2.dram_read_bytes)) << " (reading every byte once would be "
      << gigabytes(double(l2.min_dram_read_bytes)) << ": "
      << fixed(double(l2.dram_read_bytes) / double(std::max<std::int64_t>(1, l2.min_dram_read_bytes)), 2)
      << "x); DRAM written: " << gigabytes(double(l2.dram_write_bytes)) << "\n"
      << "most DRAM fetches of one tile: A " << fixed(l2.a_fetches.max_times(), 1) << ", B "
      << fixed(l2.b_fetches.max_times(), 1) << "\n";
  if (waves_shown <= 0) return;
  using A = TextTable::Align;
  TextTable table({{"wave"}, {"blocks", A::Right}, {"A hit", A::Right}, {"B hit", A::Right},
                   {"DRAM read", A::Right}, {"DRAM written", A::Right}, {"roofline bound", A::Right}});
  const int waves = static_cast<int>(l2.per_wave.size());
  for (int i = 0; i < waves; ++i) {
    if (i >= waves_shown && i + 1 < waves) {
      if (i == waves_shown) table.add_row({"...", "", "", "", "", "", ""});
      continue;
    }
    const sim::WaveTraffic& w = l2.per_wave[static_cast<std::size_t>(i)];
    table.add_row({std::to_string(i), std::to_string(w.blocks), percent(w.a.hit_rate()), percent(w.b.hit_rate()),
                   gigabytes(double(w.dram_read_bytes)), gigabytes(double(w.dram_write_bytes)),
                   milliseconds(p.roofline.wave_seconds[static_cast<std::size_t>(i)])});
  }
  table.print(out);
  out << "roofline bound: the wave's own upper bound on speed (its work at the device's peaks), not a share of the "
         "time model's prediction below\n";
}

void print_roofline(const sim::SchedulePrediction& p, std::ostream& out) {
  const sim::Roofline& r = p.roofline;
  using A = TextTable::Align;
  TextTable table({{"limit"}, {"work", A::Right}, {"device peak", A::Right}, {"time", A::Right}});
  for (const auto& l : r.limits)
    if (sim::in_use(l))
      table.add_row({std::string(sim::to_string(l.limiter)) + (l.limiter == r.bottleneck ? " (bottleneck)" : ""),
                     si(l.work) + " " + limiter_unit(l.limiter), si(l.rate) + " " + limiter_unit(l.limiter) + "/s",
                     milliseconds(l.seconds)});
  table.print(out);
  out << "roofline bound: " << milliseconds(r.predicted_seconds) << ", " << fixed(r.predicted_tflops, 1)
      << " TFLOPS (an upper bound on speed, not a prediction)\n"
      << r.explanation << "\n";
}

void print_time_model(const sim::SchedulePrediction& p, std::ostream& out) {
  if (!p.time) {
    out << "no time model: " << p.time_note << "\n";
    return;
  }
  const sim::TimePrediction& t = *p.time;
  using A = TextTable::Align;
  TextTable table({{"term"}, {"work (busiest SM; L2, DRAM: all)", A::Right}, {"rate", A::Right}, {"time alone", A::Right}});
  for (const auto& term : t.terms) {
    if (term.seconds <= 0) continue;
    const std::string unit(sim::unit_of(term.term));
    const bool whole_gpu = term.term == sim::TimeTerm::Dram || term.term == sim::TimeTerm::L2;
    const std::string rate = whole_gpu                             ? si(term.rate) + " bytes/s"
                             : term.term == sim::TimeTerm::Latency ? fixed(term.rate, 0) + " cycles' wait for tiles"
                             : term.term == sim::TimeTerm::Copies  ? fixed(1 / term.rate, 0) + " cycles a copy, bytes in"
                                                                   : fixed(term.rate, 3) + " per clock per SM";
    table.add_row({std::string(sim::to_string(term.term)) + (term.term == t.limit ? " (limit)" : ""),
                   si(term.work) + " " + unit, rate, milliseconds(term.seconds)});
  }
  table.print(out);
  out << "the SM's terms together (p-norm, p = " << fixed(sim::kOverlapNorm, 0)
      << (t.copies_beside ? "; a producer warp's copies beside the rest" : "") << "): " << milliseconds(t.sm_seconds)
      << " at " << fixed(t.clock_mhz, 0) << " MHz; plus the launch " << milliseconds(t.launch_seconds)
      << ", filling the pipeline " << milliseconds(t.fill_seconds) << " and the last epilogues' stores "
      << milliseconds(t.drain_seconds)
      << (t.split_seconds > 0 ? "; plus " + std::string(t.split_wording) + " " + milliseconds(t.split_seconds) : "")
      << "\n";
  if (t.stores_after_seconds > 0)
    out << "the busiest SM's k-steps, then " << t.after_ksteps << ", with nothing else on the SM: "
        << milliseconds(t.tile_stores_seconds) << ", a path of " << milliseconds(t.stores_after_seconds)
        << (t.stores_after_limit ? " (longer than the terms: the prediction)" : " (shorter than the terms)") << "\n";
  out
      << "predicted: " << milliseconds(t.seconds) << ", " << fixed(t.tflops, 1) << " TFLOPS (" << kNotMeasured << ")\n"
      << t.explanation << "\n";
}

nlohmann::json occupancy_json(const sim::SchedulePrediction& p) {
  const sim::Occupancy& o = p.occupancy;
  nlohmann::json limited = nlohmann::json::array();
  for (const auto l : o.limited_by) limited.push_back(std::string(sim::to_string(l)));
  return {{"registers_per_thread", o.block.registers.per_thread},
          {"registers_source", std::string(sim::to_string(o.block.registers.source))},
          {"blocks_per_sm", o.blocks_per_sm},
          {"limited_by", limited},
          {"blocks_by", {{"registers", o.blocks_by_registers}, {"shared_memory", o.blocks_by_smem},
                         {"threads", o.blocks_by_threads}, {"block_slots", o.blocks_by_slots}}},
          {"warps_per_sm", o.warps_per_sm},
          {"occupancy", o.occupancy},
          {"blocks_per_wave", p.l2.waves.blocks_per_wave},
          {"waves", p.l2.waves.waves},
          {"last_wave_blocks", p.l2.waves.last_wave_blocks}};
}

nlohmann::json l2_json(const sim::SchedulePrediction& p, bool per_wave, bool tiles) {
  const sim::L2Result& l2 = p.l2;
  nlohmann::json out = {{"l2_bytes", p.device.l2_bytes},
                        {"l2_held_bytes", sim::l2_held_bytes(p.device)},
                        {"a", reads_json(l2.a)},
                        {"b", reads_json(l2.b)},
                        {"c", reads_json(l2.c)},
                        {"hit_rate", l2.reads().hit_rate()},
                        {"dram_read_bytes", l2.dram_read_bytes},
                        {"dram_write_bytes", l2.dram_write_bytes},
                        {"min_dram_read_bytes", l2.min_dram_read_bytes}};
  if (per_wave) {
    nlohmann::json waves = nlohmann::json::array();
    for (std::size_t i = 0; i < l2.per_wave.size(); ++i) {
      const sim::WaveTraffic& w = l2.per_wave[i];
      waves.push_back({{"first_block", w.first_block},
                       {"blocks", w.blocks},
                       {"a", reads_json(w.a)},
                       {"b", reads_json(w.b)},
                       {"dram_read_bytes", w.dram_read_bytes},
                       {"dram_write_bytes", w.dram_write_bytes},
                       {"roofline_seconds", p.roofline.wave_seconds[i]}});
    }
    out["per_wave"] = std::move(waves);
  }
  if (tiles) {
    out["a_tile_fetches"] = fetches_json(l2.a_fetches);
    out["b_tile_fetches"] = fetches_json(l2.b_fetches);
  }
  return out;
}

nlohmann::json time_model_json(const sim::SchedulePrediction& p) {
  if (!p.time) return {{"available", false}, {"note", p.time_note}};
  const sim::TimePrediction& t = *p.time;
  nlohmann::json terms = nlohmann::json::array();
  for (const auto& term : t.terms)
    terms.push_back({{"term", std::string(sim::to_string(term.term))}, {"seconds", term.seconds}, {"work", term.work},
                     {"unit", std::string(sim::unit_of(term.term))}, {"rate", term.rate}});
  return {{"available", true},
          {"terms", terms},
          {"limit", std::string(sim::to_string(t.limit))},
          {"clock_mhz", t.clock_mhz},
          {"clock_follows_tensor_load", t.clock_follows_tensor_load},
          {"tensor_busy_share", t.tensor_busy_share},
          {"sm_seconds", t.sm_seconds},
          {"launch_seconds", t.launch_seconds},
          {"fill_seconds", t.fill_seconds},
          {"split_seconds", t.split_seconds},
          {"drain_seconds", t.drain_seconds},
          {"l2_store_bytes", t.l2_store_bytes},
          {"tile_stores_seconds", t.tile_stores_seconds},
          {"after_ksteps", t.after_ksteps},
          {"tile_switches", t.tile_switches},
          {"stores_after_seconds", t.stores_after_seconds},
          {"stores_after_limit", t.stores_after_limit},
          {"predicted_seconds", t.seconds},
          {"predicted_tflops", t.tflops},
          {"tiles_on_busiest_sm", t.tiles_on_busiest_sm},
          {"ksteps_in_flight", t.ksteps_in_flight},
          {"load_waits_per_kstep", t.load_waits_per_kstep},
          {"chain", {{"block_kstep_cycles", t.block_kstep_cycles},
                     {"exposed_wait_cycles", t.exposed_wait_cycles},
                     {"ring_kstep_cycles", t.ring_kstep_cycles}}},
          {"main_loop", {{"ksteps_per_pass", t.main_loop.ksteps_per_pass}, {"load_waits", t.main_loop.load_waits}}},
          {"instructions", {{"kernel", t.kernel_instructions},
                            {"description", t.kernel_description_instructions},
                            {"source", t.issue_source == sim::TimePrediction::IssueSource::Sass            ? "sass"
                                       : t.issue_source == sim::TimePrediction::IssueSource::NeighbourSass ? "nearest compiled sass"
                                                                                                           : "description"}}},
          {"explanation", t.explanation},
          {"measured", false}};
}

nlohmann::json pipeline_json(const sim::SchedulePrediction& p) {
  const auto pipeline = sim::busiest_sm_pipeline(p);
  if (!pipeline) return {{"available", false}, {"note", pipeline.error().message}};
  return {{"available", true},
          {"stages", pipeline->stages},
          {"ksteps", pipeline->steps.size()},
          {"producer", pipeline->producer},
          {"median_kstep_ns", pipeline->median_kstep_ns},
          {"median_copy_to_use_ns", pipeline->median_copy_to_use_ns},
          {"median_consumer_wait_ns", pipeline->median_consumer_wait_ns},
          {"median_producer_wait_ns", pipeline->median_producer_wait_ns}};
}

nlohmann::json roofline_json(const sim::SchedulePrediction& p) {
  const sim::Roofline& r = p.roofline;
  nlohmann::json limits = nlohmann::json::array();
  for (const auto& l : r.limits)
    limits.push_back({{"limit", std::string(sim::to_string(l.limiter))}, {"seconds", l.seconds}, {"work", l.work},
                      {"unit", limiter_unit(l.limiter)}, {"rate_per_second", l.rate}});
  return {{"useful_flops", r.useful_flops},
          {"limits", limits},
          {"bottleneck", std::string(sim::to_string(r.bottleneck))},
          {"fma_instruction_share", r.fma_instruction_share},
          {"predicted_seconds", r.predicted_seconds},
          {"predicted_tflops", r.predicted_tflops},
          {"explanation", r.explanation},
          {"measured", false}};
}

void print_measured_orders(std::span<const common::MeasuredOrder> measured, std::string_view this_order,
                           std::ostream& out) {
  if (measured.empty()) return;
  out << "\n== measured: this kernel in launch orders (recorded runs, " << common::kOrderRunsList << ") ==\n";
  std::vector<std::string> devices;
  for (const auto& m : measured)
    if (std::ranges::find(devices, m.device) == devices.end()) devices.push_back(m.device);
  for (const auto& device : devices) {
    const auto mine = std::ranges::find_if(
        measured, [&](const common::MeasuredOrder& m) { return m.device == device && m.order == this_order; });
    bool first = true;
    for (const auto& m : measured) {
      if (m.device != device) continue;
      if (first) out << m.device << ", " << m.date_utc.substr(0, 10) << ", " << m.input << " inputs:\n";
      first = false;
      out << "  " << m.order << ": " << fixed(m.median_ms, 3) << " ms";
      if (m.ratio_to_cublas > 0.0) out << ", " << fixed(m.ratio_to_cublas, 3) << "x cuBLAS";
      if (m.order == this_order)
        out << " (this order)";
      else if (mine != measured.end())
        out << ", " << (m.median_ms >= mine->median_ms ? "+" : "")
            << fixed(100.0 * (m.median_ms / mine->median_ms - 1.0), 1) << "% of " << this_order << "'s time";
      out << "\n";
    }
  }
  out << "The time model above predicts this order; --order ORDER predicts another, beside its measurement here.\n";
}

nlohmann::json measured_orders_json(std::span<const common::MeasuredOrder> measured) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& m : measured)
    out.push_back({{"order", m.order}, {"median_ms", m.median_ms}, {"ratio_to_cublas", m.ratio_to_cublas},
                   {"input", m.input}, {"device", m.device}, {"date_utc", m.date_utc}});
  return out;
}

}  // namespace gemmlab::cli
