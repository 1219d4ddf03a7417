// The benchmark report as JSON (assets/results/*.json: the desktop app shows them on machines without a GPU) and CSV.
#include <nlohmann/json.hpp>

#include <cstdio>
#include <limits>
#include <vector>
#include <optional>

#include "gemmlab/gpu/bench.hpp"
#include "gemmlab/gpu/instances.hpp"
#include "gemmlab/json_input.hpp"
#include "gemmlab/sim/rung_model.hpp"
#include "gemmlab/sim/launch_order.hpp"

namespace gemmlab::gpu {
namespace {

constexpr std::string_view kSchema = "gemmlab-bench-1";

nlohmann::json device_json(const DeviceInfo& d) {
  return {{"name", d.name},
          {"pci_bus_id", d.pci_bus_id},
          {"compute_capability", std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor)},
          {"sm_count", d.sm_count},
          {"l2_bytes", d.l2_bytes},
          {"global_memory_bytes", d.global_memory_bytes},
          {"smem_per_block_optin_bytes", d.smem_per_block_optin_bytes},
          {"sm_clock_max_mhz", d.sm_clock_max_mhz},
          {"memory_clock_max_mhz", d.memory_clock_max_mhz}};
}

std::optional<BenchStatus> status_of(std::string_view text) {
  for (const BenchStatus s : {BenchStatus::Timed, BenchStatus::FailedVerification, BenchStatus::Refused})
    if (to_string(s) == text) return s;
  return std::nullopt;
}

// A number of a row: `fallback` where it is absent, an error where it is not a number (a hand-edited file can say
// anything).
Result<double> row_number(const nlohmann::json& jr, const char* key, double fallback) {
  const auto it = jr.find(key);
  if (it == jr.end()) return fallback;
  if (!it->is_number()) return Error{std::string(key).append(" must be a number, not ").append(json_excerpt(*it))};
  return it->get<double>();
}

// A whole number that fits T, at least `min`; `fallback` where absent, or an error where there is none. (A number
// outside T's range must be refused, not converted: for a double that would be undefined behaviour.)
template <class T>
Result<T> whole_field(const nlohmann::json& j, const char* key, T min, std::optional<T> fallback) {
  const auto it = j.find(key);
  if (it == j.end() && fallback) return *fallback;
  constexpr T max = std::numeric_limits<T>::max();
  if (it == j.end() || !it->is_number_integer() || *it < min || *it > nlohmann::json(max))
    return Error{std::string(1, '\'')
                     .append(key)
                     .append("' must be a whole number from " + std::to_string(min) + " to " + std::to_string(max))
                     .append(", not ")
                     .append(it == j.end() ? std::string("missing") : json_excerpt(*it))};
  return it->get<T>();
}

// Reads `j[key]` into `out` (0 or more; left as it is where absent unless `required`).
template <class T>
Status read_whole(const nlohmann::json& j, const char* key, T& out, bool required = false) {
  auto value = whole_field<T>(j, key, 0, required ? std::nullopt : std::optional<T>(out));
  if (!value) return value.error();
  out = *value;
  return Ok{};
}

// One row of a report; errors name the kernel and the field. (A wrong type in an optional text field throws
// nlohmann's type_error, which parse_bench_report_json reports.)
Result<BenchRow> parse_row(const nlohmann::json& jr) {
  if (!jr.is_object()) return Error{"must be an object, not " + json_excerpt(jr)};
  BenchRow row;
  if (!jr.contains("name") || !jr["name"].is_string()) return Error{"'name' must be the kernel's name"};
  row.name = jr["name"].get<std::string>();
  row.config = jr.value("config", "");
  // Reports from before the tensor-core rungs have no "input": every row was FP32.
  const std::string input = jr.value("input", "fp32");
  const auto type = kernel::find_input(input);
  if (!type) return Error{row.name + ": 'input' must be fp32, fp16 or bf16, not '" + input + "'"};
  row.input = *type;
  int size[3] = {};
  for (int i = 0; i < 3; ++i) {
    const auto value = whole_field<int>(jr, i == 0 ? "m" : i == 1 ? "n" : "k", 1, std::nullopt);
    if (!value) return Error{row.name + ": " + value.error().message};
    size[i] = *value;
  }
  row.shape = {size[0], size[1], size[2]};
  if (!jr.contains("status") || !jr["status"].is_string()) return Error{row.name + ": 'status' must be text"};
  const auto status = status_of(jr["status"].get<std::string>());
  if (!status) return Error{row.name + " has an unknown status '" + jr["status"].get<std::string>() + "'"};
  row.status = *status;
  row.message = jr.value("message", "");
  const auto runs = whole_field<int>(jr, "runs", 0, 0);
  if (!runs) return Error{row.name + ": " + runs.error().message};
  row.runs = *runs;
  const auto clock = whole_field<int>(jr, "sm_clock_mhz", 0, 0);
  if (!clock) return Error{row.name + ": " + clock.error().message};
  row.sm_clock_mhz = *clock;
  double* numbers[] = {&row.median_ms, &row.min_ms, &row.max_ms, &row.tflops, &row.ratio_to_cublas, &row.cublas_paired_ms};
  const char* keys[] = {"median_ms", "min_ms", "max_ms", "tflops", "ratio_to_cublas", "cublas_paired_ms"};
  for (std::size_t i = 0; i < std::size(keys); ++i) {
    auto value = row_number(jr, keys[i], 0.0);
    if (!value) return Error{row.name + " at " + to_string(row.shape) + ": " + value.error().message};
    if (!(*value >= 0.0))
      return Error{row.name + " at " + to_string(row.shape) + ": '" + keys[i] + "' is " + json_excerpt(jr[keys[i]]) +
                   "; times and rates cannot be negative"};
    *numbers[i] = *value;
  }
  if (row.status == BenchStatus::Timed && !(row.tflops > 0.0))
    return Error{row.name + " at " + to_string(row.shape) + " is timed but its 'tflops' is not above 0"};
  if (jr.contains("kernel_config")) {
    if (!jr["kernel_config"].is_object()) return Error{row.name + ": 'kernel_config' must be an object of knobs"};
    if (const auto rung = find_rung(row.name)) {
      kernel::KernelConfig config = sim::rung_model(*rung).defaults;  // a knob the file leaves out keeps its default
      for (const auto& knob : sim::all_knobs()) {
        if (!jr["kernel_config"].contains(std::string(knob.name))) continue;
        const auto value = whole_field<int>(jr["kernel_config"], std::string(knob.name).c_str(), 0, std::nullopt);
        if (!value) return Error{row.name + ": knob " + value.error().message};
        config.*knob.field = sim::recorded_knob_value(*rung, knob.name, *value);
      }
      row.kernel = GpuInstance{*rung, config};
      row.compiled_at_run_time = jr.value("compiled_at_run_time", false);
    }
  }
  return row;
}

}  // namespace

