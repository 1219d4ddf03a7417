#pragma once
// Occupancy, L2 and roofline figures as text and JSON, for `schedule` and `sim`.
#include <iosfwd>
#include <span>
#include <string>
#include <string_view>
#include <nlohmann/json.hpp>

#include "common/recorded_orders.hpp"
#include "gemmlab/sim/schedule_prediction.hpp"

namespace gemmlab::cli {

// `value` with `digits` decimals: fixed(21.19, 1) is "21.2".
std::string fixed(double value, int digits);

// The L2's size and what the L2 model holds of it: "60 MiB (the model holds 40 MiB of it: l2_held_share 0.667)".
std::string l2_size_text(const sim::DeviceProfile& device);

void print_occupancy(const sim::SchedulePrediction& p, std::ostream& out);
// The L2 model's totals; with `waves_shown` > 0, also a per-wave table (the first waves and the last).
void print_l2(const sim::SchedulePrediction& p, int waves_shown, std::ostream& out);
void print_roofline(const sim::SchedulePrediction& p, std::ostream& out);
// The time model's terms, the prediction and the limit in a sentence (or why there is none for this device).
void print_time_model(const sim::SchedulePrediction& p, std::ostream& out);

// The recorded runs of the same kernel in launch orders (common::measured_orders), GPU by GPU, `this_order` marked
// and each other order's time against it: what the order changed on the hardware. Nothing where none is recorded.
void print_measured_orders(std::span<const common::MeasuredOrder> measured, std::string_view this_order,
                           std::ostream& out);

nlohmann::json occupancy_json(const sim::SchedulePrediction& p);
// With `per_wave`, each wave's traffic and predicted time; with `tiles`, the per-tile fetch counts of A and B.
nlohmann::json l2_json(const sim::SchedulePrediction& p, bool per_wave, bool tiles);
nlohmann::json roofline_json(const sim::SchedulePrediction& p);
nlohmann::json time_model_json(const sim::SchedulePrediction& p);
// The time model's figures laid out copy by copy over the busiest SM's k-steps (sim::predicted_pipeline): the medians
// a trace's summary measures (a k-step, a copy's issue to its use, the consumers' and the producer's waits).
nlohmann::json pipeline_json(const sim::SchedulePrediction& p);
nlohmann::json measured_orders_json(std::span<const common::MeasuredOrder> measured);

// Predictions are the model's; the H100 measurements beside them are a separate step (docs/scheduling.md).
inline constexpr const char* kNotMeasured = "predicted by the model, not measured";

}  // namespace gemmlab::cli
