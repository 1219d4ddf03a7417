#pragma once
// One configuration struct for every rung: tile sizes, padding, swizzle, stages, its fields the knob list's
// (knobs.def). Each rung reads the fields it needs and says which ones those are (its description's `knobs`). The
// simulator uses KernelConfig with run-time values; the GPU compiles FixedConfig instantiations whose members are
// compile-time constants, so loops over them unroll and per-thread arrays live in registers. Both have the same member
// names, so a rung's code reads `c.bm` either way.
#include <optional>
#include <span>
#include <string_view>

#include "gemmlab/kernel/knobs.def"

namespace gemmlab::kernel {

// A rung's own meaning of a knob (its description's `knob_choices`, host only): the values it takes there and what
// they mean. The Hopper rung's `swizzle` is TMA's swizzle mode in bytes, where the earlier rungs' is on or off.
struct KnobChoice {
  std::string_view name;
  std::span<const int> values;
  std::string_view help;
};

struct KernelConfig {
#define GEMMLAB_KNOB_FIELD(name, default_value, ...) int name = default_value;
  GEMMLAB_KNOBS(GEMMLAB_KNOB_FIELD)
#undef GEMMLAB_KNOB_FIELD

  static constexpr bool compile_time = false;  // the knobs are run-time values (FixedConfig: constants)

  // Upper bounds for the simulator's per-thread arrays; validate() keeps every configuration inside them.
  static constexpr int max_tm = 16, max_tn = 16;
  static constexpr int max_wm = 128, max_wn = 128;  // a warp's tile on the tensor-core rungs (its fragments)
  static constexpr int max_loads = 64;  // per-thread staging registers for one tile of A or B
};

// Knobs to change in a configuration, by name: `with_overrides(K::defaults(), {.a_pad = 8, .b_pad = 8})`. The
// instance list writes its alternates this way (gpu/include/gemmlab/gpu/instances.def).
struct KnobOverrides {
#define GEMMLAB_KNOB_OVERRIDE(name, ...) std::optional<int> name{};
  GEMMLAB_KNOBS(GEMMLAB_KNOB_OVERRIDE)
#undef GEMMLAB_KNOB_OVERRIDE
};

constexpr KernelConfig with_overrides(KernelConfig c, const KnobOverrides& o) {
#define GEMMLAB_KNOB_OVERRIDDEN(name, ...) c.name = o.name.value_or(c.name);
  GEMMLAB_KNOBS(GEMMLAB_KNOB_OVERRIDDEN)
#undef GEMMLAB_KNOB_OVERRIDDEN
  return c;
}

// A list of the knobs' expansions separated by commas: each expansion starts with a comma, and the first is dropped.
// (A template's parameters cannot end with a comma, and one more parameter would change every kernel's name.)
#define GEMMLAB_KNOB_LIST(...) GEMMLAB_KNOB_LIST_TAIL(__VA_ARGS__)
#define GEMMLAB_KNOB_LIST_TAIL(first, ...) __VA_ARGS__

// One int template parameter per knob, in the list's order: the compiled kernels' mangled names spell them
// (FixedConfigILi128ELi256E...E), and scripts/kernel_resources.py reads the names back.
#define GEMMLAB_KNOB_PARAMETER(name, default_value, ...) , int name##_ = default_value
#define GEMMLAB_KNOB_CONSTANT(name, ...) static constexpr int name = name##_;
template <GEMMLAB_KNOB_LIST(GEMMLAB_KNOBS(GEMMLAB_KNOB_PARAMETER))>
struct FixedConfig {
  GEMMLAB_KNOBS(GEMMLAB_KNOB_CONSTANT)
  static constexpr bool compile_time = true;
  static constexpr int max_tm = tm, max_tn = tn;
  static constexpr int max_wm = wm, max_wn = wn;
  static constexpr int max_loads = (bm * bk > bk * bn ? bm * bk : bk * bn);  // refined by each rung's State
};
#undef GEMMLAB_KNOB_PARAMETER
#undef GEMMLAB_KNOB_CONSTANT

}  // namespace gemmlab::kernel
