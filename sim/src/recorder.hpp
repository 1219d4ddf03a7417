#pragma once
// The recording executor: runs a rung's phase for the threads of one warp, one after another, and writes down each
// memory instruction they issue (kind, width, whether the lane is active, its byte address), without moving any
// data. The lanes' addresses are staged in a small table, instruction-major, that stays in the L1 cache; when the
// warp's last lane is done they go into the warp instructions, 32 at a time.
//
// Recording reuses the instructions left in the buffer by an earlier recording (of the previous k-step, or the
// previous warp) and notes which ones come out exactly as they were: those keep their cost, the memory model need
// not run again. The buffer's invariant: every instruction in it carries the cost of its own contents.
#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "gemmlab/kernel/context.hpp"
#include "gemmlab/kernel/executor.hpp"
#include "gemmlab/kernel/vec.hpp"
#include "gemmlab/kernel/wgmma.hpp"
#include "gemmlab/memory_model.hpp"
#include "gemmlab/sim/global_address.hpp"  // kOperandBase
#include "gemmlab/sim/simulate.hpp"

namespace gemmlab::sim {

// Warp instructions kept between uses: the first `size` elements are this warp's (or this phase's); elements past
// it keep their storage (and their costs), so recording neither constructs a 600-byte instruction per warp
// instruction nor, for an instruction that comes out unchanged, costs it again.
struct InstructionBuffer {
  std::vector<WarpInstruction>* items = nullptr;
  std::size_t size = 0;
};

class Recorder {
 public:
  // Bytes per element of A, B and C (kernel::operand_bytes of the rung being recorded).
  void set_operand_bytes(int a, int b, int c) { operand_bytes_ = {a, b, c, 4}; }  // the workspace: FP32
  // A new phase: no error, nothing counted yet.
  void begin_phase() {
    error_.clear();
    counted_ = {};
    copies_.clear();
  }
  // The threads of warp `warp`, `lanes` of them (32 but in a partial last warp), follow; their instructions go into
  // `out` from out.size on.
  void begin_warp(InstructionBuffer* out, int warp, int lanes) {
    out_ = out;
    warp_ = warp;
    lanes_ = lanes;
    count_ = 0;
  }
  // Thread `lane` of the warp follows. Lane 0 says what the warp's instructions are; the others must agree.
  void begin_lane(int lane) {
    lane_ = lane;
    next_ = 0;
  }
  // After a lane: it must have issued as many instructions as lane 0.
  void end_lane() {
    if (lane_ == 0) count_ = next_;
    else if (next_ != count_) different_counts();
  }
  // After the warp's last lane: the staged lanes go into the instructions, and the buffer gets its new size.
  void end_warp() {
    std::vector<WarpInstruction>& items = *out_->items;
    const std::size_t first = out_->size;
    for (std::size_t i = 0; i < count_; ++i) {
      const bool reused = first + i < items.size();
      if (!reused) items.emplace_back();
      WarpInstruction& w = items[first + i];
      Slot& s = slots_[i];
      std::uint64_t* address = &staged_[i * kLanes];
      std::uint64_t* shared_address = &staged_shared_[i * kLanes];
      const bool copy = s.op == MemOp::CpAsync;  // only copies have shared addresses; the others' stay 0
      if (lanes_ < static_cast<int>(kLanes)) {   // lanes a partial warp does not have
        std::fill(address + lanes_, address + kLanes, 0);
        std::fill(shared_address + lanes_, shared_address + kLanes, 0);
      }
      const MemOp was = w.access.op;
      s.unchanged = reused && was == s.op && w.access.width_bytes == s.width &&
                    w.access.ldmatrix_count == s.ldsm_count && w.access.ldmatrix_trans == s.ldsm_trans &&
                    w.access.active_mask == s.active_mask && w.access.zero_fill_mask == s.zero_fill_mask &&
                    std::equal(address, address + kLanes, w.access.address.begin()) &&
                    (!copy || std::equal(shared_address, shared_address + kLanes, w.access.shared_address.begin()));
      w.warp = warp_;
      w.index = static_cast<int>(i);
      if (s.unchanged) continue;  // its lines stay clean, and its cost stays valid
      w.access.op = s.op;
      w.access.width_bytes = s.width;
      w.access.ldmatrix_count = s.ldsm_count;
      w.access.ldmatrix_trans = s.ldsm_trans;
      // gpu/src/executor.cuh issues 16-byte copies as cp.async.cg (L2 only) and 4- and 8-byte ones as .ca.
      w.access.cache_global = copy && s.width == 16;
      w.access.active_mask = s.active_mask;
      w.access.zero_fill_mask = s.zero_fill_mask;
      std::copy(address, address + kLanes, w.access.address.begin());
      if (copy) std::copy(shared_address, shared_address + kLanes, w.access.shared_address.begin());
      else if (reused && was == MemOp::CpAsync) w.access.shared_address.fill(0);
    }
    out_->size = first + count_;
  }
  const std::string& error() const { return error_; }
  // What the phase's threads did besides their memory instructions, which the engine costs and counts: FMA, mma, TMA
  // copies and stores, wgmma (the classes, `ops`, stay empty).
  const Counters& counted() const { return counted_; }
  const std::vector<kernel::TmaBox>& copies() const { return copies_; }
  // Whether the warp's instruction `index` came out exactly as the instruction that was in its place before, so that
  // the cost it carries is its own. Valid after end_warp().
  bool unchanged(std::size_t index) const { return slots_[index].unchanged; }

