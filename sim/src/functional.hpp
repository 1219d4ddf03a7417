#pragma once
// The functional executor: performs a rung's loads, stores and FMAs on host arrays, one thread at a time, phase
// by phase. It also checks what a sanitizer would: bounds and alignment of every access, shared-memory races
// between barriers, and that C is written exactly once per element. The first problem found becomes the error.
//
// Warp-wide operations. ldmatrix and mma exchange data between the lanes of a warp, but threads run here one after
// another. The executor therefore sees the warp's registers: each thread's State is one element of an array, so a
// register of lane j is at the same offset in lane j's State. ldmatrix writes EVERY lane's registers, as the
// instruction does, computing lane j's values from the row addresses of the lanes that supply them (the
// description gives the row address as a function of the lane); mma then reads the other lanes' A and B registers
// and computes the calling lane's part of D. A lane that reissues the same ldmatrix rewrites the same values (the
// race check guarantees that the rows it reads do not change within a phase), so whichever lane runs first, every
// mma sees the fragments its own ldmatrix loaded.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "gemmlab/kernel/context.hpp"
#include "gemmlab/kernel/element.hpp"
#include "gemmlab/kernel/executor.hpp"
#include "gemmlab/kernel/vec.hpp"
#include "gemmlab/sim/rounding.hpp"

namespace gemmlab::sim {

class FunctionalExecutor {
 public:
  // `input`: the element type of A and B. FP16 and BF16 inputs are rounded to it and kept as 16-bit values.
  FunctionalExecutor(const std::vector<float>& a, const std::vector<float>& b, std::vector<float>& c,
                     std::vector<int>& c_writes, int smem_floats, kernel::InputType input = kernel::InputType::F32)
      : a_(a), b_(b), c_(c), c_writes_(c_writes), input_(input), smem_(static_cast<std::size_t>(smem_floats), 0.0f),
        words_(static_cast<std::size_t>(smem_floats)) {
    if (input != kernel::InputType::F32) {
      a16_.reserve(a.size());
      for (const float v : a) a16_.push_back(to_bits(input, v));
      b16_.reserve(b.size());
      for (const float v : b) b16_.push_back(to_bits(input, v));
    }
  }

  void set_thread(int tid) { tid_ = tid; }
  // The thread's registers and the warp's: `state` is this thread's State, `state_bytes` its size; the warp's lanes
  // are the `lanes` consecutive States from lane 0's.
  void set_registers(void* state, std::size_t state_bytes, int lanes) {
    state_ = static_cast<unsigned char*>(state);
    state_bytes_ = state_bytes;
    warp_lanes_ = lanes;
  }
  void barrier() { ++epoch_; }
  void new_block() {
    std::fill(smem_.begin(), smem_.end(), 0.0f);
    std::fill(words_.begin(), words_.end(), Word{});
    ++epoch_;
  }
  bool failed() const { return !error_.empty(); }
  const std::string& error() const { return error_; }

