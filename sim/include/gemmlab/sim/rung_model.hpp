#pragma once
// Each rung's configuration as the simulator, the CLI and the desktop app see it: which knobs it has, their
// defaults, and validate(), which returns the sentence to show when a configuration cannot run.
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "gemmlab/kernel/config.hpp"
#include "gemmlab/kernel/element.hpp"
#include "gemmlab/result.hpp"
#include "gemmlab/rungs.hpp"
#include "gemmlab/sim/global_address.hpp"
#include "gemmlab/sim/problem.hpp"

namespace gemmlab::sim {

// A knob is one integer field of KernelConfig with a name, a range and a line of help.
struct Knob {
  std::string_view name;  // also the CLI flag (--name) and the settings key
  int kernel::KernelConfig::*field;
  int min, max;
  std::string_view help;
  std::span<const int> values = {};  // the only values a rung may take, where they are few (empty: min to max)
};

using kernel::KnobChoice;  // a rung's own values and meaning of a knob (kernel/config.hpp)

// Every knob any rung has, in the knob list's order (kernel/knobs.def: KernelConfig's fields, FixedConfig's template
// parameters), which is also the order they are shown in.
std::span<const Knob> all_knobs();
const Knob* find_knob(std::string_view name);

struct RungModel {
  RungId id;
  bool described;                     // false while the rung's kernel description is not written yet
  kernel::KernelConfig defaults;
  std::span<const std::string_view> knobs;  // the names of the knobs this rung reads
  std::span<const KnobChoice> choices;      // knobs this rung gives values and a meaning of its own
  // The launch order the description is written for (kernel::preferred_order: rung 21's Hilbert curve), row-major
  // for the others; a sweep with `--order preferred` runs each rung in its own.
  kernel::BlockOrder preferred_order{};

