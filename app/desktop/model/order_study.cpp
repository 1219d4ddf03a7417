#include "model/order_study.hpp"

#include <algorithm>
#include <cstdint>
#include <utility>

#include "gemmlab/gpu/instances.hpp"
#include "gemmlab/sim/launch_order.hpp"
#include "gemmlab/sim/simulate.hpp"

namespace gemmlab::desktop {

using kernel::OrderKind;

std::string OrderChoice::name() const {
  std::string out(sim::order_kind_name(kind));
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
                                                      const sim::Progress& progress) {
  auto counters = sim::simulate_kernel(rung, config, problem, sim::part_of(progress, 0.0, 0.5));
  if (!counters) return counters.error();
  auto prediction = sim::predict_schedule(rung, config, problem, *counters, order, device,
                                          gpu::compiled_facts(rung, config, device),
                                          sim::part_of(progress, 0.5, 1.0));
  if (!prediction) return prediction.error();

  auto study = std::make_shared<OrderStudy>();
  study->prediction = std::move(*prediction);
  const sim::L2Result& l2 = study->prediction.l2;
  const int tiles_m = l2.tiles_m, tiles_n = l2.tiles_n;
  // Positions as the L2 model walked the tiles (a persistent grid larger than the SMs hold runs its blocks in batches).
  const auto sequence = sim::tiles_in_flight(study->prediction).sequence;
  study->launch_position.assign(static_cast<std::size_t>(tiles_m) * static_cast<std::size_t>(tiles_n), -1);
  for (std::size_t i = 0; i < sequence.size(); ++i)
    study->launch_position[static_cast<std::size_t>(sequence[i].row) * static_cast<std::size_t>(tiles_n) +
                           static_cast<std::size_t>(sequence[i].col)] = static_cast<int>(i);
  const int cluster = study->prediction.shape.cluster;
  study->launch_index.assign(study->launch_position.size(), -1);
  for (int launch = 0; launch < kernel::launch_slots(tiles_m, tiles_n, order, cluster); ++launch)
    if (const kernel::TileCoord tile = kernel::tile_of_launch(launch, tiles_m, tiles_n, order, cluster);
        tile.row < tiles_m && tile.col < tiles_n)
      study->launch_index[static_cast<std::size_t>(tile.row) * static_cast<std::size_t>(tiles_n) +
                          static_cast<std::size_t>(tile.col)] = launch;

  for (int row = 0; row < tiles_m; ++row) study->a_row_fetches.push_back(l2.a_fetches.row_strip(row));
  for (int column = 0; column < tiles_n; ++column) study->b_column_fetches.push_back(l2.b_fetches.column_strip(column));

  // Each wave's footprint: the distinct tile rows and columns among its blocks.
  std::vector<int> row_seen(static_cast<std::size_t>(tiles_m), -1), column_seen(static_cast<std::size_t>(tiles_n), -1);
  for (const sim::WaveTraffic& traffic : l2.per_wave) {
    WaveFootprint wave{traffic.first_block, traffic.blocks, {}, {}};
    const int index = static_cast<int>(study->waves.size());
    for (int b = traffic.first_block; b < traffic.first_block + traffic.blocks; ++b) {
      const kernel::TileCoord tile = sequence[static_cast<std::size_t>(b)];
      if (std::exchange(row_seen[static_cast<std::size_t>(tile.row)], index) != index) wave.rows.push_back(tile.row);
      if (std::exchange(column_seen[static_cast<std::size_t>(tile.col)], index) != index) wave.columns.push_back(tile.col);
    }
    std::sort(wave.rows.begin(), wave.rows.end());
    std::sort(wave.columns.begin(), wave.columns.end());
    study->waves.push_back(std::move(wave));
  }
  return std::shared_ptr<const OrderStudy>(std::move(study));
}

}  // namespace gemmlab::desktop