  template <int N>
  void ldg(kernel::Vec<N>& out, kernel::Operand operand, kernel::Index index, bool pred) {
    out = kernel::zeros<N>();
    if (!pred || !check_float_operand(operand) || !check_global(operand, index, N, "load")) return;
    const std::vector<float>& m = matrix(operand);
    for (int i = 0; i < N; ++i) out[i] = m[static_cast<std::size_t>(index + i)];
  }
  template <int N>
  void stg(kernel::Operand operand, kernel::Index index, const kernel::Vec<N>& v, bool pred) {
    if (!pred) return;
    if (operand != kernel::Operand::C) return fail("a kernel stored to a matrix other than C");
    if (!check_global(operand, index, N, "store")) return;
    for (int i = 0; i < N; ++i) {
      c_[static_cast<std::size_t>(index + i)] = v[i];
      ++c_writes_[static_cast<std::size_t>(index + i)];
    }
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

  template <int R, bool Trans, class RowAddress>
  void ldmatrix(kernel::Ldsm<R, Trans>, std::uint32_t* out, RowAddress&& row_address) {
    const int lane = tid_ % 32;
    int rows[32] = {};
    for (int l = 0; l < 8 * R; ++l) {
      rows[l] = row_address(l);
      if (!check_shared_bytes(rows[l], 16, 16, "an ldmatrix row address")) return;
    }
    if (lane < 8 * R)
      for (int w = 0; w < 4; ++w) read_word(rows[lane] / 4 + w);
    const long at = offset_in_state(out, R * 4, "ldmatrix's destination");
    if (at < 0) return;
    const unsigned char* smem = shared_bytes();
    for (int j = 0; j < warp_lanes_; ++j) {
      std::uint32_t values[R];
      for (int i = 0; i < R; ++i) {
        if (!Trans) {  // lane j: row j / 4 of matrix i, elements 2 (j % 4) and 2 (j % 4) + 1
          std::memcpy(&values[i], smem + rows[8 * i + j / 4] + 4 * (j % 4), 4);
        } else {  // lane j: column j / 4 of matrix i, rows 2 (j % 4) and 2 (j % 4) + 1
          std::uint16_t lo, hi;
          std::memcpy(&lo, smem + rows[8 * i + 2 * (j % 4)] + 2 * (j / 4), 2);
          std::memcpy(&hi, smem + rows[8 * i + 2 * (j % 4) + 1] + 2 * (j / 4), 2);
          values[i] = static_cast<std::uint32_t>(lo) | static_cast<std::uint32_t>(hi) << 16;
        }
      }
      std::memcpy(lane_state(j) + at, values, sizeof values);
    }
  }

  // D = A B + D for the calling lane's elements of D, with A and B gathered from the warp's registers.
  template <class Atom>
  void mma(Atom, float* d, const std::uint32_t* a, const std::uint32_t* b) {
    if (input_ == kernel::InputType::F32) return fail("mma on FP32 inputs: this executor was given no 16-bit A and B");
    const long at_a = offset_in_state(a, 4 * Atom::a_values / 2, "mma's A operand");
    const long at_b = offset_in_state(b, 4 * Atom::b_values / 2, "mma's B operand");
    if (at_a < 0 || at_b < 0) return;
    // Only the rows of A and columns of B this lane's elements of D need are gathered.
    const int lane = tid_ % 32;
    bool row_needed[Atom::m] = {}, col_needed[Atom::n] = {};
    for (int v = 0; v < Atom::c_values; ++v) {
      row_needed[Atom::c_row(lane, v)] = true;
      col_needed[Atom::c_col(lane, v)] = true;
    }
    float am[Atom::m][Atom::k], bm[Atom::k][Atom::n];
    for (int j = 0; j < warp_lanes_; ++j) {
      std::uint16_t av[Atom::a_values], bv[Atom::b_values];
      std::memcpy(av, lane_state(j) + at_a, sizeof av);
      std::memcpy(bv, lane_state(j) + at_b, sizeof bv);
      for (int v = 0; v < Atom::a_values; ++v)
        if (row_needed[Atom::a_row(j, v)]) am[Atom::a_row(j, v)][Atom::a_col(j, v)] = decode_.value(av[v]);
      for (int v = 0; v < Atom::b_values; ++v)
        if (col_needed[Atom::b_col(j, v)]) bm[Atom::b_row(j, v)][Atom::b_col(j, v)] = decode_.value(bv[v]);
    }
    for (int v = 0; v < Atom::c_values; ++v) {
      const int r = Atom::c_row(lane, v), col = Atom::c_col(lane, v);
      float acc = d[v];
      for (int kk = 0; kk < Atom::k; ++kk) acc = std::fma(am[r][kk], bm[kk][col], acc);
      d[v] = acc;
    }
  }

  void cp_async_commit() {}
  template <int P>
  void cp_async_wait(kernel::Pending<P>) {}
  float fma(float a, float b, float c) { return a * b + c; }

 private:
  struct Word {
    std::int64_t write_epoch = -1, read_epoch = -1;
    int writer = -1;
    int reader = -1;  // -2: more than one thread read it in read_epoch
  };

  const std::vector<float>& matrix(kernel::Operand operand) const {
    return operand == kernel::Operand::A ? a_ : operand == kernel::Operand::B ? b_ : c_;
  }
  const std::vector<std::uint16_t>& sixteen_bit(kernel::Operand operand) const {
    return operand == kernel::Operand::A ? a16_ : b16_;
  }
  int element_bytes(kernel::Operand operand) const {
    return operand == kernel::Operand::C || input_ == kernel::InputType::F32 ? 4 : 2;
  }
  static std::string name(kernel::Operand operand) {
    return operand == kernel::Operand::A ? "A" : operand == kernel::Operand::B ? "B" : "C";
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
  // Where `registers` (bytes long) sits in the calling thread's State; -1 (and an error) when it is not inside it.
  long offset_in_state(const void* registers, int bytes, const char* what) {
    const auto* p = static_cast<const unsigned char*>(registers);
    if (state_ == nullptr || p < state_ || p + bytes > state_ + state_bytes_) {
      fail(std::string(what) + " is not in the thread's State: warp-wide operations exchange registers kept there");
      return -1;
    }
    return static_cast<long>(p - state_);
  }
  unsigned char* lane_state(int lane) {
    return state_ + (static_cast<long>(lane) - tid_ % 32) * static_cast<long>(state_bytes_);
  }
  void fail(const std::string& message) {
    if (error_.empty()) error_ = "thread " + std::to_string(tid_) + ": " + message;
  }
  bool check_global(kernel::Operand operand, kernel::Index index, int n, const char* what) {
    static const char* names[] = {"A", "B", "C"};
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
  void read_word(int offset) {
    Word& w = words_[static_cast<std::size_t>(offset)];
    if (w.write_epoch == epoch_ && w.writer != tid_)
      fail("reads shared float " + std::to_string(offset) + " that thread " + std::to_string(w.writer) +
           " wrote since the last barrier (a race)");
    if (w.read_epoch != epoch_) w.read_epoch = epoch_, w.reader = tid_;
    else if (w.reader != tid_) w.reader = -2;
  }
  void write_word(int offset) {
    Word& w = words_[static_cast<std::size_t>(offset)];
    if (w.write_epoch == epoch_ && w.writer != tid_)
      fail("writes shared float " + std::to_string(offset) + " that thread " + std::to_string(w.writer) +
           " also wrote since the last barrier (a race)");
    if (w.read_epoch == epoch_ && w.reader != tid_)
      fail("writes shared float " + std::to_string(offset) + " that another thread read since the last barrier (a race)");
    w.write_epoch = epoch_;
    w.writer = tid_;
  }

  const std::vector<float>& a_;
  const std::vector<float>& b_;
  std::vector<float>& c_;
  std::vector<int>& c_writes_;
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
  unsigned char* state_ = nullptr;       // the calling thread's State
  std::size_t state_bytes_ = 0;
  int warp_lanes_ = 32;
  std::vector<float> smem_;
  std::vector<Word> words_;
  std::int64_t epoch_ = 0;
  int tid_ = 0;
  std::string error_;
};

}  // namespace gemmlab::sim
