#include "gemmlab/sim/device_profile.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "gemmlab/builtin_devices.hpp"
#include "gemmlab/file_io.hpp"
#include "gemmlab/json_input.hpp"

namespace gemmlab::sim {
namespace {

using nlohmann::json;

// One numeric field of a profile: its JSON name, where it goes, and the range that makes sense.
struct NumericField {
  std::string_view name;
  int DeviceProfile::*as_int = nullptr;
  std::int64_t DeviceProfile::*as_int64 = nullptr;
  double DeviceProfile::*as_double = nullptr;
  double min = 1, max = std::numeric_limits<int>::max();
  bool required = true;
};

NumericField int_field(std::string_view name, int DeviceProfile::*member, double min = 1,
                       double max = std::numeric_limits<int>::max(), bool required = true) {
  return {name, member, nullptr, nullptr, min, max, required};
}

const std::vector<NumericField>& numeric_fields() {
  using P = DeviceProfile;
  static const std::vector<NumericField> fields = {
      int_field("sms", &P::sms, 1, 1024),
      {"l2_bytes", nullptr, &P::l2_bytes, nullptr, 1, 1e12, true},
      int_field("smem_per_sm_bytes", &P::smem_per_sm_bytes, 1024),
      int_field("smem_per_block_optin_bytes", &P::smem_per_block_optin_bytes, 1024),
      int_field("smem_per_block_default_bytes", &P::smem_per_block_default_bytes, 1024),
      int_field("smem_reserved_per_block_bytes", &P::smem_reserved_per_block_bytes, 0, 65536),
      int_field("smem_allocation_unit_bytes", &P::smem_allocation_unit_bytes, 1, 65536),
      int_field("registers_per_sm", &P::registers_per_sm, 1024),
      int_field("max_registers_per_thread", &P::max_registers_per_thread, 16, 1024),
      int_field("register_allocation_unit", &P::register_allocation_unit, 1, 65536),
      int_field("warp_schedulers_per_sm", &P::warp_schedulers_per_sm, 1, 64),
      int_field("max_threads_per_sm", &P::max_threads_per_sm, 32, 65536),
      int_field("max_blocks_per_sm", &P::max_blocks_per_sm, 1, 1024),
      int_field("max_threads_per_block", &P::max_threads_per_block, 32, 65536),
      int_field("fp32_lanes_per_sm", &P::fp32_lanes_per_sm, 1, 4096),
      int_field("shared_wavefronts_per_clock_per_sm", &P::shared_wavefronts_per_clock_per_sm, 1, 64),
      int_field("base_clock_mhz", &P::base_clock_mhz, 1, 10000, false),
      int_field("boost_clock_mhz", &P::boost_clock_mhz, 1, 10000),
      {"fp32_tflops", nullptr, nullptr, &P::fp32_tflops, 1e-3, 1e6, true},
      {"dram_bandwidth_gbs", nullptr, nullptr, &P::dram_bandwidth_gbs, 1e-3, 1e7, true},
  };
  return fields;
}

constexpr std::array<std::string_view, 3> kTensorKinds = {"tf32", "fp16", "bf16"};
constexpr std::array<std::string_view, 9> kOtherFields = {"id",    "aliases",       "cuda_names", "name",  "compute_capability",
                                                          "notes", "tensor_tflops", "sources",    "timing"};

// The fields of "timing" (MachineTiming), each a positive number; an optional one may be left out (0: not measured).
struct TimingField {
  std::string_view name;
  double MachineTiming::*member;
  double max;
  bool required = true;
};
constexpr TimingField kTimingFields[] = {
    {"shared_wavefronts_per_clock_per_sm", &MachineTiming::shared_wavefronts_per_clock_per_sm, 64},
    {"global_lines_per_clock_per_sm", &MachineTiming::global_lines_per_clock_per_sm, 64},
    {"l2_bytes_per_second", &MachineTiming::l2_bytes_per_second, 1e15},
    {"dram_bytes_per_second", &MachineTiming::dram_bytes_per_second, 1e15},
    {"mma_sync_multiply_adds_per_clock_per_sm", &MachineTiming::mma_sync_multiply_adds_per_clock_per_sm, 1e6},
    {"wgmma_multiply_adds_per_clock_per_sm", &MachineTiming::wgmma_multiply_adds_per_clock_per_sm, 1e6},
    {"latency_l1_cycles", &MachineTiming::latency_l1_cycles, 1e5},
    {"latency_l2_cycles", &MachineTiming::latency_l2_cycles, 1e5},
    {"latency_dram_cycles", &MachineTiming::latency_dram_cycles, 1e5},
    {"latency_shared_cycles", &MachineTiming::latency_shared_cycles, 1e5},
    {"barrier_cycles", &MachineTiming::barrier_cycles, 1e5},
    {"sustained_clock_mhz_fma", &MachineTiming::sustained_clock_mhz_fma, 10000},
    {"sustained_clock_mhz_tensor", &MachineTiming::sustained_clock_mhz_tensor, 10000},
    {"launch_overhead_seconds", &MachineTiming::launch_overhead_seconds, 1},
    {"tma_cycles_per_copy", &MachineTiming::tma_cycles_per_copy, 1e5},
    {"tma_bytes_per_clock_per_sm", &MachineTiming::tma_bytes_per_clock_per_sm, 1e4},
    {"l2_tma_bytes_per_second", &MachineTiming::l2_tma_bytes_per_second, 1e15, false},
    {"dram_stream_latency_seconds", &MachineTiming::dram_stream_latency_seconds, 1e-3, false},
    {"dram_stream_bytes_per_second_per_sm", &MachineTiming::dram_stream_bytes_per_second_per_sm, 1e13, false},
    {"tma_ring_alone_seconds", &MachineTiming::tma_ring_alone_seconds, 1e-3, false},
    {"l2_tma_queue_bytes_per_second", &MachineTiming::l2_tma_queue_bytes_per_second, 1e15, false},
    {"cluster_barriers_seconds", &MachineTiming::cluster_barriers_seconds, 1e-3, false},
    {"dram_write_bytes_per_second", &MachineTiming::dram_write_bytes_per_second, 1e15, false},
    {"dram_one_panel_efficiency", &MachineTiming::dram_one_panel_efficiency, 1, false},
    {"l2_held_share", &MachineTiming::l2_held_share, 1, false},
    {"epilogue_store_share", &MachineTiming::epilogue_store_share, 1, false},
    {"tile_switch_seconds", &MachineTiming::tile_switch_seconds, 1e-3, false},
    {"wgmma_clock_mhz_pipe_idle", &MachineTiming::wgmma_clock_mhz_pipe_idle, 10000, false},
    {"wgmma_clock_mhz_pipe_busy", &MachineTiming::wgmma_clock_mhz_pipe_busy, 10000, false},
};

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// Whole numbers in full ("2147483647", not "2.14748e+09"), others as the stream writes them.
std::string number_text(double v) {
  if (v == std::floor(v) && std::abs(v) < 1e15) return std::to_string(static_cast<std::int64_t>(v));
  std::ostringstream s;
  s << v;
  return s.str();
}

// "9.0", "8.6", "12.0": MAJOR.MINOR, digits only.
bool is_compute_capability(const std::string& text) {
  const auto dot = text.find('.');
  const auto digits = [](std::string_view part) {
    return !part.empty() && part.find_first_not_of("0123456789") == std::string_view::npos;
  };
  return dot != std::string::npos && digits(std::string_view(text).substr(0, dot)) &&
         digits(std::string_view(text).substr(dot + 1));
}

// The error prefix: "device profile 'h100-sxm.json': ".
std::string where(std::string_view origin) { return "device profile '" + std::string(origin) + "': "; }

Result<std::string> string_field(const json& doc, std::string_view origin, const char* name) {
  const auto it = doc.find(name);
  if (it == doc.end()) return Error{where(origin) + "field '" + name + "' is missing"};
  if (!it->is_string() || it->get<std::string>().empty())
    return Error{where(origin) + "field '" + name + "' must be a non-empty string"};
  return it->get<std::string>();
}

Status read_numeric(const json& doc, std::string_view origin, const NumericField& f, DeviceProfile& p) {
  const auto it = doc.find(std::string(f.name));
  if (it == doc.end()) {
    if (f.required) return Error{where(origin) + "field '" + std::string(f.name) + "' is missing"};
    return Ok{};
  }
  const std::string name(f.name);
  if (!it->is_number()) return Error{where(origin) + "field '" + name + "' must be a number, not " + json_excerpt(*it)};
  const double value = it->get<double>();
  if (f.as_double == nullptr && !it->is_number_integer())
    return Error{where(origin) + "field '" + name + "' must be a whole number, not " + json_excerpt(*it)};
  if (!(value >= f.min && value <= f.max))
    return Error{where(origin) + "field '" + name + "' is " + json_excerpt(*it) + "; it must be in [" + number_text(f.min) +
                 ", " + number_text(f.max) + "]"};
  if (f.as_int) p.*f.as_int = it->get<int>();
  if (f.as_int64) p.*f.as_int64 = it->get<std::int64_t>();
  if (f.as_double) p.*f.as_double = value;
  return Ok{};
}

Status read_tensor(const json& doc, std::string_view origin, DeviceProfile& p) {
  const auto it = doc.find("tensor_tflops");
  if (it == doc.end()) return Error{where(origin) + "field 'tensor_tflops' is missing"};
  if (!it->is_object())
    return Error{where(origin) + "field 'tensor_tflops' must be an object {\"tf32\": ..., \"fp16\": ..., \"bf16\": ...}"};
  double* targets[] = {&p.tensor_tf32_tflops, &p.tensor_fp16_tflops, &p.tensor_bf16_tflops};
  for (std::size_t i = 0; i < kTensorKinds.size(); ++i) {
    const std::string name = "tensor_tflops." + std::string(kTensorKinds[i]);
    const auto v = it->find(std::string(kTensorKinds[i]));
    if (v == it->end()) return Error{where(origin) + "field '" + name + "' is missing (0 means no tensor cores)"};
    if (!v->is_number() || v->get<double>() < 0)
      return Error{where(origin) + "field '" + name + "' must be a number >= 0, not " + json_excerpt(*v)};
    *targets[i] = v->get<double>();
  }
  for (const auto& [key, value] : it->items())
    if (std::find(kTensorKinds.begin(), kTensorKinds.end(), key) == kTensorKinds.end())
      return Error{where(origin) + "unknown field 'tensor_tflops." + key + "' (known: tf32, fp16, bf16)"};
  return Ok{};
}

// "timing": every required field of kTimingFields, any of the optional ones, nothing else.
Status read_timing(const json& doc, std::string_view origin, DeviceProfile& p) {
  const auto it = doc.find("timing");
  if (it == doc.end()) return Ok{};
  if (!it->is_object()) return Error{where(origin) + "field 'timing' must be an object of measured figures"};
  MachineTiming timing;
  for (const TimingField& f : kTimingFields) {
    const std::string name = "timing." + std::string(f.name);
    const auto v = it->find(std::string(f.name));
    if (v == it->end()) {
      if (!f.required) continue;
      return Error{where(origin) + "field '" + name + "' is missing"};
    }
    if (!v->is_number() || !(v->get<double>() > 0 && v->get<double>() <= f.max))
      return Error{where(origin) + "field '" + name + "' must be a number in (0, " + number_text(f.max) + "], not " +
                   json_excerpt(*v)};
    timing.*f.member = v->get<double>();
  }
  for (const auto& [key, value] : it->items())
    if (std::none_of(std::begin(kTimingFields), std::end(kTimingFields),
                     [&](const TimingField& f) { return f.name == key; }))
      return Error{where(origin) + "unknown field 'timing." + key + "'"};
  // The clock line of wgmma kernels has two ends, and the busier tensor cores draw more power: a lower clock.
  if ((timing.wgmma_clock_mhz_pipe_idle > 0) != (timing.wgmma_clock_mhz_pipe_busy > 0))
    return Error{where(origin) + "fields 'timing.wgmma_clock_mhz_pipe_idle' and 'timing.wgmma_clock_mhz_pipe_busy' " +
                 "go together: give both ends of the clock's line or neither"};
  if (timing.wgmma_clock_mhz_pipe_busy > timing.wgmma_clock_mhz_pipe_idle)
    return Error{where(origin) + "field 'timing.wgmma_clock_mhz_pipe_busy' (" +
                 number_text(timing.wgmma_clock_mhz_pipe_busy) + ") must not exceed 'timing.wgmma_clock_mhz_pipe_idle' (" +
                 number_text(timing.wgmma_clock_mhz_pipe_idle) + "): busier tensor cores do not raise the clock"};
  if ((timing.tma_ring_alone_seconds > 0) != (timing.l2_tma_queue_bytes_per_second > 0))
    return Error{where(origin) + "fields 'timing.tma_ring_alone_seconds' and 'timing.l2_tma_queue_bytes_per_second' " +
                 "go together: a ring's time alone and the queue it waits in with every SM copying, or neither"};
  p.timing = timing;
  return Ok{};
}

// "sources" maps comma-separated field names to the public document each comes from; every numeric field present
// must be covered, and every name must be a field.
Status read_sources(const json& doc, std::string_view origin, DeviceProfile& p) {
  const auto it = doc.find("sources");
  if (it == doc.end()) return Error{where(origin) + "field 'sources' is missing: say where each figure comes from"};
  if (!it->is_object() || it->empty())
    return Error{where(origin) + "field 'sources' must be an object mapping field names to the documents they come from"};
  std::vector<std::string> covered;
  for (const auto& [key, value] : it->items()) {
    if (!value.is_string() || value.get<std::string>().empty())
      return Error{where(origin) + "sources entry '" + key + "' must name a document"};
    std::stringstream names(key);
    std::string name;
    while (std::getline(names, name, ',')) {
      name.erase(0, name.find_first_not_of(' '));
      name.erase(name.find_last_not_of(' ') + 1);
      const bool numeric = std::any_of(numeric_fields().begin(), numeric_fields().end(),
                                       [&](const NumericField& f) { return f.name == name; });
      if (!numeric && name != "tensor_tflops" && name != "timing")
        return Error{where(origin) + "sources entry '" + key + "' names '" + name + "', which is not a numeric field"};
      covered.push_back(name);
    }
    p.sources.emplace_back(key, value.get<std::string>());
  }
  std::vector<std::string> uncovered;
  for (const auto& f : numeric_fields())
    if (doc.contains(std::string(f.name)) && std::find(covered.begin(), covered.end(), f.name) == covered.end())
      uncovered.emplace_back(f.name);
  if (std::find(covered.begin(), covered.end(), "tensor_tflops") == covered.end()) uncovered.emplace_back("tensor_tflops");
  if (doc.contains("timing") && std::find(covered.begin(), covered.end(), "timing") == covered.end())
    uncovered.emplace_back("timing");
  if (!uncovered.empty()) return Error{where(origin) + "no entry in 'sources' for: " + join(uncovered)};
  return Ok{};
}

// Relations between fields that a real GPU satisfies; a profile that breaks one has a typo.
Status check_consistency(const DeviceProfile& p, std::string_view origin) {
  const auto fail = [&](const std::string& text) { return Error{where(origin) + text}; };
  if (p.smem_per_block_optin_bytes > p.smem_per_sm_bytes)
    return fail("field 'smem_per_block_optin_bytes' (" + std::to_string(p.smem_per_block_optin_bytes) +
                ") is larger than 'smem_per_sm_bytes' (" + std::to_string(p.smem_per_sm_bytes) + ")");
  if (p.smem_per_block_default_bytes > p.smem_per_block_optin_bytes)
    return fail("field 'smem_per_block_default_bytes' (" + std::to_string(p.smem_per_block_default_bytes) +
                ") is larger than 'smem_per_block_optin_bytes' (" + std::to_string(p.smem_per_block_optin_bytes) + ")");
  if (p.max_threads_per_sm % 32 != 0 || p.max_threads_per_block % 32 != 0)
    return fail("fields 'max_threads_per_sm' and 'max_threads_per_block' must be multiples of the warp size, 32");
  if (p.max_threads_per_block > p.max_threads_per_sm)
    return fail("field 'max_threads_per_block' (" + std::to_string(p.max_threads_per_block) +
                ") is larger than 'max_threads_per_sm' (" + std::to_string(p.max_threads_per_sm) + ")");
  if (p.registers_per_sm % p.warp_schedulers_per_sm != 0)
    return fail("field 'registers_per_sm' must divide evenly among the 'warp_schedulers_per_sm' partitions");
  if (p.base_clock_mhz > p.boost_clock_mhz)
    return fail("field 'base_clock_mhz' (" + std::to_string(p.base_clock_mhz) + ") is above 'boost_clock_mhz' (" +
                std::to_string(p.boost_clock_mhz) + ")");
  const double derived = 2.0 * p.sms * p.fp32_lanes_per_sm * p.boost_clock_mhz * 1e-6;
  if (std::abs(derived - p.fp32_tflops) > 0.05 * derived)
    return fail("field 'fp32_tflops' (" + number_text(p.fp32_tflops) + ") does not match sms x fp32_lanes_per_sm x 2 x " +
                "boost_clock_mhz = " + number_text(derived) + " TFLOPS (more than 5% apart): one of them is wrong");
  return Ok{};
}

}  // namespace

Result<DeviceProfile> parse_device_profile(std::string_view text, std::string_view origin) {
  auto parsed = parse_json_input(text);
  if (!parsed) return Error{where(origin) + parsed.error().message};
  const json& doc = *parsed;
  if (!doc.is_object()) return Error{where(origin) + "must be a JSON object of fields"};

  std::vector<std::string> known;
  for (const auto& f : numeric_fields()) known.emplace_back(f.name);
  for (const auto f : kOtherFields) known.emplace_back(f);
  for (const auto& [key, value] : doc.items())
    if (std::find(known.begin(), known.end(), key) == known.end())
      return Error{where(origin) + "unknown field '" + key + "' (known fields: " + join(known) + ")"};

  DeviceProfile p;
  for (const char* name : {"id", "name", "compute_capability"}) {
    auto value = string_field(doc, origin, name);
    if (!value) return value.error();
    (std::string_view(name) == "id" ? p.id : std::string_view(name) == "name" ? p.name : p.compute_capability) = *value;
  }
  if (!is_compute_capability(p.compute_capability))
    return Error{where(origin) + "field 'compute_capability' is \"" + p.compute_capability +
                 "\"; write it as MAJOR.MINOR, e.g. \"9.0\""};
  for (const auto& [field, names] : {std::pair{"aliases", &p.aliases}, std::pair{"cuda_names", &p.cuda_names}}) {
    const auto it = doc.find(field);
    if (it == doc.end()) continue;
    if (!it->is_array()) return Error{where(origin) + "field '" + field + "' must be a list of names"};
    for (const auto& name : *it) {
      if (!name.is_string() || name.get<std::string>().empty())
        return Error{where(origin) + "field '" + field + "' must be a list of non-empty strings"};
      names->push_back(name.get<std::string>());
    }
  }
  if (const auto it = doc.find("notes"); it != doc.end()) {
    if (!it->is_string()) return Error{where(origin) + "field 'notes' must be a string"};
    p.notes = it->get<std::string>();
  }
  for (const auto& field : numeric_fields())
    if (auto ok = read_numeric(doc, origin, field, p); !ok) return ok.error();
  if (auto ok = read_tensor(doc, origin, p); !ok) return ok.error();
  if (auto ok = read_timing(doc, origin, p); !ok) return ok.error();
  if (auto ok = read_sources(doc, origin, p); !ok) return ok.error();
  if (auto ok = check_consistency(p, origin); !ok) return ok.error();
  return p;
}

Result<DeviceProfile> load_device_profile_file(const std::string& path) {
  auto text = read_input_file(path, "device profile");
  if (!text) return text.error();
  return parse_device_profile(*text, path);
}

std::span<const std::string_view> builtin_device_ids() {
  static const auto ids = [] {
    std::vector<std::string_view> out;
    for (const auto& device : generated::kBuiltinDevices) out.push_back(device.file.substr(0, device.file.size() - 5));
    return out;
  }();
  return ids;
}

Result<DeviceProfile> with_clock(DeviceProfile device, double mhz) {
  if (!device.timing)
    return Error{"the " + device.name + " profile has no measured timing, so there is no time model to clock: leave "
                 "the clock out, or give a profile with a \"timing\" section"};
  if (!(mhz > 0)) return Error{"a clock must be above 0 MHz"};
  device.timing->sustained_clock_mhz_fma = device.timing->sustained_clock_mhz_tensor = mhz;
  device.timing->clock_given = true;
  return device;
}

Result<DeviceProfile> find_device(std::string_view name) {
  if (name.size() > 5 && name.substr(name.size() - 5) == ".json") return load_device_profile_file(std::string(name));
  std::string known;
  for (const auto& device : generated::kBuiltinDevices) {
    auto profile = parse_device_profile(device.json, device.file);
    if (!profile) return profile.error();  // a shipped profile is broken: the tests catch it before a user does
    if (profile->id == name || std::find(profile->aliases.begin(), profile->aliases.end(), name) != profile->aliases.end())
      return profile;
    known += (known.empty() ? "" : ", ") + profile->id;
    for (const auto& alias : profile->aliases) known += " (" + alias + ")";
  }
  return Error{"unknown device '" + std::string(name) + "'; known devices: " + known +
               ", or the path of a profile ending in .json"};
}

Result<DeviceProfile> find_device_for_gpu(std::string_view cuda_name) {
  std::string known;
  for (const auto& device : generated::kBuiltinDevices) {
    auto profile = parse_device_profile(device.json, device.file);
    if (!profile) return profile.error();
    if (std::ranges::find(profile->cuda_names, cuda_name) != profile->cuda_names.end()) return profile;
    for (const auto& name : profile->cuda_names) known += (known.empty() ? "" : ", ") + name;
  }
  return Error{"no shipped profile is of the " + std::string(cuda_name) + " (the profiles are of the " + known +
               "): name one with --profile, or measure one (tests/calibration/profile_probes.sh)"};
}

DeviceLimits device_limits(const DeviceProfile& device) {
  DeviceLimits limits{device.max_threads_per_block, device.smem_per_block_optin_bytes};
  limits.name = device.name;
  // "8.9" -> 8, 9; a profile without one keeps the defaults.
  if (const auto dot = device.compute_capability.find('.'); dot != std::string::npos) {
    limits.compute_capability_major = std::atoi(device.compute_capability.substr(0, dot).c_str());
    limits.compute_capability_minor = std::atoi(device.compute_capability.substr(dot + 1).c_str());
  }
  return limits;
}

}  // namespace gemmlab::sim
