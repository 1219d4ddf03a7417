#pragma once
// The functional executor: performs a rung's loads, stores and FMAs on host arrays, one thread at a time, phase
// by phase. It also checks what a sanitizer would: bounds and alignment of every access, shared-memory races
// between barriers, and that C is written exactly once per element. The first problem found becomes the error.
//
// Hopper's asynchronous operations. TMA copies and wgmma move data outside the threads' program order, so block
// barriers alone do not order them: a copy's bytes are visible to a thread that waited for the copy's mbarrier phase;
// a wgmma's reads of shared memory are finished once its warpgroup waited for its group (wgmma.wait_group), and an
// overwrite of those words must come after that: after a block barrier, or after an mbarrier phase one of that
// warpgroup's threads arrived on once done (what a producer waits for before refilling a stage).
//
// Warp-wide operations. ldmatrix and mma exchange data between the lanes of a warp. For rungs that use them the
// lanes of a warp run in lockstep (lockstep.hpp): at ldmatrix or mma each lane leaves what it brings (its row
// address, or where its registers are) and waits; when the whole warp waits, complete_warp_operation() carries the
// instruction out for all lanes at once - every lane's registers from the other lanes' rows, every lane's part of D
// from the warp's A and B registers - and the lanes go on.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "gemmlab/kernel/context.hpp"
#include "gemmlab/kernel/element.hpp"
#include "gemmlab/kernel/executor.hpp"
#include "gemmlab/kernel/vec.hpp"
#include "gemmlab/kernel/wgmma.hpp"
#include "gemmlab/sim/rounding.hpp"
#include "lockstep.hpp"

namespace gemmlab::sim {

class FunctionalExecutor {
 public:
  // What a block's shared memory holds before anything writes it: NaN as an FP32 word and as both 16-bit halves
  // (all bits set), so that a read of a byte no thread or copy wrote reaches C as NaN, not as a harmless zero (the
  // GPU's shared memory holds whatever the SM's last block left there).
  static constexpr float kUnwrittenShared = std::bit_cast<float>(0xffffffffu);

  // `input`: the element type of A and B. FP16 and BF16 inputs are rounded to it and kept as 16-bit values.
  FunctionalExecutor(const std::vector<float>& a, const std::vector<float>& b, std::vector<float>& c,
                     std::vector<int>& c_writes, int smem_floats, kernel::InputType input = kernel::InputType::F32)
      : a_(a),
        b_(b),
        c_(c),
        c_writes_(c_writes),
        input_(input),
        smem_(static_cast<std::size_t>(smem_floats), kUnwrittenShared),
        words_(static_cast<std::size_t>(smem_floats)) {
    if (input != kernel::InputType::F32) {
      a16_.reserve(a.size());
      for (const float v : a) a16_.push_back(to_bits(input, v));
      b16_.reserve(b.size());
      for (const float v : b) b16_.push_back(to_bits(input, v));
    }
  }

  void set_thread(int tid) { tid_ = tid; }
  // The lockstep the warp's lanes run in (null: thread by thread; then a warp-wide operation is an error).
  void set_lockstep(WarpLockstep* lockstep) { lockstep_ = lockstep; }
  // A barrier of the whole block (threads = 0), or of its first `threads` threads alone (a warp-specialised rung's
  // consumers, kernel::barrier_threads, the block's first threads). The finished wgmma groups of the warpgroups that
  // take part, and the TMA store groups of the threads that take part that have finished reading shared memory, become
  // known to those threads; a full barrier makes every warpgroup's and every thread's known to all. The ordering of ordinary
  // shared accesses (the epoch) advances for every thread either way: in these rungs the threads left out (the
  // producer) make no ordinary shared accesses, only copies, which their mbarriers order.
  void barrier(int threads = 0) {
    ++epoch_;
    order_split_flags(threads);
    if (threads == 0) {
      for (std::size_t wg = 0; wg < done_at_barrier_.size(); ++wg)
        done_at_barrier_[wg] = std::max(done_at_barrier_[wg], done_by_warpgroup(static_cast<int>(wg)));
      for (StoreGroups& g : store_groups_) g.done_at_barrier = g.done;
      return;
    }
    // Only what the threads taking part have seen finish: their own warpgroups' wgmma, their own stores.
    const int warpgroups = std::min(kMaxWarpgroups, (threads + 127) / 128);
    const std::size_t issuers = std::min(store_groups_.size(), static_cast<std::size_t>(threads));
    for (int t = 0; t < threads; ++t) {
      std::map<int, int>& wgmma = at_thread(known_done_, t);
      for (int wg = 0; wg < warpgroups; ++wg) wgmma[wg] = std::max(wgmma[wg], done_by_warpgroup(wg));
      std::map<int, int>& stores = at_thread(stores_known_done_, t);
      for (std::size_t issuer = 0; issuer < issuers; ++issuer)
        stores[static_cast<int>(issuer)] = store_groups_[issuer].done;
    }
  }
  // The block ends: no TMA store may still read its shared memory, or be left out of a bulk group.
  void end_block() {
    for (std::size_t t = 0; t < store_groups_.size(); ++t) {
      const StoreGroups& g = store_groups_[t];
      set_thread(static_cast<int>(t));
      if (g.uncommitted > 0) fail("issued a TMA store it never committed (cp.async.bulk.commit_group)");
      if (g.done < g.committed)
        fail("the block ends while its TMA store still reads shared memory (a cp.async.bulk.wait_group.read 0 before "
             "the end)");
    }
  }
  void new_block() {
    std::fill(smem_.begin(), smem_.end(), kUnwrittenShared);
    std::fill(words_.begin(), words_.end(), Word{});
    barriers_.clear();
    register_counts_.clear();
    store_groups_.clear();
    stores_known_done_.clear();
    fence_epochs_.clear();
    warp_syncs_.clear();
    acquired_.clear();
    groups_.clear();
    known_done_.clear();
    done_at_barrier_.fill(0);
    flag_waiter_ = -1, flag_known_to_ = 0;
    c_storer_ = -1, c_storers_many_ = false, c_last_storer_ = -1, c_ordered_for_ = 0;
    ++epoch_;
  }
  bool failed() const { return !error_.empty(); }
  const std::string& error() const { return error_; }

