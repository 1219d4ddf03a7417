// The model of one warp memory instruction. docs/memory-model.md explains each rule and what the hardware does.
#include "gemmlab/memory_model.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>

namespace gemmlab::sim {
namespace {

constexpr int kWarpSize = 32;
constexpr int kBanks = 32;            // shared memory: 32 banks ...
constexpr int kBankBytes = 4;         // ... each 4 bytes wide; bank = (address / 4) % 32
constexpr int kWavefrontBytes = 128;  // one wavefront moves at most one word from each bank: 32 x 4 bytes
constexpr int kSectorBytes = 32;      // global memory moves 32-byte sectors ...
constexpr int kLineBytes = 128;       // ... grouped in 128-byte cache lines
constexpr int kLdmatrixRowBytes = 16; // ldmatrix: each lane gives the address of one 16-byte row (8 x b16)
constexpr int kLdmatrixRows = 8;      // 8 rows make one 8x8 matrix, served as one 128-byte phase

bool active(const WarpAccess& a, int lane) { return (a.active_mask >> lane) & 1u; }

std::string hex(std::uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
  return text;
}

// The PTX instruction a learner would write, for error sentences ("ld.shared.v2 needs 8-byte-aligned addresses").
std::string ptx_name(const WarpAccess& a) {
  const char* vec = a.width_bytes == 16 ? "v4" : a.width_bytes == 8 ? "v2" : "b32";
  switch (a.op) {
    case MemOp::LoadShared: return std::string("ld.shared.") + vec;
    case MemOp::StoreShared: return std::string("st.shared.") + vec;
    case MemOp::LoadGlobal: return std::string("ld.global.") + vec;
    case MemOp::StoreGlobal: return std::string("st.global.") + vec;
    case MemOp::LdMatrix: return "ldmatrix.x" + std::to_string(a.ldmatrix_count);
    case MemOp::CpAsync: return "cp.async." + std::to_string(a.width_bytes);
  }
  return "?";
}

// The checks the hardware makes before it moves a byte: a misaligned address faults the whole instruction
// ("misaligned address"), and an instruction with no active lane does not exist.
Status validate(const WarpAccess& a) {
  if (a.op == MemOp::LdMatrix) {
    if (a.ldmatrix_count != 1 && a.ldmatrix_count != 2 && a.ldmatrix_count != 4)
      return Error{"ldmatrix loads 1, 2 or 4 matrices (.x1, .x2, .x4), not " + std::to_string(a.ldmatrix_count)};
  } else if (a.width_bytes != 4 && a.width_bytes != 8 && a.width_bytes != 16) {
    return Error{"the access width must be 4, 8 or 16 bytes per lane, not " + std::to_string(a.width_bytes)};
  }
  if (a.active_mask == 0)
    return Error{"no lane is active (mask 0x00000000): a warp instruction needs at least one active lane"};

  if (a.op == MemOp::LdMatrix) {
    // ldmatrix is .sync.aligned: the whole warp executes it, and lanes 0..8*count-1 each give one row address.
    const int address_lanes = kLdmatrixRows * a.ldmatrix_count;
    for (int lane = 0; lane < address_lanes; ++lane) {
      if (!active(a, lane))
        return Error{ptx_name(a) + " takes its row addresses from lanes 0-" + std::to_string(address_lanes - 1) +
                     ", but lane " + std::to_string(lane) + " is inactive in mask " + hex(a.active_mask) +
                     "; ldmatrix is .sync.aligned: the whole warp must execute it"};
      if (a.address[lane] % kLdmatrixRowBytes != 0)
        return Error{"lane " + std::to_string(lane) + ": row address " + hex(a.address[lane]) +
                     " is not 16-byte aligned; ldmatrix needs 16-byte-aligned row addresses"};
    }
    return Ok{};
  }

  const auto width = static_cast<std::uint64_t>(a.width_bytes);
  const std::uint64_t misaligned = width - 1;  // widths are powers of two: a mask instead of a division
  const bool cp_async = a.op == MemOp::CpAsync;
  // The common case, every address aligned, in one branch-free pass; the loop below finds the lane to blame.
  std::uint64_t stray_bits = 0;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const std::uint64_t on = (a.active_mask >> lane) & 1u;
    stray_bits |= (a.address[static_cast<std::size_t>(lane)] | (cp_async ? a.shared_address[static_cast<std::size_t>(lane)] : 0)) &
                  misaligned & (0 - on);
  }
  if (stray_bits == 0) return Ok{};
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (!active(a, lane)) continue;
    if ((a.address[lane] & misaligned) != 0)
      return Error{"lane " + std::to_string(lane) + ": " + (cp_async ? "global address " : "address ") +
                   hex(a.address[lane]) + " is not " + std::to_string(width) + "-byte aligned; " + ptx_name(a) +
                   " needs " + std::to_string(width) + "-byte-aligned addresses"};
    if (cp_async && (a.shared_address[lane] & misaligned) != 0)
      return Error{"lane " + std::to_string(lane) + ": shared address " + hex(a.shared_address[lane]) + " is not " +
                   std::to_string(width) + "-byte aligned; " + ptx_name(a) + " needs " + std::to_string(width) +
                   "-byte-aligned addresses"};
  }
  return Ok{};
}

