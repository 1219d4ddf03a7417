#pragma once
// The functional executor: performs a rung's loads, stores and FMAs on host arrays, one thread at a time, phase
// by phase. It also checks what a sanitizer would: bounds and alignment of every access, shared-memory races
// between barriers, and that C is written exactly once per element. The first problem found becomes the error.
#include <cstdint>
#include <string>
#include <vector>

#include "gemmlab/kernel/context.hpp"
#include "gemmlab/kernel/executor.hpp"
#include "gemmlab/kernel/vec.hpp"

namespace gemmlab::sim {

class FunctionalExecutor {
 public:
  FunctionalExecutor(const std::vector<float>& a, const std::vector<float>& b, std::vector<float>& c,
                     std::vector<int>& c_writes, int smem_floats)
      : a_(a), b_(b), c_(c), c_writes_(c_writes), smem_(static_cast<std::size_t>(smem_floats), 0.0f),
        words_(static_cast<std::size_t>(smem_floats)) {}

  void set_thread(int tid) { tid_ = tid; }
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
    if (!pred || !check_global(operand, index, N, "load")) return;
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
  std::vector<float> smem_;
  std::vector<Word> words_;
  std::int64_t epoch_ = 0;
  int tid_ = 0;
  std::string error_;
};

}  // namespace gemmlab::sim