  template <int N>
  void ldg(kernel::Vec<N>& out, kernel::Operand operand, kernel::Index index, bool pred) {
    out = kernel::zeros<N>();
    if (!pred || !check_float_operand(operand) || !check_global(operand, index, N, "load")) return;
    if (operand == kernel::Operand::C && !check_read_after_wait(c_writes_, index, "C")) return;
    if (operand == kernel::Operand::W && !check_read_after_wait(w_writes_, index, "the workspace")) return;
    const std::vector<float>& m = matrix(operand);
    for (int i = 0; i < N; ++i) out[i] = m[static_cast<std::size_t>(index + i)];
  }
  template <int N>
  void stg(kernel::Operand operand, kernel::Index index, const kernel::Vec<N>& v, bool pred) {
    if (!pred) return;
    if (operand != kernel::Operand::C && operand != kernel::Operand::W)
      return fail("a kernel stored to a matrix other than C");
    if (!check_global(operand, index, N, "store")) return;
    std::vector<float>& to = operand == kernel::Operand::W ? w_ : c_;
    std::vector<int>& writes = operand == kernel::Operand::W ? w_writes_ : c_writes_;
    for (int i = 0; i < N; ++i) {
      to[static_cast<std::size_t>(index + i)] = v[i];
      ++writes[static_cast<std::size_t>(index + i)];
    }
    if (c_storer_ < 0) c_storer_ = tid_;
    else if (c_storer_ != tid_) c_storers_many_ = true;
    c_last_storer_ = std::max(c_last_storer_, tid_);
  }
  template <int N>
  void lds(kernel::Vec<N>& out, int offset) {
    out = kernel::zeros<N>();
    if (!check_shared(offset, N)) return;
    for (int i = 0; i < N; ++i) {
      read_word(offset + i);
      out[i] = smem_[static_cast<std::size_t>(offset + i)];
    }
  }
  template <int N>
  void sts(int offset, const kernel::Vec<N>& v) {
    if (!check_shared(offset, N)) return;
    for (int i = 0; i < N; ++i) {
      write_word(offset + i);
      smem_[static_cast<std::size_t>(offset + i)] = v[i];
    }
  }
  // The copy lands at once here; the kernel's waits and barriers order it on the GPU, and the race check treats
  // it as a store at the time it is issued.
  template <int N>
  void cp_async(int offset, kernel::Operand operand, kernel::Index index, bool pred, kernel::Width<N>) {
    kernel::Vec<N> v;
    ldg(v, operand, index, pred);
    sts(offset, v);
  }
  // 16 bytes of the operand's elements, from element `index` on, to shared byte `byte` (zeros where !pred).
  void cp_async16(int byte, kernel::Operand operand, kernel::Index index, bool pred) {
    unsigned char chunk[16] = {};
    if (pred) {
      const int bytes = element_bytes(operand);
      const kernel::Index elements = 16 / bytes;
      const auto size = static_cast<kernel::Index>(matrix(operand).size());
      if (index < 0 || index + elements > size)
        return fail("cp.async.16 of " + name(operand) + " at element " + std::to_string(index) +
                    " is outside the matrix (" + std::to_string(size) + " elements)");
      if (index * bytes % 16 != 0)
        return fail("cp.async.16 of " + name(operand) + " at element " + std::to_string(index) + " is not 16-byte aligned");
      const void* source = bytes == 2 ? static_cast<const void*>(&sixteen_bit(operand)[static_cast<std::size_t>(index)])
                                      : static_cast<const void*>(&matrix(operand)[static_cast<std::size_t>(index)]);
      std::memcpy(chunk, source, 16);
    }
    if (!check_shared_bytes(byte, 16, 16, "cp.async.16")) return;
    for (int w = 0; w < 4; ++w) write_word(byte / 4 + w);
    std::memcpy(shared_bytes() + byte, chunk, 16);
  }

  static bool rows_aligned(int cols) { return cols % 8 == 0; }
  // One 16-bit element of A or B (zero where !pred).
  void ldg_element(std::uint16_t& out, kernel::Operand operand, kernel::Index index, bool pred) {
    out = 0;
    if (!pred) return;
    if (element_bytes(operand) != 2) return fail("a 16-bit load of " + name(operand) + ", whose elements are not 16-bit");
    if (!check_global(operand, index, 1, "a 16-bit load")) return;
    out = sixteen_bit(operand)[static_cast<std::size_t>(index)];
  }
  // 16 bytes from registers to shared byte `byte`.
  void sts_chunk(int byte, const std::uint32_t (&words)[4]) {
    if (!check_shared_bytes(byte, 16, 16, "st.shared.v4")) return;
    for (int w = 0; w < 4; ++w) write_word(byte / 4 + w);
    std::memcpy(shared_bytes() + byte, words, 16);
  }

  // ldmatrix: the lane leaves its row address and where its registers go, and waits for the warp.
  template <int R, bool Trans, class RowAddress>
  void ldmatrix(kernel::Ldsm<R, Trans>, std::uint32_t* out, RowAddress&& row_address) {
    if (!join_warp_operation(&FunctionalExecutor::complete_ldmatrix<R, Trans>, "ldmatrix")) return;
    const int lane = lockstep_->lane();
    const int row = row_address(lane);
    if (lane < 8 * R) {
      if (!check_shared_bytes(row, 16, 16, "an ldmatrix row address")) return;
      for (int w = 0; w < 4; ++w) read_word(row / 4 + w);
    }
    op_.row[lane] = row;
    op_.out[lane] = out;
    lockstep_->wait_for_warp();
  }

