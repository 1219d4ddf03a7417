// Launch order & L2: the grid of output tiles, coloured by wave or by launch order, for two launch orders side by
// side; beside each grid, heat strips of how many times each tile row of A and tile column of B came from DRAM; the
// L2 hit rates, DRAM bytes and predicted speed of each order; and a wave stepper that shows which tiles run together.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "gemmlab/kernel/block_order.hpp"
#include "gemmlab/kernel/context.hpp"
#include "gemmlab/sim/launch_order.hpp"
#include "panels/grid_drawing.hpp"
#include "panels/panel_widgets.hpp"
#include "panels/panels.hpp"
#include "ui/canvas.hpp"
#include "ui/glossary.hpp"
#include "ui/quantities.hpp"
#include "ui/theme.hpp"

namespace gemmlab::desktop {
namespace {

namespace colour = ui::colour;
using kernel::OrderKind;

constexpr const char* kSideNames[] = {"left", "right"};
constexpr float kEarlierWave = 0.40f;  // how much of their colour waves before the selected one keep

struct KindEntry {
  OrderKind kind;
  const char* label;
};
constexpr KindEntry kKinds[] = {{OrderKind::RowMajor, "row-major (CUDA's default)"},
                                {OrderKind::ColumnMajor, "column-major"},
                                {OrderKind::Cutlass, "CUTLASS swizzle (cutlass:N)"},
                                {OrderKind::GroupM, "Triton GROUP_M (groupm:N)"},
                                {OrderKind::Hilbert, "Hilbert curve (hilbert)"}};

const char* kind_label(OrderKind kind) {
  for (const auto& entry : kKinds)
    if (entry.kind == kind) return entry.label;
  return "?";
}

// Where the strips and the grid sit on the canvas, in cells: B's strip above the grid, A's to its left, as A, B and C
// sit around a matrix product on paper. A tile is tile_w x tile_h cells, bn x bm to scale.
struct Layout {
  int tiles_m = 0, tiles_n = 0;
  int tile_w = 1, tile_h = 1;
  int strip = 1;     // the strips' thickness
  float gap = 0.5f;  // between a strip and the grid
  int columns() const { return tiles_n * tile_w; }
  int rows() const { return tiles_m * tile_h; }
  float grid_x() const { return static_cast<float>(strip) + gap; }
  float grid_y() const { return grid_x(); }
  float width() const { return grid_x() + static_cast<float>(columns()); }
  float height() const { return grid_y() + static_cast<float>(rows()); }
  // The tile row and column under a content point (either may be outside the grid).
  int row_at(float y) const { return static_cast<int>(std::floor((y - grid_y()) / static_cast<float>(tile_h))); }
  int column_at(float x) const { return static_cast<int>(std::floor((x - grid_x()) / static_cast<float>(tile_w))); }
};

Layout layout_of(const OrderStudy& study, const kernel::KernelConfig& config) {
  Layout l;
  l.tiles_m = study.tiles_m(), l.tiles_n = study.tiles_n();
  const int common = std::gcd(config.bm, config.bn);
  const int w = config.bn / common, h = config.bm / common;
  // To scale when a tile takes a few cells (128 x 256: 1 x 2); square otherwise, to keep the texture small.
  if (w * h <= 16 && static_cast<std::int64_t>(l.tiles_n) * w * l.tiles_m * h <= (std::int64_t{1} << 22))
    l.tile_w = w, l.tile_h = h;
  l.strip = std::max(1, static_cast<int>(std::lround(0.06 * std::max(l.columns(), l.rows()))));
  l.gap = std::max(0.5f, 0.35f * static_cast<float>(l.strip));
  return l;
}

// The largest "times from DRAM" of any strip on show (at least 2), so both sides share one colour scale.
double heat_scale(const AppModel& model) {
  double most = 2.0;
  for (int side = 0; side < OrderComparison::kSides; ++side)
    if (const auto study = model.orders().study(side)) {
      for (const auto& strip : study->a_row_fetches) most = std::max(most, strip.times());
      for (const auto& strip : study->b_column_fetches) most = std::max(most, strip.times());
    }
  return most;
}

// Once (the floor) is the coolest colour, the most re-fetched strip on show the hottest.
ImU32 heat_colour(double times, double heat_max) {
  return colour::heat(static_cast<float>((times - 1.0) / (heat_max - 1.0)));
}

// "1.46 ms", "85 us": times of a kernel.
std::string time_text(double seconds) {
  char text[32];
  if (seconds >= 1e-4) std::snprintf(text, sizeof text, "%.2f ms", seconds * 1e3);
  else std::snprintf(text, sizeof text, "%.0f us", seconds * 1e6);
  return text;
}

ImU32 tile_colour(const OrderStudy& study, int row, int column, GridColouring colouring, int selected_wave) {
  const int position = study.position_of(row, column);
  const int wave = study.wave_of_position(position);
  if (selected_wave >= 0 && wave > selected_wave) return colour::empty_cell;  // not launched yet
  const int blocks = std::max(1, static_cast<int>(study.launch_position.size()) - 1);
  const ImU32 full = colouring == GridColouring::Wave
                         ? colour::wave(wave)
                         : colour::sequence(static_cast<float>(position) / static_cast<float>(blocks));
  if (selected_wave < 0 || wave == selected_wave) return full;
  // Waves that ran before the selected one: their colour, faded towards the empty tiles' grey.
  const ImVec4 c = colour::to_vec4(full), grey = colour::to_vec4(colour::empty_cell);
  const float keep = kEarlierWave;
  return ImGui::ColorConvertFloat4ToU32(ImVec4(grey.x + (c.x - grey.x) * keep, grey.y + (c.y - grey.y) * keep,
                                               grey.z + (c.z - grey.z) * keep, 1.0f));
}

bool is_light(ImU32 c) {
  const ImVec4 v = colour::to_vec4(c);
  return 0.3f * v.x + 0.59f * v.y + 0.11f * v.z > 0.5f;
}

// The order picker: the kind, and the group size for the grouped kinds. Changes go to the model at once.
void order_picker(AppModel& model, int side) {
  OrderComparison& orders = model.orders();
  OrderChoice choice = orders.choice(side);
  ImGui::PushID(side);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14.0f);
  if (ImGui::BeginCombo("##kind", kind_label(choice.kind))) {
    for (const auto& entry : kKinds)
      if (ImGui::Selectable(entry.label, entry.kind == choice.kind)) {
        choice.kind = entry.kind;
        orders.set_choice(side, choice);
      }
    ImGui::EndCombo();
  }
  ui::term_tooltip_for_last_item("launch order");
  if (choice.grouped()) {
    ImGui::SameLine();
    ImGui::AlignTextToFramePadding();
    ui::term("group size", "N");
    ImGui::SameLine();
    int size = choice.group_size;
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6.0f);
    if (ImGui::InputInt("##size", &size)) {
      // CUTLASS's widths are powers of two: its - and + halve and double.
      if (choice.kind == OrderKind::Cutlass && size == choice.group_size + 1) size = choice.group_size * 2;
      if (choice.kind == OrderKind::Cutlass && size == choice.group_size - 1) size = std::max(1, choice.group_size / 2);
      choice.group_size = size;
      orders.set_choice(side, choice);
    }
    ui::term_tooltip_for_last_item("group size");
    ImGui::SameLine();
    ui::term("block swizzle", "(what is this?)");
  }
  ImGui::PopID();
}

