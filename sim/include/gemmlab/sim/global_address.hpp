#pragma once
// Where the simulator places A, B and C in its model of global memory, and the way back from a recorded byte
// address to the matrix element: viewers (the desktop app's tile stepper and coalescing panel) name the element a
// lane touches instead of showing a raw address.
#include <array>
#include <cstdint>
#include <optional>

#include "gemmlab/kernel/context.hpp"
#include "gemmlab/kernel/vec.hpp"

namespace gemmlab::sim {

// Byte addresses the simulator gives the three matrices and split-K's workspace: 128-byte aligned and far apart, like
// cudaMalloc's.
inline constexpr std::array<std::uint64_t, 4> kOperandBase = {std::uint64_t{1} << 40, std::uint64_t{2} << 40,
                                                               std::uint64_t{3} << 40, std::uint64_t{4} << 40};

// Bytes per element of A, B, C and the workspace: 4 each on the FP32 rungs; 2, 2, 4, 4 on the tensor-core rungs
// (operand_bytes in rung_model.hpp).
using OperandBytes = std::array<int, 4>;
inline constexpr OperandBytes kFloatOperands = {4, 4, 4, 4};

struct GlobalElement {
  kernel::Operand operand = kernel::Operand::A;
  kernel::Index index = 0;  // element index in the row-major matrix
};

// The matrix and element a recorded global address points at; nullopt for an address outside the three matrices'
// windows (such as the 0 recorded for a zero-filling cp.async lane, or split-K's workspace).
inline std::optional<GlobalElement> global_element(std::uint64_t address,
                                                   const OperandBytes& bytes = kFloatOperands) {
  for (int operand = 2; operand >= 0; --operand) {
    const std::uint64_t base = kOperandBase[static_cast<std::size_t>(operand)];
    if (address >= base && address - base < kOperandBase[0]) {
      const auto size = static_cast<std::uint64_t>(bytes[static_cast<std::size_t>(operand)]);
      return GlobalElement{static_cast<kernel::Operand>(operand), static_cast<kernel::Index>((address - base) / size)};
    }
  }
  return std::nullopt;
}

// Whether a recorded global address lies in split-K's workspace (rung 22, workspace = 1).
inline bool is_workspace_address(std::uint64_t address) {
  const std::uint64_t base = kOperandBase[static_cast<std::size_t>(kernel::Operand::W)];
  return address >= base && address - base < kOperandBase[0];
}

}  // namespace gemmlab::sim
