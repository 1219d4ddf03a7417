#pragma once
// The recorded measurements the tests compare with are small CSV files in the source tree (tests/calibration/): a
// header line, no quoted fields, '#' lines being comments. One reader for all of them.
#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace gemmlab::sim::csv {

inline std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, separator)) parts.push_back(part);
  if (!text.empty() && text.back() == separator) parts.emplace_back();
  return parts;
}

// A CSV with a header line and no quoted fields (the lane lists use spaces), '#' lines being comments.
struct Table {
  std::string comment;  // the first '#' line, without the '#'
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;
  std::string error;  // why the file could not be read, if it could not

  int column(std::string_view name) const {
    const auto it = std::find(columns.begin(), columns.end(), name);
    return it == columns.end() ? -1 : static_cast<int>(it - columns.begin());
  }
};

inline Table read_table(const std::string& path) {
  Table table;
  std::ifstream in(path);
  if (!in) {
    table.error = "cannot open " + path;
    return table;
  }
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();  // written on Windows, or by Python's csv module
    if (line.empty()) continue;
    if (line[0] == '#') {
      if (table.comment.empty()) table.comment = line.substr(1);
      continue;
    }
    auto fields = split(line, ',');
    if (table.columns.empty()) {
      table.columns = std::move(fields);
    } else if (fields.size() != table.columns.size()) {
      table.error = path + ": a row has " + std::to_string(fields.size()) + " fields, the header " +
                    std::to_string(table.columns.size()) + ": " + line.substr(0, 80);
      return table;
    } else {
      table.rows.push_back(std::move(fields));
    }
  }
  return table;
}

// A probe's ncu runs as the calibration scripts keep them (columns run, metric, unit, value): {(run, metric): value}.
// Empty, with `error` set, where the file cannot be read or lacks a column.
inline std::map<std::pair<std::string, std::string>, double> read_runs(const std::string& path, std::string& error) {
  const Table table = read_table(path);
  std::map<std::pair<std::string, std::string>, double> values;
  error = table.error;
  const int run = table.column("run"), metric = table.column("metric"), value = table.column("value");
  if (error.empty() && (run < 0 || metric < 0 || value < 0)) error = path + ": no run, metric or value column";
  if (!error.empty()) return values;
  for (const auto& row : table.rows)
    values[{row[std::size_t(run)], row[std::size_t(metric)]}] = std::stod(row[std::size_t(value)]);
  return values;
}

}  // namespace gemmlab::sim::csv