// Stream-K (rung 23): the tile at launch index `launch` is computed in pieces, each a block's range of its k-steps
// (kernel::StreamKPlan::piece, the walk the kernel takes seen from the tile); a cluster's blocks take the same pieces
// of its vertically adjacent tiles.
struct StreamKTile {
  const kernel::StreamKPlan& plan;
  int cluster = 1, launch = 0;
  int tile() const { return launch / cluster; }
  int pieces() const { return plan.pieces(tile()); }
  kernel::StreamKPlan::Piece piece(int p) const { return plan.piece(tile(), p); }
  int block(int p) const { return piece(p).unit * cluster + launch % cluster; }
  // The piece that computes k-step `kstep`.
  int piece_at(int kstep) const {
    int p = 0;
    while (p + 1 < pieces() && piece(p).end <= kstep) ++p;
    return p;
  }
};

StreamKTile stream_k_tile(const OrderStudy& study, int row, int column) {
  return {study.prediction.shape.plan, study.prediction.shape.cluster, study.launch_index_of(row, column)};
}

// The side's figures: L2 hit rates, DRAM traffic, the predicted speed, and the selected wave's own figures.
void side_figures(const AppModel& model, const OrderStudy& study) {
  const sim::L2Result& l2 = study.prediction.l2;
  const float column = ImGui::GetFontSize() * 8.5f;
  ui::term("L2 hit rate");
  ImGui::SameLine(column);
  ImGui::Text("A %.1f%%   B %.1f%%   all reads %.1f%%", 100.0 * l2.a.hit_rate(), 100.0 * l2.b.hit_rate(),
              100.0 * l2.reads().hit_rate());
  ui::term("DRAM bytes", "DRAM read");
  ImGui::SameLine(column);
  const double floor = static_cast<double>(std::max<std::int64_t>(1, l2.min_dram_read_bytes));
  ImGui::Text("%s, %.2fx the floor (%s: every byte once)", ui::dram_bytes_text(static_cast<double>(l2.dram_read_bytes)).c_str(),
              static_cast<double>(l2.dram_read_bytes) / floor, ui::dram_bytes_text(floor).c_str());
  ui::term("DRAM bytes", "DRAM written");
  ImGui::SameLine(column);
  ImGui::Text("%s (C, written back once)", ui::dram_bytes_text(static_cast<double>(l2.dram_write_bytes)).c_str());
  const sim::PredictedSpeed speed = sim::predicted_speed(study.prediction);
  ui::term(speed.from_time_model ? "time model" : "roofline", "predicted");
  ImGui::SameLine(column);
  ImGui::Text("%.1f TFLOPS, %s (DRAM alone: %s)", speed.tflops, time_text(speed.seconds).c_str(),
              time_text(speed.dram_seconds).c_str());

  // How the launch groups its blocks, where the rung does (rungs 19 and 20).
  if (study.prediction.shape.cluster > 1)
    ui::note_text("Clusters of %d: consecutive launches are one cluster, %d vertically adjacent tiles of one column; "
                  "the order walks clusters (outlined), and each cluster reads its B tile from L2 once (TMA multicast).",
                  study.prediction.shape.cluster, study.prediction.shape.cluster);
  if (const int splits = study.prediction.shape.splits; splits > 1)
    ui::note_text("Split-K: each tile's k-steps cut into %d ranges of up to %d, a block each, launched one after "
                  "another (the lines inside a tile); a wave here is the %d tiles whose ranges run together, and %s.",
                  splits, study.prediction.shape.ksteps, study.blocks_per_wave(),
                  model.config().workspace ? "each tile's last range adds the others' sums from a workspace into C"
                                           : "the ranges of a tile add up in C in turn");
  if (const sim::LaunchShape& shape = study.prediction.shape; shape.stream_k) {
    const kernel::StreamKPlan& plan = shape.plan;
    const int blocks = plan.units * shape.cluster;
    const long long shared = plan.shared_iterations();
    ui::note_text("Stream-K: %d blocks share the k-steps equally. First %d whole tile%s each (block b: launches b, "
                  "b + %d, ...), then the last %d tiles' k-steps in %d ranges of about %lld, each starting and ending "
                  "where it falls (the lines inside a tile); a tile's pieces add up in C in turn. The L2 model walks "
                  "those ranges as the blocks do, each at its own tile and k-step, so they share less of the L2 than "
                  "whole tiles would. Hover a tile to see who computes which of its k-steps, and to outline every "
                  "piece of that block.",
                  blocks, plan.whole_waves(), plan.whole_waves() == 1 ? "" : "s", blocks,
                  (plan.tiles - plan.whole_tiles()) * shape.cluster, plan.units,
                  plan.units > 0 ? (shared + plan.units - 1) / plan.units : 0LL);
  } else if (const int grid = model.config().grid; grid > 0) {
    ui::note_text("Persistent: %d blocks, block b computing the tiles of launches b, b + %d, ...; a wave here is the "
                  "%d tiles they compute at the same time (where more blocks are launched than fit, those that fit walk "
                  "all their tiles first), in the order shown. Hover a tile to outline its block's.",
                  grid, grid, l2.waves.blocks_per_wave);
  }
  const int wave = model.orders().selected_wave();
  if (wave < 0 || wave >= static_cast<int>(study.waves.size())) {
    if (l2.waves.waves == 1) ui::note_text("One wave: every block runs at the same time.");
    else ui::note_text("All %d waves. Pick one with the arrows above (or Left / Right) to see what runs together.",
                       l2.waves.waves);
    return;
  }
  const WaveFootprint& f = study.waves[static_cast<std::size_t>(wave)];
  const sim::WaveTraffic& t = l2.per_wave[static_cast<std::size_t>(wave)];
  ui::coloured_text(colour::wave(wave), "Wave %s:", index_of(wave, l2.waves.waves).c_str());
  ImGui::SameLine();
  ImGui::TextWrapped("%d blocks on %d tile rows x %d tile columns, so each k-step reads %d tiles of A and %d of B. "
                     "A hit %.1f%%, B hit %.1f%%, DRAM read %s.",
                     f.blocks, f.tile_rows(), f.tile_columns(), f.tile_rows(), f.tile_columns(), 100.0 * t.a.hit_rate(),
                     100.0 * t.b.hit_rate(), ui::dram_bytes_text(static_cast<double>(t.dram_read_bytes)).c_str());
}

