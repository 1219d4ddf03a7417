// The model of one warp memory instruction. docs/memory-model.md explains each rule and the H100 measurements that
// back it (tests/calibration/measured_h100.csv; tests/sim/calibration_test.cpp checks every row).
#include "gemmlab/memory_model.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <utility>

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
constexpr std::uint64_t kSectorsPerLine = kLineBytes / kSectorBytes;

bool active(std::uint32_t mask, int lane) { return (mask >> lane) & 1u; }

// Lanes first .. first + count - 1 as a mask (count <= 32).
std::uint32_t lane_range(int first, int count) {
  const std::uint32_t bits = count >= kWarpSize ? ~0u : (1u << count) - 1u;
  return bits << first;
}

std::string hex(std::uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
  return text;
}

// The PTX instruction a learner would write, for error sentences ("ld.shared.v2 needs 8-byte-aligned addresses").
std::string ptx_name(const WarpAccess& a) {
  const char* vec = a.width_bytes == 16 ? "v4" : a.width_bytes == 8 ? "v2" : a.width_bytes == 2 ? "b16" : "b32";
  switch (a.op) {
    case MemOp::LoadShared: return std::string("ld.shared.") + vec;
    case MemOp::StoreShared: return std::string("st.shared.") + vec;
    case MemOp::LoadGlobal: return std::string("ld.global.") + vec;
    case MemOp::StoreGlobal: return std::string("st.global.") + vec;
    case MemOp::LdMatrix: return "ldmatrix.x" + std::to_string(a.ldmatrix_count);
    case MemOp::StMatrix: return "stmatrix.x" + std::to_string(a.ldmatrix_count);
    case MemOp::CpAsync: return std::string(a.cache_global ? "cp.async.cg." : "cp.async.") + std::to_string(a.width_bytes);
  }
  return "?";
}

// "ldmatrix" or "stmatrix", for sentences about either.
std::string matrix_instruction(const WarpAccess& a) { return a.op == MemOp::StMatrix ? "stmatrix" : "ldmatrix"; }

// The lanes whose global memory an instruction reads or writes: the active ones, less cp.async's zero-filling lanes.
std::uint32_t global_lanes(const WarpAccess& a) {
  return a.op == MemOp::CpAsync ? a.active_mask & ~a.zero_fill_mask : a.active_mask;
}

