#pragma once
// Whole-number flags read the way a person writes them. CLI11 converts integers with strtol's base 0, so "010" would
// be octal 8 and "-4" would wrap to 2^64 - 4 in an unsigned option; these validators check the text themselves and
// hand CLI11 plain decimal, and their messages say what was wrong and which values are allowed.
#include <cstdint>
#include <string>

namespace CLI {
class Validator;
}

namespace gemmlab::common {

// Decimal, or hexadecimal with 0x; no sign. False on anything else and on overflow.
bool parse_unsigned(const std::string& text, std::uint64_t& value);

// A decimal whole number in [min, max] ("010" is ten). For int options.
CLI::Validator whole_number(std::int64_t min = INT32_MIN, std::int64_t max = INT32_MAX);

// A whole number >= 0 below 2^64 (decimal or 0x-hex, as parse_unsigned reads it: "010" is ten, "-1" is refused).
// `what` names it in the message ("a byte offset", "a seed"). For std::uint64_t options.
CLI::Validator unsigned_number(const std::string& what);
CLI::Validator byte_offset();  // unsigned_number("a byte offset")

// Text that is not empty (nor only blanks): a flag given as '' is refused, as it is where the text is parsed (`what`: "a file name").
CLI::Validator non_empty_text(const std::string& what);

// A real number that is finite as a float ("nan", "inf" and 1e39 are refused: alpha and beta scale every result;
// 1e-46, which would become 0, is refused too). For float options.
CLI::Validator finite_number();

// Seconds from 0 to `max` ("2", "0.5"; "-1", "nan" and "1e9" are refused).
CLI::Validator seconds(double max);

}  // namespace gemmlab::common
