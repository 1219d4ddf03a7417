#pragma once
// The rung list as C++: an enum and a table, both expanded from rungs.def.
#include <array>
#include <optional>
#include <span>
#include <string_view>

namespace gemmlab {

// The inputs a rung takes: FP32, or FP16 and BF16 (each with FP32 accumulation and an FP32 C).
enum class Precision { FP32, FP16BF16 };

std::string_view to_string(Precision precision);

// Where a rung's kernels compile: for the build's CUDA architectures, or for sm_90a only (TMA and wgmma).
enum class Arch { AnyArch, Sm90a };

enum class RungId {
#define GEMMLAB_RUNG(ident, slug, description, arch, title, precision, change) ident,
#include "gemmlab/rungs.def"
#undef GEMMLAB_RUNG
};

struct RungInfo {
  RungId id;
  int number;  // 1-based position on the ladder
  std::string_view slug;
  std::string_view title;
  Precision precision;
  Arch arch;
  std::string_view change;  // one line: what this rung changes from the rung before
};

// Every rung, in ladder order.
std::span<const RungInfo> rungs();

const RungInfo& rung_info(RungId id);
// By slug ("warptile") or ladder number ("9").
std::optional<RungId> find_rung(std::string_view slug_or_number);

}  // namespace gemmlab
