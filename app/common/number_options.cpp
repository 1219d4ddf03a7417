#include "common/number_options.hpp"

#include <CLI/CLI.hpp>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "gemmlab/sim/problem.hpp"

namespace gemmlab::common {

bool parse_unsigned(const std::string& text, std::uint64_t& value) {
  const bool is_hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  const char* begin = text.data() + (is_hex ? 2 : 0);
  const char* end = text.data() + text.size();
  if (begin == end) return false;
  const auto [ptr, ec] = std::from_chars(begin, end, value, is_hex ? 16 : 10);
  return ec == std::errc() && ptr == end;
}

CLI::Validator whole_number(std::int64_t min, std::int64_t max) {
  const std::string range = max == INT32_MAX && min != INT32_MIN
                                ? std::to_string(min) + " or more"
                                : "from " + std::to_string(min) + " to " + std::to_string(max);
  return CLI::Validator(
      [min, max, range](std::string& text) {
        const char* begin = text.data() + (!text.empty() && text[0] == '+' ? 1 : 0);
        const char* end = text.data() + text.size();
        std::int64_t value = 0;
        const auto [ptr, ec] = std::from_chars(begin, end, value);
        if (begin == end || ptr != end || (ec != std::errc() && ec != std::errc::result_out_of_range))
          return "'" + text + "' is not a whole number (write it in decimal: " + range + ")";
        if (ec == std::errc::result_out_of_range || value < min || value > max)
          return "'" + text + "' is out of range: give a whole number " + range;
        text = std::to_string(value);  // decimal for CLI11, which would read a leading 0 as octal
        return std::string();
      },
      "", "whole number");
}

CLI::Validator unsigned_number(const std::string& what) {
  return CLI::Validator(
      [what](std::string& text) {
        std::uint64_t value = 0;
        if (!parse_unsigned(text, value))
          return "'" + text + "' is not " + what + " (a whole number >= 0 below 2^64, in decimal or as 0x-hex)";
        text = std::to_string(value);  // decimal for CLI11, which would read a leading 0 as octal
        return std::string();
      },
      "", "whole number");
}

CLI::Validator byte_offset() { return unsigned_number("a byte offset"); }

CLI::Validator non_empty_text(const std::string& what) {
  return CLI::Validator(
      [what](std::string& text) {
        return text.find_first_not_of(" \t") == std::string::npos ? "is empty: give " + what : std::string();
      },
      "", "text");
}

CLI::Validator finite_number() {
  return CLI::Validator(
      [](std::string& text) {
        char* end = nullptr;
        const double value = text.empty() ? 0.0 : std::strtod(text.c_str(), &end);
        if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(value))
          return "'" + text + "' is not a finite number (write it as 0.5, -2 or 1e-3)";
        if (!sim::fits_float(value))  // checked as the float it becomes: 1e39 would be inf, 1e-46 zero
          return "'" + text + "' is out of range for a float: give 0, or a magnitude from 1.2e-38 to 3.4e38";
        return std::string();
      },
      "", "finite number");
}

CLI::Validator seconds(double max) {
  return CLI::Validator(
      [max](std::string& text) {
        char* end = nullptr;
        const double value = text.empty() ? -1.0 : std::strtod(text.c_str(), &end);
        if (text.empty() || end != text.c_str() + text.size() || !(value >= 0 && value <= max)) {
          char range[64];
          std::snprintf(range, sizeof range, "%g", max);
          return "'" + text + "' is not a number of seconds from 0 to " + range;
        }
        return std::string();
      },
      "", "seconds");
}

}  // namespace gemmlab::common
