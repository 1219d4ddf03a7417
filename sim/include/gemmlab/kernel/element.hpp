#pragma once
// The element types of a GEMM's inputs. A and B are FP32, FP16 or BF16; C is FP32 on every rung, and so are the
// accumulators, but on the mma.sync rungs' acc=16 alternates (FP16). A rung description states how many bytes an
// element of each operand takes (operand_bytes), so that the simulator turns an element index into the byte address
// the GPU kernel really touches.
#include <cstdint>
#include <optional>
#include <string_view>

#if defined(__CUDACC__)
#include <cuda_fp16.h>
#endif

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

// An FP16 value's bits as a float (exact: every half is a float). The GPU's conversion instruction on the GPU; the
// same by its definition on the host (sign, 5 exponent bits biased by 15, 10 fraction bits; subnormals below 2^-14).
GEMMLAB_HD float half_to_float(std::uint16_t bits) {
#if defined(__CUDA_ARCH__)
  return __half2float(__ushort_as_half(bits));
#else
  const int exponent = bits >> 10 & 0x1F, fraction = bits & 0x3FF;
  float magnitude;
  if (exponent == 0x1F) magnitude = fraction != 0 ? __builtin_nanf("") : __builtin_inff();
  else if (exponent == 0) magnitude = __builtin_ldexpf(static_cast<float>(fraction), -24);
  else magnitude = __builtin_ldexpf(static_cast<float>(fraction | 0x400), exponent - 25);
  return bits & 0x8000 ? -magnitude : magnitude;
#endif
}

// Bytes per element of `operand` in rung description K: C and the workspace are always FP32; A and B take
// K::input_bytes where the description declares it (the tensor-core rungs: 2), else 4.
template <class K>
GEMMLAB_HD constexpr int operand_bytes(Operand operand) {
  if (operand == Operand::C || operand == Operand::W) return 4;
  if constexpr (requires { K::input_bytes; }) return K::input_bytes;
  else return 4;
}

}  // namespace gemmlab::kernel
