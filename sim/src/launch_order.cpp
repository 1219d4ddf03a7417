#include "gemmlab/sim/launch_order.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <utility>

namespace gemmlab::sim {
namespace {

using kernel::BlockOrder;
using kernel::OrderKind;

constexpr std::array<std::pair<OrderKind, std::string_view>, 5> kKindNames = {
    {{OrderKind::RowMajor, "row"}, {OrderKind::ColumnMajor, "col"}, {OrderKind::Cutlass, "cutlass"},
     {OrderKind::GroupM, "groupm"}, {OrderKind::Hilbert, "hilbert"}}};

constexpr std::string_view kOrderHelp = "row, col, cutlass:N (N = 1, 2, 4, 8, ...), groupm:N (N >= 1) or hilbert";

}  // namespace

std::string_view order_names_help() { return kOrderHelp; }

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

Result<BlockOrder> parse_order(std::string_view text) {
  const auto colon = text.find(':');
  const auto found = find_order_kind(text.substr(0, colon));
  const bool grouped = found && (*found == OrderKind::Cutlass || *found == OrderKind::GroupM);
  if (!found || grouped != (colon != std::string_view::npos))
    return Error{"unknown launch order '" + std::string(text) + "'; use " + std::string(kOrderHelp)};
  if (!grouped) return BlockOrder{*found, 0};
  const std::string_view kind = order_kind_name(*found);
  const std::string_view number = text.substr(colon + 1);
  long long size = 0;
  const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), size);
  if (ec != std::errc{} || end != number.data() + number.size())
    return Error{"the size in launch order '" + std::string(text) + "' is not a whole number; use " +
                 std::string(kOrderHelp)};
  if (size <= 0)
    return Error{"the " + std::string(kind == "cutlass" ? "swizzle width" : "group size") + " in launch order '" +
                 std::string(text) + "' must be at least 1"};
  if (size > (1 << 20))
    return Error{"the size in launch order '" + std::string(text) + "' is larger than any grid gemmlab accepts"};
  if (kind == "groupm") return BlockOrder{OrderKind::GroupM, static_cast<int>(size)};
  if ((size & (size - 1)) != 0)
    return Error{"the swizzle width in launch order '" + std::string(text) +
                 "' must be a power of two (CUTLASS's GemmIdentityThreadblockSwizzle<N> shifts by log2 N)"};
  int log = 0;
  while ((1LL << log) < size) ++log;
  return BlockOrder{OrderKind::Cutlass, log};
}

Status validate_order(BlockOrder order, int tiles_m, int tiles_n, int cluster) {
  tiles_m /= cluster;
  const std::string grid = std::to_string(tiles_m) + " x " + std::to_string(tiles_n);
  switch (order.kind) {
    case OrderKind::RowMajor:
    case OrderKind::ColumnMajor:
    case OrderKind::Hilbert: return Ok{};
    case OrderKind::Cutlass:
      if (order.param < 0 || order.param > 20)
        return Error{"the CUTLASS swizzle's log2 width must be in [0, 20], not " + std::to_string(order.param)};
      if ((1 << order.param) > tiles_n)
        return Error{"the swizzle width " + std::to_string(1 << order.param) + " of " + order_name(order) +
                     " is larger than the grid's " + std::to_string(tiles_n) + " tile columns (grid " + grid +
                     "): use a width of at most " + std::to_string(tiles_n)};
      return Ok{};
    case OrderKind::GroupM:
      if (order.param < 1) return Error{"the group size of groupm must be at least 1, not " + std::to_string(order.param)};
      if (order.param > tiles_m)
        return Error{"the group size " + std::to_string(order.param) + " of " + order_name(order) +
                     " is larger than the grid's " + std::to_string(tiles_m) + " tile rows (grid " + grid +
                     "): use a group of at most " + std::to_string(tiles_m)};
      return Ok{};
  }
  return Error{"unknown launch order kind"};
}

std::string order_name(BlockOrder order) {
  switch (order.kind) {
    case OrderKind::RowMajor:
    case OrderKind::ColumnMajor:
    case OrderKind::Hilbert: return std::string(order_kind_name(order.kind));
    case OrderKind::Cutlass: return "cutlass:" + std::to_string(1 << order.param);
    case OrderKind::GroupM: return "groupm:" + std::to_string(order.param);
  }
  return "?";
}

std::string order_description(BlockOrder order) {
  switch (order.kind) {
    case OrderKind::RowMajor:
      return "row-major: blockIdx.x walks the tile columns of one tile row, then the next row (CUDA's default)";
    case OrderKind::ColumnMajor: return "column-major: the launch walks down a tile column, then the next column";
    case OrderKind::Cutlass:
      return "CUTLASS swizzle of width " + std::to_string(1 << order.param) + ": the launch walks down a band of " +
             std::to_string(1 << order.param) + " tile columns, row by row, before the next band";
    case OrderKind::GroupM:
      return "Triton GROUP_M = " + std::to_string(order.param) + ": groups of " + std::to_string(order.param) +
             " tile rows, each walked column by column, so blocks running together share A rows and B columns";
    case OrderKind::Hilbert:
      return "Hilbert curve: the launch follows a space-filling curve over the tiles, so blocks running together "
             "cover a compact patch and share A rows and B columns in both directions";
  }
  return "";
}

std::vector<kernel::TileCoord> launch_sequence(int tiles_m, int tiles_n, BlockOrder order, int cluster) {
  std::vector<kernel::TileCoord> out;
  out.reserve(static_cast<std::size_t>(tiles_m) * static_cast<std::size_t>(tiles_n));
  const int slots = kernel::launch_slots(tiles_m, tiles_n, order, cluster);
  for (int launch = 0; launch < slots; ++launch) {
    const auto tile = kernel::tile_of_launch(launch, tiles_m, tiles_n, order, cluster);
    if (tile.row < tiles_m && tile.col < tiles_n) out.push_back(tile);
  }
  return out;
}

TilesInFlight tiles_in_flight(int tiles_m, int tiles_n, BlockOrder order, int cluster, int resident,
                              int persistent_blocks, bool stream_k) {
  const int grid = persistent_blocks;
  TilesInFlight out{{}, grid > 0 ? std::min(resident, grid) : resident};
  if (grid <= resident || stream_k) {
    out.sequence = launch_sequence(tiles_m, tiles_n, order, cluster);
    return out;
  }
  const int slots = kernel::launch_slots(tiles_m, tiles_n, order, cluster);
  out.sequence.reserve(static_cast<std::size_t>(tiles_m) * static_cast<std::size_t>(tiles_n));
  for (int first = 0; first < grid; first += resident)  // a batch of the blocks that fit at once
    for (int round = 0; std::int64_t(round) * grid < slots; ++round)
      for (int block = first; block < std::min(grid, first + resident); ++block) {
        const std::int64_t launch = std::int64_t(round) * grid + block;
        if (launch >= slots) break;
        const auto tile = kernel::tile_of_launch(static_cast<int>(launch), tiles_m, tiles_n, order, cluster);
        if (tile.row < tiles_m && tile.col < tiles_n) out.sequence.push_back(tile);
      }
  return out;
}

}  // namespace gemmlab::sim