// ---------------------------------------------------------------------------------------------------------------
// Shared memory. The rules, each named so the docs and the tests can point at it:
//
// Rule S1 (phases). The warp's request is split into phases of lanes that are served together; a phase can move at
//   most 128 bytes per wavefront, so 32-bit accesses use one phase of 32 lanes, 64-bit two half-warp phases
//   (lanes 0-15, 16-31), 128-bit four quarter-warp phases (lanes 0-7, 8-15, ...). ldmatrix: one phase per 8x8
//   matrix (the 8 lanes giving its row addresses).
// Rule S2 (distinct words per bank). Within a phase, each bank delivers one 4-byte word per wavefront, so the phase
//   takes max over banks of the number of DISTINCT words asked of that bank. Lanes asking for the same word share
//   it (broadcast on loads; on stores one of the writes lands), so they never conflict.
// Rule L1 (uniform pairs, loads only). If, for every pair of active lanes (n, n^1), or for every pair (n, n^2), both
//   lanes give the same address, a 64- or 128-bit LOAD packs two phases into one (NVIDIA forum, CC 7.x: LDS.128
//   drops from 4 to 2 requests; SASS LDS.U "uniform" hint). Stores do not get it.
// Rule I1 (ideal). ideal = ceil(active lanes x bytes per lane / 128); ldmatrix: one per matrix. An ideal is never
//   more than the wavefronts actually used: a uniform-pair load can beat bytes/128, and that is no negative conflict.
// ---------------------------------------------------------------------------------------------------------------

// Rule L1: lanes in pairs (n, n^partner) agree on their address wherever both are active.
bool uniform_pairs(const WarpAccess& a, int partner) {
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const int other = lane ^ partner;
    if (active(a, lane) && active(a, other) && a.address[lane] != a.address[other]) return false;
  }
  return true;
}

// How the shared side of an instruction is served: which addresses, how many bytes per lane, lanes per phase.
struct SharedPlan {
  const std::array<std::uint64_t, 32>* address;
  int bytes_per_lane;
  int phase_lanes;
  int lanes;  // lanes that take part: 32, or 8 x matrices for ldmatrix
  int ideal;
};

