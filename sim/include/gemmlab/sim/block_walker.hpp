#pragma once
// One block's instruction stream as the desktop's tile stepper, banks and coalescing panels and gemmlab-cli sim
// --list-phase show it: the simulator's
// BlockStream replayed phase by phase, with every lane's addresses turned back into matrix elements. Global
// addresses name their element directly; shared words get theirs by following the data: a lane's global load is
// queued in its registers and the lane's next shared store takes it from there (cp.async carries both addresses
// in one instruction). So a shared read can say "lane 5 reads A[12][3]" for any rung, with no per-rung code.
#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "gemmlab/kernel/block_order.hpp"
#include "gemmlab/kernel/config.hpp"
#include "gemmlab/result.hpp"
#include "gemmlab/rungs.hpp"
#include "gemmlab/sim/problem.hpp"
#include "gemmlab/sim/global_address.hpp"
#include "gemmlab/sim/rung_model.hpp"
#include "gemmlab/sim/simulate.hpp"

namespace gemmlab::sim {

// An element of A, B or C; `operand` -1 means none (a zero-filled word, or a word no load has written).
struct ElementRef {
  std::int8_t operand = -1;  // 0: A, 1: B, 2: C (kernel::Operand)
  std::int32_t row = 0, col = 0;
  bool valid() const { return operand >= 0; }
  friend bool operator==(const ElementRef&, const ElementRef&) = default;
};

// One lane of a warp instruction, decoded. Entry q of each array covers bytes [4q, 4q + 4) of the lane's access.
struct LaneView {
  std::array<ElementRef, 4> global{};  // the elements the global side reads or writes
  std::array<ElementRef, 4> shared{};  // stores: what is written; loads: what the words hold
  std::uint32_t shared_word = 0;       // the first shared word (byte offset / 4) the lane touches
};

struct InstructionView {
  sim::WarpInstruction instruction;
  std::array<LaneView, 32> lanes{};
  int words_per_lane() const;  // width / 4
};

// What every view of this block shares: the inputs, the launch, the schedule, and who writes C.
struct BlockOutline {
  RungId rung{};
  kernel::KernelConfig config;
  sim::Problem problem;
  kernel::TileCoord tile;
  sim::LaunchShape shape;
  std::vector<sim::PhaseRef> schedule;
  std::vector<int> c_writer;  // bm x bn, row-major: the thread that stores each element of the block's C tile (-1: none)
  int lookahead_ksteps = 0;   // how far ahead of the tile being multiplied the loads run (double buffering: 1)
  int smem_words = 0;
  sim::OperandBytes operand_bytes = sim::kFloatOperands;
};

// One phase of the block, decoded.
struct PhaseView {
  std::size_t phase_index = 0;  // position in outline.schedule
  sim::PhaseRef ref;
  bool barrier_after = false;
  int barrier_threads = 0;  // 0: the whole block takes the barrier; else its first n threads alone
  std::int64_t fma = 0;
  sim::Counters counters;
  std::vector<InstructionView> instructions;  // warp-major, as the simulator lists them
  std::vector<int> warp_begin;                // instructions of warp w: [warp_begin[w], warp_begin[w + 1])
  std::vector<ElementRef> shared_before;      // what each shared word holds when the phase starts

  int instruction_count(int warp) const;
  const InstructionView* find(int warp, int index) const;  // nullptr when out of range
};

// Which instructions a search looks for.
enum class InstructionKind { Any, Shared, Global };
bool is_kind(const sim::WarpInstruction& instruction, InstructionKind kind);

// Called between phases with the fraction done; returning false cancels.
using KeepGoing = std::function<bool(double)>;

class BlockWalker {
 public:
  static Result<std::unique_ptr<BlockWalker>> open(RungId rung, const kernel::KernelConfig& config,
                                                   const sim::Problem& problem, kernel::TileCoord tile);

  std::shared_ptr<const BlockOutline> outline() const { return outline_; }

  // The view of phase `index`. Replays from the block's start when `index` lies behind the last phase applied,
  // otherwise continues from there. A cancelled call returns an error and leaves the walker at a phase boundary.
  Result<std::shared_ptr<const PhaseView>> view(std::size_t index, const KeepGoing& keep_going);

  // The first phase that issues a memory instruction (0 when none does).
  Result<std::size_t> first_busy_phase();

  // The nearest phase after (direction > 0) or before (< 0) `from` with an instruction of `kind`; nullopt if none.
  Result<std::optional<std::size_t>> find_phase(std::size_t from, int direction, InstructionKind kind,
                                                const KeepGoing& keep_going);

 private:
  BlockWalker(sim::BlockStream stream, std::shared_ptr<BlockOutline> outline);
  void reset();
  // Applies one phase's data movement to the registers and shared words; fills `view` when given.
  void apply(const sim::PhaseStream& phase, PhaseView* view);

  sim::BlockStream stream_;
  std::shared_ptr<const BlockOutline> outline_;
  std::size_t next_phase_ = 0;                   // the first phase not yet applied
  std::vector<std::deque<ElementRef>> pending_;  // per thread: loaded elements not yet stored to shared memory
  std::vector<ElementRef> words_;                // per shared word: the element it holds
  std::shared_ptr<const PhaseView> last_view_;   // the last phase viewed (asked again when only the cursor moved)
};

// The element a recorded global address names, as row and column of its matrix.
// How many elements of its matrix the 4-byte word starting at element `e` holds: 1, or 2 for 16-bit A and B (the
// word's elements are e and the next one in its row).
inline int elements_in_word(const ElementRef& e, const sim::OperandBytes& bytes) {
  return e.valid() ? 4 / bytes[static_cast<std::size_t>(e.operand)] : 1;
}

// `bytes`: the element sizes of the rung's A, B and C (sim::operand_bytes). A 4-byte word of 16-bit elements is
// named by its first element.
ElementRef decode_global(std::uint64_t address, const sim::Problem& problem,
                         const sim::OperandBytes& bytes = sim::kFloatOperands);

// Indices count from 0 everywhere (phases, warps, instructions, k-steps, waves, wavefronts, launch positions), in both
// faces: "0-32" for 33 of them, "0" for one, "none" for none; "5 of 0-32" for one of them.
std::string index_range(std::int64_t count);
std::string index_of(std::int64_t index, std::int64_t count);
// "k-step 3 of 0-127", "prologue", "epilogue".
std::string step_name(const PhaseRef& ref, int ksteps);

// What an instruction's lanes touch, as ranges per matrix: "A rows 0-31, column 3 and B row 0, columns 0-15"; empty
// when no lane touches an element. `shared_side`: the elements its shared words hold, else its global ones.
std::string describe_elements(const InstructionView& instruction, bool shared_side, const OperandBytes& bytes);

}  // namespace gemmlab::sim
