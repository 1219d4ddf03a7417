#pragma once
// Autotuner studies on show in the tuning-study tab: the one recorded on the H100 for each rung with three knobs or
// more (assets/tuning/h100/<slug>.json, written by `gemmlab-cli tune --json`), or one run here.
#include <filesystem>
#include <string>
#include <vector>

#include "gemmlab/gpu/tune.hpp"
#include "gemmlab/result.hpp"
#include "gemmlab/rungs.hpp"

namespace gemmlab::desktop {

struct ShownStudy {
  gpu::TuneReport report;
  std::string source;  // "recorded on the ... (assets/tuning/h100/warptile.json)", "measured now on the ..."
};

// The recorded study of `rung` in the data folders; an error says there is none (and where it was looked for) or why
// it could not be read.
Result<ShownStudy> load_recorded_study(const std::vector<std::filesystem::path>& roots, RungId rung);

}  // namespace gemmlab::desktop