Result<SharedPlan> plan_shared(const WarpAccess& a) {
  if (!touches_shared(a.op))
    return Error{op_name(a) + " is a global-memory instruction; the shared-memory model needs ld/st.shared, "
                              "ldmatrix or cp.async"};
  if (auto status = validate(a); !status) return status.error();

  if (a.op == MemOp::LdMatrix)  // Rules S1 and I1 for ldmatrix: one phase per matrix, ideally one wavefront each
    return SharedPlan{&a.address, kLdmatrixRowBytes, kLdmatrixRows, kLdmatrixRows * a.ldmatrix_count,
                      a.ldmatrix_count};

  // Rule S1: as many lanes per phase as fit 128 bytes.
  int phase_lanes = kWavefrontBytes / a.width_bytes;
  if (phase_lanes > kWarpSize) phase_lanes = kWarpSize;
  // Rule L1: loads only (cp.async's shared side is a store).
  if (a.op == MemOp::LoadShared && a.width_bytes > kBankBytes && (uniform_pairs(a, 1) || uniform_pairs(a, 2)))
    phase_lanes *= 2;

  // Rule I1.
  const int active_bytes = std::popcount(a.active_mask) * a.width_bytes;
  const int ideal = (active_bytes + kWavefrontBytes - 1) / kWavefrontBytes;
  const auto* address = a.op == MemOp::CpAsync ? &a.shared_address : &a.address;
  return SharedPlan{address, a.width_bytes, phase_lanes, kWarpSize, ideal};
}

// Distinct values per slot, for one phase (Rule S2). A slot is a bank (detail path: values are words) or a group
// of banks one aligned access covers (fast path: values are whole accesses). Each lane adds at most one value to a
// slot, so 32 entries per slot are always enough.
class SlotValues {
 public:
  void clear() {
    count_.fill(0);
    max_ = 0;
  }
  // Adds a value (if new to its slot) and returns its position in the slot: the wavefront, within the phase, that
  // serves it. A value already there is shared (broadcast), so it costs nothing more.
  int add(int slot, std::uint64_t value) {
    auto& values = values_[static_cast<std::size_t>(slot)];
    int& n = count_[static_cast<std::size_t>(slot)];
    for (int i = 0; i < n; ++i)
      if (values[static_cast<std::size_t>(i)] == value) return i;
    values[static_cast<std::size_t>(n)] = value;
    max_ = std::max(max_, n + 1);
    return n++;
  }
  int count(int slot) const { return count_[static_cast<std::size_t>(slot)]; }
  int max_count() const { return max_; }

 private:
  std::array<int, kBanks> count_{};
  int max_ = 0;
  std::array<std::array<std::uint64_t, kWarpSize>, kBanks> values_;  // uninitialised: count_ says what is valid
};

// Fast path. An aligned access of 4, 8 or 16 bytes covers 1, 2 or 4 banks, always the same group of banks for the
// same (address / width) mod (128 / width); two lanes ask the same words of those banks exactly when they ask the
// same access. So "distinct words per bank" equals "distinct accesses per bank group", which needs one step per lane
// instead of one per word. shared_detail counts word by word; the tests check that both agree.
int wavefronts_fast(const WarpAccess& a, const SharedPlan& plan) {
  const int shift = std::countr_zero(static_cast<unsigned>(plan.bytes_per_lane));
  const std::uint64_t slot_mask = static_cast<std::uint64_t>(kWavefrontBytes / plan.bytes_per_lane) - 1;
  const auto& address = *plan.address;
  int wavefronts = 0;
  for (int first = 0; first < plan.lanes; first += plan.phase_lanes) {
    const int end = first + plan.phase_lanes;
    // First try the common case: no slot is asked for two different accesses -> 1 wavefront (0 if no lane).
    std::uint32_t used = 0;
    std::array<std::uint64_t, kBanks> unit_in;  // unit_in[s] is valid where bit s of `used` is set
    bool conflict = false;
    for (int lane = first; lane < end && !conflict; ++lane) {
      if (!active(a, lane)) continue;
      const std::uint64_t unit = address[static_cast<std::size_t>(lane)] >> shift;
      const auto slot = static_cast<unsigned>(unit & slot_mask);
      if (!((used >> slot) & 1u)) {
        used |= 1u << slot;
        unit_in[slot] = unit;
      } else {
        conflict = unit_in[slot] != unit;
      }
    }
    if (!conflict) {
      wavefronts += used != 0 ? 1 : 0;
      continue;
    }
    // A conflict: count the distinct accesses of every slot.
    SlotValues slots;
    slots.clear();
    for (int lane = first; lane < end; ++lane) {
      if (!active(a, lane)) continue;
      const std::uint64_t unit = address[static_cast<std::size_t>(lane)] >> shift;
      slots.add(static_cast<int>(unit & slot_mask), unit);
    }
    wavefronts += slots.max_count();
  }
  return wavefronts;
}