// What a heat strip's entry stands for: tile row `index` of A (bm rows of m, all k columns) or tile column of B.
void strip_tooltip(const char* what, const char* along, const char* across, int index, int tile, int extent, int k,
                   const sim::StripFetches& strip) {
  ImGui::SetTooltip("%s %d: %s %d-%d, all %d %s (%s)\ncame from DRAM %.2f times: %s", what, index, along, index * tile,
                    std::min(extent, (index + 1) * tile) - 1, k, across,
                    ui::dram_bytes_text(static_cast<double>(strip.once_bytes())).c_str(), strip.times(),
                    ui::dram_bytes_text(static_cast<double>(strip.fetched_bytes())).c_str());
}

// The grid, its heat strips, launch numbers when there is room, and what is under the pointer.
void side_canvas(PanelContext& context, int side, const OrderStudy& study, double heat_max, float height) {
  AppModel& model = context.model;
  OrderComparison& orders = model.orders();
  const sim::Problem& problem = model.problem();
  const kernel::KernelConfig& config = model.config();
  const Layout l = layout_of(study, config);
  const std::string id = std::string("launch-order-") + kSideNames[side];
  ui::Canvas canvas(id.c_str(), ImVec2(0, height), model.view_transform(id), l.width(), l.height());
  ImDrawList* draw = canvas.draw();
  draw->AddRect(canvas.min(), canvas.max(), IM_COL32(60, 64, 76, 255));

  const int selected = orders.selected_wave();
  const GridColouring colouring = orders.grid_colouring();
  const auto columns = static_cast<std::size_t>(l.columns());
  std::vector<ImU32> cells(columns * static_cast<std::size_t>(l.rows()));
  for (int r = 0; r < l.tiles_m; ++r)
    for (int c = 0; c < l.tiles_n; ++c) {
      const ImU32 fill = tile_colour(study, r, c, colouring, selected);
      for (int y = r * l.tile_h; y < (r + 1) * l.tile_h; ++y)
        std::fill_n(cells.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(y) * columns +
                                                                static_cast<std::size_t>(c * l.tile_w)),
                    l.tile_w, fill);
    }
  std::vector<ImU32> a_strip, b_strip;
  for (const auto& strip : study.a_row_fetches)
    a_strip.insert(a_strip.end(), static_cast<std::size_t>(l.strip * l.tile_h), heat_colour(strip.times(), heat_max));
  for (int r = 0; r < l.strip; ++r)
    for (const auto& strip : study.b_column_fetches)
      b_strip.insert(b_strip.end(), static_cast<std::size_t>(l.tile_w), heat_colour(strip.times(), heat_max));
  const float cell = canvas.scale();
  const float tile_width = cell * static_cast<float>(l.tile_w), tile_height = cell * static_cast<float>(l.tile_h);
  // A tile may be several cells: no cell borders, a line between tiles instead, once tiles are big enough.
  ui::CellGridStyle grid_style, a_style, b_style;
  grid_style.cell_borders = a_style.cell_borders = b_style.cell_borders = false;
  if (std::min(tile_width, tile_height) >= 5.0f) {
    grid_style.group_columns = b_style.group_columns = l.tile_w;
    grid_style.group_rows = a_style.group_rows = l.tile_h;
  }
  draw_cell_grid(context.grids, canvas, id + "-tiles", l.columns(), l.rows(), cells, l.grid_x(), l.grid_y(), grid_style);
  draw_cell_grid(context.grids, canvas, id + "-a", l.strip, l.rows(), a_strip, 0.0f, l.grid_y(), a_style);
  draw_cell_grid(context.grids, canvas, id + "-b", l.columns(), l.strip, b_strip, l.grid_x(), 0.0f, b_style);

  // The selected wave's footprint: marks in the gaps beside the A rows and B columns its blocks read.
  if (selected >= 0 && selected < static_cast<int>(study.waves.size())) {
    const WaveFootprint& footprint = study.waves[static_cast<std::size_t>(selected)];
    const ImU32 mark = colouring == GridColouring::Wave ? colour::wave(selected) : colour::highlight;
    const float inset = std::min(0.3f * l.gap, 2.0f / cell);
    for (const int r : footprint.rows)
      draw->AddRectFilled(canvas.to_screen(static_cast<float>(l.strip) + inset, l.grid_y() + static_cast<float>(r * l.tile_h)),
                          canvas.to_screen(l.grid_x() - inset, l.grid_y() + static_cast<float>((r + 1) * l.tile_h)), mark);
    for (const int c : footprint.columns)
      draw->AddRectFilled(canvas.to_screen(l.grid_x() + static_cast<float>(c * l.tile_w), static_cast<float>(l.strip) + inset),
                          canvas.to_screen(l.grid_x() + static_cast<float>((c + 1) * l.tile_w), l.grid_y() - inset), mark);
  }

  // A tile's rectangle on screen.
  const auto tile_rect = [&](int r, int c) {
    return std::pair{canvas.to_screen(l.grid_x() + static_cast<float>(c * l.tile_w), l.grid_y() + static_cast<float>(r * l.tile_h)),
                     canvas.to_screen(l.grid_x() + static_cast<float>((c + 1) * l.tile_w),
                                      l.grid_y() + static_cast<float>((r + 1) * l.tile_h))};
  };
  // Clusters (rung 19): one outline around each cluster's tiles, consecutive launches, once tiles are big enough to
  // show it.
  if (const int cluster = study.prediction.shape.cluster; cluster > 1 && std::min(tile_width, tile_height) >= 6.0f) {
    std::vector<std::pair<ImVec2, ImVec2>> boxes((study.launch_position.size() + static_cast<std::size_t>(cluster) - 1) /
                                                 static_cast<std::size_t>(cluster),
                                                 {ImVec2(1e9f, 1e9f), ImVec2(-1e9f, -1e9f)});
    for (int r = 0; r < l.tiles_m; ++r)
      for (int c = 0; c < l.tiles_n; ++c) {
        auto& box = boxes[static_cast<std::size_t>(kernel::cluster_of_launch(study.position_of(r, c), cluster))];
        const auto [min, max] = tile_rect(r, c);
        box.first = ImVec2(std::min(box.first.x, min.x), std::min(box.first.y, min.y));
        box.second = ImVec2(std::max(box.second.x, max.x), std::max(box.second.y, max.y));
      }
    for (const auto& [min, max] : boxes)
      if (min.x < max.x) draw->AddRect(ImVec2(min.x + 1, min.y + 1), ImVec2(max.x - 1, max.y - 1), IM_COL32(255, 255, 255, 200), 0.0f, 0, 2.0f);
  }
  // Split-K (rung 22): a tile's ranges of k-steps, one block each, as thin lines across the tile where they fit.
  if (const int splits = study.prediction.shape.splits; splits > 1 && tile_width >= 3.0f * static_cast<float>(splits))
    for (int r = 0; r < l.tiles_m; ++r)
      for (int c = 0; c < l.tiles_n; ++c) {
        const auto [min, max] = tile_rect(r, c);
        for (int s = 1; s < splits; ++s) {
          const float x = min.x + (max.x - min.x) * static_cast<float>(s) / static_cast<float>(splits);
          draw->AddLine(ImVec2(x, min.y + 1), ImVec2(x, max.y - 1), IM_COL32(20, 20, 26, 140));
        }
      }
  // Stream-K (rung 23): lines where one block's range of a tile's k-steps ends and the next one's begins; under the
  // pointer, every piece of the block that computes the hovered k-steps.
  const bool stream_k = study.prediction.shape.stream_k;
  const int ksteps = std::max(1, study.prediction.shape.ksteps);
  const auto piece_x = [&](float min_x, float max_x, int kstep) {
    return min_x + (max_x - min_x) * static_cast<float>(kstep) / static_cast<float>(ksteps);
  };
  std::optional<int> hovered_piece_block;
  if (stream_k && canvas.hovered()) {
    const ImVec2 at = canvas.to_content(ImGui::GetIO().MousePos);
    const int r = l.row_at(at.y), c = l.column_at(at.x);
    if (r >= 0 && r < l.tiles_m && c >= 0 && c < l.tiles_n) {
      const float within = (at.x - l.grid_x()) / static_cast<float>(l.tile_w) - static_cast<float>(c);
      const StreamKTile tile = stream_k_tile(study, r, c);
      hovered_piece_block = tile.block(tile.piece_at(std::min(ksteps - 1, static_cast<int>(within * ksteps))));
    }
  }
  if (stream_k && tile_width >= 4.0f)
    for (int r = 0; r < l.tiles_m; ++r)
      for (int c = 0; c < l.tiles_n; ++c) {
        const StreamKTile tile = stream_k_tile(study, r, c);
        const auto [min, max] = tile_rect(r, c);
        for (int p = 0; p < tile.pieces(); ++p) {
          const kernel::StreamKPlan::Piece piece = tile.piece(p);
          if (p > 0)
            draw->AddLine(ImVec2(piece_x(min.x, max.x, piece.first), min.y + 1),
                          ImVec2(piece_x(min.x, max.x, piece.first), max.y - 1), IM_COL32(20, 20, 26, 200), 1.5f);
          if (hovered_piece_block && tile.block(p) == *hovered_piece_block)
            draw->AddRect(ImVec2(piece_x(min.x, max.x, piece.first), min.y),
                          ImVec2(piece_x(min.x, max.x, piece.end), max.y), colour::highlight, 0.0f, 0, 2.0f);
        }
      }
  // Persistent blocks (rung 20): under the pointer, every tile of the block that computes the hovered one.
  const int grid = config.grid;
  std::optional<int> hovered_block;
  if (grid > 0 && !stream_k && canvas.hovered()) {
    const ImVec2 at = canvas.to_content(ImGui::GetIO().MousePos);
    const int r = l.row_at(at.y), c = l.column_at(at.x);
    if (r >= 0 && r < l.tiles_m && c >= 0 && c < l.tiles_n)
      hovered_block = kernel::persistent_block_of_launch(study.position_of(r, c), grid);
  }
  if (hovered_block)
    for (int r = 0; r < l.tiles_m; ++r)
      for (int c = 0; c < l.tiles_n; ++c)
        if (kernel::persistent_block_of_launch(study.position_of(r, c), grid) == *hovered_block) {
          const auto [min, max] = tile_rect(r, c);
          draw->AddRect(min, max, colour::highlight, 0.0f, 0, 2.0f);
        }

  // The strips' names in the corner between them, when it has room.
  const ImVec2 corner = canvas.to_screen(0, 0);
  const ImVec2 corner_end = canvas.to_screen(static_cast<float>(l.strip), static_cast<float>(l.strip));
  if (corner_end.x - corner.x >= ImGui::CalcTextSize("B").x * 2.5f) {
    draw->AddText(ImVec2(corner_end.x - ImGui::CalcTextSize("B").x - 2.0f, corner.y), colour::operand(1), "B");
    draw->AddText(ImVec2(corner.x + 1.0f, corner_end.y - ImGui::GetTextLineHeight()), colour::operand(0), "A");
  }

  // Launch numbers (1-based, as a person counts) in the tiles, when they fit.
  char text[64];
  std::snprintf(text, sizeof text, "%zu", study.launch_position.size());
  if (tile_width >= ImGui::CalcTextSize(text).x + 2.0f && tile_height >= ImGui::GetTextLineHeight()) {
    const ImVec2 from = canvas.to_content(canvas.min()), to = canvas.to_content(canvas.max());
    const int c0 = std::max(0, l.column_at(from.x)), c1 = std::min(l.tiles_n - 1, l.column_at(to.x));
    const int r0 = std::max(0, l.row_at(from.y)), r1 = std::min(l.tiles_m - 1, l.row_at(to.y));
    for (int r = r0; r <= r1; ++r)
      for (int c = c0; c <= c1; ++c) {
        const ImVec2 min = canvas.to_screen(l.grid_x() + static_cast<float>(c * l.tile_w),
                                            l.grid_y() + static_cast<float>(r * l.tile_h));
        const ImVec2 max(min.x + tile_width, min.y + tile_height);
        const ImU32 fill = cells[static_cast<std::size_t>(r * l.tile_h) * columns + static_cast<std::size_t>(c * l.tile_w)];
        std::snprintf(text, sizeof text, "%d", study.position_of(r, c));
        ui::centered_text(draw, min, max, is_light(fill) ? IM_COL32(12, 12, 16, 255) : IM_COL32(235, 235, 240, 255), text);
      }
  }

  ImVec2 point;
  if (canvas.clicked(&point)) {
    const int r = l.row_at(point.y), c = l.column_at(point.x);
    if (r >= 0 && r < l.tiles_m && c >= 0 && c < l.tiles_n) orders.select_wave(study.wave_of(r, c));
  }
  if (!canvas.hovered()) return;
  const ImVec2 p = canvas.to_content(ImGui::GetIO().MousePos);
  const int r = l.row_at(p.y), c = l.column_at(p.x);
  const bool in_rows = r >= 0 && r < l.tiles_m, in_columns = c >= 0 && c < l.tiles_n;
  if (in_rows && in_columns) {
    const int position = study.position_of(r, c);
    const int wave = study.wave_of_position(position);
    const auto blocks = static_cast<std::int64_t>(study.launch_position.size());
    const auto waves = static_cast<std::int64_t>(study.waves.size());
    std::string walker;  // a persistent block's place in its walk, or a split tile's blocks, where the rung has them
    if (const int splits = study.prediction.shape.splits; splits > 1) {
      walker = "\nsplit-K: its " + std::to_string(splits) + " ranges are blocks " + std::to_string(position * splits) +
               " to " + std::to_string(position * splits + splits - 1) + ", k-steps 0-" + std::to_string(ksteps - 1) +
               ", " + std::to_string(ksteps) + "-" + std::to_string(2 * ksteps - 1) + ", ... (a range each)";
    }
    if (stream_k) {
      const StreamKTile tile = stream_k_tile(study, r, c);
      walker = "\nStream-K: ";
      for (int piece = 0; piece < tile.pieces(); ++piece) {
        const kernel::StreamKPlan::Piece k = tile.piece(piece);
        walker += (piece == 0 ? "" : "; ") + std::string("k-steps ") + std::to_string(k.first) + "-" +
                  std::to_string(k.end - 1) + " by block " + std::to_string(tile.block(piece));
      }
      walker += tile.pieces() == 1 ? " (a whole tile)"
                                   : "\n(pieces add up in C in turn, the last k-steps first; outlined: every piece of "
                                     "the block under the pointer)";
    } else if (grid > 0) {
      const int block = kernel::persistent_block_of_launch(position, grid);
      walker = "\ncomputed by persistent block " + index_of(block, grid) + ", its tile " +
               index_of(position / grid, kernel::ceil_div(static_cast<int>(blocks) - block, grid)) +
               " (outlined: all of that block's tiles)";
    }
    ImGui::SetTooltip("Tile (%d, %d): C rows %d-%d, columns %d-%d\nlaunch position %s, in wave %s (its block %s)%s\n"
                      "click: show this wave",
                      r, c, r * config.bm, std::min(problem.m, (r + 1) * config.bm) - 1, c * config.bn,
                      std::min(problem.n, (c + 1) * config.bn) - 1, index_of(position, blocks).c_str(),
                      index_of(wave, waves).c_str(),
                      index_of(position - wave * study.blocks_per_wave(), study.blocks_per_wave()).c_str(),
                      walker.c_str());
  } else if (in_rows && p.x >= 0.0f && p.x < static_cast<float>(l.strip)) {
    strip_tooltip("A, tile row", "rows", "columns", r, config.bm, problem.m, problem.k,
                  study.a_row_fetches[static_cast<std::size_t>(r)]);
  } else if (in_columns && p.y >= 0.0f && p.y < static_cast<float>(l.strip)) {
    strip_tooltip("B, tile column", "columns", "rows", c, config.bn, problem.n, problem.k,
                  study.b_column_fetches[static_cast<std::size_t>(c)]);
  }
}