  // mma: the lane leaves where its A, B and D registers are, and waits for the warp. D is four floats whatever the
  // atom accumulates in (FP16 accumulators are rounded to FP16 and kept as floats).
  template <class Atom>
  void mma(Atom, float* d, const std::uint32_t* a, const std::uint32_t* b) {
    if (input_ == kernel::InputType::F32) return fail("mma on FP32 inputs: this executor was given no 16-bit A and B");
    if (Atom::half_accumulator && input_ != kernel::InputType::F16)
      return fail("mma accumulating in FP16 on " + std::string(kernel::input_name(input_)) + " inputs: it takes FP16");
    if (!join_warp_operation(&FunctionalExecutor::complete_mma<Atom>, "mma")) return;
    const int lane = lockstep_->lane();
    op_.d[lane] = d, op_.a[lane] = a, op_.b[lane] = b;
    lockstep_->wait_for_warp();
  }

  // ---- Hopper (kernel/wgmma.hpp). A copy lands at once here; an mbarrier's phase completes as soon as its arrivals
  // and its bytes are in, so a thread that waits on a phase that has not completed would wait forever on the GPU too.
  void mbarrier_init(int byte, int arrivals, bool pred) {
    if (!pred || !check_shared_bytes(byte, 8, 8, "an mbarrier")) return;
    Barrier b;
    b.arrivals = b.arrivals_pending = arrivals;
    barriers_[byte] = b;
  }
  void mbarrier_expect_bytes(int byte, int bytes, bool pred) {
    if (!pred) return;
    if (Barrier* b = find_barrier(byte, "mbarrier.arrive.expect_tx")) {
      b->bytes_pending += bytes;
      arrive(*b);
    }
  }
  void mbarrier_arrive(int byte, bool pred) {
    if (!pred) return;
    if (Barrier* b = find_barrier(byte, "mbarrier.arrive")) arrive(*b);
  }
  // One block of a cluster is run at a time, and the blocks run the same schedule: the arrival a partner's thread
  // makes here stands in the arrival this thread makes there, so the local barrier takes `ctas` of them.
  void mbarrier_arrive_cluster(int byte, bool pred, int ctas) {
    for (int i = 0; i < ctas; ++i) mbarrier_arrive(byte, pred);
  }
  // The box, element by element, to its place in the swizzled image (zeros outside the matrix). A multicast
  // copy issued by a partner lands here the same way: the thread that issues this block's copies writes it.
  void tma_load(const kernel::TmaBox& box, int byte, int barrier, bool pred, kernel::TmaMulticast = {}) {
    if (!pred) return;
    Barrier* b = find_barrier(barrier, "a TMA copy");
    if (b == nullptr || element_bytes(box.operand) != 2) return fail("a TMA copy of 16-bit elements needs its mbarrier");
    if (byte % 1024 != 0)
      return fail("a swizzled TMA copy lands at shared byte " + std::to_string(byte) +
                  ", which is not 1024-byte aligned");
    if (!check_shared_bytes(byte, box.bytes(), 16, "a TMA copy")) return;
    const std::vector<std::uint16_t>& source = sixteen_bit(box.operand);
    for (int r = 0; r < box.rows; ++r)
      for (int col = 0; col < box.cols; ++col) {
        const int row = box.row0 + r, column = box.col0 + col;
        const bool inside = row < box.rows_total && column < box.cols_total;
        const std::uint16_t value =
            inside ? source[static_cast<std::size_t>(kernel::Index(row) * box.cols_total + column)] : std::uint16_t{0};
        const int at = byte + box.shared_offset(r, col);
        write_word(at / 4);
        Word& w = words_[static_cast<std::size_t>(at / 4)];
        if (!overwrite_after_wgmma_reads(w, at / 4)) return;
        w.copy_barrier = barrier, w.copy_phase = b->phases_completed;
        std::memcpy(shared_bytes() + at, &value, 2);
      }
    b->bytes_pending -= box.bytes();
    complete_phase_if_done(*b);
  }
  void mbarrier_wait(int byte, int parity) {
    const Barrier* b = find_barrier(byte, "mbarrier.try_wait");
    if (b == nullptr) return;
    if (b->phases_completed % 2 == parity)
      return fail("waits on the mbarrier at shared byte " + std::to_string(byte) + " for the phase of parity " +
                  std::to_string(parity) + ", which never completes (its arrivals or bytes are missing)");
    per_thread(acquired_)[byte] = b->phases_completed;  // the copies of every completed phase
    for (const auto& [warpgroup, done] : b->released) {  // and what the arrivals of those phases released
      int& known = per_thread(known_done_)[warpgroup];
      known = std::max(known, done);
    }
  }
  // fence.proxy.async: the thread's shared writes so far are visible to the copy engine.
  void fence_async_shared() { per_thread(fence_epochs_).push_back(epoch_); }
  // A TMA store of C: every element of the box read from its place in the box's image (written by the threads,
  // each fenced before a barrier that orders it before this thread issues it) and written to C where it lies inside
  // C. The words stay read by the store until its group has finished reading: writing them earlier is a race.
  void tma_store(const kernel::TmaBox& box, int byte, bool pred) {
    if (!pred) return;
    if (box.operand != kernel::Operand::C) return fail("a TMA store to a matrix other than C");
    const int alignment = box.swizzle_bytes > 0 ? 1024 : 128;  // a swizzle pattern's span, or TMA's own minimum
    if (byte % alignment != 0)
      return fail("a TMA store reads shared byte " + std::to_string(byte) + ", which is not " +
                  std::to_string(alignment) + "-byte aligned");
    if (!check_shared_bytes(byte, box.bytes(), 16, "a TMA store")) return;
    StoreGroups& groups = per_thread(store_groups_);
    ++groups.uncommitted;
    const int group = groups.committed;
    for (int r = 0; r < box.rows; ++r)
      for (int col = 0; col < box.cols; ++col) {
        const int word = (byte + box.shared_offset(r, col)) / 4;
        read_word(word);
        Word& w = words_[static_cast<std::size_t>(word)];
        if (w.writer >= 0 && w.copy_barrier < 0 && !fenced(w))
          return fail("a TMA store reads shared float " + std::to_string(word) + ", which thread " +
                      std::to_string(w.writer) + " wrote with no fence.proxy.async after it before the barrier: the "
                      "copy engine need not see the write");
        w.store_reader = tid_, w.store_group = group;
        const int row = box.row0 + r, column = box.col0 + col;
        if (row >= box.rows_total || column >= box.cols_total) continue;
        const auto at = static_cast<std::size_t>(kernel::Index(row) * box.cols_total + column);
        c_[at] = smem_[static_cast<std::size_t>(word)];
        ++c_writes_[at];
      }
  }
  void tma_store_commit(bool pred) {
    if (!pred) return;
    StoreGroups& g = per_thread(store_groups_);
    ++g.committed;
    g.uncommitted = 0;
  }
  template <int P>
  void tma_store_wait(kernel::Pending<P>, bool pred) {
    if (!pred) return;
    StoreGroups& g = per_thread(store_groups_);
    g.done = std::max(g.done, g.committed - P);
  }
  // setmaxnreg: a count the instruction takes, and the same instruction in every thread of the warpgroup.
  void set_max_registers(int count, bool raise) {
    if (!kernel::setmaxnreg_count(count))
      return fail("setmaxnreg " + std::to_string(count) + ": the count is a multiple of 8 from 24 to 256");
    const auto [it, first] = register_counts_.try_emplace(tid_ / 128, count, raise);
    if (!first && it->second != std::pair{count, raise})
      fail("threads of warpgroup " + std::to_string(tid_ / 128) + " execute different setmaxnreg instructions");
  }
  template <int N>
  void wgmma_fence(float (&)[N]) {}
  // A thread's wgmma groups: how many it committed, and how many of those it waited for (wait_group P: all but P).
  void wgmma_commit() { ++per_thread(groups_).committed; }
  template <int P, int N>
  void wgmma_wait(kernel::Pending<P>, float (&)[N]) {
    Groups& g = per_thread(groups_);
    g.done = std::max(g.done, g.committed - P);
  }
  // This thread's part of D: its registers' elements, each from A's row and B's column read from shared memory
  // through the operands' layouts (the descriptor's fields, checked to survive the 64-bit encoding).
  template <int N>
  void wgmma(kernel::WgmmaM64K16<N>, float* d, const kernel::WgmmaOperand& a, const kernel::WgmmaOperand& b,
             bool accumulate = true) {
    using Atom = kernel::WgmmaM64K16<N>;
    if (input_ == kernel::InputType::F32) return fail("wgmma on FP32 inputs: this executor was given no 16-bit A and B");
    if (!encodable(a) || !encodable(b)) return;
    const int t = tid_ % 128;
    for (int i = 0; i < Atom::d_values; ++i) {
      const int row = Atom::d_row(t, i), col = Atom::d_col(t, i);
      float acc = accumulate ? d[i] : 0.0f;
      for (int kk = 0; kk < Atom::k; ++kk) acc = std::fma(shared_half(a.offset(row, kk)), shared_half(b.offset(kk, col)), acc);
      d[i] = acc;
    }
  }

