#include "gemmlab/sim/rung_model.hpp"

#include <algorithm>
#include <charconv>
#include <concepts>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "dispatch.hpp"
#include "gemmlab/kernel/element.hpp"
#include "gemmlab/kernel/schedule.hpp"

namespace gemmlab::sim {
namespace {

using kernel::KernelConfig;

// The values column of the knob list (kernel/knobs.def).
constexpr std::span<const int> kAnyValue{};
constexpr int kOnOff[] = {0, 1};
constexpr int kAccumulatorBits[] = {16, 32};

constexpr Knob kKnobs[] = {
#define GEMMLAB_KNOB_ENTRY(name, default_value, min, max, values, help) \
  {#name, &KernelConfig::name, min, max, help, values},
    GEMMLAB_KNOBS(GEMMLAB_KNOB_ENTRY)
#undef GEMMLAB_KNOB_ENTRY
};

constexpr int max_of(std::string_view name) {
  for (const Knob& knob : kKnobs)
    if (knob.name == name) return knob.max;
  return -1;
}
// The simulator's per-thread arrays hold up to KernelConfig::max_tm x max_tn results: the knobs' range.
static_assert(max_of("tm") == KernelConfig::max_tm && max_of("tn") == KernelConfig::max_tn);

// Every rung description declares its knobs, defaults and tiling rules (kernel/rungs/*.hpp).
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
    static_assert(SelfDescribed<K>, "a rung description declares knobs, defaults() and validate()");
    std::span<const KnobChoice> choices;
    if constexpr (requires { K::knob_choices; }) choices = K::knob_choices;
    return {Id, true, K::defaults(), std::span<const std::string_view>(K::knobs), choices,
            kernel::preferred_order<K>()};
  } else {
    return {Id, false, KernelConfig{}, {}, {}, {}};
  }
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

std::string str(int v) { return std::to_string(v); }

// The rung's own tiling rules (its description's validate); the shared limits are checked by validate().
Status validate_tiling(RungId id, const KernelConfig& c) {
  return with_kernel<Status>(id, [&]<class K>() -> Status { return K::validate(c); });
}

}  // namespace

std::span<const Knob> all_knobs() { return kKnobs; }

const Knob* find_knob(std::string_view name) {
  for (const auto& knob : kKnobs)
    if (knob.name == name) return &knob;
  return nullptr;
}

bool RungModel::has_knob(std::string_view name) const { return std::ranges::find(knobs, name) != knobs.end(); }

std::span<const int> RungModel::values_of(std::string_view knob) const {
  for (const KnobChoice& choice : choices)
    if (choice.name == knob) return choice.values;
  const Knob* k = find_knob(knob);
  return k != nullptr ? k->values : std::span<const int>{};
}

std::string_view RungModel::help_of(std::string_view knob) const {
  for (const KnobChoice& choice : choices)
    if (choice.name == knob) return choice.help;
  const Knob* k = find_knob(knob);
  return k != nullptr ? k->help : std::string_view{};
}

const RungModel& rung_model(RungId id) {
  static const std::vector<RungModel> models = [] {
    std::vector<RungModel> m{
#define GEMMLAB_RUNG(ident, slug, description, arch, title, precision, change) model_of<RungId::ident>(),
#include "gemmlab/rungs.def"
#undef GEMMLAB_RUNG
    };
    return m;
  }();
  return models[static_cast<std::size_t>(id)];
}

int launched_blocks(RungId id, const KernelConfig& c, int slots, int splits) {
  const auto r = with_kernel<Result<int>>(
      id, [&]<class K>() -> Result<int> { return kernel::launched_blocks<K>(c, slots, splits); });
  return r ? *r : 0;
}

bool walks_stream_k(RungId id) {
  const auto r = with_kernel<Result<bool>>(id, [&]<class K>() -> Result<bool> { return kernel::WalksSegments<K>; });
  return r && *r;
}

bool consumers_take_turns(RungId id) {
  const auto r = with_kernel<Result<bool>>(id, [&]<class K>() -> Result<bool> { return kernel::TakesTurns<K>; });
  return r && *r;
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

Status validate_input(RungId id, const KernelConfig& c, kernel::InputType input) {
  const bool sixteen_bit = rung_info(id).precision == Precision::FP16BF16;
  if (sixteen_bit == (input == kernel::InputType::F32))
    return Error{"rung " + std::string(rung_info(id).slug) + " takes " + std::string(to_string(rung_info(id).precision)) +
                 " inputs, not " + std::string(kernel::input_name(input))};
  return with_kernel<Status>(id, [&]<class K>() -> Status {
    if constexpr (requires { K::validate_input(c, input); }) return K::validate_input(c, input);
    else return Ok{};
  });
}

bool needs_sm90a(RungId id) { return rung_info(id).arch == Arch::Sm90a; }

std::optional<WarpRoles> warp_roles(RungId id, const KernelConfig& c) {
  std::optional<WarpRoles> roles;
  (void)with_kernel<Status>(id, [&]<class K>() -> Status {
    if constexpr (requires { K::consumers(c); K::producer(c); K::register_moves(c); }) {
      roles = WarpRoles{128 * K::consumers(c), K::producer(c), K::threads(c), c.stages, c.cluster, c.grid};
      if constexpr (requires { K::c_chunk_cols; })  // rung 20 and those after it: the TMA store's buffers
        if (c.tma_store) roles->store_chunk_cols = K::c_chunk_cols, roles->store_buffers = K::c_buffers;
      if constexpr (requires { K::syncs_warps; typename K::LineStores; })  // a rung that inherits them may not use them
        if (K::syncs_warps && !c.tma_store)
          roles->line_store_rows = K::LineStores::warp_rows, roles->line_store_cols = K::LineStores::chunk_cols;
      if (c.setmaxnreg) {
        const auto moves = K::register_moves(c);
        roles->launch_registers = moves.launch, roles->producer_registers = moves.producer;
        roles->consumer_registers = moves.consumer;
      }
    }
    return Ok{};
  });
  return roles;
}

std::optional<int> launch_registers(RungId id, const KernelConfig& c) {
  std::optional<int> registers;
  (void)with_kernel<Status>(id, [&]<class K>() -> Status {
    if constexpr (requires { K::register_moves(c); })
      if (c.setmaxnreg) registers = K::register_moves(c).launch;
    return Ok{};
  });
  return registers;
}

int ksteps_in_flight(RungId id, const KernelConfig& c) {
  int in_flight = 1;
  (void)with_kernel<Status>(id, [&]<class K>() -> Status {
    if constexpr (requires { K::kStages; }) in_flight = K::kStages;
    else if (rung_model(id).has_knob("stages")) in_flight = c.stages;
    return Ok{};
  });
  return std::max(in_flight, 1);
}

int barriers_per_kstep(RungId id, const KernelConfig& c) {
  int barriers = 0;
  (void)with_kernel<Status>(id, [&]<class K>() -> Status {
    for (int phase = 0; phase < K::mainloop_phases(c); ++phase)
      barriers += K::barrier_after(kernel::Section::Mainloop, phase) ? 1 : 0;
    return Ok{};
  });
  return barriers;
}

int split_step_round_trips(RungId id, const KernelConfig& c) {
  int trips = 0;
  (void)with_kernel<Status>(id, [&]<class K>() -> Status {
    if constexpr (requires { K::split_step_round_trips(c); })
      if (c.splits > 1 || kernel::WalksSegments<K>) trips = K::split_step_round_trips(c);
    return Ok{};
  });
  return trips;
}

int smem_bytes(RungId id, const KernelConfig& c) {
  const auto r = with_kernel<Result<int>>(id, [&]<class K>() -> Result<int> { return K::smem_floats(c) * 4; });
  return r ? *r : 0;
}

bool takes_any_size(RungId id) {
  bool any = true;
  (void)with_kernel<Status>(id, [&]<class K>() -> Status {
    if constexpr (kernel::operand_bytes<K>(kernel::Operand::A) == 2) {
      if constexpr (requires { K::any_size; }) any = K::any_size;
      else any = false;
    }
    return Ok{};
  });
  return any;
}

std::optional<TmaBoxShapes> tma_box_shapes(RungId id, const KernelConfig& c, const Problem& problem) {
  std::optional<TmaBoxShapes> shapes;
  (void)with_kernel<Status>(id, [&]<class K>() -> Status {
    if constexpr (requires(const kernel::ThreadContext& t) { K::a_box(c, t, {}, 0); K::b_box(c, t, {}, 0); }) {
      kernel::ThreadContext t{};
      t.m = problem.m, t.n = problem.n, t.k = problem.k;
      const kernel::TmaBox a = K::a_box(c, t, {}, 0), b = K::b_box(c, t, {}, 0);
      shapes = TmaBoxShapes{a.rows, a.cols, b.rows, b.cols, a.swizzle_bytes};
      if constexpr (requires { K::c_box(c, t, kernel::TileCoord{}, 0); }) {
        if (c.tma_store) {
          const kernel::TmaBox box = K::c_box(c, t, kernel::TileCoord{}, 0);
          shapes->c_rows = box.rows, shapes->c_cols = box.cols, shapes->c_panel_cols = box.panel_cols;
          shapes->c_swizzle_bytes = box.swizzle_bytes;
        }
      }
    }
    return Ok{};
  });
  return shapes;
}

Result<KernelConfig> apply_knob_text(RungId id, KernelConfig config, std::string_view text) {
  const RungModel& model = rung_model(id);
  std::vector<std::string> seen;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = std::min(text.find_first_of(", ", at), text.size());
    const std::string_view item = text.substr(at, end - at);
    at = end + 1;
    if (item.empty()) continue;
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos)
      return Error{"'" + std::string(item) + "' is not knob=value (for example bm=64,bn=128,bk=16,stages=4)"};
    const std::string name(item.substr(0, eq)), value(item.substr(eq + 1));
    const Knob* knob = find_knob(name);
    if (knob == nullptr || !model.has_knob(name)) {
      std::string knobs;
      for (const auto known : model.knobs) knobs += (knobs.empty() ? "" : ", ") + std::string(known);
      return Error{"rung " + std::string(rung_info(id).slug) + " has no knob '" + name + "' (its knobs: " +
                   (knobs.empty() ? "none" : knobs) + ")"};
    }
    if (std::ranges::find(seen, name) != seen.end()) return Error{"knob '" + name + "' is given twice"};
    seen.push_back(name);
    int number = 0;
    const auto [end_of_number, error] = std::from_chars(value.data(), value.data() + value.size(), number);
    if (value.empty() || error != std::errc{} || end_of_number != value.data() + value.size() || number < knob->min ||
        number > knob->max)
      return Error{"knob " + name + " takes a whole number from " + str(knob->min) + " to " + str(knob->max) + ", not '" +
                   value + "'"};
    config.*knob->field = number;
  }
  if (seen.empty()) return Error{"no knob given (write knob=value pairs, for example bm=64,bn=128,bk=16,stages=4)"};
  return config;
}