std::string bench_report_json(const BenchReport& r) {
  nlohmann::json rows = nlohmann::json::array();
  for (const BenchRow& row : r.rows) {
    nlohmann::json j = {{"name", row.name},         {"config", row.config},       {"input", kernel::input_name(row.input)},
                        {"m", row.shape.m},
                        {"n", row.shape.n},         {"k", row.shape.k},           {"status", to_string(row.status)},
                        {"message", row.message},   {"runs", row.runs},           {"median_ms", row.median_ms},
                        {"min_ms", row.min_ms},     {"max_ms", row.max_ms},       {"tflops", row.tflops},
                        {"ratio_to_cublas", row.ratio_to_cublas}, {"cublas_paired_ms", row.cublas_paired_ms},
                        {"sm_clock_mhz", row.sm_clock_mhz}};
    if (row.kernel) {
      nlohmann::json config;
      for (const auto& knob : sim::all_knobs()) config[std::string(knob.name)] = row.kernel->config.*knob.field;
      j["kernel_config"] = config;
      j["compiled_at_run_time"] = row.compiled_at_run_time;
    }
    rows.push_back(j);
  }
  const nlohmann::json out = {
      {"schema", kSchema},
      {"date_utc", r.date_utc},
      {"device", device_json(r.device)},
      {"software",
       {{"driver", r.software.driver},
        {"driver_cuda", format_cuda_version(r.software.driver_cuda_version)},
        {"runtime_cuda", format_cuda_version(r.software.runtime_version)},
        {"cublas", r.software.cublas}}},
      {"sm_clock_start_mhz", r.sm_clock_start_mhz},
      {"sm_clock_end_mhz", r.sm_clock_end_mhz},
      {"block_order", sim::order_name(r.order)},
      {"buffer_sets_max", r.buffer_sets_max},
      {"hold_seconds", r.hold_seconds},
      {"queued", r.queued},
      {"cancelled", r.cancelled},
      {"rows", rows}};
  return out.dump(2) + "\n";
}

