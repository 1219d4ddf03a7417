#pragma once
// What the layout lab panel shows: the question being edited (a lab::QueryText: a shared-memory tile in CuTe notation
// and the access a kernel makes to it), and its answer, recomputed at once on every edit: the report (every
// instruction's phases and the totals ncu counts), the fix (lab::suggest) and the tile in CuTe's, TMA's and Triton's
// terms; or the sentence that says why the question cannot be answered. The lab library (gemmlab/lab/) does the work;
// this type only holds its inputs and results, and the panel's selection, so the panel keeps no state.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gemmlab/lab/analysis.hpp"
#include "gemmlab/lab/expressions.hpp"
#include "gemmlab/lab/query.hpp"
#include "gemmlab/lab/suggest.hpp"
#include "gemmlab/result.hpp"

namespace gemmlab::desktop {

// The choices the panel's combos offer: every access the lab knows, and its element types.
std::span<const std::string_view> layout_lab_ops();
std::span<const std::string_view> layout_lab_elements();
// Whether an op is a copy (lds/sts/cp.async), whose thread layout, vector and global layout the panel shows.
bool layout_lab_is_copy(std::string_view op);

class LayoutLabModel {
 public:
  LayoutLabModel();  // the gallery's first question

  // ---- What the panel reads.
  const lab::QueryText& query() const { return query_; }
  // The gallery question the fields hold, or null once they differ from every one.
  const lab::Preset* preset() const;
  // The answer, or (all three empty) the sentence that says why there is none.
  const std::optional<lab::Report>& report() const { return report_; }
  const std::optional<lab::Expressions>& expressions() const { return expressions_; }
  const std::string& error() const { return error_; }
  // The fix: absent when the question has no answer or suggest could not score it (suggestions_error says why).
  const std::optional<lab::Suggestions>& suggestions() const { return suggestions_; }
  const std::string& suggestions_error() const { return suggestions_error_; }

  // The instruction the panel shows (an index into report()->instructions; -1 when there is none): the one with the
  // most bank conflicts, until the user picks another.
  int selected_instruction() const { return selected_; }
  int worst_instruction() const;

  // The tile, row-major (rows x columns of the report's tile): the first bank of each element's 4-byte word, and the
  // first lane of the selected instruction that touches the element (-1: none).
  std::int64_t tile_rows() const { return rows_; }
  std::int64_t tile_columns() const { return columns_; }
  const std::vector<std::int8_t>& cell_banks() const { return cell_banks_; }
  const std::vector<std::int8_t>& cell_lanes() const { return cell_lanes_; }

  // ---- Commands. Each recomputes what depends on it before returning.
  void set_query(lab::QueryText query);
  Status load_preset(std::string_view name);  // an error naming the presets for one the gallery lacks
  // Writes the suggestion's layout (an index into suggestions()->candidates) into the fields: its layout and swizzle;
  // the element and the access stay.
  Status apply_suggestion(std::size_t index);
  void select_instruction(int index);  // clamped into the report's instructions

 private:
  void recompute();
  void mark_selected_lanes();

  lab::QueryText query_;
  std::optional<lab::Report> report_;
  std::optional<lab::Expressions> expressions_;
  std::string error_;
  std::optional<lab::Suggestions> suggestions_;
  std::string suggestions_error_;
  int selected_ = -1;
  bool user_selected_ = false;  // kept across edits while the instructions stay the same in number
  std::int64_t rows_ = 0, columns_ = 0;
  std::vector<std::int8_t> cell_banks_, cell_lanes_;
  std::vector<std::int32_t> cell_of_offset_;  // element offset in shared memory -> cell (-1: padding)
};

}  // namespace gemmlab::desktop
