#include "model/order_study.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>

#include "gemmlab/gpu/instances.hpp"
#include "gemmlab/sim/launch_order.hpp"
#include "gemmlab/sim/simulate.hpp"

namespace gemmlab::desktop {
namespace {

using kernel::OrderKind;

constexpr std::array<std::pair<OrderKind, std::string_view>, 4> kKindNames = {
    {{OrderKind::RowMajor, "row"}, {OrderKind::ColumnMajor, "col"}, {OrderKind::Cutlass, "cutlass"},
     {OrderKind::GroupM, "groupm"}}};

constexpr double kBytesPerElement = 4.0;  // every rung reads FP32 A and B
constexpr double kSectorBytes = 32.0;

// Sectors fetched over all k-steps, summed per row (A: rows are tile rows) or per column (B: columns are tile columns).
std::vector<std::int64_t> fetched_sums(const sim::TileFetches& f, bool per_row) {
  std::vector<std::int64_t> sums(static_cast<std::size_t>(per_row ? f.rows : f.cols), 0);
  for (int r = 0; r < f.rows; ++r)
    for (int c = 0; c < f.cols; ++c)
      sums[static_cast<std::size_t>(per_row ? r : c)] +=
          f.fetched_sectors[static_cast<std::size_t>(r) * static_cast<std::size_t>(f.cols) + static_cast<std::size_t>(c)];
  return sums;
}

// Fetched bytes over the strip's own bytes: strip i has `span(i)` rows (A) or columns (B) of k elements each.
template <typename Span>
std::vector<double> times_fetched(const std::vector<std::int64_t>& sectors, int k, Span span) {
  std::vector<double> out(sectors.size(), 0.0);
  for (std::size_t i = 0; i < sectors.size(); ++i) {
    const double bytes = static_cast<double>(span(static_cast<int>(i))) * k * kBytesPerElement;
    out[i] = bytes > 0 ? static_cast<double>(sectors[i]) * kSectorBytes / bytes : 0.0;
  }
  return out;
}

}  // namespace

std::string_view order_kind_name(OrderKind kind) {
  for (const auto& [k, name] : kKindNames)
    if (k == kind) return name;
  return "row";
}

std::optional<OrderKind> find_order_kind(std::string_view name) {
  for (const auto& [kind, n] : kKindNames)
    if (n == name) return kind;
  return std::nullopt;
}

std::string OrderChoice::name() const {
  std::string out(order_kind_name(kind));
  if (grouped()) {
    out += ':';  // appended piece by piece: GCC 12 warns falsely about ":" + std::string
    out += std::to_string(group_size);
  }
  return out;
}

Result<kernel::BlockOrder> OrderChoice::order() const { return sim::parse_order(name()); }

Result<OrderChoice> parse_order_choice(std::string_view text, int group_size) {
  auto order = sim::parse_order(text);
  if (!order) return order.error();
  OrderChoice choice{order->kind, group_size};
  if (order->kind == OrderKind::Cutlass) choice.group_size = 1 << order->param;
  if (order->kind == OrderKind::GroupM) choice.group_size = order->param;
  return choice;
}

Result<std::shared_ptr<const OrderStudy>> study_order(RungId rung, const kernel::KernelConfig& config,
                                                      const sim::Problem& problem, kernel::BlockOrder order,
                                                      const sim::DeviceProfile& device,
                                                      const sim::L2Progress& progress) {
  auto counters = sim::simulate_kernel(rung, config, problem);
  if (!counters) return counters.error();
  auto prediction = sim::predict_schedule(rung, config, problem, *counters, order, device,
                                          gpu::measured_registers(rung, config, device), progress);
  if (!prediction) return prediction.error();

  auto study = std::make_shared<OrderStudy>();
  study->prediction = std::move(*prediction);
  const sim::L2Result& l2 = study->prediction.l2;
  const int tiles_m = l2.tiles_m, tiles_n = l2.tiles_n;
  const auto sequence = sim::launch_sequence(tiles_m, tiles_n, order);
  study->launch_position.assign(static_cast<std::size_t>(tiles_m) * static_cast<std::size_t>(tiles_n), -1);
  for (std::size_t i = 0; i < sequence.size(); ++i)
    study->launch_position[static_cast<std::size_t>(sequence[i].row) * static_cast<std::size_t>(tiles_n) +
                           static_cast<std::size_t>(sequence[i].col)] = static_cast<int>(i);

  const int bm = config.bm, bn = config.bn;
  study->a_row_fetches = times_fetched(fetched_sums(l2.a_fetches, true), problem.k,
                                       [&](int row) { return std::min(bm, problem.m - row * bm); });
  study->b_column_fetches = times_fetched(fetched_sums(l2.b_fetches, false), problem.k,
                                          [&](int column) { return std::min(bn, problem.n - column * bn); });

  // Each wave's footprint: the distinct tile rows and columns among its blocks.
  std::vector<int> row_seen(static_cast<std::size_t>(tiles_m), -1), column_seen(static_cast<std::size_t>(tiles_n), -1);
  for (const sim::WaveTraffic& traffic : l2.per_wave) {
    WaveFootprint wave{traffic.first_block, traffic.blocks, 0, 0};
    const int index = static_cast<int>(study->waves.size());
    for (int b = traffic.first_block; b < traffic.first_block + traffic.blocks; ++b) {
      const kernel::TileCoord tile = sequence[static_cast<std::size_t>(b)];
      if (std::exchange(row_seen[static_cast<std::size_t>(tile.row)], index) != index) ++wave.tile_rows;
      if (std::exchange(column_seen[static_cast<std::size_t>(tile.col)], index) != index) ++wave.tile_columns;
    }
    study->waves.push_back(wave);
  }
  return std::shared_ptr<const OrderStudy>(std::move(study));
}

}  // namespace gemmlab::desktop