// One side's figures, or why it has none; true when it has a study to draw.
bool side_figures_or_status(AppModel& model, int side) {
  OrderComparison& orders = model.orders();
  const auto study = orders.study(side);
  const std::string& error = orders.error(side);
  const auto job = orders.job(side);
  ImGui::PushID(side);
  if (!error.empty()) {
    ui::coloured_text(colour::conflict, "This order does not fit:");
    ImGui::PushStyleColor(ImGuiCol_Text, colour::to_vec4(colour::conflict));
    ImGui::TextWrapped("%s", error.c_str());
    ImGui::PopStyleColor();
  } else if (study) {
    side_figures(model, *study);
    if (!orders.study_current(side)) {
      if (job) {
        ImGui::ProgressBar(static_cast<float>(job->progress), ImVec2(ImGui::GetFontSize() * 10.0f, 0));
        ImGui::SameLine();
        ui::note_text("updating for %s...", orders.choice(side).name().c_str());
      } else {
        if (ImGui::SmallButton("Compute")) orders.recompute(side);
        ImGui::SameLine();
        ui::note_text("these figures are for the previous settings (cancelled)");
      }
    }
  } else if (job) {
    ui::note_text("Simulating the L2 for %s...", orders.choice(side).name().c_str());
    ImGui::ProgressBar(static_cast<float>(job->progress), ImVec2(ImGui::GetFontSize() * 14.0f, 0));
  } else {
    ui::note_text("Not computed (cancelled).");
    if (ImGui::Button("Compute")) orders.recompute(side);
  }
  ImGui::PopID();
  return study && error.empty();
}

