#include "gemmlab/sim/counters.hpp"

namespace gemmlab::sim {
namespace {

// One class per (operation, width or matrix count), in the order the counters are kept and printed. The order is
// part of the JSON and CSV output, so new classes go at the end.
struct OpClass {
  std::string_view name;
  MemOp op;
  int shape;  // bytes per lane; for ldmatrix, the number of matrices
};
constexpr OpClass kClasses[kOpClassCount] = {
    {"ldg.32", MemOp::LoadGlobal, 4},   {"ldg.64", MemOp::LoadGlobal, 8},   {"ldg.128", MemOp::LoadGlobal, 16},
    {"stg.32", MemOp::StoreGlobal, 4},  {"stg.64", MemOp::StoreGlobal, 8},  {"stg.128", MemOp::StoreGlobal, 16},
    {"lds.32", MemOp::LoadShared, 4},   {"lds.64", MemOp::LoadShared, 8},   {"lds.128", MemOp::LoadShared, 16},
    {"sts.32", MemOp::StoreShared, 4},  {"sts.64", MemOp::StoreShared, 8},  {"sts.128", MemOp::StoreShared, 16},
    {"ldsm.x1", MemOp::LdMatrix, 1},    {"ldsm.x2", MemOp::LdMatrix, 2},    {"ldsm.x4", MemOp::LdMatrix, 4},
    {"cp.async.4", MemOp::CpAsync, 4},  {"cp.async.8", MemOp::CpAsync, 8},  {"cp.async.16", MemOp::CpAsync, 16},
    {"ldg.16", MemOp::LoadGlobal, 2},
};

bool is_shared(MemOp op) { return op != MemOp::LoadGlobal && op != MemOp::StoreGlobal; }
bool is_global(MemOp op) { return op == MemOp::LoadGlobal || op == MemOp::StoreGlobal || op == MemOp::CpAsync; }
// What ncu sums as shared loads (lds and ldmatrix), shared stores (sts and cp.async's shared side), global loads
// (ldg and cp.async's global side) and global stores.
bool is_shared_load(MemOp op) { return op == MemOp::LoadShared || op == MemOp::LdMatrix; }
bool is_shared_store(MemOp op) { return op == MemOp::StoreShared || op == MemOp::CpAsync; }
bool is_global_load(MemOp op) { return op == MemOp::LoadGlobal || op == MemOp::CpAsync; }

void add(OpCounters& into, const OpCounters& from) {
  for (const auto count : kOpCounts) into.*count += from.*count;
}

template <class Pick>
OpCounters sum_classes(const Counters& c, Pick pick) {
  OpCounters out;
  for (int i = 0; i < kOpClassCount; ++i)
    if (pick(i)) add(out, c.ops[i]);
  return out;
}

}  // namespace

int op_class(const WarpAccess& a) {
  const int shape = a.op == MemOp::LdMatrix ? a.ldmatrix_count : a.width_bytes;
  for (int i = 0; i < kOpClassCount; ++i)
    if (kClasses[i].op == a.op && kClasses[i].shape == shape) return i;
  return 0;  // the memory model refuses other shapes before anything is counted
}

std::string_view op_class_name(int op_class) { return kClasses[op_class].name; }
bool op_class_is_shared(int c) { return is_shared(kClasses[c].op); }
bool op_class_is_global(int c) { return is_global(kClasses[c].op); }

void add_box_shape(std::vector<TmaBoxShape>& shapes, int rows, int bytes, std::int64_t copies) {
  for (TmaBoxShape& s : shapes)
    if (s.rows == rows && s.bytes == bytes) {
      s.copies += copies;
      return;
    }
  shapes.push_back({rows, bytes, copies});
}

Counters& Counters::operator+=(const Counters& other) {
  for (int i = 0; i < kOpClassCount; ++i) add(ops[i], other.ops[i]);
  for (const auto total : kCounterTotals) this->*total += other.*total;
  for (const TmaBoxShape& s : other.tma_boxes) add_box_shape(tma_boxes, s.rows, s.bytes, s.copies);
  return *this;
}

Counters Counters::scaled(std::int64_t times) const {
  Counters out;
  for (int i = 0; i < kOpClassCount; ++i)
    for (const auto count : kOpCounts) out.ops[i].*count = ops[i].*count * times;
  for (const auto total : kCounterTotals) out.*total = this->*total * times;
  for (const TmaBoxShape& s : tma_boxes) out.tma_boxes.push_back({s.rows, s.bytes, s.copies * times});
  return out;
}

OpCounters Counters::shared_loads() const { return sum_classes(*this, [](int c) { return is_shared_load(kClasses[c].op); }); }
OpCounters Counters::shared_stores() const { return sum_classes(*this, [](int c) { return is_shared_store(kClasses[c].op); }); }
OpCounters Counters::global_loads() const { return sum_classes(*this, [](int c) { return is_global_load(kClasses[c].op); }); }
OpCounters Counters::global_stores() const { return sum_classes(*this, [](int c) { return kClasses[c].op == MemOp::StoreGlobal; }); }

void count(Counters& counters, const WarpAccess& access, const SharedCost* shared, const GlobalCost* global) {
  OpCounters& o = counters.ops[op_class(access)];
  ++o.instructions;
  if (shared) {
    o.wavefronts += shared->wavefronts;
    o.ideal_wavefronts += shared->ideal_wavefronts;
  }
  if (global) {
    o.requests += global->requests;
    o.sectors += global->sectors;
    o.lines += global->lines;
    o.whole_lines += global->whole_lines;
    o.ideal_sectors += global->ideal_sectors;
    o.split_sectors += global->split_sectors;
    o.global_wavefronts += global->wavefronts;
  }
}

}  // namespace gemmlab::sim