  // __syncwarp: the lane waits for the warp; when all are there, the warp's count of them moves on, which orders the
  // shared accesses its lanes made before it with those they make after it (read_word, write_word).
  void sync_warp() {
    if (!join_warp_operation(&FunctionalExecutor::complete_sync_warp, "__syncwarp")) return;
    lockstep_->wait_for_warp();
  }
  void complete_sync_warp() {
    const auto warp = static_cast<std::size_t>(tid_ / 32);
    if (warp_syncs_.size() <= warp) warp_syncs_.resize(warp + 1, 0);
    ++warp_syncs_[warp];
  }

  // Called by the lockstep when every lane of the warp waits at the same operation.
  void complete_warp_operation() {
    if (op_.complete) (this->*op_.complete)();
    op_.complete = nullptr;
    op_.arrived = 0;
  }

  void cp_async_commit() {}
  template <int P>
  void cp_async_wait(kernel::Pending<P>) {}
  float fma(float a, float b, float c) { return a * b + c; }

  // ---- Split-K's flags (kernel/rungs/tma_wgmma_splitk.hpp): one int per tile in global memory, zero between
  // launches. The blocks run one after another in launch order, the GPU's dispatch order, so a wait must find its
  // value already set by an earlier block: otherwise, on the GPU, it waits for a block that waits in turn, or for
  // none (a deadlock).
  void set_split_flags(int tiles) { flags_.assign(static_cast<std::size_t>(tiles), 0); }
  // Split-K's workspace (workspace = 1): `elements` FP32 values, none written yet.
  void set_workspace(std::size_t elements) { w_.assign(elements, 0.0f), w_writes_.assign(elements, 0); }
  void split_wait(int tile, int value, bool pred) {
    if (!pred || !check_flag(tile)) return;
    const int now = flags_[static_cast<std::size_t>(tile)];
    if (now != value)
      return fail("waits for tile " + std::to_string(tile) + "'s split flag to read " + std::to_string(value) +
                  ", but the blocks launched before it left " + std::to_string(now) +
                  ": on the GPU this wait would never end");
    flag_waiter_ = tid_, flag_known_to_ = 0;
  }
  // The release orders the block's stores of C before it only if a barrier that the storing threads and the releasing
  // one took separates them from it: a store of another thread after it may land after the next range has read C.
  void split_release(int tile, int value, bool pred) {
    if (pred && check_flag(tile) && stores_ordered(tile, "releases", "of C"))
      flags_[static_cast<std::size_t>(tile)] = value;
  }
  // A range that left its sum in the workspace counts itself in, with the release's ordering of its stores.
  void split_arrive(int tile, bool pred) {
    if (pred && check_flag(tile) && stores_ordered(tile, "arrives on", "to the workspace"))
      ++flags_[static_cast<std::size_t>(tile)];
  }
  // The launch ends: every flag back at zero, or the next launch's first wait would find it set.
  std::string flags_left_set() const {
    for (std::size_t i = 0; i < flags_.size(); ++i)
      if (flags_[i] != 0)
        return "tile " + std::to_string(i) + "'s split flag is left at " + std::to_string(flags_[i]) +
               " after the launch: the next launch's ranges would read it";
    return {};
  }

