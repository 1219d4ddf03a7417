#include "table.hpp"

#include <algorithm>
#include <ostream>

namespace gemmlab::cli {

TextTable::TextTable(std::vector<Column> columns) : columns_(std::move(columns)) {}

void TextTable::add_row(std::vector<std::string> cells) {
  cells.resize(columns_.size());
  rows_.push_back(std::move(cells));
}

void TextTable::print(std::ostream& out) const {
  std::vector<std::size_t> widths;
  for (const auto& column : columns_) widths.push_back(column.header.size());
  for (const auto& row : rows_)
    for (std::size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], row[c].size());

  auto print_row = [&](auto cell_of) {
    for (std::size_t c = 0; c < columns_.size(); ++c) {
      const std::string& text = cell_of(c);
      const std::string pad(widths[c] - text.size(), ' ');
      const bool last = c + 1 == columns_.size();
      if (columns_[c].align == Align::Right) out << pad << text;
      else out << text << (last ? "" : pad);
      out << (last ? "\n" : "  ");
    }
  };
  print_row([&](std::size_t c) -> const std::string& { return columns_[c].header; });
  std::size_t total = 0;
  for (auto w : widths) total += w + 2;
  out << std::string(total - 2, '-') << "\n";
  for (const auto& row : rows_) print_row([&](std::size_t c) -> const std::string& { return row[c]; });
}

}  // namespace gemmlab::cli
