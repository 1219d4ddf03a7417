#pragma once
// The recording executor: runs a rung's phase for one thread and writes down each memory instruction it issues
// (kind, width, whether the lane is active, its byte address), without moving any data. Lanes are zipped into
// warp instructions afterwards.
#include <array>
#include <cstdint>
#include <vector>

#include "gemmlab/kernel/context.hpp"
#include "gemmlab/kernel/executor.hpp"
#include "gemmlab/kernel/vec.hpp"
#include "gemmlab/memory_model.hpp"

namespace gemmlab::sim {

struct LaneOp {
  MemOp op;
  std::uint8_t width_bytes;
  bool active;
  std::uint64_t address;         // global address, or shared offset in bytes
  std::uint64_t shared_address;  // cp.async's shared destination
};

// Byte addresses the simulator gives the three matrices: 128-byte aligned and far apart, like cudaMalloc's.
inline constexpr std::array<std::uint64_t, 3> kOperandBase = {std::uint64_t{1} << 40, std::uint64_t{2} << 40,
                                                               std::uint64_t{3} << 40};

class Recorder {
 public:
  void begin_thread(std::vector<LaneOp>* ops) {
    ops_ = ops;
    ops_->clear();
  }
  std::int64_t fma_count() const { return fmas_; }

  template <int N>
  void ldg(kernel::Vec<N>& out, kernel::Operand operand, kernel::Index index, bool pred) {
    out = kernel::zeros<N>();
    push(MemOp::LoadGlobal, N, pred, global(operand, index), 0);
  }
  template <int N>
  void stg(kernel::Operand operand, kernel::Index index, const kernel::Vec<N>&, bool pred) {
    push(MemOp::StoreGlobal, N, pred, global(operand, index), 0);
  }
  template <int N>
  void lds(kernel::Vec<N>& out, int offset) {
    out = kernel::zeros<N>();
    push(MemOp::LoadShared, N, true, shared(offset), 0);
  }
  template <int N>
  void sts(int offset, const kernel::Vec<N>&) {
    push(MemOp::StoreShared, N, true, shared(offset), 0);
  }
  template <int N>
  void cp_async(int offset, kernel::Operand operand, kernel::Index index, bool pred, kernel::Width<N>) {
    // A predicated-off cp.async still writes zeros to shared memory (src-size 0): the lane stays active.
    push(MemOp::CpAsync, N, true, pred ? global(operand, index) : kNoSource, shared(offset));
  }
  void cp_async_commit() {}
  template <int P>
  void cp_async_wait(kernel::Pending<P>) {}
  float fma(float a, float b, float c) {
    ++fmas_;
    return a * b + c;
  }

  // cp.async lanes with pred false read nothing from global memory.
  static constexpr std::uint64_t kNoSource = ~std::uint64_t{0};

 private:
  static std::uint64_t global(kernel::Operand operand, kernel::Index index) {
    return kOperandBase[static_cast<int>(operand)] + static_cast<std::uint64_t>(index) * 4;
  }
  static std::uint64_t shared(int offset) { return static_cast<std::uint64_t>(offset) * 4; }
  void push(MemOp op, int floats, bool active, std::uint64_t address, std::uint64_t shared_address) {
    ops_->push_back({op, static_cast<std::uint8_t>(floats * 4), active, address, shared_address});
  }

  std::vector<LaneOp>* ops_ = nullptr;
  std::int64_t fmas_ = 0;
};

}  // namespace gemmlab::sim