// Detail path: walks the phases word by word, calling on_word(lane, word, wavefront) for every word of every active
// lane and end_phase(banks) after each phase. Returns the total number of wavefronts (Rule S2 summed over phases).
template <class OnWord, class EndPhase>
int walk_shared(const WarpAccess& a, const SharedPlan& plan, OnWord on_word, EndPhase end_phase) {
  SlotValues banks;
  const int words_per_lane = plan.bytes_per_lane / kBankBytes;
  int wavefronts = 0;
  for (int first = 0; first < plan.lanes; first += plan.phase_lanes) {
    banks.clear();
    for (int lane = first; lane < first + plan.phase_lanes; ++lane) {
      if (!active(a, lane)) continue;
      const std::uint64_t first_word = (*plan.address)[static_cast<std::size_t>(lane)] / kBankBytes;
      for (int w = 0; w < words_per_lane; ++w) {
        const std::uint64_t word = first_word + static_cast<std::uint64_t>(w);
        on_word(lane, word, wavefronts + banks.add(static_cast<int>(word % kBanks), word));
      }
    }
    end_phase(banks);
    wavefronts += banks.max_count();
  }
  return wavefronts;
}

SharedCost make_cost(int wavefronts, int ideal) { return SharedCost{wavefronts, std::min(ideal, wavefronts)}; }

// ---------------------------------------------------------------------------------------------------------------
// Global memory. Rule G1: one request per warp instruction. Rule G2: the memory system moves 32-byte sectors; an
// aligned access of 4, 8 or 16 bytes lies inside one sector, so sectors = distinct (address / 32) over active lanes,
// lines = distinct (address / 128). Rule G3: ideal sectors = ceil(active lanes x width / 32).
// ---------------------------------------------------------------------------------------------------------------

Status check_global(const WarpAccess& a) {
  if (!touches_global(a.op))
    return Error{op_name(a) + " is a shared-memory instruction; the global-memory model needs ld/st.global or "
                              "cp.async"};
  return validate(a);
}

// The active lanes' sector indices, sorted: distinct sectors and lines are then runs in one pass.
int sorted_sectors(const WarpAccess& a, std::array<std::uint64_t, 32>& sectors) {
  int n = 0;
  for (int lane = 0; lane < kWarpSize; ++lane)
    if (active(a, lane)) sectors[static_cast<std::size_t>(n++)] = a.address[static_cast<std::size_t>(lane)] / kSectorBytes;
  std::sort(sectors.begin(), sectors.begin() + n);  // in place: no allocation
  return n;
}

constexpr std::uint64_t kSectorsPerLine = kLineBytes / kSectorBytes;

GlobalCost cost_of_sorted(const WarpAccess& a, const std::array<std::uint64_t, 32>& sectors, int n) {
  GlobalCost cost;
  cost.requests = n > 0 ? 1 : 0;
  for (int i = 0; i < n; ++i) {
    const auto s = sectors[static_cast<std::size_t>(i)];
    if (i == 0 || s != sectors[static_cast<std::size_t>(i - 1)]) ++cost.sectors;
    if (i == 0 || s / kSectorsPerLine != sectors[static_cast<std::size_t>(i - 1)] / kSectorsPerLine) ++cost.lines;
  }
  cost.ideal_sectors = (n * a.width_bytes + kSectorBytes - 1) / kSectorBytes;
  return cost;
}

