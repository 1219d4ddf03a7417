#pragma once
// The accesses the layout lab knows, as the user's kernel makes them, turned into warp instructions with each
// lane's shared (and, for copies, global) byte address, for the memory model (memory_model.hpp) to cost:
//   - ldmatrix / stmatrix building or storing the fragments of an mma.sync atom (the A, B or C operand);
//   - a tiled copy (CuTe's make_tiled_copy): N threads laid out by a CuTe thread layout, each moving a vector of
//     contiguous elements with lds/sts or cp.async, with the global side of the same threads;
//   - wgmma's core matrices (8 rows of 16 bytes) read through a descriptor; a TMA box write;
//   - explicit per-lane element coordinates.
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gemmlab/lab/tile.hpp"
#include "gemmlab/memory_model.hpp"
#include "gemmlab/result.hpp"

namespace gemmlab::lab {

using Coordinate = std::pair<std::int64_t, std::int64_t>;  // (row, column) of the tile

// Which operand of an mma.sync atom the tile holds, and so what its rows and columns are: A (rows M, columns K),
// B (rows N, columns K), C (rows M, columns N).
enum class Operand { A, B, C };
Result<Operand> parse_operand(std::string_view name);
char operand_letter(Operand o);

enum class AccessKind { Matrix, Copy, CoreMatrices, TmaBox, Lanes };

struct AccessSpec {
  // The instruction: ldmatrix.x1/x2/x4[.trans] (or ldsm.*), stmatrix.* (stsm.*), lds.32/64/128, sts.*,
  // cp.async.4/8/16, cp.async.cg.16, wgmma (core-matrix reads), tma (a box write).
  std::string op = "ldmatrix.x4";
  Operand operand = Operand::A;                  // ldmatrix / stmatrix
  std::optional<Coordinate> at;                  // ldmatrix / stmatrix: one instruction's origin; none: the whole tile
  std::optional<Layout> threads;                 // copies: CuTe thread layout (rows, columns) -> thread index
  int vector = 0;                                // copies: elements per thread access; 0: the instruction's width
  std::optional<Layout> global;                  // copies: the global layout of the same tile (elements); none: compact
  std::vector<std::optional<Coordinate>> lanes;  // explicit: 32 coordinates (none: inactive lane)
};

// Every access name the lab knows, in the order the CLI's help and the panel's list give them.
std::span<const std::string_view> access_names();

// The kind of access an instruction name asks for, or an error listing the names.
Result<AccessKind> access_kind(std::string_view op);

// One warp instruction of an access.
struct Instruction {
  sim::WarpAccess shared;                 // its shared side (for cp.async: also its global addresses)
  std::optional<sim::WarpAccess> global;  // the global side: ldg/stg of the same lanes, or the cp.async itself
  std::array<std::optional<Coordinate>, 32> first_element{};  // each lane's first element (none: no address)
  std::string what;         // "A rows 0-15, columns 0-15 (4 matrices)", "warp 1, step 0"
  bool model_only = false;  // wgmma's core-matrix reads: ncu has no counter for them
};

// A TMA box write: what the copy engine writes; it issues no warp instruction and ncu counts no bank conflicts for it.
struct TmaWrite {
  std::int64_t rows = 0, inner_bytes = 0, bytes = 0;
  int swizzle_mode = 0;  // bytes: 0, 32, 64, 128
};

struct Access {
  AccessKind kind = AccessKind::Matrix;
  std::string op;           // the memory model's name: ldsm.x4, sts.128, cp.async.16, ...
  std::string description;  // one sentence on what it moves
  std::vector<Instruction> instructions;
  std::optional<TmaWrite> tma;
};

// Builds every instruction of the access over the tile (or the one at `at`). Errors say what does not fit: an
// access wider than the tile, rows that are not 16 contiguous, aligned bytes, an element type the instruction cannot
// move, a thread layout that is not a bijection, a vector that is not contiguous.
Result<Access> build_access(const Tile& tile, const AccessSpec& spec);

// The global layout a copy assumes when none is given: the tile's shape, compact, contiguous along the same mode as
// the shared tile.
Layout default_global_layout(const Tile& tile);

}  // namespace gemmlab::lab