// The checks the hardware makes before it moves a byte: a misaligned address faults the whole instruction
// ("misaligned address"), and an instruction with no active lane does not exist.
Status validate(const WarpAccess& a) {
  if (is_matrix_op(a.op)) {
    if (a.ldmatrix_count != 1 && a.ldmatrix_count != 2 && a.ldmatrix_count != 4)
      return Error{matrix_instruction(a) + " moves 1, 2 or 4 matrices (.x1, .x2, .x4), not " +
                   std::to_string(a.ldmatrix_count)};
  } else if (a.width_bytes == 2 && a.op != MemOp::LoadGlobal) {
    return Error{"only global loads (ldg.16) move 2 bytes per lane here; " + ptx_name(a) + " takes 4, 8 or 16"};
  } else if (a.width_bytes != 2 && a.width_bytes != 4 && a.width_bytes != 8 && a.width_bytes != 16) {
    return Error{"the access width must be 4, 8 or 16 bytes per lane (2 for ldg.16), not " +
                 std::to_string(a.width_bytes)};
  }
  if (a.op == MemOp::CpAsync && a.cache_global && a.width_bytes != 16)
    return Error{"cp.async.cg copies 16 bytes per lane, not " + std::to_string(a.width_bytes) +
                 "; use cp.async (.ca) for 4- and 8-byte copies"};
  if (a.active_mask == 0)
    return Error{"no lane is active (mask 0x00000000): a warp instruction needs at least one active lane"};

  if (is_matrix_op(a.op)) {
    // ldmatrix and stmatrix are .sync.aligned: the whole warp executes it, and lanes 0..8*count-1 each give one row address.
    const int address_lanes = kLdmatrixRows * a.ldmatrix_count;
    const std::uint32_t needed = lane_range(0, address_lanes);
    std::uint64_t stray_bits = 0;
    for (int lane = 0; lane < address_lanes; ++lane) stray_bits |= a.address[static_cast<std::size_t>(lane)];
    if ((a.active_mask & needed) == needed && stray_bits % kLdmatrixRowBytes == 0) return Ok{};
    for (int lane = 0; lane < address_lanes; ++lane) {
      if (!active(a.active_mask, lane))
        return Error{ptx_name(a) + " takes its row addresses from lanes 0-" + std::to_string(address_lanes - 1) +
                     ", but lane " + std::to_string(lane) + " is inactive in mask " + hex(a.active_mask) +
                     "; it is .sync.aligned: the whole warp must execute it"};
      if (a.address[static_cast<std::size_t>(lane)] % kLdmatrixRowBytes != 0)
        return Error{"lane " + std::to_string(lane) + ": row address " + hex(a.address[static_cast<std::size_t>(lane)]) +
                     " is not 16-byte aligned; " + matrix_instruction(a) + " needs 16-byte-aligned row addresses"};
    }
    return Ok{};
  }

  const auto width = static_cast<std::uint64_t>(a.width_bytes);
  const std::uint64_t misaligned = width - 1;  // widths are powers of two: a mask instead of a division
  const bool cp_async = a.op == MemOp::CpAsync;
  // The common case, every address aligned, in one branch-free pass; the loop below finds the lane to blame.
  const auto stray = [&](const std::array<std::uint64_t, 32>& address) {
    std::uint64_t bits = 0;
    for (int lane = 0; lane < kWarpSize; ++lane)
      bits |= address[static_cast<std::size_t>(lane)] & (0 - static_cast<std::uint64_t>((a.active_mask >> lane) & 1u));
    return bits & misaligned;
  };
  const std::uint64_t stray_bits = stray(a.address) | (cp_async ? stray(a.shared_address) : 0);
  if (stray_bits == 0) return Ok{};
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (!active(a.active_mask, lane)) continue;
    const auto l = static_cast<std::size_t>(lane);
    if ((a.address[l] & misaligned) != 0)
      return Error{"lane " + std::to_string(lane) + ": " + (cp_async ? "global address " : "address ") +
                   hex(a.address[l]) + " is not " + std::to_string(width) + "-byte aligned; " + ptx_name(a) +
                   " needs " + std::to_string(width) + "-byte-aligned addresses"};
    if (cp_async && (a.shared_address[l] & misaligned) != 0)
      return Error{"lane " + std::to_string(lane) + ": shared address " + hex(a.shared_address[l]) + " is not " +
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
//   (lanes 0-15, 16-31), 128-bit four quarter-warp phases (lanes 0-7, 8-15, ...). ldmatrix and stmatrix: one phase
//   per 8x8 matrix (the 8 lanes giving its row addresses).
// Rule S2 (distinct words per bank). Within a phase, each bank delivers one 4-byte word per wavefront, so the phase
//   takes max over banks of the number of DISTINCT words asked of that bank. Lanes asking for the same word share
//   it (broadcast on loads; on stores one of the writes lands), so they never conflict.
// Rule L1 (uniform pairs, loads only). If, for every pair of active lanes (n, n^1), or for every pair (n, n^2), both
//   lanes give the same address, a 64- or 128-bit LOAD packs two phases into one. Pairs with an inactive lane agree
//   vacuously; the whole warp must agree, not each phase. Stores and cp.async do not get it.
// Rule C1 (cp.async). The copy writes shared memory like a store of its width, but every lane takes a slot of its
//   own on BOTH sides: the shared bank group it writes and the bank group its source address falls in ((address /
//   width) mod (128 / width), as in shared memory: the copy reads its source from L1's data banks). Lanes writing the
//   same shared address, or reading the same source, do not share a wavefront. A phase takes max over bank groups,
//   on either side, of the lanes using the group. Measured on .ca copies; the hardware does not count .cg copies'
//   shared writes, and the model gives them the same rule.
// Rule I1 (ideal). One wavefront per phase (after Rule L1) with at least one active lane; ldmatrix: one per matrix.
// ---------------------------------------------------------------------------------------------------------------

// Rule L1: lanes in pairs (n, n^partner) agree on their address wherever both are active. Most accesses fail at
// the first pair, so the loop stops at the first disagreement.
bool uniform_pairs(const WarpAccess& a, int partner) {
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const int other = lane ^ partner;
    if (lane < other && active(a.active_mask, lane) && active(a.active_mask, other) &&
        a.address[static_cast<std::size_t>(lane)] != a.address[static_cast<std::size_t>(other)])
      return false;
  }
  return true;
}

// How the shared side of an instruction is served: which addresses, how many bytes per lane, lanes per phase.
struct SharedPlan {
  const std::array<std::uint64_t, 32>* address;  // the shared addresses
  const std::array<std::uint64_t, 32>* source;   // cp.async: the global source addresses (Rule C1); else null
  std::uint32_t mask;                            // the lanes taking part
  std::uint32_t source_mask;                     // cp.async: the lanes that read a source
  int bytes_per_lane;
  int phase_lanes;
  int lanes;  // 32, or 8 x matrices for ldmatrix
};

// Assumes validate(a) passed.
SharedPlan plan_shared(const WarpAccess& a) {
  if (is_matrix_op(a.op))  // Rule S1 for ldmatrix and stmatrix: one phase per matrix
    return SharedPlan{&a.address, nullptr, lane_range(0, kLdmatrixRows * a.ldmatrix_count), 0, kLdmatrixRowBytes,
                      kLdmatrixRows, kLdmatrixRows * a.ldmatrix_count};
  if (a.op == MemOp::CpAsync)  // Rule C1
    return SharedPlan{&a.shared_address, &a.address, a.active_mask, global_lanes(a), a.width_bytes,
                      kWavefrontBytes / a.width_bytes, kWarpSize};

  // Rule S1: as many lanes per phase as fit 128 bytes.
  int phase_lanes = std::min(kWarpSize, kWavefrontBytes / a.width_bytes);
  // Rule L1: loads only.
  if (a.op == MemOp::LoadShared && a.width_bytes > kBankBytes && (uniform_pairs(a, 1) || uniform_pairs(a, 2)))
    phase_lanes *= 2;
  return SharedPlan{&a.address, nullptr, a.active_mask, 0, a.width_bytes, phase_lanes, kWarpSize};
}

// Rule I1: one ideal wavefront per phase with an active lane.
int ideal_wavefronts(const SharedPlan& plan) {
  int ideal = 0;
  for (int first = 0; first < plan.lanes; first += plan.phase_lanes)
    ideal += (plan.mask & lane_range(first, plan.phase_lanes)) != 0 ? 1 : 0;
  return ideal;
}

// Distinct words per bank, for one phase of the detail path (Rule S2), remembering which wavefront serves each.
// Each lane adds at most one word to a bank, so 32 entries per bank are always enough.
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

// The fast path works on whole accesses instead of words. An aligned access of 4, 8 or 16 bytes covers 1, 2 or 4
// banks, always the same group of banks for the same (address / width) mod (128 / width) (its "slot"); two lanes
// ask the same words of those banks exactly when they ask the same access. So "distinct words per bank" equals
// "distinct accesses per slot", one step per lane instead of one per word. shared_detail counts word by word; the
// tests check that both agree.
struct Slots {
  int shift;           // log2(bytes per lane)
  std::uint64_t mask;  // slots - 1
};
Slots slots_of(int bytes_per_lane) {
  return Slots{std::countr_zero(static_cast<unsigned>(bytes_per_lane)),
               static_cast<std::uint64_t>(kWavefrontBytes / bytes_per_lane) - 1};
}

// Rule S2 for the lanes in `lanes`: the most distinct accesses any slot is asked for.
int distinct_per_slot(const std::array<std::uint64_t, 32>& address, std::uint32_t lanes, Slots slots) {
  // The common case first: no slot is asked for two different accesses -> 1 wavefront (0 if no lane).
  std::uint32_t used = 0, clashing = 0;
  std::array<std::uint64_t, kBanks> unit_in;  // unit_in[s] is valid where bit s of `used` is set
  std::uint64_t lowest = ~std::uint64_t{0}, highest = 0;
  for (std::uint32_t left = lanes; left != 0; left &= left - 1) {
    const std::uint64_t unit = address[static_cast<std::size_t>(std::countr_zero(left))] >> slots.shift;
    const auto slot = static_cast<unsigned>(unit & slots.mask);
    lowest = std::min(lowest, unit);
    highest = std::max(highest, unit);
    if (!((used >> slot) & 1u)) {
      used |= 1u << slot;
      unit_in[slot] = unit;
    } else if (unit_in[slot] != unit) {
      clashing |= 1u << slot;
    }
  }
  if (clashing == 0) return used != 0 ? 1 : 0;
  // Count the distinct accesses of the clashing slots (the others have one). Accesses of one slot differ in their
  // "row" (unit / slots); when the rows span fewer than 64, each slot's rows are bits of one word.
  const int row_shift = std::countr_zero(slots.mask + 1);
  const std::uint64_t first_row = lowest >> row_shift;
  std::array<std::uint64_t, kBanks> rows;
  for (std::uint32_t left = clashing; left != 0; left &= left - 1) rows[static_cast<std::size_t>(std::countr_zero(left))] = 0;
  int most = 1;
  if ((highest >> row_shift) - first_row < 64) {
    for (std::uint32_t left = lanes; left != 0; left &= left - 1) {
      const std::uint64_t unit = address[static_cast<std::size_t>(std::countr_zero(left))] >> slots.shift;
      rows[static_cast<std::size_t>(unit & slots.mask)] |= std::uint64_t{1} << ((unit >> row_shift) - first_row);
    }
    for (std::uint32_t left = clashing; left != 0; left &= left - 1)
      most = std::max(most, std::popcount(rows[static_cast<std::size_t>(std::countr_zero(left))]));
    return most;
  }
  // Rows far apart: a small hash set of the accesses seen finds the new ones (64 places for at most 32 accesses).
  std::array<std::uint64_t, 64> seen;
  std::uint64_t taken = 0;
  std::array<int, kBanks> count{};
  for (std::uint32_t left = lanes; left != 0; left &= left - 1) {
    const std::uint64_t unit = address[static_cast<std::size_t>(std::countr_zero(left))] >> slots.shift;
    const auto slot = static_cast<std::size_t>(unit & slots.mask);
    if (!((clashing >> slot) & 1u)) continue;
    auto place = static_cast<unsigned>((unit * 0x9e3779b97f4a7c15u) >> 58);  // Fibonacci hashing to 6 bits
    while (((taken >> place) & 1u) && seen[place] != unit) place = (place + 1) & 63u;
    if ((taken >> place) & 1u) continue;  // seen: shared by the lanes asking it
    taken |= std::uint64_t{1} << place;
    seen[place] = unit;
    most = std::max(most, ++count[slot]);
  }
  return most;
}

// Rule C1 for one phase of a copy: the most lanes any slot is used by, on the shared side or the source side.
int lanes_per_slot(const SharedPlan& plan, std::uint32_t phase, Slots slots) {
  std::array<std::uint8_t, kBanks> shared{}, source{};
  int most = 0;
  for (std::uint32_t left = plan.mask & phase; left != 0; left &= left - 1) {
    const int lane = std::countr_zero(left);
    const auto l = static_cast<std::size_t>(lane);
    const auto s = static_cast<std::size_t>(((*plan.address)[l] >> slots.shift) & slots.mask);
    most = std::max(most, static_cast<int>(++shared[s]));
    if (!active(plan.source_mask, lane)) continue;
    const auto g = static_cast<std::size_t>(((*plan.source)[l] >> slots.shift) & slots.mask);
    most = std::max(most, static_cast<int>(++source[g]));
  }
  return most;
}

int wavefronts_fast(const SharedPlan& plan) {
  const Slots slots = slots_of(plan.bytes_per_lane);
  int wavefronts = 0;
  for (int first = 0; first < plan.lanes; first += plan.phase_lanes) {
    const std::uint32_t phase = lane_range(first, plan.phase_lanes);
    if (plan.source == nullptr) {
      wavefronts += distinct_per_slot(*plan.address, plan.mask & phase, slots);
    } else {
      wavefronts += lanes_per_slot(plan, phase, slots);
    }
  }
  return wavefronts;
}

// Detail path for Rules S1, S2, L1: walks the phases word by word, calling on_word(lane, word, wavefront) for every
// word of every active lane and end_phase(banks) after each phase. Returns the total number of wavefronts.
template <class OnWord, class EndPhase>
int walk_shared(const SharedPlan& plan, OnWord on_word, EndPhase end_phase) {
  SlotValues banks;
  const int words_per_lane = plan.bytes_per_lane / kBankBytes;
  int wavefronts = 0;
  for (int first = 0; first < plan.lanes; first += plan.phase_lanes) {
    banks.clear();
    for (int lane = first; lane < first + plan.phase_lanes; ++lane) {
      if (!active(plan.mask, lane)) continue;
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

// Detail path for Rule C1: gives each lane of a phase a wavefront such that no two lanes of one wavefront use the same
// slot on either side. The lanes are the edges of a bipartite graph between shared slots and source slots, and a
// wavefront is a colour: König's theorem says the busiest slot's lane count (what the fast path counts) colours
// it, and the alternating-path method below finds such a colouring.
class CopyScheduler {
 public:
  // Colours the lane joining shared slot `s` and source slot `g` (g < 0: the lane reads no source).
  void add(int lane, int s, int g) {
    shared_slot_[static_cast<std::size_t>(lane)] = s;
    source_slot_[static_cast<std::size_t>(lane)] = g;
    const int a = free_colour(kShared, s);
    if (g < 0) return set(lane, a);
    const int b = free_colour(kSource, g);
    if (holder(kSource, g, a) >= 0) swap_path(g, a, b);  // frees colour a at g, leaves it free at s
    set(lane, a);
  }
  int colour(int lane) const { return colour_[static_cast<std::size_t>(lane)]; }

 private:
  static constexpr int kShared = 0, kSource = 1;

  int& holder(int side, int slot, int c) {
    return at_[static_cast<std::size_t>(side)][static_cast<std::size_t>(slot)][static_cast<std::size_t>(c)];
  }
  int free_colour(int side, int slot) {
    int c = 0;
    while (holder(side, slot, c) >= 0) ++c;
    return c;
  }
  void place(int lane, int c, int lane_or_free) {
    holder(kShared, shared_slot_[static_cast<std::size_t>(lane)], c) = lane_or_free;
    if (const int g = source_slot_[static_cast<std::size_t>(lane)]; g >= 0) holder(kSource, g, c) = lane_or_free;
  }
  void set(int lane, int c) {
    colour_[static_cast<std::size_t>(lane)] = c;
    place(lane, c, lane);
  }
  // The path from source slot g along colours a, b, a, ... has its colours a and b exchanged.
  void swap_path(int g, int a, int b) {
    std::array<int, kWarpSize> path;
    int n = 0, side = kSource, slot = g, c = a;
    for (int lane = holder(side, slot, c); lane >= 0; lane = holder(side, slot, c)) {
      path[static_cast<std::size_t>(n++)] = lane;
      side = 1 - side;
      slot = side == kShared ? shared_slot_[static_cast<std::size_t>(lane)] : source_slot_[static_cast<std::size_t>(lane)];
      if (slot < 0) break;  // a zero-filling lane: the path ends at its shared slot
      c = c == a ? b : a;
    }
    for (int i = 0; i < n; ++i) place(path[static_cast<std::size_t>(i)], colour(path[static_cast<std::size_t>(i)]), -1);
    for (int i = 0; i < n; ++i) {
      const int lane = path[static_cast<std::size_t>(i)];
      set(lane, colour(lane) == a ? b : a);
    }
  }

  // at_[side][slot][colour]: the lane holding that colour at that slot, -1 if free. A slot has at most 32 lanes.
  std::array<std::array<std::array<int, kWarpSize>, kBanks>, 2> at_ = [] {
    std::array<std::array<std::array<int, kWarpSize>, kBanks>, 2> free{};
    for (auto& side : free)
      for (auto& slot : side) slot.fill(-1);
    return free;
  }();
  std::array<int, kWarpSize> shared_slot_{}, source_slot_{}, colour_{};
};

// ---------------------------------------------------------------------------------------------------------------
// Global memory. Rule G1: one request per warp instruction. Rule G2: the memory system moves 32-byte sectors; an
// aligned access of 2, 4, 8 or 16 bytes lies inside one sector, so sectors = distinct (address / 32) over the lanes,
// lines = distinct (address / 128). Rule G3: ideal sectors = ceil(lanes x width / 32). Rule G4: a cp.async.cg
// (L1 bypassed) counts one sector per distinct pair (source line, shared destination sector), as the H100 does.
// Rule G5: the L2 sends a cp.async.cg one sector per distinct pair (source sector, shared destination sector); what
// that adds to the distinct source sectors is the copy's split sectors.
// cp.async lanes that zero-fill read nothing and count for none of these.
// ---------------------------------------------------------------------------------------------------------------

Status check_global(const WarpAccess& a) {
  if (!touches_global(a.op))
    return Error{op_name(a) + " is a shared-memory instruction; the global-memory model needs ld/st.global or "
                              "cp.async"};
  return validate(a);
}

int ideal_sectors(const WarpAccess& a, int lanes) { return (lanes * a.width_bytes + kSectorBytes - 1) / kSectorBytes; }

// The lanes' sector indices, sorted: distinct sectors and lines are then runs in one pass.
int sorted_sectors(const WarpAccess& a, std::uint32_t lanes, std::array<std::uint64_t, 32>& sectors) {
  int n = 0;
  for (std::uint32_t left = lanes; left != 0; left &= left - 1)
    sectors[static_cast<std::size_t>(n++)] = a.address[static_cast<std::size_t>(std::countr_zero(left))] / kSectorBytes;
  std::sort(sectors.begin(), sectors.begin() + n);  // in place: no allocation
  return n;
}

GlobalCost cost_of_sorted(const WarpAccess& a, const std::array<std::uint64_t, 32>& sectors, int n) {
  GlobalCost cost;
  cost.requests = n > 0 ? 1 : 0;
  int line_sectors = 0;  // distinct sectors seen so far in the current line
  for (int i = 0; i < n; ++i) {
    const auto s = sectors[static_cast<std::size_t>(i)];
    const bool new_line = i == 0 || s / kSectorsPerLine != sectors[static_cast<std::size_t>(i - 1)] / kSectorsPerLine;
    if (new_line) ++cost.lines, line_sectors = 0;
    if (i == 0 || s != sectors[static_cast<std::size_t>(i - 1)]) {
      ++cost.sectors;
      if (++line_sectors == kSectorsPerLine) ++cost.whole_lines;
    }
  }
  cost.ideal_sectors = ideal_sectors(a, n);
  return cost;
}

// Distinct (source address / source_bytes, shared destination sector) pairs of the lanes: Rules G4 (source lines) and
// G5 (source sectors).
int source_destination_pairs(const WarpAccess& a, std::uint32_t lanes, std::uint64_t source_bytes) {
  std::array<std::pair<std::uint64_t, std::uint64_t>, 32> pairs;
  int n = 0;
  for (std::uint32_t left = lanes; left != 0; left &= left - 1) {
    const auto lane = static_cast<std::size_t>(std::countr_zero(left));
    pairs[static_cast<std::size_t>(n++)] = {a.address[lane] / source_bytes, a.shared_address[lane] / kSectorBytes};
  }
  std::sort(pairs.begin(), pairs.begin() + n);
  return static_cast<int>(std::unique(pairs.begin(), pairs.begin() + n) - pairs.begin());
}

// Rules G1-G3. A warp usually touches a few nearby sectors: mark them in a bitmap of 512 sectors (16 KiB, starting
// at a line boundary so that each line is one aligned group of 4 bits) and count bits; a wider spread is sorted.
GlobalCost global_cost_fast(const WarpAccess& a, std::uint32_t lanes) {
  std::array<std::uint64_t, 32> sectors;
  int n = 0;
  std::uint64_t lowest = ~std::uint64_t{0}, highest = 0;
  for (std::uint32_t left = lanes; left != 0; left &= left - 1) {
    const std::uint64_t s = a.address[static_cast<std::size_t>(std::countr_zero(left))] / kSectorBytes;
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
    cost.whole_lines += std::popcount(word & word >> 1 & word >> 2 & word >> 3 & kFirstOfEachLine);
  }
  cost.ideal_sectors = ideal_sectors(a, n);
  return cost;
}

// Rules G1-G6 for a validated access.
GlobalCost global_cost_of(const WarpAccess& a) {
  const std::uint32_t lanes = global_lanes(a);
  GlobalCost cost = global_cost_fast(a, lanes);
  // Rule G6: the data pipe delivers 128 bytes of a load to the warp's registers a wavefront
  // (tests/calibration/l1_sectors.cu). Stores and cp.async cost their lines, as measured by the FP32 rungs' counters.
  const int delivered = std::popcount(lanes) * a.width_bytes;
  cost.wavefronts = a.op == MemOp::LoadGlobal ? std::max(cost.lines, (delivered + kLineBytes - 1) / kLineBytes) : cost.lines;
  if (a.op == MemOp::CpAsync && a.cache_global) {
    const int source_sectors = cost.sectors;  // G2's
    cost.split_sectors = source_destination_pairs(a, lanes, kSectorBytes) - source_sectors;  // Rule G5
    cost.sectors = source_destination_pairs(a, lanes, kLineBytes);                          // Rule G4
  }
  return cost;
}

struct OpName {
  std::string_view name;
  MemOp op;
  int width;
  int matrices;
  bool trans;
  bool cache_global;
};
constexpr OpName kOps[] = {
    {"lds.32", MemOp::LoadShared, 4, 1, false, false},       {"lds.64", MemOp::LoadShared, 8, 1, false, false},
    {"lds.128", MemOp::LoadShared, 16, 1, false, false},     {"sts.32", MemOp::StoreShared, 4, 1, false, false},
    {"sts.64", MemOp::StoreShared, 8, 1, false, false},      {"sts.128", MemOp::StoreShared, 16, 1, false, false},
    {"ldg.16", MemOp::LoadGlobal, 2, 1, false, false},       {"ldg.32", MemOp::LoadGlobal, 4, 1, false, false},
    {"ldg.64", MemOp::LoadGlobal, 8, 1, false, false},       {"ldg.128", MemOp::LoadGlobal, 16, 1, false, false},
    {"stg.32", MemOp::StoreGlobal, 4, 1, false, false},      {"stg.64", MemOp::StoreGlobal, 8, 1, false, false},
    {"stg.128", MemOp::StoreGlobal, 16, 1, false, false},
    {"ldsm.x1", MemOp::LdMatrix, 16, 1, false, false},       {"ldsm.x2", MemOp::LdMatrix, 16, 2, false, false},
    {"ldsm.x4", MemOp::LdMatrix, 16, 4, false, false},       {"ldsm.x1.trans", MemOp::LdMatrix, 16, 1, true, false},
    {"ldsm.x2.trans", MemOp::LdMatrix, 16, 2, true, false},  {"ldsm.x4.trans", MemOp::LdMatrix, 16, 4, true, false},
    {"stsm.x1", MemOp::StMatrix, 16, 1, false, false},       {"stsm.x2", MemOp::StMatrix, 16, 2, false, false},
    {"stsm.x4", MemOp::StMatrix, 16, 4, false, false},       {"stsm.x1.trans", MemOp::StMatrix, 16, 1, true, false},
    {"stsm.x2.trans", MemOp::StMatrix, 16, 2, true, false},  {"stsm.x4.trans", MemOp::StMatrix, 16, 4, true, false},
    {"cp.async.4", MemOp::CpAsync, 4, 1, false, false},      {"cp.async.8", MemOp::CpAsync, 8, 1, false, false},
    {"cp.async.16", MemOp::CpAsync, 16, 1, false, false},    {"cp.async.cg.16", MemOp::CpAsync, 16, 1, false, true},
};

}  // namespace

double GlobalCost::efficiency() const {
  return sectors == 0 ? 1.0 : static_cast<double>(ideal_sectors) / static_cast<double>(sectors);
}

bool touches_shared(MemOp op) { return op != MemOp::LoadGlobal && op != MemOp::StoreGlobal; }
bool touches_global(MemOp op) {
  return op == MemOp::LoadGlobal || op == MemOp::StoreGlobal || op == MemOp::CpAsync;
}

namespace {
Status check_shared(const WarpAccess& a) {
  if (!touches_shared(a.op))
    return Error{op_name(a) + " is a global-memory instruction; the shared-memory model needs ld/st.shared, "
                              "ldmatrix or cp.async"};
  return validate(a);
}
}  // namespace

Result<SharedCost> shared_cost(const WarpAccess& access) {
  if (auto status = check_shared(access); !status) return status.error();
  const SharedPlan plan = plan_shared(access);
  return SharedCost{wavefronts_fast(plan), ideal_wavefronts(plan)};
}

Result<SharedDetail> shared_detail(const WarpAccess& access) {
  if (auto status = check_shared(access); !status) return status.error();
  const SharedPlan plan = plan_shared(access);
  SharedDetail detail;
  const auto add_word = [&](int lane, std::uint64_t word, int wavefront) {
    if (detail.wavefronts.size() <= static_cast<std::size_t>(wavefront))
      detail.wavefronts.resize(static_cast<std::size_t>(wavefront) + 1);
    auto& w = detail.wavefronts[static_cast<std::size_t>(wavefront)];
    // Lanes arrive in ascending order, so a lane already listed is the last one listed.
    if (w.lanes.empty() || w.lanes.back() != lane) w.lanes.push_back(lane);
    w.hits.push_back(LaneHit{lane, static_cast<int>(word % kBanks), word});
  };
  int wavefronts = 0;
  if (plan.source == nullptr) {
    wavefronts = walk_shared(plan, add_word, [&](const SlotValues& banks) {
      for (int bank = 0; bank < kBanks; ++bank) {
        auto& way = detail.max_way_per_bank[static_cast<std::size_t>(bank)];
        way = std::max(way, banks.count(bank));
      }
    });
  } else {  // Rule C1
    const Slots slots = slots_of(plan.bytes_per_lane);
    const int words_per_lane = plan.bytes_per_lane / kBankBytes;
    for (int first = 0; first < plan.lanes; first += plan.phase_lanes) {
      CopyScheduler schedule;
      std::array<int, kBanks> lanes_on_bank{}, sources_on_bank{};
      int phase_wavefronts = 0;
      for (int lane = first; lane < first + plan.phase_lanes; ++lane) {
        if (!active(plan.mask, lane)) continue;
        const auto l = static_cast<std::size_t>(lane);
        const auto slot_of = [&](std::uint64_t address) { return static_cast<int>((address >> slots.shift) & slots.mask); };
        schedule.add(lane, slot_of((*plan.address)[l]), active(plan.source_mask, lane) ? slot_of((*plan.source)[l]) : -1);
      }
      for (int lane = first; lane < first + plan.phase_lanes; ++lane) {  // ascending lanes, as Wavefront wants
        if (!active(plan.mask, lane)) continue;
        phase_wavefronts = std::max(phase_wavefronts, schedule.colour(lane) + 1);
        const std::uint64_t first_word = (*plan.address)[static_cast<std::size_t>(lane)] / kBankBytes;
        for (int w = 0; w < words_per_lane; ++w) {
          const std::uint64_t word = first_word + static_cast<std::uint64_t>(w);
          ++lanes_on_bank[static_cast<std::size_t>(word % kBanks)];
          add_word(lane, word, wavefronts + schedule.colour(lane));
        }
        if (!active(plan.source_mask, lane)) continue;
        const std::uint64_t first_source_word = (*plan.source)[static_cast<std::size_t>(lane)] / kBankBytes;
        for (int w = 0; w < words_per_lane; ++w)
          ++sources_on_bank[static_cast<std::size_t>((first_source_word + static_cast<std::uint64_t>(w)) % kBanks)];
      }
      for (int bank = 0; bank < kBanks; ++bank) {
        const auto b = static_cast<std::size_t>(bank);
        detail.max_way_per_bank[b] = std::max(detail.max_way_per_bank[b], lanes_on_bank[b]);
        detail.max_source_way_per_bank[b] = std::max(detail.max_source_way_per_bank[b], sources_on_bank[b]);
      }
      wavefronts += phase_wavefronts;
    }
  }
  detail.cost = SharedCost{wavefronts, ideal_wavefronts(plan)};
  detail.phase_lanes = plan.phase_lanes;
  detail.pairs_merged = plan.phase_lanes * plan.bytes_per_lane > kWavefrontBytes;
  return detail;
}

Result<int> copy_counted_ideal(const WarpAccess& access) {
  if (access.op != MemOp::CpAsync) return Error{op_name(access) + " is not a cp.async"};
  if (auto status = validate(access); !status) return status.error();
  const int phase_lanes = kWavefrontBytes / access.width_bytes;
  const std::uint32_t reading = global_lanes(access);
  int ideal = 0;
  for (int first = 0; first < kWarpSize; first += phase_lanes) {
    const std::uint32_t phase = lane_range(first, phase_lanes);
    if ((access.active_mask & phase) == 0) continue;
    std::array<std::uint64_t, 32> lines;
    int n = 0;
    for (std::uint32_t left = reading & phase; left != 0; left &= left - 1)
      lines[static_cast<std::size_t>(n++)] = access.address[static_cast<std::size_t>(std::countr_zero(left))] / kLineBytes;
    std::sort(lines.begin(), lines.begin() + n);
    const int distinct = static_cast<int>(std::unique(lines.begin(), lines.begin() + n) - lines.begin());
    ideal += std::max(1, (distinct + 3) / 4);
  }
  return ideal;
}

std::string lane_ranges(const std::vector<int>& lanes) {
  std::string out;
  for (std::size_t i = 0; i < lanes.size();) {
    std::size_t j = i;
    while (j + 1 < lanes.size() && lanes[j + 1] == lanes[j] + 1) ++j;
    // Appends, not a chain of +: GCC 12 warns falsely about those (-Wrestrict).
    if (!out.empty()) out.append(", ");
    out.append(std::to_string(lanes[i]));
    if (j > i) out.append("-").append(std::to_string(lanes[j]));
    i = j + 1;
  }
  return out.empty() ? "none" : out;
}

std::string ideal_rule(const WarpAccess& access, const SharedDetail& detail) {
  if (is_matrix_op(access.op)) return "one per 8x8 matrix";
  const int phases = kWarpSize / detail.phase_lanes;
  std::string text = "one per phase with an active lane: " + op_name(access) + " is served in ";
  text += phases == 1 ? "1 phase of 32 lanes"
                      : std::to_string(phases) + " phases of " + std::to_string(detail.phase_lanes) + " lanes";
  if (detail.pairs_merged)
    text += " (two phases merged into one: wherever both lanes of a pair n, n^1 or n, n^2 are active, they give the "
            "same address; rule L1)";
  if (detail.cost.ideal_wavefronts < phases) text += ", " + std::to_string(detail.cost.ideal_wavefronts) + " of them with an active lane";
  return text;
}

Result<GlobalCost> global_cost(const WarpAccess& access) {
  if (auto status = check_global(access); !status) return status.error();
  return global_cost_of(access);
}

Result<GlobalDetail> global_detail(const WarpAccess& access) {
  if (auto status = check_global(access); !status) return status.error();
  const std::uint32_t lanes = global_lanes(access);
  std::array<std::uint64_t, 32> sorted;
  const int n = sorted_sectors(access, lanes, sorted);
  GlobalDetail detail;
  detail.cost = global_cost_of(access);
  for (int i = 0; i < n; ++i) {
    const auto s = sorted[static_cast<std::size_t>(i)];
    if (detail.sectors.empty() || detail.sectors.back() != s) detail.sectors.push_back(s);
    if (detail.lines.empty() || detail.lines.back() != s / kSectorsPerLine) detail.lines.push_back(s / kSectorsPerLine);
  }
  for (int lane = 0; lane < kWarpSize; ++lane)
    detail.lane_sector[static_cast<std::size_t>(lane)] =
        active(lanes, lane) ? static_cast<std::int64_t>(access.address[static_cast<std::size_t>(lane)] / kSectorBytes)
                            : -1;
  return detail;
}

Result<WarpAccess> parse_op(std::string_view given) {
  // PTX's own names are taken too: ldmatrix.x4.trans is ldsm.x4.trans, stmatrix.x2 is stsm.x2.
  std::string spelled(given);
  if (spelled.rfind("ldmatrix", 0) == 0) spelled = "ldsm" + spelled.substr(8);
  if (spelled.rfind("stmatrix", 0) == 0) spelled = "stsm" + spelled.substr(8);
  const std::string_view name = spelled;
  for (const auto& entry : kOps) {
    if (entry.name != name) continue;
    WarpAccess access;
    access.op = entry.op;
    access.width_bytes = entry.width;
    access.ldmatrix_count = entry.matrices;
    access.ldmatrix_trans = entry.trans;
    access.cache_global = entry.cache_global;
    return access;
  }
  std::string known;
  for (const auto& entry : kOps) known += (known.empty() ? "" : ", ") + std::string(entry.name);
  return Error{"unknown instruction '" + std::string(given) + "'; known: " + known};
}

std::string op_name(const WarpAccess& access) {
  for (const auto& entry : kOps) {
    if (entry.op != access.op) continue;
    if (is_matrix_op(access.op)) {
      if (entry.matrices == access.ldmatrix_count && entry.trans == access.ldmatrix_trans) return std::string(entry.name);
    } else if (entry.width == access.width_bytes &&
               (access.op != MemOp::CpAsync || entry.cache_global == access.cache_global)) {
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
