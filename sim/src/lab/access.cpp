// The layout lab's accesses, turned into warp instructions over the user's tile.
#include "gemmlab/lab/access.hpp"

#include <algorithm>
#include <cctype>

namespace gemmlab::lab {
namespace {

constexpr int kLanes = 32;
constexpr int kMatrixRows = 8;       // an 8x8 matrix of ldmatrix/stmatrix: 8 rows ...
constexpr int kMatrixRowBytes = 16;  // ... of 16 bytes; also a wgmma core matrix

std::string coordinate(std::int64_t row, std::int64_t column) {
  return "(" + std::to_string(row) + "," + std::to_string(column) + ")";
}

std::string span(std::int64_t first, std::int64_t count) {
  return count == 1 ? std::to_string(first) : std::to_string(first) + "-" + std::to_string(first + count - 1);
}

std::string run_text(std::int64_t row, std::int64_t column, int mode, int count) {
  return mode == 1 ? coordinate(row, column) + " to " + coordinate(row, column + count - 1)
                   : coordinate(row, column) + " to " + coordinate(row + count - 1, column);
}

std::string_view mode_name(Operand operand, int mode) {
  static constexpr std::string_view names[3][2] = {{"M", "K"}, {"N", "K"}, {"M", "N"}};
  return names[static_cast<int>(operand)][mode];
}

// ---------------------------------------------------------------------------------------------------------------
// ldmatrix / stmatrix: the fragments of an mma.sync atom. Each 8x8 matrix is 8 rows of 16 contiguous bytes; without
// .trans a row runs along the tile's columns (K of A and B, N of C), with .trans along its rows. An instruction of
// .xN covers a region of the operand; matrices within it follow the fragment's register order:
//   A: (m0,k0) (m8,k0) (m0,k8) (m8,k8)   B: (n0,k0) (n0,k8) (n8,k0) (n8,k8)   C: (m0,n0) (m8,n0) (m0,n8) (m8,n8)
// where 8 stands for the 8 rows of a matrix and for the 16 bytes of its rows (8 16-bit elements, 4 tf32, 16 fp8).
// ---------------------------------------------------------------------------------------------------------------
Result<Access> matrix_access(const Tile& tile, const AccessSpec& spec, const sim::WarpAccess& model) {
  const bool store = model.op == sim::MemOp::StMatrix;
  const std::string ptx = std::string(store ? "stmatrix" : "ldmatrix") + ".x" + std::to_string(model.ldmatrix_count) +
                          (model.ldmatrix_trans ? ".trans" : "");
  const int e = tile.bytes();
  if (model.ldmatrix_trans && e != 2)
    return Error{ptx + " transposes 16-bit elements; a " + std::string(element_name(tile.element)) +
                 " tile must be read without .trans, its rows contiguous along the columns"};
  if (store && spec.operand != Operand::C)
    return Error{ptx + " stores the C fragment of an mma.sync atom: use --partition c"};
  if (!store && spec.operand == Operand::C)
    return Error{ptx + " loads the A or B fragment; the C fragment is stored with stmatrix (--partition c)"};
  if (store && e != 2)
    return Error{ptx + " stores 16-bit elements (b16); a " + std::string(element_name(tile.element)) +
                 " C tile is stored with st.shared (a copy: --op sts.32 or sts.64)"};
  // A matrix's extent in elements: 8 along the row direction, `u` (16 bytes) along the contiguous one.
  const std::int64_t u = kMatrixRowBytes / e;
  const int run_mode = model.ldmatrix_trans ? 0 : 1;                // the tile mode a 16-byte row runs along
  const std::int64_t along_rows = run_mode == 1 ? kMatrixRows : u;  // a matrix's extent along the tile's rows
  const std::int64_t along_columns = run_mode == 1 ? u : kMatrixRows;
  const int count = model.ldmatrix_count;
  // The region one instruction covers, in matrices (rows of matrices x columns of matrices), and its order.
  int mr = 1, mc = 1;
  bool rows_inner = spec.operand != Operand::B;
  if (count == 4) mr = mc = 2;
  else if (count == 2) (spec.operand == Operand::B ? mc : mr) = 2;
  const std::int64_t region_rows = mr * along_rows, region_columns = mc * along_columns;

  std::vector<Coordinate> origins;
  if (spec.at) {
    const auto [r, c] = *spec.at;
    if (r < 0 || c < 0 || r + region_rows > tile.rows() || c + region_columns > tile.columns())
      return Error{ptx + " of the " + std::string(1, operand_letter(spec.operand)) + " operand covers " +
                   std::to_string(region_rows) + " x " + std::to_string(region_columns) + " elements, which at " +
                   coordinate(r, c) + " reach past the " + std::to_string(tile.rows()) + " x " +
                   std::to_string(tile.columns()) + " tile: an access wider than the tile"};
    origins.push_back(*spec.at);
  } else {
    if (tile.rows() % region_rows != 0 || tile.columns() % region_columns != 0)
      return Error{"one " + ptx + " of the " + std::string(1, operand_letter(spec.operand)) + " operand covers " +
                   std::to_string(region_rows) + " x " + std::to_string(region_columns) +
                   " elements, which do not "
                   "tile the " +
                   std::to_string(tile.rows()) + " x " + std::to_string(tile.columns()) +
                   " tile; give --at ROW,COLUMN for one instruction, or a tile whose sides are multiples"};
    for (std::int64_t r = 0; r < tile.rows(); r += region_rows)
      for (std::int64_t c = 0; c < tile.columns(); c += region_columns) origins.emplace_back(r, c);
  }

  Access access;
  access.kind = AccessKind::Matrix;
  access.op = sim::op_name(model);
  access.description = ptx + (store ? " stores " : " loads ") + std::to_string(count) + " 8x8 matri" +
                       (count == 1 ? "x" : "ces") + " of the " + std::string(1, operand_letter(spec.operand)) +
                       " operand (tile rows are " + std::string(mode_name(spec.operand, 0)) + ", columns " +
                       std::string(mode_name(spec.operand, 1)) + "); lanes 8i to 8i+7 give matrix i's row addresses, " +
                       "each 16 contiguous bytes along the tile's " + (run_mode == 1 ? "columns" : "rows");
  for (const auto& [r0, c0] : origins) {
    Instruction instruction;
    instruction.shared = model;
    instruction.shared.active_mask = 0xffffffffu;
    int matrix = 0;
    const auto add_matrix = [&](std::int64_t row, std::int64_t column) -> Status {
      for (int i = 0; i < kMatrixRows; ++i) {
        const std::int64_t r = run_mode == 1 ? row + i : row;
        const std::int64_t c = run_mode == 1 ? column : column + i;
        if (!contiguous_run(tile, r, c, run_mode, static_cast<int>(u))) {
          const int other = contiguous_mode(tile, r, c, kMatrixRowBytes);
          std::string hint;
          if (other == 1 - run_mode && e == 2)
            hint = "; this tile runs contiguously along its " + std::string(other == 1 ? "columns" : "rows") +
                   " there: use " + (store ? "stmatrix" : "ldmatrix") + ".x" + std::to_string(count) +
                   (other == 0 ? ".trans" : "");
          return Error{ptx + " reads 16 contiguous, 16-byte-aligned bytes per row address, but elements " +
                       run_text(r, c, run_mode, static_cast<int>(u)) + " lie at byte offsets " +
                       std::to_string(tile.byte_offset(r, c)) + ", ... (not one aligned 16-byte run): misaligned " +
                       "or non-contiguous ldmatrix rows" + hint};
        }
        const int lane = matrix * kMatrixRows + i;
        instruction.shared.address[static_cast<std::size_t>(lane)] = static_cast<std::uint64_t>(tile.byte_offset(r, c));
        instruction.first_element[static_cast<std::size_t>(lane)] = Coordinate{r, c};
      }
      ++matrix;
      return Ok{};
    };
    for (int outer = 0; outer < (rows_inner ? mc : mr); ++outer)
      for (int inner = 0; inner < (rows_inner ? mr : mc); ++inner) {
        const int i = rows_inner ? inner : outer, j = rows_inner ? outer : inner;
        if (auto ok = add_matrix(r0 + i * along_rows, c0 + j * along_columns); !ok) return ok.error();
      }
    // Lanes past 8 x count give no address: the hardware ignores them; give them lane 0's so nothing reads them.
    for (int lane = kMatrixRows * count; lane < kLanes; ++lane)
      instruction.shared.address[static_cast<std::size_t>(lane)] = instruction.shared.address[0];
    instruction.what = std::string(1, operand_letter(spec.operand)) + " rows " + span(r0, region_rows) + ", columns " +
                       span(c0, region_columns);
    access.instructions.push_back(std::move(instruction));
  }
  return access;
}

// ---------------------------------------------------------------------------------------------------------------
// A tiled copy: thread t sits at the coordinate (tr, tc) of the thread layout whose index is t, and moves `vector`
// elements that run along the tile's contiguous mode. One copy step covers (TR, TC x vector) elements (or
// (TR x vector, TC) when the tile runs along its rows); the steps repeat over the tile, rows of steps first. In each
// step, warp w (threads 32w to 32w+31) issues one instruction.
// ---------------------------------------------------------------------------------------------------------------
Result<Access> copy_access(const Tile& tile, const AccessSpec& spec, const sim::WarpAccess& model) {
  const int e = tile.bytes();
  const std::string name = sim::op_name(model);
  if (model.width_bytes % e != 0 || model.width_bytes < e)
    return Error{name + " moves " + std::to_string(model.width_bytes) +
                 " bytes per lane, which is not a whole number of " + std::string(element_name(tile.element)) +
                 " elements (" + std::to_string(e) + " bytes each)"};
  const int vector = spec.vector > 0 ? spec.vector : model.width_bytes / e;
  if (vector * e != model.width_bytes)
    return Error{"--vector " + std::to_string(vector) + " of " + std::string(element_name(tile.element)) + " is " +
                 std::to_string(vector * e) + " bytes, but " + name + " moves " + std::to_string(model.width_bytes) +
                 " bytes per lane; give a vector of " + std::to_string(model.width_bytes / e) + " or another width"};
  const int mode = contiguous_mode(tile, 0, 0, model.width_bytes);
  if (mode < 0)
    return Error{name + " moves " + std::to_string(model.width_bytes) +
                 " contiguous bytes per lane, but from (0,0) "
                 "the tile runs contiguously neither along its columns nor along its rows"};
  Layout threads = spec.threads ? *spec.threads : Layout{};
  if (!spec.threads) {  // 128 threads in rows of the contiguous mode, as a kernel's copy usually is
    const std::int64_t across =
        std::max<std::int64_t>(1, std::min<std::int64_t>(128, (mode == 1 ? tile.columns() : tile.rows()) / vector));
    const std::int64_t down = std::max<std::int64_t>(1, 128 / across);
    threads = mode == 1 ? Layout{IntTuple::of({IntTuple::leaf(down), IntTuple::leaf(across)}),
                                 IntTuple::of({IntTuple::leaf(across), IntTuple::leaf(1)})}
                        : Layout{IntTuple::of({IntTuple::leaf(across), IntTuple::leaf(down)}),
                                 IntTuple::of({IntTuple::leaf(1), IntTuple::leaf(across)})};
  }
  if (threads.rank() != 2)
    return Error{"the thread layout " + threads.to_string() + " needs two modes (rows, columns) of threads"};
  const std::int64_t thread_count = threads.size();
  if (thread_count > 1024)
    return Error{"the thread layout " + threads.to_string() + " has " + std::to_string(thread_count) +
                 " threads; a block has at most 1024"};
  std::vector<std::optional<Coordinate>> thread_at(static_cast<std::size_t>(thread_count));
  for (std::int64_t tr = 0; tr < threads.extent(0); ++tr)
    for (std::int64_t tc = 0; tc < threads.extent(1); ++tc) {
      const std::int64_t t = threads(tr, tc);
      if (t < 0 || t >= thread_count || thread_at[static_cast<std::size_t>(t)])
        return Error{"the thread layout " + threads.to_string() + " gives thread index " + std::to_string(t) +
                     (t >= 0 && t < thread_count ? " twice" : ", outside 0-" + std::to_string(thread_count - 1)) +
                     ": it must number its " + std::to_string(thread_count) + " threads once each"};
      thread_at[static_cast<std::size_t>(t)] = Coordinate{tr, tc};
    }
  const std::int64_t step_rows = threads.extent(0) * (mode == 0 ? vector : 1);
  const std::int64_t step_columns = threads.extent(1) * (mode == 1 ? vector : 1);
  if (tile.rows() % step_rows != 0 || tile.columns() % step_columns != 0)
    return Error{"one step of the copy (threads " + threads.to_string() + ", " + std::to_string(vector) +
                 " elements each along the " + (mode == 1 ? "columns" : "rows") + ") covers " +
                 std::to_string(step_rows) + " x " + std::to_string(step_columns) +
                 " elements, which do not tile the " + std::to_string(tile.rows()) + " x " +
                 std::to_string(tile.columns()) + " tile: an access wider than the tile, or not dividing it"};
  const Layout global = spec.global ? *spec.global : default_global_layout(tile);
  if (global.rank() != 2 || global.extent(0) != tile.rows() || global.extent(1) != tile.columns())
    return Error{"the global layout " + global.to_string() + " must have the tile's shape, " +
                 std::to_string(tile.rows()) + " x " + std::to_string(tile.columns())};
  for (const auto s : flatten(global.stride))
    if (s < 0) return Error{"the global layout " + global.to_string() + " has a negative stride"};

  const bool cp_async = model.op == sim::MemOp::CpAsync;
  const bool load = model.op == sim::MemOp::LoadShared;
  Access access;
  access.kind = AccessKind::Copy;
  access.op = name;
  access.description = std::to_string(thread_count) + " threads laid out " + threads.to_string() + " each " +
                       (load ? "read " : "write ") + std::to_string(vector) + " contiguous elements (" +
                       std::to_string(model.width_bytes) + " bytes) along the tile's " +
                       (mode == 1 ? "columns" : "rows") + " with " + name + "; global side: " +
                       (cp_async ? "the same instruction's source"
                        : load   ? "stg"
                                 : "ldg") +
                       " of the same threads over " + global.to_string() +
                       (spec.global ? "" : " (compact; give --global for your matrix's leading dimension)");
  const std::int64_t warps = (thread_count + kLanes - 1) / kLanes;
  for (std::int64_t sr = 0; sr < tile.rows() / step_rows; ++sr)
    for (std::int64_t sc = 0; sc < tile.columns() / step_columns; ++sc)
      for (std::int64_t w = 0; w < warps; ++w) {
        Instruction instruction;
        instruction.shared = model;
        instruction.shared.active_mask = 0;
        sim::WarpAccess global_side;
        global_side.op = cp_async ? sim::MemOp::CpAsync : load ? sim::MemOp::StoreGlobal : sim::MemOp::LoadGlobal;
        global_side.width_bytes = model.width_bytes;
        global_side.active_mask = 0;
        for (int lane = 0; lane < kLanes; ++lane) {
          const std::int64_t t = w * kLanes + lane;
          if (t >= thread_count) break;
          const auto [tr, tc] = *thread_at[static_cast<std::size_t>(t)];
          const std::int64_t r = sr * step_rows + tr * (mode == 0 ? vector : 1);
          const std::int64_t c = sc * step_columns + tc * (mode == 1 ? vector : 1);
          if (!contiguous_run(tile, r, c, mode, vector))
            return Error{name + " moves " + std::to_string(model.width_bytes) +
                         " contiguous, aligned bytes per lane, "
                         "but thread " +
                         std::to_string(t) + "'s elements " + run_text(r, c, mode, vector) +
                         " are not contiguous and aligned in the shared tile"};
          const std::int64_t g = global(r, c) * e;
          for (int i = 1; i < vector; ++i) {
            const std::int64_t next = (mode == 1 ? global(r, c + i) : global(r + i, c)) * e;
            if (next != g + static_cast<std::int64_t>(i) * e || g % model.width_bytes != 0)
              return Error{name + "'s global side moves " + std::to_string(model.width_bytes) +
                           " contiguous, aligned "
                           "bytes per lane, but thread " +
                           std::to_string(t) + "'s elements " + run_text(r, c, mode, vector) +
                           " are not contiguous and aligned in the global layout " + global.to_string()};
          }
          const auto l = static_cast<std::size_t>(lane);
          const auto s = static_cast<std::uint64_t>(tile.byte_offset(r, c));
          instruction.shared.active_mask |= 1u << lane;
          global_side.active_mask |= 1u << lane;
          global_side.address[l] = static_cast<std::uint64_t>(g);
          if (cp_async) {
            instruction.shared.address[l] = static_cast<std::uint64_t>(g);
            instruction.shared.shared_address[l] = s;
          } else {
            instruction.shared.address[l] = s;
          }
          instruction.first_element[l] = Coordinate{r, c};
        }
        instruction.global = cp_async ? instruction.shared : global_side;
        instruction.what = "step " + std::to_string(sr * (tile.columns() / step_columns) + sc) + ", warp " +
                           std::to_string(w) + " (threads " +
                           span(w * kLanes, std::min<std::int64_t>(kLanes, thread_count - w * kLanes)) + ")";
        access.instructions.push_back(std::move(instruction));
      }
  return access;
}

// wgmma reads its A and B tiles in core matrices: 8 rows of 16 contiguous bytes, K-major (the rows along M or N,
// the 16 bytes along K: the tile's columns) or MN-major (the 16 bytes along M or N: the tile's rows). Each is costed
// as one 8-row phase, as ldmatrix.x1 is; ncu has no counter of these reads, so the figure is the model's.
Result<Access> core_matrix_access(const Tile& tile) {
  const int e = tile.bytes();
  const std::int64_t u = kMatrixRowBytes / e;
  const int mode = contiguous_mode(tile, 0, 0, kMatrixRowBytes);
  if (mode < 0)
    return Error{
        "wgmma reads core matrices of 8 rows of 16 contiguous bytes, but from (0,0) this tile runs "
        "contiguously along neither of its modes"};
  const std::int64_t along_rows = mode == 1 ? kMatrixRows : u, along_columns = mode == 1 ? u : kMatrixRows;
  if (tile.rows() % along_rows != 0 || tile.columns() % along_columns != 0)
    return Error{"a wgmma core matrix covers " + std::to_string(along_rows) + " x " + std::to_string(along_columns) +
                 " elements here, which do not tile the " + std::to_string(tile.rows()) + " x " +
                 std::to_string(tile.columns()) + " tile"};
  Access access;
  access.kind = AccessKind::CoreMatrices;
  access.op = "ldsm.x1";
  access.description =
      std::string("wgmma reads the tile through a descriptor in core matrices of 8 rows of 16 bytes (") +
      (mode == 1 ? "K-major: rows along the tile's rows, 16 bytes along its columns"
                 : "MN-major: 16 bytes along the tile's rows") +
      "), each costed as one 8-row phase; ncu has no counter of wgmma's shared reads, so these "
      "figures are the model's";
  sim::WarpAccess model;
  model.op = sim::MemOp::LdMatrix;
  model.ldmatrix_count = 1;
  model.width_bytes = kMatrixRowBytes;
  for (std::int64_t r0 = 0; r0 < tile.rows(); r0 += along_rows)
    for (std::int64_t c0 = 0; c0 < tile.columns(); c0 += along_columns) {
      Instruction instruction;
      instruction.shared = model;
      instruction.model_only = true;
      for (int i = 0; i < kMatrixRows; ++i) {
        const std::int64_t r = mode == 1 ? r0 + i : r0, c = mode == 1 ? c0 : c0 + i;
        if (!contiguous_run(tile, r, c, mode, static_cast<int>(u)))
          return Error{"wgmma's core matrix row " + run_text(r, c, mode, static_cast<int>(u)) +
                       " is not 16 contiguous, aligned bytes in this tile"};
        instruction.shared.address[static_cast<std::size_t>(i)] = static_cast<std::uint64_t>(tile.byte_offset(r, c));
        instruction.first_element[static_cast<std::size_t>(i)] = Coordinate{r, c};
      }
      for (int lane = kMatrixRows; lane < kLanes; ++lane)
        instruction.shared.address[static_cast<std::size_t>(lane)] = instruction.shared.address[0];
      instruction.what = "core matrix rows " + span(r0, along_rows) + ", columns " + span(c0, along_columns);
      access.instructions.push_back(std::move(instruction));
    }
  return access;
}

// A TMA box write lands the box densely, inner dimension contiguous, in one of TMA's swizzle modes; the tile must be
// that image.
Result<Access> tma_access(const Tile& tile) {
  const int e = tile.bytes();
  const auto mode = cute_as_tma_swizzle(tile.swizzle, e);
  if (!mode)
    return Error{"TMA writes a box in its 32-, 64- or 128-byte swizzle mode or none; " + tile.swizzle.to_string() +
                 " on " + std::string(element_name(tile.element)) + " is none of them (they are Swizzle<1|2|3," +
                 std::to_string(4 - (e == 4   ? 2
                                     : e == 2 ? 1
                                              : 0)) +
                 ",3> here)"};
  const Layout compact{tile.layout.shape, compact_row_major(tile.layout.shape)};
  const bool leaf_modes = !tile.layout.shape_of(0).tuple && !tile.layout.shape_of(1).tuple;
  if (!leaf_modes || !(tile.layout == compact))
    return Error{
        "TMA writes a box densely, row after row, its inner dimension contiguous: the tile must be (rows, "
        "columns):(columns, 1), here " +
        compact.to_string() + ", not " + tile.layout.to_string()};
  const std::int64_t inner = tile.columns() * e;
  if (inner % 16 != 0)
    return Error{"a TMA box's inner dimension must be a multiple of 16 bytes, not " + std::to_string(inner)};
  if (*mode > 0 && inner > *mode)
    return Error{"in the " + std::to_string(*mode) + "-byte swizzle mode a TMA box's inner dimension is at most " +
                 std::to_string(*mode) + " bytes, not " + std::to_string(inner) + "; split the tile into boxes " +
                 std::to_string(*mode / e) + " elements wide"};
  Access access;
  access.kind = AccessKind::TmaBox;
  access.op = "tma";
  access.tma = TmaWrite{tile.rows(), inner, tile.rows() * inner, *mode};
  access.description = "one TMA copy writes the " + std::to_string(tile.rows()) + " x " +
                       std::to_string(tile.columns()) + " box (" + std::to_string(inner) + " bytes a row, swizzle " +
                       (*mode == 0 ? std::string("none") : std::to_string(*mode) + " bytes") +
                       "): the copy engine writes whole rows, no warp instruction is issued, and ncu counts no shared "
                       "wavefronts or bank conflicts for it";
  return access;
}

Result<Access> lanes_access(const Tile& tile, const AccessSpec& spec, const sim::WarpAccess& model) {
  if (spec.lanes.size() != kLanes)
    return Error{"explicit lanes: got " + std::to_string(spec.lanes.size()) + " coordinates, but a warp has 32 lanes"};
  if (model.op == sim::MemOp::LoadGlobal || model.op == sim::MemOp::StoreGlobal || model.op == sim::MemOp::CpAsync)
    return Error{"explicit lanes address the shared tile: use lds.*, sts.*, ldmatrix.* or stmatrix.*"};
  const int e = tile.bytes();
  Instruction instruction;
  instruction.shared = model;
  instruction.shared.active_mask = 0;
  const bool matrix = sim::is_matrix_op(model.op);
  const int run = matrix ? kMatrixRowBytes : model.width_bytes;
  if (run % e != 0)
    return Error{sim::op_name(model) + " moves " + std::to_string(run) +
                 " bytes per lane, not a whole number of elements"};
  for (int lane = 0; lane < kLanes; ++lane) {
    const auto& at = spec.lanes[static_cast<std::size_t>(lane)];
    if (!at) continue;
    const auto [r, c] = *at;
    if (r < 0 || c < 0 || r >= tile.rows() || c >= tile.columns())
      return Error{"lane " + std::to_string(lane) + ": element " + coordinate(r, c) + " is outside the " +
                   std::to_string(tile.rows()) + " x " + std::to_string(tile.columns()) + " tile"};
    const int mode = run / e == 1 ? 1 : contiguous_mode(tile, r, c, run);
    if (mode < 0)
      return Error{"lane " + std::to_string(lane) + ": " + sim::op_name(model) + " moves " + std::to_string(run) +
                   " contiguous, aligned bytes from element " + coordinate(r, c) +
                   ", which this tile does not hold "
                   "there"};
    instruction.shared.active_mask |= 1u << lane;
    instruction.shared.address[static_cast<std::size_t>(lane)] = static_cast<std::uint64_t>(tile.byte_offset(r, c));
    instruction.first_element[static_cast<std::size_t>(lane)] = *at;
  }
  if (matrix) {
    const int needed = kMatrixRows * model.ldmatrix_count;
    for (int lane = 0; lane < needed; ++lane)
      if (!spec.lanes[static_cast<std::size_t>(lane)])
        return Error{sim::op_name(model) + " takes row addresses from lanes 0-" + std::to_string(needed - 1) +
                     "; lane " + std::to_string(lane) + " has none"};
    instruction.shared.active_mask = 0xffffffffu;
    for (int lane = needed; lane < kLanes; ++lane)
      if (!spec.lanes[static_cast<std::size_t>(lane)])
        instruction.shared.address[static_cast<std::size_t>(lane)] = instruction.shared.address[0];
  }
  if (instruction.shared.active_mask == 0) return Error{"explicit lanes: every lane is inactive ('-')"};
  Access access;
  access.kind = AccessKind::Lanes;
  access.op = sim::op_name(model);
  access.description = "one " + access.op + " with the lanes' elements given one by one";
  instruction.what = "the given lanes";
  access.instructions.push_back(std::move(instruction));
  return access;
}

}  // namespace

Result<Operand> parse_operand(std::string_view name) {
  if (name == "a" || name == "A") return Operand::A;
  if (name == "b" || name == "B") return Operand::B;
  if (name == "c" || name == "C" || name == "d" || name == "D") return Operand::C;
  return Error{"unknown operand '" + std::string(name) +
               "'; the mma.sync atom's operands are a (rows M, columns K), "
               "b (rows N, columns K) and c (rows M, columns N)"};
}

char operand_letter(Operand o) { return o == Operand::A ? 'A' : o == Operand::B ? 'B' : 'C'; }

std::span<const std::string_view> access_names() {
  static constexpr std::string_view kNames[] = {"ldmatrix.x1",
                                                "ldmatrix.x2",
                                                "ldmatrix.x4",
                                                "ldmatrix.x1.trans",
                                                "ldmatrix.x2.trans",
                                                "ldmatrix.x4.trans",
                                                "stmatrix.x1",
                                                "stmatrix.x2",
                                                "stmatrix.x4",
                                                "stmatrix.x1.trans",
                                                "stmatrix.x2.trans",
                                                "stmatrix.x4.trans",
                                                "lds.32",
                                                "lds.64",
                                                "lds.128",
                                                "sts.32",
                                                "sts.64",
                                                "sts.128",
                                                "cp.async.4",
                                                "cp.async.8",
                                                "cp.async.16",
                                                "cp.async.cg.16",
                                                "wgmma",
                                                "tma"};
  return kNames;
}

Result<AccessKind> access_kind(std::string_view op) {
  const std::string name(op);
  if (name == "wgmma") return AccessKind::CoreMatrices;
  if (name == "tma") return AccessKind::TmaBox;
  auto model = sim::parse_op(name);
  if (!model || name.rfind("ldg", 0) == 0 || name.rfind("stg", 0) == 0) {
    std::string known;
    for (const auto known_name : access_names()) known.append(known.empty() ? "" : ", ").append(known_name);
    return Error{"unknown access '" + std::string(op) + "'; the lab knows " + known};
  }
  return sim::is_matrix_op(model->op) ? AccessKind::Matrix : AccessKind::Copy;
}

Layout default_global_layout(const Tile& tile) {
  // Column-major when the tile's rows are its fastest mode (its first stride along them is 1 and not along columns).
  const bool columns_fastest = flatten(tile.layout.stride_of(1)).front() == 1 && tile.columns() > 1;
  const bool rows_fastest = flatten(tile.layout.stride_of(0)).front() == 1 && tile.rows() > 1;
  const IntTuple shape = IntTuple::of({IntTuple::leaf(tile.rows()), IntTuple::leaf(tile.columns())});
  if (rows_fastest && !columns_fastest)
    return Layout{shape, IntTuple::of({IntTuple::leaf(1), IntTuple::leaf(tile.rows())})};
  return Layout{shape, IntTuple::of({IntTuple::leaf(tile.columns()), IntTuple::leaf(1)})};
}

Result<Access> build_access(const Tile& tile, const AccessSpec& spec) {
  auto kind = access_kind(spec.op);
  if (!kind) return kind.error();
  if (*kind == AccessKind::CoreMatrices) return core_matrix_access(tile);
  if (*kind == AccessKind::TmaBox) return tma_access(tile);
  auto model = sim::parse_op(spec.op);
  if (!model) return model.error();
  if (!spec.lanes.empty()) return lanes_access(tile, spec, *model);
  if (*kind == AccessKind::Matrix) return matrix_access(tile, spec, *model);
  return copy_access(tile, spec, *model);
}

}  // namespace gemmlab::lab