  bool has_knob(std::string_view name) const;
  // The values the knob takes on this rung (empty: the knob's whole range), and what it means here.
  std::span<const int> values_of(std::string_view knob) const;
  std::string_view help_of(std::string_view knob) const;
};

const RungModel& rung_model(RungId id);

// ok, or one sentence saying what is wrong and what to change. Checks the knobs' ranges, the rung's tiling rules,
// threads per block and shared memory against `limits`, and the problem (sizes and the rung's size requirements).
Status validate(RungId id, const kernel::KernelConfig& config, const Problem& problem, const DeviceLimits& limits = {});

// ok, or the sentence saying why the configuration cannot take A and B in `input`: the rung's precision (FP32, or
// FP16 and BF16), and what the configuration adds (FP16 accumulators take FP16 inputs only).
Status validate_input(RungId id, const kernel::KernelConfig& config, kernel::InputType input);

// Bytes per element of A, B and C in the rung's kernels.
OperandBytes operand_bytes(RungId id);
// Whether the rung's GPU kernel uses Hopper's TMA and wgmma (compiled for sm_90a only; its Arch in rungs.def).
bool needs_sm90a(RungId rung);

// The roles of a warp-specialised rung's threads (rungs 18 to 20), for the app's pipeline view: threads
// [0, consumer_threads) multiply, threads [producer_thread, threads) copy (one of them issues), `stages` stages turn
// between them; `cluster` blocks share copies; `grid` persistent blocks (0: one per tile); with setmaxnreg, the
// registers per thread at launch and after the producer gave its share to the consumers (0: no move). Empty for other
// rungs.
struct WarpRoles {
  int consumer_threads = 0, producer_thread = 0, threads = 0;
  int stages = 0, cluster = 1, grid = 0;
  int launch_registers = 0, producer_registers = 0, consumer_registers = 0;
  // With rung 20's tma_store: the consumers store C through `store_buffers` shared buffers, `store_chunk_cols`
  // columns of the tile at a time, by TMA stores (0: from their registers).
  int store_chunk_cols = 0, store_buffers = 0;
  // Rung 21's epilogue (tma_store = 0): a tile inside C leaves in whole lines, each consumer warp's
  // `line_store_rows` rows, `line_store_cols` columns at a time, through a buffer of its own in shared memory, its
  // lanes meeting at __syncwarp (TmaWgmmaHilbert::LineStores; 0: the rung stores from its registers).
  int line_store_rows = 0, line_store_cols = 0;
  int producer_threads() const { return threads - producer_thread; }  // a warp, or with setmaxnreg a warpgroup
};
std::optional<WarpRoles> warp_roles(RungId id, const kernel::KernelConfig& config);

// The registers per thread a configuration launches with where its kernel fixes them (a warp-specialised rung with
// setmaxnreg = 1: K::register_moves' launch count, given to ptxas as the launch bound); empty where ptxas decides.
std::optional<int> launch_registers(RungId id, const kernel::KernelConfig& config);

// How many k-steps of tile loads a block has in flight while it multiplies one: its shared buffers (the rung's fixed
// kStages, or its `stages` knob), 1 for rungs that load a k-step and then use it. What hides global latency.
int ksteps_in_flight(RungId id, const kernel::KernelConfig& config);

// The block-wide barriers one k-step of the main loop ends phases with (the description's barrier_after): each drains
// the block's warps before any goes on.
int barriers_per_kstep(RungId id, const kernel::KernelConfig& config);

// Split-K (rung 22): the trips to the L2 one range's turn at C takes, one after another (its description's
// split_step_round_trips); 0 for a configuration that does not split k.
int split_step_round_trips(RungId id, const kernel::KernelConfig& config);

// The blocks a launch of the configuration has over `slots` launch indices with each tile cut into `splits` k-ranges
// (kernel::launched_blocks); whether its blocks walk Stream-K's segments (rung 23); whether its consumer warpgroups
// take turns at the block's tiles (rung 24's ping-pong).
int launched_blocks(RungId id, const kernel::KernelConfig& config, int slots, int splits);
bool walks_stream_k(RungId id);
bool consumers_take_turns(RungId id);

// Threads per block and shared-memory bytes of a configuration (from the rung's description).
int threads_per_block(RungId id, const kernel::KernelConfig& config);
int smem_bytes(RungId id, const kernel::KernelConfig& config);

// Whether a 16-bit rung's kernel takes any n and k (its description copies rows that do not start on a 16-byte
// boundary element by element); the others take n and k multiples of 8. FP32 rungs take any size: true.
bool takes_any_size(RungId id);

// The boxes a TMA rung's tensor maps describe for `problem` (rows x columns of elements of A and of B; A's are shorter
// than the block where the whole matrix is); empty for other rungs.
struct TmaBoxShapes {
  int a_rows = 0, a_cols = 0, b_rows = 0, b_cols = 0;
  int swizzle_bytes = 128;  // the tensor maps' swizzle mode: 32, 64 or 128
  // C's boxes where TMA stores it (tma_store = 1), else 0: c_panel_cols-wide panels, in its swizzle mode (0: none).
  int c_rows = 0, c_cols = 0, c_panel_cols = 0, c_swizzle_bytes = 0;
};
std::optional<TmaBoxShapes> tma_box_shapes(RungId id, const kernel::KernelConfig& config, const Problem& problem);

// `base` with the knobs of `text` set: "bm=64,bn=128,bk=16,stages=4" (commas or spaces between, the knob names the
// CLI's flags use). An error names an unknown knob, one the rung does not have, a value that is not a whole number in
// the knob's range, or a knob given twice; the rung's tiling rules are validate()'s.
Result<kernel::KernelConfig> apply_knob_text(RungId id, kernel::KernelConfig base, std::string_view text);

// A knob's value as a file written by an earlier gemmlab records it (a benchmark report, a tuning study, the desktop
// settings), in today's meaning. Until 2026-11-28 the TMA rungs' `swizzle` wrote TMA's 128-byte mode as 0; it is 128
// now, and 0 would mean no swizzle. Every reader of recorded configurations passes its values through this.
int recorded_knob_value(RungId id, std::string_view knob, int value);

}  // namespace gemmlab::sim
