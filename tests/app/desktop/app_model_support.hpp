#pragma once
// What the tests of the app's models share: an AppModel at a small size (every test replays blocks many times), one
// that finds the recorded data in the source tree, and waiting for its jobs.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <utility>

#include "model/app_model.hpp"

namespace gemmlab::desktop::test_support {

inline AppModel::Options options(Settings settings = {}) {
  AppModel::Options o;
  o.settings = std::move(settings);
  o.settings.m = o.settings.n = o.settings.k = 256;  // small: every test replays blocks many times
  return o;
}

inline void settle(AppModel& model) { ASSERT_TRUE(model.wait_until_idle(std::chrono::seconds(30))); }

// A model on `rung` that finds the recorded data (docs/, assets/) in the source tree.
inline AppModel model_with_recorded_data(const std::string& rung) {
  Settings s;
  s.rung = rung;
  auto o = options(s);
  o.data_roots = {GEMMLAB_SOURCE_DIR};
  return AppModel(std::move(o));
}

}  // namespace gemmlab::desktop::test_support