  template <int N>
  void ldg(kernel::Vec<N>& out, kernel::Operand operand, kernel::Index index, bool pred) {
    out = kernel::zeros<N>();
    push(MemOp::LoadGlobal, 4 * N, pred, global(operand, index), 0, false);
  }
  template <int N>
  void stg(kernel::Operand operand, kernel::Index index, const kernel::Vec<N>&, bool pred) {
    push(MemOp::StoreGlobal, 4 * N, pred, global(operand, index), 0, false);
  }
  template <int N>
  void lds(kernel::Vec<N>& out, int offset) {
    out = kernel::zeros<N>();
    push(MemOp::LoadShared, 4 * N, true, shared(offset), 0, false);
  }
  template <int N>
  void sts(int offset, const kernel::Vec<N>&) {
    push(MemOp::StoreShared, 4 * N, true, shared(offset), 0, false);
  }
  template <int N>
  void cp_async(int offset, kernel::Operand operand, kernel::Index index, bool pred, kernel::Width<N>) {
    // A predicated-off cp.async still writes zeros to shared memory (src-size 0): the lane stays active, reads no
    // global memory (zero_fill_mask), and its source address is recorded as 0, which passes the alignment check.
    push(MemOp::CpAsync, 4 * N, true, pred ? global(operand, index) : 0, shared(offset), !pred);
  }
  void cp_async16(int byte, kernel::Operand operand, kernel::Index index, bool pred) {
    push(MemOp::CpAsync, 16, true, pred ? global(operand, index) : 0, static_cast<std::uint64_t>(byte), !pred);
  }
  static bool rows_aligned(int cols) { return cols % 8 == 0; }
  void ldg_element(std::uint16_t& out, kernel::Operand operand, kernel::Index index, bool pred) {
    out = 0;
    push(MemOp::LoadGlobal, 2, pred, global(operand, index), 0, false);
  }
  void sts_chunk(int byte, const std::uint32_t (&)[4]) {
    push(MemOp::StoreShared, 16, true, static_cast<std::uint64_t>(byte), 0, false);
  }
  // The lane gives one row address; the registers it receives come from other lanes' rows, and recording moves no
  // data, so they are zeros.
  template <int R, bool Trans, class RowAddress>
  void ldmatrix(kernel::Ldsm<R, Trans>, std::uint32_t* out, RowAddress&& row_address) {
    for (int i = 0; i < R; ++i) out[i] = 0;
    push(MemOp::LdMatrix, 16, true, static_cast<std::uint64_t>(row_address(lane_)), 0, false, R, Trans);
  }
  // One warp-wide instruction: counted once per warp, by lane 0.
  template <class Atom>
  void mma(Atom, float*, const std::uint32_t*, const std::uint32_t*) {
    if (lane_ == 0) ++counted_.mma;
  }
  void cp_async_commit() {}
  template <int P>
  void cp_async_wait(kernel::Pending<P>) {}

