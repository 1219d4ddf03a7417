#include "gemmlab/sim/rounding.hpp"

#include <bit>
#include <cmath>

namespace gemmlab::sim {
namespace {

std::uint16_t to_bf16(float value) {
  const std::uint32_t bits = std::bit_cast<std::uint32_t>(value);
  if (std::isnan(value)) return static_cast<std::uint16_t>((bits >> 16) | 0x40);  // stays a quiet NaN
  const std::uint32_t rounding = 0x7fff + ((bits >> 16) & 1);                    // to nearest, ties to even
  return static_cast<std::uint16_t>((bits + rounding) >> 16);
}

std::uint16_t to_f16(float value) {
  const std::uint32_t bits = std::bit_cast<std::uint32_t>(value);
  const std::uint16_t sign = static_cast<std::uint16_t>((bits >> 16) & 0x8000);
  const float magnitude = std::fabs(value);
  if (std::isnan(value)) return static_cast<std::uint16_t>(sign | 0x7e00);
  if (magnitude >= 65520.0f) return static_cast<std::uint16_t>(sign | 0x7c00);  // rounds past the largest finite
  if (magnitude < 6.103515625e-05f) {  // below 2^-14: a subnormal, in units of 2^-24 (nearbyint: ties to even)
    return static_cast<std::uint16_t>(sign | static_cast<std::uint16_t>(std::nearbyint(magnitude * 16777216.0f)));
  }
  const std::uint32_t m = std::bit_cast<std::uint32_t>(magnitude);
  const std::uint32_t rounding = 0xfff + ((m >> 13) & 1);
  const std::uint32_t rounded = m + rounding;  // a carry out of the mantissa bumps the exponent, as it should
  const std::uint32_t exponent = (rounded >> 23) - 127 + 15;
  return static_cast<std::uint16_t>(sign | (exponent << 10) | ((rounded >> 13) & 0x3ff));
}

float from_f16(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000) << 16;
  const int exponent = (h >> 10) & 0x1f;
  const std::uint32_t mantissa = h & 0x3ff;
  float magnitude;
  if (exponent == 0) magnitude = std::ldexp(static_cast<float>(mantissa), -24);
  else if (exponent == 31) magnitude = mantissa ? std::nanf("") : INFINITY;
  else magnitude = std::ldexp(static_cast<float>(mantissa | 0x400), exponent - 25);
  return std::bit_cast<float>(std::bit_cast<std::uint32_t>(magnitude) | sign);
}

}  // namespace

std::uint16_t to_bits(kernel::InputType type, float value) {
  return type == kernel::InputType::BF16 ? to_bf16(value) : to_f16(value);
}

float from_bits(kernel::InputType type, std::uint16_t bits) {
  return type == kernel::InputType::BF16 ? std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16)
                                         : from_f16(bits);
}

float round_input(kernel::InputType type, float value) {
  return type == kernel::InputType::F32 ? value : from_bits(type, to_bits(type, value));
}

}  // namespace gemmlab::sim