 private:
  // A release (or arrival) orders the stores before it only if a barrier that the storing threads and this one took
  // separates them from it.
  bool stores_ordered(int tile, const char* action, const char* stored) {
    if (c_storer_ >= 0 && (c_storers_many_ || c_storer_ != tid_)) {
      fail(std::string(action) + " tile " + std::to_string(tile) + "'s split flag with no barrier after other "
           "threads' stores " + stored + ": the next range may read them before they land");
      return false;
    }
    if (c_ordered_for_ > 0 && tid_ >= c_ordered_for_) {
      fail(std::string(action) + " tile " + std::to_string(tile) + "'s split flag from thread " +
           std::to_string(tid_) + ", which did not take the barrier that ordered the stores " + stored);
      return false;
    }
    return true;
  }
  bool check_flag(int tile) {
    if (tile >= 0 && static_cast<std::size_t>(tile) < flags_.size()) return true;
    fail("a split flag " + std::to_string(tile) + " outside the launch's " + std::to_string(flags_.size()) + " tiles");
    return false;
  }
  // A barrier that the waiting thread took passes what it acquired on to the threads that took it; one that the threads
  // storing C took orders their stores before what the threads taking it do next (a release).
  void order_split_flags(int threads) {
    const int taking = threads == 0 ? std::numeric_limits<int>::max() : threads;
    if (flag_waiter_ >= 0 && flag_waiter_ < taking) flag_known_to_ = std::max(flag_known_to_, taking);
    if (c_storer_ >= 0 && c_last_storer_ < taking) {
      c_storer_ = -1, c_storers_many_ = false, c_last_storer_ = -1;
      c_ordered_for_ = threads;
    }
  }
  // An element of C (or of the workspace) an earlier block wrote is read only after this block waited for its tile's
  // flag and a barrier the reading thread took passed that on (or by the thread that waited).
  bool check_read_after_wait(const std::vector<int>& writes, kernel::Index index, const char* what) {
    if (writes[static_cast<std::size_t>(index)] == 0) return true;
    if (flag_waiter_ >= 0 && (tid_ == flag_waiter_ || tid_ < flag_known_to_)) return true;
    fail("reads element " + std::to_string(index) + " of " + what + ", which an earlier block wrote, without waiting "
         "for its tile's split flag: on the GPU it may read it before that store lands");
    return false;
  }

  struct Word {
    std::int64_t write_epoch = -1, read_epoch = -1;
    int writer = -1;
    int reader = -1;  // -2: more than one thread read it in read_epoch
    // The writer's warp's __syncwarp count when it wrote; the readers' warp (-2: several warps) and the largest such
    // count among their reads: a later access by a lane of the same warp, after a __syncwarp of it, is ordered.
    int write_sync = 0, read_warp = -1, read_sync = 0;
    // Written by a TMA copy: visible to a thread that waited for `copy_phase` of the mbarrier at `copy_barrier`
    // (-1: an ordinary write, ordered by barriers).
    int copy_barrier = -1, copy_phase = 0;
    // Read by the wgmma of these warpgroups (bit w), the latest in group wgmma_group[w] of that warpgroup.
    std::uint8_t wgmma_readers = 0;
    std::array<int, 8> wgmma_group{};
    int writer_fences = 0;  // the writer's fence.proxy.async count when it wrote
    // Read by a TMA store of thread store_reader (-1: none), in its bulk group store_group.
    int store_reader = -1, store_group = 0;
  };
  static constexpr int kMaxWarpgroups = 8;  // 1024 threads

  const std::vector<float>& matrix(kernel::Operand operand) const {
    return operand == kernel::Operand::A ? a_ : operand == kernel::Operand::B ? b_ : operand == kernel::Operand::W ? w_ : c_;
  }
  const std::vector<std::uint16_t>& sixteen_bit(kernel::Operand operand) const {
    return operand == kernel::Operand::A ? a16_ : b16_;
  }
  int element_bytes(kernel::Operand operand) const {
    return operand == kernel::Operand::C || operand == kernel::Operand::W || input_ == kernel::InputType::F32 ? 4 : 2;
  }
  static std::string name(kernel::Operand operand) {
    return operand == kernel::Operand::A   ? "A"
           : operand == kernel::Operand::B ? "B"
           : operand == kernel::Operand::W ? "the workspace"
                                           : "C";
  }
  bool check_float_operand(kernel::Operand operand) {
    if (element_bytes(operand) == 4) return true;
    fail("a 4-byte load of " + name(operand) + ", whose elements are 16-bit");
    return false;
  }
  unsigned char* shared_bytes() { return reinterpret_cast<unsigned char*>(smem_.data()); }
  bool check_shared_bytes(int byte, int bytes, int alignment, const char* what) {
    if (byte < 0 || byte + bytes > static_cast<int>(smem_.size() * 4)) {
      fail(std::string(what) + " at byte " + std::to_string(byte) + " is outside the " +
           std::to_string(smem_.size() * 4) + "-byte shared buffer");
      return false;
    }
    if (byte % alignment != 0) {
      fail(std::string(what) + " at shared byte " + std::to_string(byte) + " is not " + std::to_string(alignment) +
           "-byte aligned");
      return false;
    }
    return true;
  }
  void fail(const std::string& message) {
    if (error_.empty()) error_ = "thread " + std::to_string(tid_) + ": " + message;
  }
  bool check_global(kernel::Operand operand, kernel::Index index, int n, const char* what) {
    static const char* names[] = {"A", "B", "C", "the workspace"};
    const auto size = static_cast<kernel::Index>(matrix(operand).size());
    if (index < 0 || index + n > size) {
      fail(std::string(what) + " of " + names[static_cast<int>(operand)] + " at element " + std::to_string(index) +
           " is outside the matrix (" + std::to_string(size) + " elements)");
      return false;
    }
    if (index % n != 0) {
      fail(std::string(what) + " of " + std::to_string(4 * n) + " bytes at element " + std::to_string(index) + " of " +
           names[static_cast<int>(operand)] + " is misaligned");
      return false;
    }
    return true;
  }
  bool check_shared(int offset, int n) {
    if (offset < 0 || offset + n > static_cast<int>(smem_.size())) {
      fail("shared access at float " + std::to_string(offset) + " is outside the " + std::to_string(smem_.size()) +
           "-float buffer");
      return false;
    }
    if (offset % n != 0) {
      fail("shared access of " + std::to_string(4 * n) + " bytes at float " + std::to_string(offset) + " is misaligned");
      return false;
    }
    return true;
  }
  // The operation the warp's lanes are meeting at: the first lane to arrive names it, the others must name the same.
  bool join_warp_operation(void (FunctionalExecutor::*complete)(), const char* what) {
    if (lockstep_ == nullptr) {
      fail(std::string(what) + " is a warp-wide operation, but the lanes do not run in lockstep");
      return false;
    }
    if (op_.arrived++ == 0) {
      op_.complete = complete;
      op_.lanes = 0;
    } else if (op_.complete != complete) {
      fail("lanes of a warp issue different warp-wide operations at the same point (" + std::string(what) + ")");
      return false;
    }
    op_.lanes = op_.arrived;
    return true;
  }

