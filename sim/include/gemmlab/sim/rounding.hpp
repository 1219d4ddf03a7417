#pragma once
// FP16 and BF16 on the host: a float rounded to the nearest 16-bit value (ties to even), and back. The functional
// executor stores the 16-bit rungs' A and B this way, and checks compare with a reference on the same rounded inputs.
#include <cstdint>

#include "gemmlab/kernel/element.hpp"

namespace gemmlab::sim {

std::uint16_t to_bits(kernel::InputType type, float value);  // F16 or BF16
float from_bits(kernel::InputType type, std::uint16_t bits);
// value rounded to `type` (F32: unchanged).
float round_input(kernel::InputType type, float value);

}  // namespace gemmlab::sim