// Where the recorded runs timed this kernel in both orders on one GPU: what the order changed there.
void measured_sentence(const AppModel& model, const std::string& name_a, const std::string& name_b) {
  const auto measured = model.orders().measured_orders();
  const auto pair = common::measured_pair(measured, name_a, name_b);
  if (!pair) return;
  const auto& [a, b] = *pair;
  ImGui::Text("Measured (recorded on the %s, %s, %s inputs): %.3f ms with %s, %.3f ms with %s (%.2fx and %.2fx "
              "cuBLAS): %s takes %+.1f%% of %s's time.",
              a.device.c_str(), a.date_utc.substr(0, 10).c_str(), a.input.c_str(), a.median_ms, name_a.c_str(),
              b.median_ms, name_b.c_str(), a.ratio_to_cublas, b.ratio_to_cublas, name_b.c_str(),
              100.0 * (b.median_ms / a.median_ms - 1.0), name_a.c_str());
}

// The two orders in one or two sentences: who reads less from DRAM, and whether it changes the predicted speed.
void comparison(AppModel& model) {
  OrderComparison& orders = model.orders();
  const auto left = orders.study(0), right = orders.study(1);
  if (!orders.error(0).empty() || !orders.error(1).empty()) {
    ui::note_text("Pick orders that fit the grid (the red sentence below says what to change) to compare them.");
    return;
  }
  if (!left || !right || !orders.study_current(0) || !orders.study_current(1)) {
    ui::note_text("Simulating the launch orders...");
    return;
  }
  const sim::SchedulePrediction &a = left->prediction, &b = right->prediction;
  const std::string name_a = sim::order_name(a.order), name_b = sim::order_name(b.order);
  const double read_a = static_cast<double>(a.l2.dram_read_bytes), read_b = static_cast<double>(b.l2.dram_read_bytes);
  const double floor = static_cast<double>(a.l2.min_dram_read_bytes);
  ImGui::PushTextWrapPos(0.0f);
  if (std::abs(read_a - read_b) <= 0.005 * std::max(read_a, read_b)) {
    if (read_a <= floor * 1.01) {
      ImGui::Text("Both orders read each byte of A and B from DRAM once (%s): everything this kernel reads fits in "
                  "the %s's %.0f MiB L2, so the order cannot matter here. Try a problem larger than the L2:",
                  ui::dram_bytes_text(floor).c_str(), a.device.name.c_str(), static_cast<double>(a.device.l2_bytes) / (1 << 20));
      if (ImGui::SmallButton("8192 x 8192 x 8192")) model.set_problem(8192, 8192, 8192);
    } else {
      ImGui::Text("%s and %s read the same from DRAM: %s.", name_a.c_str(), name_b.c_str(), ui::dram_bytes_text(read_a).c_str());
    }
  } else {
    const bool a_less = read_a < read_b;
    const double less = a_less ? read_a : read_b, more = a_less ? read_b : read_a;
    ImGui::Text("%s reads %.0f%% less from DRAM than %s: %s against %s (the floor, every byte once, is %s).",
                (a_less ? name_a : name_b).c_str(), 100.0 * (1.0 - less / more), (a_less ? name_b : name_a).c_str(),
                ui::dram_bytes_text(less).c_str(), ui::dram_bytes_text(more).c_str(), ui::dram_bytes_text(floor).c_str());
  }
  const sim::PredictedSpeed sa = sim::predicted_speed(a), sb = sim::predicted_speed(b);
  if (std::abs(sa.tflops - sb.tflops) <= 0.005 * std::max(sa.tflops, sb.tflops)) {
    if (!sa.dram_limited)
      ImGui::Text("The predicted speed is the same, %.1f TFLOPS: the limit is %s, and DRAM needs at most %s of the "
                  "kernel's %s. Fewer DRAM bytes pay off once a kernel is fast enough to wait on DRAM.",
                  sa.tflops, sa.limit.c_str(), time_text(std::max(sa.dram_seconds, sb.dram_seconds)).c_str(),
                  time_text(sa.seconds).c_str());
    else
      ImGui::Text("The predicted speed is the same, %.1f TFLOPS.", sa.tflops);
  } else {
    ImGui::Text("Predicted: %.1f TFLOPS with %s, %.1f with %s.", sa.tflops, name_a.c_str(), sb.tflops, name_b.c_str());
  }
  measured_sentence(model, name_a, name_b);
  ImGui::PopTextWrapPos();
}