  // Lane j receives, of matrix i, row j / 4 at elements 2 (j % 4) and + 1 (.trans: column j / 4 at rows 2 (j % 4)
  // and + 1): from the row addresses of lanes 8i + j / 4 (.trans: 8i + 2 (j % 4) and + 1).
  template <int R, bool Trans>
  void complete_ldmatrix() {
    if (op_.lanes < 8 * R) return fail("ldmatrix needs the row addresses of " + std::to_string(8 * R) + " lanes");
    const unsigned char* smem = shared_bytes();
    for (int j = 0; j < op_.lanes; ++j)
      for (int i = 0; i < R; ++i) {
        std::uint32_t value;
        if (!Trans) {
          std::memcpy(&value, smem + op_.row[8 * i + j / 4] + 4 * (j % 4), 4);
        } else {
          std::uint16_t lo, hi;
          std::memcpy(&lo, smem + op_.row[8 * i + 2 * (j % 4)] + 2 * (j / 4), 2);
          std::memcpy(&hi, smem + op_.row[8 * i + 2 * (j % 4) + 1] + 2 * (j / 4), 2);
          value = static_cast<std::uint32_t>(lo) | static_cast<std::uint32_t>(hi) << 16;
        }
        op_.out[j][i] = value;
      }
  }

  // D = A B + D for every lane, with A and B gathered from the warp's registers by the atom's layouts.
  template <class Atom>
  void complete_mma() {
    if (op_.lanes != 32) return fail("mma.sync needs all 32 lanes of the warp");
    float am[Atom::m][Atom::k], bm[Atom::k][Atom::n];
    for (int j = 0; j < 32; ++j) {
      std::uint16_t av[Atom::a_values], bv[Atom::b_values];
      std::memcpy(av, op_.a[j], sizeof av);
      std::memcpy(bv, op_.b[j], sizeof bv);
      for (int v = 0; v < Atom::a_values; ++v) am[Atom::a_row(j, v)][Atom::a_col(j, v)] = decode_.value(av[v]);
      for (int v = 0; v < Atom::b_values; ++v) bm[Atom::b_row(j, v)][Atom::b_col(j, v)] = decode_.value(bv[v]);
    }
    for (int j = 0; j < 32; ++j)
      for (int v = 0; v < Atom::c_values; ++v) {
        const int r = Atom::c_row(j, v), col = Atom::c_col(j, v);
        float acc = op_.d[j][v];
        for (int kk = 0; kk < Atom::k; ++kk) acc = std::fma(am[r][kk], bm[kk][col], acc);
        // FP16 accumulators hold the sum rounded to FP16 (kept here as the float of that half).
        if constexpr (Atom::half_accumulator)
          acc = from_bits(kernel::InputType::F16, to_bits(kernel::InputType::F16, acc));
        op_.d[j][v] = acc;
      }
  }

