#pragma once
// The model of ONE warp memory instruction: how many shared-memory wavefronts it takes (bank conflicts), or how many
// 32-byte global sectors and 128-byte lines it touches (coalescing). The rules, and where each one comes from, are
// written out in docs/memory-model.md.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gemmlab/result.hpp"

namespace gemmlab::sim {

// The kinds of warp memory instruction the model knows. In PTX terms: ld/st.global, ld/st.shared, ldmatrix, and
// cp.async (a global load and a shared store in one instruction, LDGSTS in SASS), and stmatrix (sm_90: ldmatrix's
// store, STSM in SASS).
enum class MemOp { LoadGlobal, StoreGlobal, LoadShared, StoreShared, LdMatrix, CpAsync, StMatrix };

// ldmatrix and stmatrix: 8x8 matrices of 16-bit values, each lane giving one 16-byte row address.
inline bool is_matrix_op(MemOp op) { return op == MemOp::LdMatrix || op == MemOp::StMatrix; }

// One warp instruction: the operation and each lane's byte address.
struct WarpAccess {
  MemOp op = MemOp::LoadShared;
  int width_bytes = 4;          // bytes per lane: 4, 8 or 16 (2: ldg.16 only). For ldmatrix/stmatrix: ignored (each row address is 16 bytes)
  int ldmatrix_count = 1;       // ldmatrix/stmatrix only: 1, 2 or 4 matrices (.x1/.x2/.x4)
  bool ldmatrix_trans = false;  // ldmatrix/stmatrix only; .trans changes which registers hold the data, not the addresses
  std::uint32_t active_mask = 0xffffffffu;
  std::array<std::uint64_t, 32> address{};  // byte address per lane (shared: offset in the block's shared window)
  // For CpAsync: `address` is the GLOBAL source address and `shared_address` the SHARED destination, per lane.
  std::array<std::uint64_t, 32> shared_address{};
  // CpAsync only. The cache operator: .cg (cache in L2 only, bypassing L1; 16-byte copies only) instead of .ca.
  bool cache_global = false;
  // CpAsync only. Active lanes whose copy has src-size 0: they fill their shared bytes with zeros and read no global
  // memory, so they count on the shared side only.
  std::uint32_t zero_fill_mask = 0;
};

// Shared-memory cost of one instruction. ncu: bank conflicts = wavefronts - ideal wavefronts.
struct SharedCost {
  int wavefronts = 0;
  int ideal_wavefronts = 0;
  int bank_conflicts() const { return wavefronts - ideal_wavefronts; }
};

// Global-memory cost of one instruction.
struct GlobalCost {
  int requests = 0;
  // Distinct 32-byte sectors touched by the active lanes. cp.async.cg (L1 bypassed): distinct pairs (128-byte source
  // line, 32-byte shared destination sector), which is what the hardware counts (docs/memory-model.md, Rule G4).
  int sectors = 0;
  int lines = 0;          // distinct 128-byte lines touched
  // L1 data-pipe wavefronts (what ncu counts in l1tex__data_pipe_lsu_wavefronts): one per line, and a load at least one
  // per 128 bytes its active lanes receive, whatever lines they share (Rule G6: an ldg.128 of one line takes 4).
  int wavefronts = 0;
  int ideal_sectors = 0;  // ceil(active lanes x width / 32): what perfectly packed lanes would touch
  // cp.async.cg only (0 otherwise): sectors the L2 sends beyond the lanes' distinct source sectors. It sends one per
  // distinct pair (32-byte source sector, 32-byte destination sector), so 16 bytes that sit at a different offset in
  // their destination sector than in their source (a shared row padded by 16 bytes) cost a second delivery of the
  // same source sector (docs/memory-model.md, Rule G5).
  int split_sectors = 0;
  int whole_lines = 0;  // of the lines, those whose four sectors the active lanes all touch
  // ideal_sectors / sectors; 1.0 when no sectors. Above 1 when lanes share sectors (a broadcast: the warp receives
  // more bytes than it fetches).
  double efficiency() const;
};

// Fast paths, called millions of times by the instruction-stream counters: no heap allocation.
Result<SharedCost> shared_cost(const WarpAccess& access);  // LoadShared/StoreShared/LdMatrix/StMatrix; CpAsync: its shared store
Result<GlobalCost> global_cost(const WarpAccess& access);  // LoadGlobal/StoreGlobal; CpAsync: its global load

// Detailed results, for drawing (the desktop app's banks and coalescing panels) and for `gemmlab-cli access`.
struct LaneHit {
  int lane;
  int bank;
  std::uint64_t word;  // byte address / 4; a 16-byte access hits 4 words (4 banks), each reported
};
struct Wavefront {
  std::vector<int> lanes;      // the lanes served (in whole or in part) by this wavefront, ascending
  std::vector<LaneHit> hits;   // every word this wavefront delivers, with the lane that asked for it
};
struct SharedDetail {
  SharedCost cost;
  std::vector<Wavefront> wavefronts;       // cost.wavefronts of them, in the order the hardware would serve them
  // The N-way conflict degree on each bank (0: bank untouched): distinct words asked of it in one phase; for cp.async
  // the lanes writing it in one phase. A cp.async can take more wavefronts than its busiest bank when its source
  // addresses collide (Rule C1).
  std::array<int, 32> max_way_per_bank{};
  // cp.async only (zeros otherwise): the same on the copy's source side, which L1 reads through 32 banks addressed
  // like shared memory: the most lanes of one phase whose source falls in the bank (Rule C1).
  std::array<int, 32> max_source_way_per_bank{};
  // How the lanes were served (Rules S1, L1): lanes per phase, and whether a load's lane pairs merged two phases.
  // The ideal is one wavefront per phase with an active lane (Rule I1).
  int phase_lanes = 32;
  bool pairs_merged = false;
};
Result<SharedDetail> shared_detail(const WarpAccess& access);
// cp.async (.ca): the ideal that ncu's hardware conflict counter for copies
// (l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts) subtracts from the wavefronts: in each phase with an active
// lane, one wavefront or one per 4 distinct source lines its lanes read, whichever is more (docs/memory-model.md).
Result<int> copy_counted_ideal(const WarpAccess& access);

// Rule I1 in a sentence for this instruction, for the CLI and the banks panel: "one per phase with an active lane:
// sts.128 is served in 4 phases of 8 lanes, 4 of them with an active lane".
std::string ideal_rule(const WarpAccess& access, const SharedDetail& detail);

struct GlobalDetail {
  GlobalCost cost;
  std::vector<std::uint64_t> sectors;        // distinct 32-byte sector indices (address / 32) touched, sorted
  std::vector<std::uint64_t> lines;          // distinct 128-byte line indices (address / 128), sorted
  std::array<std::int64_t, 32> lane_sector{};  // each lane's sector index; -1 for lanes that read or write none
  // The sectors the L2 sends: each distinct source sector once, plus a cp.async.cg's split sectors (Rule G5).
  std::size_t sectors_from_l2() const { return sectors.size() + static_cast<std::size_t>(cost.split_sectors); }
};
Result<GlobalDetail> global_detail(const WarpAccess& access);

// Instruction names for the CLI and tests: "lds.32", "lds.64", "lds.128", "sts.*", "ldg.*", "stg.*",
// "ldsm.x1", "ldsm.x2", "ldsm.x4" (with ".trans"), "stsm.x1", "stsm.x2", "stsm.x4" (with ".trans"), "cp.async.4", "cp.async.8", "cp.async.16" (all .ca) and
// "cp.async.cg.16".
// PTX's names ldmatrix.* and stmatrix.* are taken as ldsm.* and stsm.*.
Result<WarpAccess> parse_op(std::string_view name);  // fills op/width/ldmatrix/cache_global fields only
std::string op_name(const WarpAccess& access);
// Every name parse_op accepts, in a fixed order (for help texts and tests).
const std::vector<std::string_view>& op_names();

// Lane numbers (ascending) as ranges, for the CLI and the panels: "0-15, 17, 20-23"; "none" for no lane.
std::string lane_ranges(const std::vector<int>& lanes);

// Whether the instruction reads or writes shared memory / global memory (CpAsync does both).
bool touches_shared(MemOp op);
bool touches_global(MemOp op);

}  // namespace gemmlab::sim
