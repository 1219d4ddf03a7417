#include "gemmlab/sim/counters.hpp"

namespace gemmlab::sim {
namespace {

// Classes 0-11: {ldg, stg, lds, sts} x {32, 64, 128 bits}; 12-14: ldmatrix .x1/.x2/.x4; 15-17: cp.async 4/8/16.
constexpr std::string_view kNames[kOpClassCount] = {
    "ldg.32", "ldg.64", "ldg.128", "stg.32", "stg.64", "stg.128", "lds.32",  "lds.64",     "lds.128",
    "sts.32", "sts.64", "sts.128", "ldsm.x1", "ldsm.x2", "ldsm.x4", "cp.async.4", "cp.async.8", "cp.async.16"};

int width_slot(int bytes) { return bytes == 16 ? 2 : bytes == 8 ? 1 : 0; }

void add(OpCounters& into, const OpCounters& from) {
  into.instructions += from.instructions;
  into.wavefronts += from.wavefronts;
  into.ideal_wavefronts += from.ideal_wavefronts;
  into.requests += from.requests;
  into.sectors += from.sectors;
  into.lines += from.lines;
  into.ideal_sectors += from.ideal_sectors;
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
  switch (a.op) {
    case MemOp::LoadGlobal: return 0 + width_slot(a.width_bytes);
    case MemOp::StoreGlobal: return 3 + width_slot(a.width_bytes);
    case MemOp::LoadShared: return 6 + width_slot(a.width_bytes);
    case MemOp::StoreShared: return 9 + width_slot(a.width_bytes);
    case MemOp::LdMatrix: return 12 + (a.ldmatrix_count == 4 ? 2 : a.ldmatrix_count == 2 ? 1 : 0);
    case MemOp::CpAsync: return 15 + width_slot(a.width_bytes);
  }
  return 0;
}

std::string_view op_class_name(int op_class) { return kNames[op_class]; }
bool op_class_is_shared(int c) { return c >= 6; }
bool op_class_is_global(int c) { return c < 6 || c >= 15; }

Counters& Counters::operator+=(const Counters& other) {
  for (int i = 0; i < kOpClassCount; ++i) add(ops[i], other.ops[i]);
  fma += other.fma;
  mma += other.mma;
  return *this;
}

Counters Counters::scaled(std::int64_t times) const {
  Counters out;
  for (int i = 0; i < kOpClassCount; ++i) {
    const OpCounters& o = ops[i];
    out.ops[i] = {o.instructions * times, o.wavefronts * times, o.ideal_wavefronts * times, o.requests * times,
                  o.sectors * times,      o.lines * times,      o.ideal_sectors * times};
  }
  out.fma = fma * times;
  out.mma = mma * times;
  return out;
}

OpCounters Counters::shared_loads() const { return sum_classes(*this, [](int c) { return (c >= 6 && c <= 8) || (c >= 12 && c <= 14); }); }
OpCounters Counters::shared_stores() const { return sum_classes(*this, [](int c) { return (c >= 9 && c <= 11) || c >= 15; }); }
OpCounters Counters::global_loads() const { return sum_classes(*this, [](int c) { return c <= 2 || c >= 15; }); }
OpCounters Counters::global_stores() const { return sum_classes(*this, [](int c) { return c >= 3 && c <= 5; }); }

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
    o.ideal_sectors += global->ideal_sectors;
  }
}

}  // namespace gemmlab::sim