Status validate(RungId id, const KernelConfig& c, const Problem& problem, const DeviceLimits& limits) {
  const RungModel& model = rung_model(id);
  const std::string slug(rung_info(id).slug);
  if (!model.described) return Error{"rung " + slug + " has no kernel description yet"};
  for (const auto name : model.knobs) {
    const Knob& knob = *find_knob(name);
    const int value = c.*knob.field;
    if (value < knob.min || value > knob.max)
      return Error{std::string(name) + "=" + str(value) + " is out of range: " + std::string(model.help_of(name)) +
                   " must be in [" + str(knob.min) + ", " + str(knob.max) + "]"};
    if (const auto values = model.values_of(name); !values.empty() && std::ranges::find(values, value) == values.end()) {
      std::string listed;
      for (const int v : values) listed += (listed.empty() ? "" : ", ") + str(v);
      return Error{std::string(name) + "=" + str(value) + " is not one of this rung's values (" + listed + "): " +
                   std::string(model.help_of(name))};
    }
  }
  // Knobs the rung does not read must keep their defaults: a silently ignored setting would mislead.
  for (const auto& knob : kKnobs)
    if (!model.has_knob(knob.name) && c.*knob.field != model.defaults.*knob.field)
      return Error{"rung " + slug + " has no knob '" + std::string(knob.name) + "'"};
  if (auto tiling = validate_tiling(id, c); !tiling) return tiling;
  if (needs_sm90a(id) && (limits.compute_capability_major != 9 || limits.compute_capability_minor != 0))
    return Error{"rung " + slug + " needs a Hopper GPU (sm_90a: TMA and wgmma); the " + limits.name +
                 " is compute capability " + str(limits.compute_capability_major) + "." +
                 str(limits.compute_capability_minor) + ", which has neither"};

  const int threads = threads_per_block(id, c);
  if (threads < 1 || threads > limits.max_threads_per_block)
    return Error{"this configuration needs " + str(threads) + " threads per block; the limit is " +
                 str(limits.max_threads_per_block) + ": use a smaller tile or more results per thread"};
  const int smem = smem_bytes(id, c);
  if (smem > limits.max_smem_per_block_bytes)
    return Error{"this configuration needs " + str(smem) + " bytes of shared memory per block; the device allows " +
                 str(limits.max_smem_per_block_bytes) + ": use smaller tiles, less padding or fewer stages"};
  if (auto sizes = validate_problem(problem); !sizes) return sizes;
  // Blocks are counted and launched as an int (CUDA's grid is at most 2^31 - 1 blocks wide): refuse a larger grid
  // here, before any count of it overflows or any loop over it starts.
  const std::int64_t blocks =
      std::int64_t{kernel::ceil_div(problem.m, c.bm)} * std::int64_t{kernel::ceil_div(problem.n, c.bn)};
  if (blocks > std::numeric_limits<int>::max())
    return Error{"this problem needs " + std::to_string(blocks) + " blocks of " + str(c.bm) + " x " + str(c.bn) +
                 ", more than the " + str(std::numeric_limits<int>::max()) + " a launch can have: use larger tiles (bm, bn)"};
  return validate_sizes(id, problem);
}

int recorded_knob_value(RungId id, std::string_view knob, int value) {
  return knob == "swizzle" && value == 0 && needs_sm90a(id) ? 128 : value;
}

}  // namespace gemmlab::sim
