#pragma once
// Autotuner studies on show in the tuning-study tab: the one recorded on the H100 for each rung with three knobs or
// more (assets/tuning/h100/<slug>.json, written by `gemmlab-cli tune --json`), or one run here.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "gemmlab/gpu/tune.hpp"
#include "gemmlab/result.hpp"
#include "gemmlab/rungs.hpp"

namespace gemmlab::desktop {

struct ShownStudy {
  gpu::TuneReport report;
  std::string source;  // "recorded on the ... (assets/tuning/h100/warptile.json)", "measured now on the ..."
  // A recorded study's measurements are predicted again by today's model when it is shown; the Spearman it had when
  // recorded (absent for a study measured now, or when it could not be predicted again: rescore_error says why).
  std::optional<double> recorded_spearman;
  std::string rescore_error;
};

// The recorded study of `rung` in the data folders, its measurements predicted again by today's model on `profile`
// (gpu::repredict_tune, as tune --rescore does); an error says there is none (and where it was looked for) or why it
// could not be read.
Result<ShownStudy> load_recorded_study(const std::vector<std::filesystem::path>& roots, RungId rung,
                                       const sim::DeviceProfile& profile);

}  // namespace gemmlab::desktop