  // Hopper. A TMA copy is one thread's instruction: counted with the bytes it brings and the global sectors of the
  // part of the box inside the matrix (the rest is zero-filled without a read). A multicast copy is counted, with its
  // sectors, by the block that issues it, once, though it lands in every block of the cluster; its bytes count in
  // every block they land in, and in the others it counts as a partner's copy (which the time model's copies term
  // counts as theirs). A wgmma is one warpgroup's: counted once, by lane 0 of its first warp. Barriers and fences move
  // no data.
  void mbarrier_init(int, int, bool) {}
  void mbarrier_expect_bytes(int, int, bool) {}
  void mbarrier_arrive(int, bool) {}
  void mbarrier_arrive_cluster(int, bool, int) {}
  void mbarrier_wait(int, int) {}
  void set_max_registers(int, bool) {}
  void tma_load(const kernel::TmaBox& box, int, int, bool pred, kernel::TmaMulticast multicast = {}) {
    if (!pred) return;
    counted_.tma_bytes += box.bytes();  // what lands in this block's shared memory, whoever issued it
    add_box_shape(counted_.tma_boxes, box.engine_rows(), box.bytes(), 1);
    if (!multicast.issued_here) {
      ++counted_.tma_partner_copies;
      counted_.tma_partner_sectors += sectors_inside(box);
      return;
    }
    copies_.push_back(box);
    ++counted_.tma_copies;
    counted_.tma_sectors += sectors_inside(box);
  }
  // A TMA store: one thread's instruction, counted with the global sectors of C it writes (the box's part inside C).
  void tma_store(const kernel::TmaBox& box, int, bool pred) {
    if (!pred) return;
    ++counted_.tma_stores;
    counted_.tma_store_sectors += sectors_inside(box);
    add_box_shape(counted_.tma_boxes, box.engine_rows(), box.bytes(), 1);
  }
  // Split-K's flags: one thread's wait (a poll of a global int) and release (a store of one), counted as such.
  void split_wait(int, int, bool pred) { counted_.split_waits += pred; }
  void split_release(int, int, bool pred) { counted_.split_releases += pred; }
  void split_arrive(int, bool pred) { counted_.split_releases += pred; }  // an atomic add, released as a store is
  void tma_store_commit(bool) {}
  template <int P>
  void tma_store_wait(kernel::Pending<P>, bool) {}
  void sync_warp() {}  // no memory access: nothing to cost
  void fence_async_shared() {}
  template <int N>
  void wgmma_fence(float (&)[N]) {}
  template <int N>
  void wgmma(kernel::WgmmaM64K16<N>, float*, const kernel::WgmmaOperand&, const kernel::WgmmaOperand&, bool = true) {
    if (lane_ != 0 || warp_ % 4 != 0) return;
    ++counted_.wgmma;
    counted_.wgmma_multiply_adds += kernel::WgmmaM64K16<N>::multiply_adds;
  }
  void wgmma_commit() {}
  template <int P, int N>
  void wgmma_wait(kernel::Pending<P>, float (&)[N]) {}

  // Recording moves no data: every load gives zeros, so a * b + c is c. Returning it spares the multiply.
  float fma(float, float, float c) {
    ++counted_.fma;
    return c;
  }

 private:
  static constexpr std::size_t kLanes = 32;

  // One instruction of the current warp while its lanes are recorded.
  struct Slot {
    MemOp op;
    int width;
    int ldsm_count;
    bool ldsm_trans;
    std::uint32_t active_mask, zero_fill_mask;  // built lane by lane
    bool unchanged;                             // set by end_warp()
  };

