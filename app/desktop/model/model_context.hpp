#pragma once
// What the feature models (the stepper, the launch-order comparison, the predictions, the benchmark, tuning) share,
// all of it owned by AppModel: the selection they read, the jobs they run on workers, the message log they add to, the
// device they predict for and the folders the recorded data is found in. A feature model keeps a copy of this (its
// references), so AppModel must outlive it, and AppModel's JobRunner, destroyed first, must outlive every job whose
// completion refers to a feature model.
#include <filesystem>
#include <vector>

#include "gemmlab/sim/device_profile.hpp"
#include "model/job_runner.hpp"
#include "model/messages.hpp"
#include "model/selection.hpp"

namespace gemmlab::desktop {

struct ModelContext {
  const Selection& selection;
  JobRunner& jobs;
  MessageLog& messages;
  const sim::DeviceProfile* device;  // the H100 profile; null when it could not be loaded (no predictions then)
  const std::vector<std::filesystem::path>& data_roots;
};

}  // namespace gemmlab::desktop