// The wave stepper and the colouring switch.
void controls(AppModel& model) {
  OrderComparison& orders = model.orders();
  const int waves = orders.wave_count(), wave = orders.selected_wave();
  if (step_button("All", 1.8f, "show every wave (Home)", true)) orders.select_wave(-1);
  if (step_button("<", 1.3f, "previous wave (Left arrow)")) orders.step_wave(-1);
  if (step_button(">", 1.3f, "next wave (Right arrow)")) orders.step_wave(+1);
  ImGui::SameLine();
  ImGui::AlignTextToFramePadding();
  // A wave asked for before the waves are known (--wave N) is checked when they are: until then it is not shown.
  if (wave >= 0 && wave < waves) ImGui::Text("wave %s", index_of(wave, waves).c_str());
  else if (waves == 1) ImGui::TextUnformatted("one wave");
  else ImGui::Text("all %d waves", waves);
  ImGui::SameLine();
  ui::term_marker("wave");
  ImGui::SameLine(0.0f, ImGui::GetFontSize() * 2.0f);
  ImGui::TextUnformatted("Colour tiles by");
  ImGui::SameLine();
  if (ImGui::RadioButton("wave", orders.grid_colouring() == GridColouring::Wave))
    orders.set_grid_colouring(GridColouring::Wave);
  ImGui::SameLine();
  if (ImGui::RadioButton("launch order", orders.grid_colouring() == GridColouring::LaunchOrder))
    orders.set_grid_colouring(GridColouring::LaunchOrder);
  ui::term_tooltip_for_last_item("launch order");
  ImGui::SameLine(0.0f, ImGui::GetFontSize() * 2.0f);
  ui::note_text("Left / Right: step waves   Home: all   click a tile: its wave");
}