  struct Barrier {
    int arrivals = 1, arrivals_pending = 1;
    std::int64_t bytes_pending = 0;
    int phases_completed = 0;
    // Per warpgroup, the wgmma groups its arriving threads had finished: in the current phase, and in all completed
    // ones (what a thread that waits for a completed phase learns).
    std::map<int, int> releasing, released;
  };
  struct Groups {
    int committed = 0, done = 0;
  };
  // A thread's TMA store groups: committed, finished reading shared memory, and finished as of the last block
  // barrier; and the stores issued since its last commit.
  struct StoreGroups {
    int committed = 0, done = 0, done_at_barrier = 0, uncommitted = 0;
  };
  // Whether the word's writer fenced it for the copy engine: a fence after the write, and, where another thread
  // reads it, before the barrier that orders it (a fence in the current epoch comes after every barrier).
  bool fenced(const Word& w) const {
    const auto writer = static_cast<std::size_t>(w.writer);
    if (writer >= fence_epochs_.size() || fence_epochs_[writer].size() <= static_cast<std::size_t>(w.writer_fences))
      return false;
    return w.writer == tid_ || fence_epochs_[writer][static_cast<std::size_t>(w.writer_fences)] < epoch_;
  }
  // Whether the writing thread knows the TMA store that reads the word has finished reading it: its own wait, or
  // the issuer's wait before the last barrier.
  bool overwrite_after_store_reads(Word& w, int offset) {
    if (w.store_reader < 0) return true;
    const StoreGroups& g = store_groups_[static_cast<std::size_t>(w.store_reader)];
    int known = w.store_reader == tid_ ? g.done : g.done_at_barrier;
    if (static_cast<std::size_t>(tid_) < stores_known_done_.size()) {
      const auto& mine = stores_known_done_[static_cast<std::size_t>(tid_)];
      if (const auto it = mine.find(w.store_reader); it != mine.end()) known = std::max(known, it->second);
    }
    if (known <= w.store_group) {
      fail("overwrites shared float " + std::to_string(offset) + " that thread " + std::to_string(w.store_reader) +
           "'s TMA store (group " + std::to_string(w.store_group) + ") may still read (a cp.async.bulk.wait_group.read "
           "by that thread, then a barrier, comes first)");
      return false;
    }
    w.store_reader = -1;
    return true;
  }
  template <class T>
  static T& at_thread(std::vector<T>& v, int thread) {
    if (v.size() <= static_cast<std::size_t>(thread)) v.resize(static_cast<std::size_t>(thread) + 1);
    return v[static_cast<std::size_t>(thread)];
  }
  template <class T>
  T& per_thread(std::vector<T>& v) {
    return at_thread(v, tid_);
  }
  // The groups every thread of the warpgroup that issued wgmma has waited for (wait_group is warpgroup-wide).
  int done_by_warpgroup(int warpgroup) const {
    int done = -1;
    for (std::size_t t = static_cast<std::size_t>(128 * warpgroup); t < groups_.size() && t < std::size_t(128 * (warpgroup + 1)); ++t)
      if (groups_[t].committed > 0) done = done < 0 ? groups_[t].done : std::min(done, groups_[t].done);
    return std::max(done, 0);
  }
  void arrive(Barrier& b) {
    int& released = b.releasing[tid_ / 128];
    released = std::max(released, per_thread(groups_).done);
    --b.arrivals_pending;
    complete_phase_if_done(b);
  }
  Barrier* find_barrier(int byte, const char* what) {
    const auto it = barriers_.find(byte);
    if (it != barriers_.end()) return &it->second;
    fail(std::string(what) + " names shared byte " + std::to_string(byte) + ", where no mbarrier was initialised");
    return nullptr;
  }
  static void complete_phase_if_done(Barrier& b) {
    if (b.arrivals_pending > 0 || b.bytes_pending != 0) return;
    ++b.phases_completed;
    b.arrivals_pending = b.arrivals;
    for (const auto& [warpgroup, done] : b.releasing) b.released[warpgroup] = std::max(b.released[warpgroup], done);
    b.releasing.clear();
  }
  // A wgmma read: checked like any read for the writes before it, and remembered per warpgroup with the group it
  // belongs to (the thread's next commit), so that an overwrite can be checked against it.
  void read_word_by_wgmma(int offset) {
    Word& w = words_[static_cast<std::size_t>(offset)];
    check_read_after_write(w, offset);
    const int warpgroup = tid_ / 128;
    if (warpgroup >= kMaxWarpgroups) return fail("more warpgroups than the race check tracks");
    w.wgmma_readers |= static_cast<std::uint8_t>(1u << warpgroup);
    w.wgmma_group[warpgroup] = std::max(w.wgmma_group[warpgroup], per_thread(groups_).committed);
  }
  // Whether the writing thread knows every wgmma group that read the word has finished.
  bool overwrite_after_wgmma_reads(Word& w, int offset) {
    for (int warpgroup = 0; warpgroup < kMaxWarpgroups; ++warpgroup) {
      if (!(w.wgmma_readers >> warpgroup & 1u)) continue;
      int known = done_at_barrier_[static_cast<std::size_t>(warpgroup)];
      if (static_cast<std::size_t>(tid_) < known_done_.size()) {
        const auto& mine = known_done_[static_cast<std::size_t>(tid_)];
        if (const auto it = mine.find(warpgroup); it != mine.end()) known = std::max(known, it->second);
      }
      if (known <= w.wgmma_group[warpgroup]) {
        fail("overwrites shared float " + std::to_string(offset) + " that warpgroup " + std::to_string(warpgroup) +
             "'s wgmma group " + std::to_string(w.wgmma_group[warpgroup]) + " reads, before knowing that group has "
             "finished (a wgmma.wait_group, then a block barrier or an mbarrier arrival this thread waited for)");
        return false;
      }
    }
    w.wgmma_readers = 0;
    w.wgmma_group.fill(0);
    return true;
  }
  bool encodable(const kernel::WgmmaOperand& o) {
    const std::uint64_t d = o.descriptor(0);
    const bool fits = int(d & 0x3FFF) << 4 == o.start && int(d >> 16 & 0x3FFF) << 4 == o.leading_byte_offset &&
                      int(d >> 32 & 0x3FFF) << 4 == o.stride_byte_offset;
    if (!fits)
      fail("a wgmma descriptor cannot hold start " + std::to_string(o.start) + ", leading offset " +
           std::to_string(o.leading_byte_offset) + " and stride offset " + std::to_string(o.stride_byte_offset) +
           " (multiples of 16 below 256 KiB)");
    return fits;
  }
  float shared_half(int byte) {
    if (!check_shared_bytes(byte, 2, 2, "a wgmma operand")) return 0.0f;
    read_word_by_wgmma(byte / 4);
    std::uint16_t bits;
    std::memcpy(&bits, shared_bytes() + byte, 2);
    return decode_.value(bits);
  }

