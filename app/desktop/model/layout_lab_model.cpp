#include "model/layout_lab_model.hpp"

#include <algorithm>
#include <utility>

#include "gemmlab/memory_model.hpp"

namespace gemmlab::desktop {
namespace {

constexpr int kBanks = 32;
constexpr int kLanes = 32;

}  // namespace

std::span<const std::string_view> layout_lab_ops() { return lab::access_names(); }
std::span<const std::string_view> layout_lab_elements() { return lab::element_names(); }

bool layout_lab_is_copy(std::string_view op) {
  const auto kind = lab::access_kind(op);
  return kind && *kind == lab::AccessKind::Copy;
}

LayoutLabModel::LayoutLabModel() : query_(lab::presets().front().query) { recompute(); }

const lab::Preset* LayoutLabModel::preset() const {
  for (const auto& p : lab::presets())
    if (p.query == query_) return &p;
  return nullptr;
}

int LayoutLabModel::worst_instruction() const {
  if (!report_ || report_->instructions.empty()) return -1;
  int worst = 0;
  for (std::size_t i = 0; i < report_->instructions.size(); ++i)
    if (report_->instructions[i].shared.cost.bank_conflicts() >
        report_->instructions[static_cast<std::size_t>(worst)].shared.cost.bank_conflicts())
      worst = static_cast<int>(i);
  return worst;
}

void LayoutLabModel::set_query(lab::QueryText query) {
  query_ = std::move(query);
  recompute();
}

Status LayoutLabModel::load_preset(std::string_view name) {
  const auto* p = lab::find_preset(name);
  if (!p) {
    std::string names;
    for (const auto& preset : lab::presets()) names.append(names.empty() ? "" : ", ").append(preset.name);
    return Error{std::string("no layout-lab preset '") + std::string(name) + "'; the presets are: " + names};
  }
  user_selected_ = false;  // a new question: start on its worst instruction
  set_query(p->query);
  return Ok{};
}

Status LayoutLabModel::apply_suggestion(std::size_t index) {
  if (!suggestions_ || index >= suggestions_->candidates.size())
    return Error{std::string("suggestion ") + std::to_string(index) + " does not exist: there are " +
                 std::to_string(suggestions_ ? suggestions_->candidates.size() : 0) + " (indices count from 0)"};
  const lab::Tile& tile = suggestions_->candidates[index].tile;
  lab::QueryText text = query_;
  text.layout = tile.layout.to_string();  // drops a printed "Sw<...> o" in front: the swizzle field holds it now
  text.swizzle = tile.swizzle.identity() ? std::string()
                                         : std::to_string(tile.swizzle.bits) + "," + std::to_string(tile.swizzle.base) +
                                               "," + std::to_string(tile.swizzle.shift);
  text.tma_swizzle.clear();
  set_query(std::move(text));  // the selected instruction stays, so the user sees the same one without its conflict
  return Ok{};
}

void LayoutLabModel::select_instruction(int index) {
  if (!report_ || report_->instructions.empty()) return;
  selected_ = std::clamp(index, 0, static_cast<int>(report_->instructions.size()) - 1);
  user_selected_ = true;
  mark_selected_lanes();
}

void LayoutLabModel::recompute() {
  const int previous_count = report_ ? static_cast<int>(report_->instructions.size()) : -1;
  const int previous_selected = selected_;
  report_.reset();
  expressions_.reset();
  suggestions_.reset();
  error_.clear();
  suggestions_error_.clear();
  rows_ = columns_ = 0;
  cell_banks_.clear();
  cell_lanes_.clear();
  cell_of_offset_.clear();
  selected_ = -1;

  auto query = lab::parse_query(query_);
  if (!query) {
    error_ = query.error().message;
    return;
  }
  auto report = lab::analyse(query->tile, query->access);
  if (!report) {
    error_ = report.error().message;
    return;
  }
  report_ = std::move(*report);
  expressions_ = lab::expressions_of(query->tile);
  if (auto suggestions = lab::suggest(query->tile, query->access, query->other)) suggestions_ = std::move(*suggestions);
  else suggestions_error_ = suggestions.error().message;

  const lab::Tile& tile = report_->tile;
  rows_ = tile.rows();
  columns_ = tile.columns();
  const auto cells = static_cast<std::size_t>(rows_ * columns_);
  cell_banks_.assign(cells, 0);
  cell_of_offset_.assign(static_cast<std::size_t>(tile.footprint_bytes() / tile.bytes()), -1);
  for (std::int64_t r = 0; r < rows_; ++r)
    for (std::int64_t c = 0; c < columns_; ++c) {
      const auto cell = static_cast<std::size_t>(r * columns_ + c);
      cell_banks_[cell] = static_cast<std::int8_t>(tile.byte_offset(r, c) / 4 % kBanks);
      cell_of_offset_[static_cast<std::size_t>(tile.element_offset(r, c))] = static_cast<std::int32_t>(cell);
    }
  const int count = static_cast<int>(report_->instructions.size());
  if (count > 0) {
    if (!user_selected_ || count != previous_count) {
      selected_ = worst_instruction();
      user_selected_ = false;
    } else {
      selected_ = std::clamp(previous_selected, 0, count - 1);
    }
  }
  mark_selected_lanes();
}

void LayoutLabModel::mark_selected_lanes() {
  cell_lanes_.assign(cell_banks_.size(), -1);
  if (!report_ || selected_ < 0) return;
  const lab::Instruction& instruction = report_->access.instructions[static_cast<std::size_t>(selected_)];
  const sim::WarpAccess& access = instruction.shared;
  const int element_bytes = report_->tile.bytes();
  // Each lane's bytes: a matrix row address reads or writes 16; a copy its width, at its shared address.
  const int lane_bytes = sim::is_matrix_op(access.op) ? 16 : access.width_bytes;
  for (int lane = 0; lane < kLanes; ++lane) {
    const auto l = static_cast<std::size_t>(lane);
    if (!instruction.first_element[l]) continue;
    const std::uint64_t start = access.op == sim::MemOp::CpAsync ? access.shared_address[l] : access.address[l];
    for (std::uint64_t byte = start; byte < start + static_cast<std::uint64_t>(lane_bytes);
         byte += static_cast<std::uint64_t>(element_bytes)) {
      const std::uint64_t offset = byte / static_cast<std::uint64_t>(element_bytes);
      if (offset >= cell_of_offset_.size()) continue;
      const std::int32_t cell = cell_of_offset_[offset];
      if (cell >= 0 && cell_lanes_[static_cast<std::size_t>(cell)] < 0)
        cell_lanes_[static_cast<std::size_t>(cell)] = static_cast<std::int8_t>(lane);
    }
  }
}

}  // namespace gemmlab::desktop