  // The 32-byte global sectors of the part of a TMA box inside its matrix (the rest is neither read nor written).
  std::int64_t sectors_inside(const kernel::TmaBox& box) const {
    const auto o = static_cast<std::size_t>(box.operand);
    const std::uint64_t element = static_cast<std::uint64_t>(operand_bytes_[o]);
    const int cols = std::min(box.cols, box.cols_total - box.col0);
    std::int64_t sectors = 0;
    for (int r = 0; r < box.rows && box.row0 + r < box.rows_total && cols > 0; ++r) {
      const std::uint64_t first = kOperandBase[o] + (std::uint64_t(box.row0 + r) * std::uint64_t(box.cols_total) +
                                                     std::uint64_t(box.col0)) * element;
      sectors += static_cast<std::int64_t>((first + std::uint64_t(cols) * element - 1) / 32 - first / 32 + 1);
    }
    return sectors;
  }

  std::uint64_t global(kernel::Operand operand, kernel::Index index) const {
    const auto o = static_cast<std::size_t>(operand);
    return kOperandBase[o] + static_cast<std::uint64_t>(index) * static_cast<std::uint64_t>(operand_bytes_[o]);
  }
  static std::uint64_t shared(int offset) { return static_cast<std::uint64_t>(offset) * 4; }

  // Called for every lane of every instruction, with `op` known where it is inlined: the lane's part stays small;
  // lane 0's work of starting an instruction is out of line.
  [[gnu::always_inline]] void push(MemOp op, int width, bool active, std::uint64_t address,
                                   std::uint64_t shared_address, bool zero_fill, int ldsm_count = 1,
                                   bool ldsm_trans = false) {
    if (lane_ == 0) {
      start_instruction(op, width, ldsm_count, ldsm_trans);
    } else if (next_ >= count_) {
      return different_counts();
    }
    Slot& s = slots_[next_];
    if (s.op != op || s.width != width || s.ldsm_count != ldsm_count || s.ldsm_trans != ldsm_trans)
      return different_instructions();
    const std::size_t at = next_ * kLanes + static_cast<std::size_t>(lane_);
    staged_[at] = address;
    if (op == MemOp::CpAsync) staged_shared_[at] = shared_address;
    s.active_mask |= static_cast<std::uint32_t>(active) << lane_;
    s.zero_fill_mask |= static_cast<std::uint32_t>(zero_fill && active) << lane_;
    ++next_;
  }

  [[gnu::noinline]] void start_instruction(MemOp op, int width, int ldsm_count, bool ldsm_trans) {
    if (slots_.size() <= next_) {
      slots_.resize(next_ + 1);
      staged_.resize(slots_.size() * kLanes);
      staged_shared_.resize(slots_.size() * kLanes);
    }
    slots_[next_] = {op, width, ldsm_count, ldsm_trans, 0, 0, false};
  }

  // The errors keep the first sentence, out of the way of the inlined path.
  [[gnu::noinline, gnu::cold]] void different_counts() {
    if (!error_.empty()) return;
    error_ = "kernel description error: threads " + std::to_string(warp_ * 32) + " and " +
             std::to_string(warp_ * 32 + lane_) + " of warp " + std::to_string(warp_) +
             " issue different numbers of memory instructions";
  }
  [[gnu::noinline, gnu::cold]] void different_instructions() {
    if (!error_.empty()) return;
    error_ = "kernel description error: lanes of warp " + std::to_string(warp_) +
             " issue different instructions at position " + std::to_string(next_);
  }

  InstructionBuffer* out_ = nullptr;
  int warp_ = 0, lane_ = 0, lanes_ = 32;
  std::size_t next_ = 0, count_ = 0;
  Counters counted_;  // see counted()
  std::vector<kernel::TmaBox> copies_;
  std::array<int, 4> operand_bytes_ = {4, 4, 4, 4};
  std::string error_;
  std::vector<Slot> slots_;                  // per instruction of the current warp
  std::vector<std::uint64_t> staged_;        // address of instruction i, lane l at [i * 32 + l]
  std::vector<std::uint64_t> staged_shared_; // cp.async's shared destinations, likewise
};

}  // namespace gemmlab::sim
