#pragma once
// Counters of a rung's instruction stream, in the units ncu reports: warp-level instructions, shared-memory
// wavefronts (and ideal wavefronts: bank conflicts are the difference), global requests and 32-byte sectors.
#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "gemmlab/memory_model.hpp"

namespace gemmlab::sim {

// Instruction classes: ldg/stg/lds/sts in 32/64/128 bits, ldmatrix .x1/.x2/.x4, cp.async 4/8/16 bytes, and ldg of
// one 16-bit element.
inline constexpr int kOpClassCount = 19;
// Multiply-adds of one mma.sync.m16n8k16 (16 x 8 x 16), the only tensor-core atom the rungs use so far.
inline constexpr std::int64_t kMmaMultiplyAdds = 16 * 8 * 16;
int op_class(const WarpAccess& access);
std::string_view op_class_name(int op_class);
bool op_class_is_shared(int op_class);  // costed in wavefronts (lds, sts, ldsm, and cp.async's shared side)
bool op_class_is_global(int op_class);  // costed in sectors (ldg, stg, and cp.async's global side)

struct OpCounters {
  std::int64_t instructions = 0;  // warp instructions issued (including ones with every lane predicated off)
  std::int64_t wavefronts = 0, ideal_wavefronts = 0;
  std::int64_t requests = 0, sectors = 0, lines = 0, ideal_sectors = 0;
  std::int64_t whole_lines = 0;  // lines whose four sectors one request touches all (GlobalCost::whole_lines)
  std::int64_t split_sectors = 0;  // cp.async.cg: what the L2 sends beyond the distinct source sectors (Rule G5)
  std::int64_t global_wavefronts = 0;  // the L1 data pipe's wavefronts of global accesses (GlobalCost::wavefronts)
  std::int64_t bank_conflicts() const { return wavefronts - ideal_wavefronts; }
};

// Every count of OpCounters, once: what adding and scaling walk. A new count goes here too (the size check says so).
using OpCount = std::int64_t OpCounters::*;
inline constexpr OpCount kOpCounts[] = {
    &OpCounters::instructions, &OpCounters::wavefronts, &OpCounters::ideal_wavefronts,
    &OpCounters::requests, &OpCounters::sectors, &OpCounters::lines, &OpCounters::ideal_sectors,
    &OpCounters::whole_lines, &OpCounters::split_sectors, &OpCounters::global_wavefronts,
};
static_assert(sizeof(OpCounters) == std::size(kOpCounts) * sizeof(std::int64_t), "a count missing from kOpCounts");

// TMA boxes of one shape: the rows the copy engine walks (a panelled box's panels each count) and the bytes the box
// holds, and how many copies and stores had it. The engine takes at least a cycle a row (docs/time-model.md).
struct TmaBoxShape {
  int rows = 0, bytes = 0;
  std::int64_t copies = 0;
};
// Adds `copies` boxes of this shape to `shapes`, merging with its entry where it has one.
void add_box_shape(std::vector<TmaBoxShape>& shapes, int rows, int bytes, std::int64_t copies);

struct Counters {
  std::array<OpCounters, kOpClassCount> ops{};
  std::int64_t fma = 0;  // thread-level fused multiply-adds on the FP32 units (FFMA; 2 FLOPs each)
  std::int64_t mma = 0;  // warp-level tensor-core instructions (HMMA, mma.sync.m16n8k16: kMmaMultiplyAdds each)
  // Hopper (kernel/wgmma.hpp): TMA box copies (one thread issues each), the bytes they write to shared memory
  // (zero-filled parts included) and the 32-byte global sectors they read; warpgroup-level wgmma instructions and
  // their multiply-adds (64 x N x 16 each); TMA stores of C (rung 20's tma_store) and the global sectors they write.
  std::int64_t tma_copies = 0, tma_bytes = 0, tma_sectors = 0;
  // A cluster partner's multicast copies that land in this block, and the sectors they read: this block issued none of
  // them, and the time model's copies term counts them as its own (docs/time-model.md, "Multicast copies").
  std::int64_t tma_partner_copies = 0, tma_partner_sectors = 0;
  std::int64_t tma_stores = 0, tma_store_sectors = 0;
  std::vector<TmaBoxShape> tma_boxes;  // by box shape: the copies landing here (a partner's included), the stores
  std::int64_t wgmma = 0, wgmma_multiply_adds = 0;
  // Split-K (rung 22): the waits on a tile's flag and its releases, one thread's each (the reads and writes of C that
  // add the ranges up are global loads and stores like any other).
  std::int64_t split_waits = 0, split_releases = 0;
  std::int64_t tensor_multiply_adds() const { return mma * kMmaMultiplyAdds + wgmma_multiply_adds; }

  Counters& operator+=(const Counters& other);
  Counters scaled(std::int64_t times) const;
  // Sums over classes, as ncu's per-kernel metrics report them.
  OpCounters shared_loads() const;   // lds + ldsm
  OpCounters shared_stores() const;  // sts + cp.async's shared side
  OpCounters global_loads() const;   // ldg + cp.async's global side
  OpCounters global_stores() const;  // stg
};

// Every count of Counters besides its classes (ops) and box shapes (tma_boxes), once: what adding and scaling walk.
// A new count goes here too (the size check says so).
using CounterTotal = std::int64_t Counters::*;
inline constexpr CounterTotal kCounterTotals[] = {
    &Counters::fma, &Counters::mma,
    &Counters::tma_copies, &Counters::tma_bytes, &Counters::tma_sectors, &Counters::tma_partner_copies,
    &Counters::tma_partner_sectors, &Counters::tma_stores, &Counters::tma_store_sectors,
    &Counters::wgmma, &Counters::wgmma_multiply_adds, &Counters::split_waits, &Counters::split_releases,
};
static_assert(sizeof(Counters) == sizeof(Counters::ops) + std::size(kCounterTotals) * sizeof(std::int64_t) +
                                      sizeof(Counters::tma_boxes),
              "a count missing from kCounterTotals");

// Adds one costed warp instruction to the counters.
void count(Counters& counters, const WarpAccess& access, const SharedCost* shared, const GlobalCost* global);

}  // namespace gemmlab::sim
