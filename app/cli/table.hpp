#pragma once
// A plain text table for terminal output: columns sized to their widest cell, a header rule, left or right aligned.
#include <iosfwd>
#include <string>
#include <vector>

namespace gemmlab::cli {

class TextTable {
 public:
  enum class Align { Left, Right };
  struct Column {
    std::string header;
    Align align = Align::Left;
  };

  explicit TextTable(std::vector<Column> columns);
  void add_row(std::vector<std::string> cells);
  void print(std::ostream& out) const;

 private:
  std::vector<Column> columns_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace gemmlab::cli