std::string bench_report_csv(const BenchReport& r) {
  std::string out =
      "name,config,input,m,n,k,status,runs,median_ms,min_ms,max_ms,tflops,ratio_to_cublas,cublas_paired_ms,sm_clock_mhz,"
      "hold_seconds,message\n";
  const auto quoted = [](std::string text) {
    std::string q = "\"";
    for (const char ch : text) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return q + "\"";
  };
  for (const BenchRow& row : r.rows) {
    char numbers[256];
    // The run's hold on every line: it says what ratio_to_cublas is against (BenchRow).
    std::snprintf(numbers, sizeof numbers, "%d,%.6f,%.6f,%.6f,%.4f,%.4f,%.6f,%d,%g", row.runs, row.median_ms, row.min_ms,
                  row.max_ms, row.tflops, row.ratio_to_cublas, row.cublas_paired_ms, row.sm_clock_mhz, r.hold_seconds);
    out += row.name + "," + quoted(row.config) + "," + std::string(kernel::input_name(row.input)) + "," +
           std::to_string(row.shape.m) + "," + std::to_string(row.shape.n) +
           "," + std::to_string(row.shape.k) + "," + std::string(to_string(row.status)) + "," + numbers + "," +
           quoted(row.message) + "\n";
  }
  return out;
}

Result<BenchReport> parse_bench_report_json(std::string_view text) {
  auto parsed = parse_json_input(text);
  if (!parsed) return Error{"the benchmark report is not valid: " + parsed.error().message};
  try {
    const nlohmann::json& j = *parsed;
    if (j.value("schema", "") != kSchema)
      return Error{"not a gemmlab benchmark report (expected \"schema\": \"" + std::string(kSchema) + "\")"};
    BenchReport r;
    r.date_utc = j.at("date_utc").get<std::string>();
    const auto& d = j.at("device");
    r.device.name = d.at("name").get<std::string>();
    r.device.pci_bus_id = d.value("pci_bus_id", "");
    std::sscanf(d.value("compute_capability", "0.0").c_str(), "%d.%d", &r.device.cc_major, &r.device.cc_minor);
    // Each count and size where the report gives it, checked before it is stored.
    std::vector<Status> fields = {
        read_whole(d, "sm_count", r.device.sm_count, /*required=*/true),
        read_whole(d, "l2_bytes", r.device.l2_bytes),
        read_whole(d, "global_memory_bytes", r.device.global_memory_bytes),
        read_whole(d, "smem_per_block_optin_bytes", r.device.smem_per_block_optin_bytes),
        read_whole(d, "sm_clock_max_mhz", r.device.sm_clock_max_mhz),
        read_whole(d, "memory_clock_max_mhz", r.device.memory_clock_max_mhz),
        read_whole(j, "sm_clock_start_mhz", r.sm_clock_start_mhz),
        read_whole(j, "sm_clock_end_mhz", r.sm_clock_end_mhz),
        read_whole(j, "buffer_sets_max", r.buffer_sets_max)};
    for (const auto& field : fields)
      if (!field) return Error{"the benchmark report is not valid: " + field.error().message};
    const auto& s = j.at("software");
    r.software.driver = s.value("driver", "");
    r.software.driver_cuda_version = parse_cuda_version(s.value("driver_cuda", ""));
    r.software.runtime_version = parse_cuda_version(s.value("runtime_cuda", ""));
    r.software.cublas = s.value("cublas", "");
    auto order = sim::parse_order(j.value("block_order", "row"));
    if (!order) return order.error();
    r.order = *order;
    r.cancelled = j.value("cancelled", false);
    r.hold_seconds = j.value("hold_seconds", 0.0);  // absent from reports older than the option: not held
    if (!(r.hold_seconds >= 0)) return Error{"the benchmark report is not valid: hold_seconds must be 0 or more"};
    r.queued = j.value("queued", false);  // absent from reports older than the gate: each run as the host submitted it
    const auto& rows = j.at("rows");
    if (!rows.is_array()) return Error{"\"rows\" must be a list of rows"};
    for (std::size_t index = 0; index < rows.size(); ++index) {
      auto row = parse_row(rows[index]);
      if (!row) return Error{"row " + std::to_string(index + 1) + ": " + row.error().message};
      r.rows.push_back(std::move(*row));
    }
    return r;
  } catch (const nlohmann::json::exception& e) {
    return Error{std::string("the benchmark report is not valid: ") + e.what()};
  }
}

}  // namespace gemmlab::gpu