  void read_word(int offset) {
    Word& w = words_[static_cast<std::size_t>(offset)];
    check_read_after_write(w, offset);
    const int warp = tid_ / 32, syncs = warp_syncs(warp);
    if (w.read_epoch != epoch_) {
      w.read_epoch = epoch_, w.reader = tid_, w.read_warp = warp, w.read_sync = syncs;
      return;
    }
    if (w.reader != tid_) w.reader = -2;
    if (w.read_warp != warp) w.read_warp = -2;
    w.read_sync = std::max(w.read_sync, syncs);
  }
  // Whether this thread's warp has met at a __syncwarp since a lane of it made an access counted `syncs`.
  bool synced_in_warp(int warp, int syncs) const { return warp == tid_ / 32 && warp_syncs(warp) > syncs; }
  int warp_syncs(int warp) const {
    return static_cast<std::size_t>(warp) < warp_syncs_.size() ? warp_syncs_[static_cast<std::size_t>(warp)] : 0;
  }
  void check_read_after_write(const Word& w, int offset) {
    if (w.copy_barrier >= 0) {
      if (!waited_for_copy(w))
        fail("reads shared float " + std::to_string(offset) + " before waiting for the TMA copy that writes it (the "
             "mbarrier at shared byte " + std::to_string(w.copy_barrier) + ", phase " + std::to_string(w.copy_phase) +
             ")");
    } else if (w.write_epoch == epoch_ && w.writer != tid_ && !synced_in_warp(w.writer / 32, w.write_sync))
      fail("reads shared float " + std::to_string(offset) + " that thread " + std::to_string(w.writer) +
           " wrote since the last barrier (a race)");
  }
  void write_word(int offset) {
    Word& w = words_[static_cast<std::size_t>(offset)];
    if (!overwrite_after_store_reads(w, offset)) return;
    // (A copy's words are not the issuing warp's to overwrite after a __syncwarp: its mbarrier orders them.)
    if (w.write_epoch == epoch_ && w.writer != tid_ && !(w.copy_barrier < 0 && synced_in_warp(w.writer / 32, w.write_sync)))
      fail("writes shared float " + std::to_string(offset) + " that thread " + std::to_string(w.writer) +
           " also wrote since the last barrier (a race)");
    if (w.read_epoch == epoch_ && w.reader != tid_ && !synced_in_warp(w.read_warp, w.read_sync))
      fail("writes shared float " + std::to_string(offset) + " that another thread read since the last barrier (a race)");
    w.write_epoch = epoch_;
    w.writer = tid_;
    w.write_sync = warp_syncs(tid_ / 32);
    const auto me = static_cast<std::size_t>(tid_);
    w.writer_fences = me < fence_epochs_.size() ? static_cast<int>(fence_epochs_[me].size()) : 0;
    w.copy_barrier = -1;
  }
  bool waited_for_copy(const Word& w) const {
    if (acquired_.size() <= static_cast<std::size_t>(tid_)) return false;
    const auto& phases = acquired_[static_cast<std::size_t>(tid_)];
    const auto it = phases.find(w.copy_barrier);
    return it != phases.end() && it->second > w.copy_phase;
  }

  const std::vector<float>& a_;
  const std::vector<float>& b_;
  std::vector<float>& c_;
  std::vector<int>& c_writes_;
  std::vector<float> w_;        // split-K's workspace (set_workspace)
  std::vector<int> w_writes_;   // and how often each element was written
  // 16-bit element -> float, by table (mma decodes 384 elements per lane and call).
  struct Decoder {
    std::vector<float> table;
    explicit Decoder(kernel::InputType type) {
      if (type == kernel::InputType::F32) return;
      table.resize(65536);
      for (std::uint32_t bits = 0; bits < 65536; ++bits) table[bits] = from_bits(type, static_cast<std::uint16_t>(bits));
    }
    float value(std::uint16_t bits) const { return table[bits]; }
  };

  kernel::InputType input_;
  Decoder decode_{input_};
  std::vector<std::uint16_t> a16_, b16_;  // A and B rounded to the 16-bit input type (empty for FP32)
  WarpLockstep* lockstep_ = nullptr;
  // The warp-wide operation the lanes are meeting at: what each lane left, and how to carry it out.
  struct WarpOperation {
    void (FunctionalExecutor::*complete)() = nullptr;
    int arrived = 0, lanes = 0;
    int row[32] = {};                     // ldmatrix: each lane's row address
    std::uint32_t* out[32] = {};          // ldmatrix: each lane's destination registers
    float* d[32] = {};                    // mma: each lane's accumulators
    const std::uint32_t* a[32] = {};      // mma: each lane's A and B registers
    const std::uint32_t* b[32] = {};
  } op_;
  std::vector<float> smem_;
  std::vector<Word> words_;
  std::map<int, Barrier> barriers_;  // by shared byte
  std::map<int, std::pair<int, bool>> register_counts_;  // by warpgroup: its setmaxnreg count and direction
  std::vector<std::map<int, int>> acquired_;  // per thread: mbarrier byte -> phases whose copies it waited for
  std::vector<Groups> groups_;                // per thread: its wgmma groups
  std::vector<StoreGroups> store_groups_;     // per thread: its TMA store groups
  std::vector<std::map<int, int>> stores_known_done_;  // per thread: issuer -> its store groups known finished
  std::vector<std::vector<std::int64_t>> fence_epochs_;  // per thread: the epoch of each fence.proxy.async
  std::vector<std::map<int, int>> known_done_;  // per thread: warpgroup -> wgmma groups it knows have finished
  std::array<int, 8> done_at_barrier_{};       // per warpgroup: groups finished by the last block barrier
  std::vector<int> flags_;                     // split-K: per tile, its flag
  int flag_waiter_ = -1;                        // the block's thread that waited for its tile's flag (-1: none)
  int flag_known_to_ = 0;                       // the block's first threads that a barrier since passed it on to
  // The block's stores of C since the last barrier that all their threads took: the first thread's, whether others
  // stored too, and the highest thread that did; and the threads of the barrier that last ordered them (0: all).
  int c_storer_ = -1, c_last_storer_ = -1, c_ordered_for_ = 0;
  bool c_storers_many_ = false;
  std::int64_t epoch_ = 0;
  std::vector<int> warp_syncs_;  // per warp of the block: the __syncwarp it has met at
  int tid_ = 0;
  std::string error_;
};

}  // namespace gemmlab::sim