// Fast path: a warp usually touches a few nearby sectors. Mark them in a bitmap of 512 sectors (16 KiB, starting at a
// line boundary so that each line is one aligned group of 4 bits) and count bits; a wider spread is sorted instead.
GlobalCost global_cost_fast(const WarpAccess& a) {
  std::array<std::uint64_t, 32> sectors;
  int n = 0;
  std::uint64_t lowest = ~std::uint64_t{0}, highest = 0;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (!active(a, lane)) continue;
    const std::uint64_t s = a.address[static_cast<std::size_t>(lane)] / kSectorBytes;
    sectors[static_cast<std::size_t>(n++)] = s;
    lowest = std::min(lowest, s);
    highest = std::max(highest, s);
  }
  const std::uint64_t base = lowest & ~(kSectorsPerLine - 1);
  constexpr std::uint64_t kBitmapSectors = 512;
  if (n == 0 || highest - base >= kBitmapSectors) {
    std::sort(sectors.begin(), sectors.begin() + n);
    return cost_of_sorted(a, sectors, n);
  }
  std::array<std::uint64_t, kBitmapSectors / 64> bits{};
  for (int i = 0; i < n; ++i) {
    const std::uint64_t offset = sectors[static_cast<std::size_t>(i)] - base;
    bits[offset / 64] |= std::uint64_t{1} << (offset % 64);
  }
  GlobalCost cost;
  cost.requests = 1;
  constexpr std::uint64_t kFirstOfEachLine = 0x1111111111111111u;  // bit 0 of every group of 4 sectors
  const std::size_t words_used = (highest - base) / 64 + 1;
  for (std::size_t i = 0; i < words_used; ++i) {
    const std::uint64_t word = bits[i];
    cost.sectors += std::popcount(word);
    cost.lines += std::popcount((word | word >> 1 | word >> 2 | word >> 3) & kFirstOfEachLine);
  }
  cost.ideal_sectors = (n * a.width_bytes + kSectorBytes - 1) / kSectorBytes;
  return cost;
}

struct OpName {
  std::string_view name;
  MemOp op;
  int width;
  int matrices;
  bool trans;
};
constexpr OpName kOps[] = {
    {"lds.32", MemOp::LoadShared, 4, 1, false},      {"lds.64", MemOp::LoadShared, 8, 1, false},
    {"lds.128", MemOp::LoadShared, 16, 1, false},    {"sts.32", MemOp::StoreShared, 4, 1, false},
    {"sts.64", MemOp::StoreShared, 8, 1, false},     {"sts.128", MemOp::StoreShared, 16, 1, false},
    {"ldg.32", MemOp::LoadGlobal, 4, 1, false},      {"ldg.64", MemOp::LoadGlobal, 8, 1, false},
    {"ldg.128", MemOp::LoadGlobal, 16, 1, false},    {"stg.32", MemOp::StoreGlobal, 4, 1, false},
    {"stg.64", MemOp::StoreGlobal, 8, 1, false},     {"stg.128", MemOp::StoreGlobal, 16, 1, false},
    {"ldsm.x1", MemOp::LdMatrix, 16, 1, false},      {"ldsm.x2", MemOp::LdMatrix, 16, 2, false},
    {"ldsm.x4", MemOp::LdMatrix, 16, 4, false},      {"ldsm.x1.trans", MemOp::LdMatrix, 16, 1, true},
    {"ldsm.x2.trans", MemOp::LdMatrix, 16, 2, true}, {"ldsm.x4.trans", MemOp::LdMatrix, 16, 4, true},
    {"cp.async.4", MemOp::CpAsync, 4, 1, false},     {"cp.async.8", MemOp::CpAsync, 8, 1, false},
    {"cp.async.16", MemOp::CpAsync, 16, 1, false},
};

}  // namespace

double GlobalCost::efficiency() const {
  return sectors == 0 ? 1.0 : static_cast<double>(ideal_sectors) / static_cast<double>(sectors);
}