// What the grid shows: a sentence on the waves, then the colour keys.
void waves_sentence(const AppModel& model) {
  std::shared_ptr<const OrderStudy> study;
  for (int side = 0; side < OrderComparison::kSides && !study; ++side) study = model.orders().study(side);
  if (!study) return;
  const auto& p = study->prediction;
  ImGui::PushTextWrapPos(0.0f);
  // The waves count tiles; under split-K (rung 22) each tile is `splits` blocks, one per range of its k-steps.
  const int splits = p.shape.splits;
  // A persistent grid's blocks walk the tiles, so its waves count tiles.
  const bool persistent = p.shape.persistent_blocks > 0;
  const char* unit = persistent ? "tiles" : "blocks";
  char waves[64], blocks[64] = "one block each";
  if (splits > 1) std::snprintf(blocks, sizeof blocks, "%d blocks each (split-K)", splits);
  if (persistent) std::snprintf(blocks, sizeof blocks, "walked by %d persistent blocks", p.shape.persistent_blocks);
  if (p.l2.waves.waves == 1)
    std::snprintf(waves, sizeof waves, "one wave of %d %s", p.l2.waves.blocks * splits, unit);
  else
    std::snprintf(waves, sizeof waves, "%d waves, the last with %d %s", p.l2.waves.waves,
                  p.l2.waves.last_wave_blocks * splits, unit);
  // A persistent grid smaller than what fits computes only its own blocks' tiles at a time.
  const int fit = p.device.sms * p.occupancy.blocks_per_sm;
  char at_once[96] = "";
  if (p.l2.waves.blocks_per_wave < sim::resident_tiles(p))
    std::snprintf(at_once, sizeof at_once, "; its %d persistent blocks compute %d tiles at a time",
                  p.shape.persistent_blocks, p.l2.waves.blocks_per_wave);
  ImGui::Text("C is %d x %d tiles of %d x %d elements, %s. The %s runs %d blocks at a time (%d SMs x %d "
              "per SM)%s: %s. Around each grid: how many times each tile row of A (left) and tile column of B (top) "
              "came from DRAM.",
              p.shape.tiles_m, p.shape.tiles_n, model.config().bm, model.config().bn, blocks, p.device.name.c_str(),
              fit, p.device.sms, p.occupancy.blocks_per_sm, at_once, waves);
  ImGui::PopTextWrapPos();
}

