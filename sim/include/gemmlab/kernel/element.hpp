#pragma once
// The element types of a GEMM's inputs. A and B are FP32, FP16 or BF16; C and the accumulation are FP32 on every
// rung. A rung description states how many bytes an element of each operand takes (operand_bytes), so that the
// simulator turns an element index into the byte address the GPU kernel really touches.
#include <optional>
#include <string_view>

#include "gemmlab/hd.hpp"
#include "gemmlab/kernel/vec.hpp"

namespace gemmlab::kernel {

enum class InputType { F32, F16, BF16 };

GEMMLAB_HD constexpr int input_bytes(InputType type) { return type == InputType::F32 ? 4 : 2; }

constexpr std::string_view input_name(InputType type) {
  return type == InputType::F32 ? "fp32" : type == InputType::F16 ? "fp16" : "bf16";
}

constexpr std::optional<InputType> find_input(std::string_view name) {
  for (const InputType t : {InputType::F32, InputType::F16, InputType::BF16})
    if (input_name(t) == name) return t;
  return std::nullopt;
}

// Bytes per element of `operand` in rung description K: C is always FP32; A and B take K::input_bytes where the
// description declares it (the tensor-core rungs: 2), else 4.
template <class K>
GEMMLAB_HD constexpr int operand_bytes(Operand operand) {
  if (operand == Operand::C) return 4;
  if constexpr (requires { K::input_bytes; }) return K::input_bytes;
  else return 4;
}

}  // namespace gemmlab::kernel