bool touches_shared(MemOp op) { return op != MemOp::LoadGlobal && op != MemOp::StoreGlobal; }
bool touches_global(MemOp op) {
  return op == MemOp::LoadGlobal || op == MemOp::StoreGlobal || op == MemOp::CpAsync;
}

Result<SharedCost> shared_cost(const WarpAccess& access) {
  auto plan = plan_shared(access);
  if (!plan) return plan.error();
  return make_cost(wavefronts_fast(access, *plan), plan->ideal);
}

Result<SharedDetail> shared_detail(const WarpAccess& access) {
  auto plan = plan_shared(access);
  if (!plan) return plan.error();
  SharedDetail detail;
  const int wavefronts = walk_shared(
      access, *plan,
      [&](int lane, std::uint64_t word, int wavefront) {
        if (detail.wavefronts.size() <= static_cast<std::size_t>(wavefront))
          detail.wavefronts.resize(static_cast<std::size_t>(wavefront) + 1);
        auto& w = detail.wavefronts[static_cast<std::size_t>(wavefront)];
        // Lanes arrive in ascending order, so a lane already listed is the last one listed.
        if (w.lanes.empty() || w.lanes.back() != lane) w.lanes.push_back(lane);
        w.hits.push_back(LaneHit{lane, static_cast<int>(word % kBanks), word});
      },
      [&](const SlotValues& banks) {
        for (int bank = 0; bank < kBanks; ++bank) {
          auto& way = detail.max_way_per_bank[static_cast<std::size_t>(bank)];
          way = std::max(way, banks.count(bank));
        }
      });
  detail.cost = make_cost(wavefronts, plan->ideal);
  return detail;
}

Result<GlobalCost> global_cost(const WarpAccess& access) {
  if (auto status = check_global(access); !status) return status.error();
  return global_cost_fast(access);
}

Result<GlobalDetail> global_detail(const WarpAccess& access) {
  if (auto status = check_global(access); !status) return status.error();
  std::array<std::uint64_t, 32> sorted;
  const int n = sorted_sectors(access, sorted);
  GlobalDetail detail;
  detail.cost = cost_of_sorted(access, sorted, n);
  for (int i = 0; i < n; ++i) {
    const auto s = sorted[static_cast<std::size_t>(i)];
    if (detail.sectors.empty() || detail.sectors.back() != s) detail.sectors.push_back(s);
    if (detail.lines.empty() || detail.lines.back() != s / kSectorsPerLine) detail.lines.push_back(s / kSectorsPerLine);
  }
  for (int lane = 0; lane < kWarpSize; ++lane)
    detail.lane_sector[static_cast<std::size_t>(lane)] =
        active(access, lane) ? static_cast<std::int64_t>(access.address[static_cast<std::size_t>(lane)] / kSectorBytes)
                             : -1;
  return detail;
}

Result<WarpAccess> parse_op(std::string_view name) {
  for (const auto& entry : kOps) {
    if (entry.name != name) continue;
    WarpAccess access;
    access.op = entry.op;
    access.width_bytes = entry.width;
    access.ldmatrix_count = entry.matrices;
    access.ldmatrix_trans = entry.trans;
    return access;
  }
  std::string known;
  for (const auto& entry : kOps) known += (known.empty() ? "" : ", ") + std::string(entry.name);
  return Error{"unknown instruction '" + std::string(name) + "'; known: " + known};
}

std::string op_name(const WarpAccess& access) {
  for (const auto& entry : kOps) {
    if (entry.op != access.op) continue;
    if (access.op == MemOp::LdMatrix) {
      if (entry.matrices == access.ldmatrix_count && entry.trans == access.ldmatrix_trans) return std::string(entry.name);
    } else if (entry.width == access.width_bytes) {
      return std::string(entry.name);
    }
  }
  return ptx_name(access) + " (unsupported shape)";
}

const std::vector<std::string_view>& op_names() {
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> out;
    for (const auto& entry : kOps) out.push_back(entry.name);
    return out;
  }();
  return names;
}

}  // namespace gemmlab::sim