void legend(const AppModel& model, double heat_max) {
  const OrderComparison& orders = model.orders();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float box = ImGui::GetTextLineHeight() * 0.8f, bar = ImGui::GetFontSize() * 10.0f;
  const auto gradient = [&](ImU32 (*ramp)(float)) {
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const float y = at.y + (ImGui::GetTextLineHeight() - box) * 0.5f;
    constexpr int kSteps = 40;
    for (int i = 0; i < kSteps; ++i)
      draw->AddRectFilled(ImVec2(at.x + bar * static_cast<float>(i) / kSteps, y),
                          ImVec2(at.x + bar * static_cast<float>(i + 1) / kSteps + 0.5f, y + box),
                          ramp(static_cast<float>(i) / (kSteps - 1)));
    ImGui::Dummy(ImVec2(bar, ImGui::GetTextLineHeight()));
  };
  ImGui::TextUnformatted("A and B strips:");
  ImGui::SameLine();
  ImGui::TextUnformatted("1x");
  ImGui::SameLine();
  gradient(colour::heat);
  ImGui::SameLine();
  ImGui::Text("%.1fx", heat_max);
  ImGui::SameLine();
  ui::term("times from DRAM", "their size came from DRAM");
  ImGui::SameLine(0.0f, ImGui::GetFontSize() * 2.0f);
  if (orders.grid_colouring() == GridColouring::LaunchOrder) {
    ImGui::TextUnformatted("Tiles: launched first");
    ImGui::SameLine();
    gradient(colour::sequence);
    ImGui::SameLine();
    ImGui::TextUnformatted("last");
  } else {
    ImGui::TextUnformatted("Tiles: waves");
    const int waves = std::min(orders.wave_count(), 12);
    for (int w = 0; w < waves; ++w) {
      ImGui::SameLine(0.0f, 3.0f);
      const ImVec2 at = ImGui::GetCursorScreenPos();
      const float y = at.y + (ImGui::GetTextLineHeight() - box) * 0.5f;
      draw->AddRectFilled(ImVec2(at.x, y), ImVec2(at.x + box * 1.6f, y + box), colour::wave(w));
      ImGui::Dummy(ImVec2(box * 1.6f, ImGui::GetTextLineHeight()));
    }
    ImGui::SameLine();
    ImGui::TextUnformatted(orders.wave_count() > 12 ? "0-11, then again" : "0, 1, ...");
  }
  const char* dimmed = "dim: earlier waves, grey: later ones";
  const float room = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x - ImGui::GetItemRectMax().x;
  if (orders.selected_wave() >= 0 && room > ImGui::CalcTextSize(dimmed).x + ImGui::GetFontSize() * 2.0f) {
    ImGui::SameLine(0.0f, ImGui::GetFontSize() * 1.5f);
    ui::note_text("%s", dimmed);
  }
}

}  // namespace

void draw_launch_order_panel(PanelContext& context) {
  AppModel& model = context.model;
  OrderComparison& orders = model.orders();
  if (!config_ready(model)) return;
  if (!model.device()) {
    ui::note_text("No device profile: the L2 model needs one (see the messages above).");
    return;
  }
  orders.request_studies();
  controls(model);
  waves_sentence(model);
  comparison(model);
  ImGui::Separator();
  const double heat_max = heat_scale(model);
  const float legend_height = ImGui::GetFrameHeightWithSpacing() + 4.0f;
  const float height = ImGui::GetContentRegionAvail().y - legend_height;
  const float table_bottom = ImGui::GetCursorScreenPos().y + height;
  if (ImGui::BeginTable("orders", OrderComparison::kSides,
                        ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingStretchSame,
                        ImVec2(0, height))) {
    // Row by row, so the two grids start at the same height whatever the text above them takes.
    ImGui::TableNextRow();
    for (int side = 0; side < OrderComparison::kSides; ++side) {
      ImGui::TableNextColumn();
      order_picker(model, side);
      const auto order = orders.choice(side).order();
      if (order) ui::note_text("%s.", sim::order_description(*order).c_str());
    }
    ImGui::TableNextRow();
    bool drawable[OrderComparison::kSides] = {};
    for (int side = 0; side < OrderComparison::kSides; ++side) {
      ImGui::TableNextColumn();
      drawable[side] = side_figures_or_status(model, side);
    }
    ImGui::TableNextRow();
    for (int side = 0; side < OrderComparison::kSides; ++side) {
      ImGui::TableNextColumn();
      const float canvas_height = std::max(120.0f, table_bottom - ImGui::GetCursorScreenPos().y);
      if (drawable[side]) side_canvas(context, side, *orders.study(side), heat_max, canvas_height);
    }
    ImGui::EndTable();
  }
  legend(model, heat_max);
}

}  // namespace gemmlab::desktop
