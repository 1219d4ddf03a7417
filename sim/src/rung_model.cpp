#include "gemmlab/sim/rung_model.hpp"

#include <algorithm>
#include <array>
#include <concepts>
#include <vector>

#include "dispatch.hpp"
#include "gemmlab/kernel/element.hpp"

namespace gemmlab::sim {
namespace {

using kernel::KernelConfig;

constexpr Knob kKnobs[] = {
    {"bm", &KernelConfig::bm, 1, 512, "rows of C per block"},
    {"bn", &KernelConfig::bn, 1, 512, "columns of C per block"},
    {"bk", &KernelConfig::bk, 1, 128, "k-depth of the shared tiles (one k-step)"},
    {"tm", &KernelConfig::tm, 1, KernelConfig::max_tm, "rows of C per thread"},
    {"tn", &KernelConfig::tn, 1, KernelConfig::max_tn, "columns of C per thread"},
    {"wm", &KernelConfig::wm, 1, 256, "rows of C per warp"},
    {"wn", &KernelConfig::wn, 1, 256, "columns of C per warp"},
    {"a_pad", &KernelConfig::a_pad, 0, 32, "elements of padding after each shared row of A"},
    {"b_pad", &KernelConfig::b_pad, 0, 32, "elements of padding after each shared row of B"},
    {"swizzle", &KernelConfig::swizzle, 0, 1, "1: XOR-swizzle shared rows instead of padding them"},
    {"conflicting", &KernelConfig::conflicting, 0, 1, "1: the layout that shows bank conflicts"},
    {"stages", &KernelConfig::stages, 1, 4, "shared-memory buffers in flight"},
};

KernelConfig config(int bm, int bn, int bk, int tm = 1, int tn = 1) {
  KernelConfig c;
  c.bm = bm, c.bn = bn, c.bk = bk, c.tm = tm, c.tn = tn;
  return c;
}

using Names = std::span<const std::string_view>;
constexpr std::string_view kNaiveKnobs[] = {"bm", "bn"};
constexpr std::string_view kSmemKnobs[] = {"bm", "bn", "bk", "a_pad", "b_pad", "conflicting"};
constexpr std::string_view k1DKnobs[] = {"bm", "bn", "bk", "tm", "a_pad", "b_pad"};
constexpr std::string_view k2DKnobs[] = {"bm", "bn", "bk", "tm", "tn", "a_pad", "b_pad"};
constexpr std::string_view kVecKnobs[] = {"bm", "bn", "bk", "tm", "tn", "a_pad", "b_pad", "swizzle"};
constexpr std::string_view kCpAsyncKnobs[] = {"bm", "bn", "bk", "tm", "tn", "a_pad", "b_pad", "stages"};
constexpr std::string_view kWarpTileKnobs[] = {"bm", "bn", "bk", "wm", "wn", "tm", "tn", "a_pad", "b_pad", "stages"};

// Defaults and knobs of the FP32 rungs, in rung-list order. Newer rungs declare theirs in their description
// (SelfDescribed below); the FP32 rungs are to move there too.
const std::array<RungModel, 10> kFp32Models = [] {
  std::array<RungModel, 10> m{{
      {RungId::NaiveUncoalesced, false, config(32, 32, 1), Names(kNaiveKnobs)},
      {RungId::NaiveCoalesced, false, config(32, 32, 1), Names(kNaiveKnobs)},
      {RungId::SmemTiling, false, config(32, 32, 32), Names(kSmemKnobs)},
      {RungId::BlockTile1D, false, config(64, 64, 8, 8, 1), Names(k1DKnobs)},
      {RungId::BlockTile2D, false, config(128, 128, 8, 8, 8), Names(k2DKnobs)},
      {RungId::Vectorized, false, config(128, 128, 8, 8, 8), Names(kVecKnobs)},
      {RungId::DoubleBuffer, false, config(128, 128, 8, 8, 8), Names(kVecKnobs)},
      {RungId::CpAsync, false, config(128, 128, 8, 8, 8), Names(kCpAsyncKnobs)},
      {RungId::WarpTile, false, config(128, 128, 8, 8, 8), Names(kWarpTileKnobs)},
      {RungId::SmemEpilogue, false, config(128, 128, 8, 8, 8), Names(kWarpTileKnobs)},
  }};
  m[static_cast<std::size_t>(RungId::DoubleBuffer)].defaults.stages = 2;  // fixed: two shared buffers
  m[static_cast<std::size_t>(RungId::CpAsync)].defaults.stages = 3;  // two tiles in flight while one is multiplied
  // Warp tiling (rungs 9 and 10): a 128 x 256 x 32 block tile, 8 warps of 32 x 128 results, a 4 x 8 lane grid of
  // 8 x 16 results per lane, A padded against the copies' bank conflicts, 3 stages. warptile.hpp explains each choice.
  for (const RungId id : {RungId::WarpTile, RungId::SmemEpilogue}) {
    auto& d = m[static_cast<std::size_t>(id)].defaults;
    d = config(128, 256, 32, 8, 16);
    d.wm = 32, d.wn = 128, d.a_pad = 4, d.stages = 3;
  }
  return m;
}();

template <RungId Id>
constexpr bool described() {
  return Described<Id>;
}

// A description that declares its own knobs, defaults and tiling rules (kernel/rungs/mma_sync.hpp).
template <class K>
concept SelfDescribed = requires(const KernelConfig& c) {
  { K::defaults() } -> std::convertible_to<KernelConfig>;
  K::knobs;
  { K::validate(c) } -> std::convertible_to<Status>;
};

template <RungId Id>
RungModel model_of() {
  if constexpr (Described<Id>) {
    using K = typename kernel::KernelOf<Id>::type;
    if constexpr (SelfDescribed<K>) return {Id, true, K::defaults(), Names(K::knobs)};
  }
  const auto index = static_cast<std::size_t>(Id);
  if (index < kFp32Models.size()) return kFp32Models[index];
  return {Id, false, KernelConfig{}, Names{}};
}

// The sizes a rung can run, where its description restricts them.
Status validate_sizes(RungId id, const Problem& p) {
  const auto r = with_kernel<Status>(id, [&]<class K>() -> Status {
    if constexpr (requires { K::validate_sizes(p.m, p.n, p.k); }) {
      if (auto ok = K::validate_sizes(p.m, p.n, p.k); !ok)
        return Error{"rung " + std::string(rung_info(id).slug) + ": " + ok.error().message};
    }
    return Ok{};
  });
  return r;
}

bool is_described(RungId id) {
  switch (id) {
#define GEMMLAB_RUNG(ident, slug, title, precision, change) \
  case RungId::ident: return described<RungId::ident>();
#include "gemmlab/rungs.def"
#undef GEMMLAB_RUNG
  }
  return false;
}

std::string str(int v) { return std::to_string(v); }

// vectorized and double-buffer: 128-bit loads and stores everywhere the tiles allow them.
Status validate_vector_tiling(const KernelConfig& c) {
  if (c.tm % 4 != 0 || c.tn % 4 != 0)
    return Error{"tm=" + str(c.tm) + " and tn=" + str(c.tn) +
                 " must be multiples of 4: each thread reads its A and B fragments with 128-bit shared loads"};
  if (c.bm % c.tm != 0)
    return Error{"bm=" + str(c.bm) + " is not a multiple of tm=" + str(c.tm) + ": each thread takes tm whole rows"};
  if (c.bn % c.tn != 0)
    return Error{"bn=" + str(c.bn) + " is not a multiple of tn=" + str(c.tn) + ": each thread takes tn whole columns"};
  if (c.bk % 4 != 0)
    return Error{"bk=" + str(c.bk) + " is not a multiple of 4: the A tile is loaded 4 consecutive k at a time"};
  if (c.a_pad % 4 != 0 || c.b_pad % 4 != 0)
    return Error{"a_pad=" + str(c.a_pad) + " and b_pad=" + str(c.b_pad) +
                 " must be multiples of 4 floats, so every shared row stays 16-byte aligned for 128-bit loads"};
  if (c.swizzle && c.a_pad != 0)
    return Error{"swizzle=1 replaces the padding of the A tile: set a_pad=0 (or swizzle=0 to use a_pad=" +
                 str(c.a_pad) + ")"};
  if (c.swizzle && c.bm % 32 != 0)
    return Error{"swizzle=1 permutes groups of 8 16-byte chunks, so bm=" + str(c.bm) +
                 " must be a multiple of 32; use padding (swizzle=0, a_pad=4) for this tile"};
  const int threads = (c.bm / c.tm) * (c.bn / c.tn);
  const int a_vectors = c.bm * c.bk / 4, b_vectors = c.bk * c.bn / 4;
  if (a_vectors % threads != 0 || b_vectors % threads != 0)
    return Error{"the " + str(threads) + " threads must share the tile loads evenly, but the A tile has " +
                 str(a_vectors) + " and the B tile " + str(b_vectors) +
                 " float4s: change bk (or the tile sizes) so both are multiples of " + str(threads)};
  const int staged = (a_vectors > b_vectors ? a_vectors : b_vectors) / threads * 4;
  if (staged > KernelConfig::max_loads)
    return Error{"each thread would copy " + str(staged) + " floats of one tile per k-step; at most " +
                 str(KernelConfig::max_loads) + " are allowed: use a smaller bk or more threads (smaller tm, tn)"};
  return Ok{};
}

// cp-async: 16-byte copies of both tiles and 128-bit shared reads of both fragments, 2 to 4 buffers.
Status validate_cp_async_tiling(const KernelConfig& c) {
  if (c.stages < 2)
    return Error{"stages=" + str(c.stages) + " leaves no tile in flight while one is multiplied: cp-async needs 2 to 4"};
  if (c.tn % 4 != 0)
    return Error{"tn=" + str(c.tn) + " is not a multiple of 4: each thread reads its B fragment with 128-bit loads"};
  if (c.bm % c.tm != 0)
    return Error{"bm=" + str(c.bm) + " is not a multiple of tm=" + str(c.tm) + ": each thread takes tm whole rows"};
  if (c.bn % c.tn != 0)
    return Error{"bn=" + str(c.bn) + " is not a multiple of tn=" + str(c.tn) + ": each thread takes tn whole columns"};
  if (c.bk % 4 != 0)
    return Error{"bk=" + str(c.bk) + " is not a multiple of 4: the A tile is copied and read 4 consecutive k at a time"};
  if (c.a_pad % 4 != 0 || c.b_pad % 4 != 0)
    return Error{"a_pad=" + str(c.a_pad) + " and b_pad=" + str(c.b_pad) +
                 " must be multiples of 4 floats, so every shared row stays 16-byte aligned for cp.async.16 and lds.128"};
  const int threads = (c.bm / c.tm) * (c.bn / c.tn);
  const int a_chunks = c.bm * c.bk / 4, b_chunks = c.bk * c.bn / 4;
  if (a_chunks % threads != 0 || b_chunks % threads != 0)
    return Error{"the " + str(threads) + " threads must share the tile copies evenly, but the A tile has " +
                 str(a_chunks) + " and the B tile " + str(b_chunks) +
                 " 16-byte chunks: change bk (or the tile sizes) so both are multiples of " + str(threads)};
  return Ok{};
}

// warptile and smem-epilogue: block -> warp -> lane tiles, 4 x 4 sub-tiles read with 128-bit loads, A copied
// transposed one float at a time, B in 16-byte chunks, fragments double-buffered in registers.
Status validate_warp_tiling(const KernelConfig& c) {
  if (c.stages < 2)
    return Error{"stages=" + str(c.stages) + " leaves no tile in flight while one is multiplied: use 2 to 4"};
  if (c.tm % 4 != 0 || c.tn % 4 != 0)
    return Error{"tm=" + str(c.tm) + " and tn=" + str(c.tn) +
                 " must be multiples of 4: a thread's results are 4 x 4 sub-tiles read with 128-bit shared loads"};
  if (c.wm % c.tm != 0 || c.wn % c.tn != 0)
    return Error{"the warp tile " + str(c.wm) + " x " + str(c.wn) + " must be a multiple of the thread tile " +
                 str(c.tm) + " x " + str(c.tn) + ": each lane takes tm rows and tn columns of it"};
  const int lane_rows = c.wm / c.tm, lane_cols = c.wn / c.tn;
  if (lane_rows * lane_cols != 32 || lane_rows < 2 || lane_cols < 2)
    return Error{"the warp tile " + str(c.wm) + " x " + str(c.wn) + " with " + str(c.tm) + " x " + str(c.tn) +
                 " results per lane gives a " + str(lane_rows) + " x " + str(lane_cols) +
                 " lane grid; it must have 32 lanes and at least 2 in each direction (e.g. wm=32, wn=128 with "
                 "tm=8, tn=16: 4 x 8)"};
  if (c.bm % c.wm != 0 || c.bn % c.wn != 0)
    return Error{"the block tile " + str(c.bm) + " x " + str(c.bn) + " must be a multiple of the warp tile " +
                 str(c.wm) + " x " + str(c.wn) + ": change bm, bn, wm or wn"};
  if (c.bk % 8 != 0)
    return Error{"bk=" + str(c.bk) + " is not a multiple of 8: A is copied in slabs of 8 k (one 32-byte sector of a "
                 "row) and fragments alternate between two register buffers"};
  if (c.a_pad % 4 != 0 || c.b_pad % 4 != 0)
    return Error{"a_pad=" + str(c.a_pad) + " and b_pad=" + str(c.b_pad) +
                 " must be multiples of 4 floats, so every shared row stays 16-byte aligned for 128-bit loads"};
  const int threads = (c.bm / c.wm) * (c.bn / c.wn) * 32;
  const int rows_per_round = threads / 8;  // copy_tile_async_transposed: 8 threads per row of A
  if (c.bm % rows_per_round != 0)
    return Error{"bm=" + str(c.bm) + " is not a multiple of " + str(rows_per_round) +
                 ": each round of A copies puts 8 of the " + str(threads) + " threads on a row, covering " +
                 str(rows_per_round) + " rows; use a taller block tile or fewer warps"};
  const int b_chunks = c.bk * c.bn / 4;
  if (b_chunks % threads != 0)
    return Error{"the " + str(threads) + " threads must share the B tile's copies evenly, but it has " + str(b_chunks) +
                 " 16-byte chunks: change bk or bn so that is a multiple of " + str(threads)};
  return Ok{};
}

// The rung's own tiling rules; the shared limits are checked by validate().
Status validate_tiling(RungId id, const KernelConfig& c) {
  switch (id) {
    case RungId::SmemTiling:
      if (c.bm != c.bn || c.bk != c.bm)
        return Error{"smem-tiling copies one element of each tile per thread, so bm, bn and bk must be equal (got bm=" +
                     str(c.bm) + ", bn=" + str(c.bn) + ", bk=" + str(c.bk) + ")"};
      return Ok{};
    case RungId::BlockTile1D:
      if (c.bm % c.tm != 0)
        return Error{"bm=" + str(c.bm) + " is not a multiple of tm=" + str(c.tm) + ": each thread takes tm whole rows"};
      return Ok{};
    case RungId::BlockTile2D:
      if (c.bm % c.tm != 0)
        return Error{"bm=" + str(c.bm) + " is not a multiple of tm=" + str(c.tm) + ": each thread takes tm whole rows"};
      if (c.bn % c.tn != 0)
        return Error{"bn=" + str(c.bn) + " is not a multiple of tn=" + str(c.tn) +
                     ": each thread takes tn whole columns"};
      return Ok{};
    case RungId::Vectorized:
    case RungId::DoubleBuffer: return validate_vector_tiling(c);
    case RungId::CpAsync: return validate_cp_async_tiling(c);
    case RungId::WarpTile:
    case RungId::SmemEpilogue: return validate_warp_tiling(c);
    default:
      return with_kernel<Status>(id, [&]<class K>() -> Status {
        if constexpr (SelfDescribed<K>) return K::validate(c);
        else return Ok{};
      });
  }
}

}  // namespace

std::span<const Knob> all_knobs() { return kKnobs; }

const Knob* find_knob(std::string_view name) {
  for (const auto& knob : kKnobs)
    if (knob.name == name) return &knob;
  return nullptr;
}

bool RungModel::has_knob(std::string_view name) const { return std::ranges::find(knobs, name) != knobs.end(); }

const RungModel& rung_model(RungId id) {
  static const std::vector<RungModel> models = [] {
    std::vector<RungModel> m{
#define GEMMLAB_RUNG(ident, slug, title, precision, change) model_of<RungId::ident>(),
#include "gemmlab/rungs.def"
#undef GEMMLAB_RUNG
    };
    for (auto& model : m) model.described = is_described(model.id);
    return m;
  }();
  return models[static_cast<std::size_t>(id)];
}

int threads_per_block(RungId id, const KernelConfig& c) {
  const auto r = with_kernel<Result<int>>(id, [&]<class K>() -> Result<int> { return K::threads(c); });
  return r ? *r : 0;
}

OperandBytes operand_bytes(RungId id) {
  OperandBytes bytes = kFloatOperands;
  (void)with_kernel<Status>(id, [&]<class K>() -> Status {
    for (const auto operand : {kernel::Operand::A, kernel::Operand::B, kernel::Operand::C})
      bytes[static_cast<std::size_t>(operand)] = kernel::operand_bytes<K>(operand);
    return Ok{};
  });
  return bytes;
}

int smem_bytes(RungId id, const KernelConfig& c) {
  const auto r = with_kernel<Result<int>>(id, [&]<class K>() -> Result<int> { return K::smem_floats(c) * 4; });
  return r ? *r : 0;
}

Status validate(RungId id, const KernelConfig& c, const Problem& problem, const DeviceLimits& limits) {
  const RungModel& model = rung_model(id);
  const std::string slug(rung_info(id).slug);
  if (!model.described) return Error{"rung " + slug + " has no kernel description yet"};
  for (const auto name : model.knobs) {
    const Knob& knob = *find_knob(name);
    const int value = c.*knob.field;
    if (value < knob.min || value > knob.max)
      return Error{std::string(name) + "=" + str(value) + " is out of range: " + std::string(knob.help) + " must be in [" +
                   str(knob.min) + ", " + str(knob.max) + "]"};
  }
  // Knobs the rung does not read must keep their defaults: a silently ignored setting would mislead.
  for (const auto& knob : kKnobs)
    if (!model.has_knob(knob.name) && c.*knob.field != model.defaults.*knob.field)
      return Error{"rung " + slug + " has no knob '" + std::string(knob.name) + "'"};
  if (auto tiling = validate_tiling(id, c); !tiling) return tiling;

  const int threads = threads_per_block(id, c);
  if (threads < 1 || threads > limits.max_threads_per_block)
    return Error{"this configuration needs " + str(threads) + " threads per block; the limit is " +
                 str(limits.max_threads_per_block) + ": use a smaller tile or more results per thread"};
  const int smem = smem_bytes(id, c);
  if (smem > limits.max_smem_per_block_bytes)
    return Error{"this configuration needs " + str(smem) + " bytes of shared memory per block; the device allows " +
                 str(limits.max_smem_per_block_bytes) + ": use smaller tiles, less padding or fewer stages"};
  if (auto sizes = validate_problem(problem); !sizes) return sizes;
  return validate_sizes(id, problem);
}

}  // namespace gemmlab::sim
