// The scripted press of the benchmark panel's Run button (gemmlab --live-benchmark): what it refuses before a
// window opens, and what it says where there is no GPU. The run itself needs a GPU:
// tests/app/desktop_live_bench_test.sh.
#include "model/live_bench_script.hpp"

#include <gtest/gtest.h>

namespace gemmlab::desktop {
namespace {

TEST(LiveBenchScript, RefusesSizesThePanelWouldRefuse) {
  for (const char* bad : {"", "12x", "0", "1024,", "4x4"}) {
    const auto script = LiveBenchScript::create(bad, 0.0);
    ASSERT_FALSE(script) << bad;
    EXPECT_NE(script.error().message.find("--live-benchmark"), std::string::npos) << script.error().message;
  }
  EXPECT_TRUE(LiveBenchScript::create("256,1024x512x64", 1.5));
}

TEST(LiveBenchScript, WithoutAGpuItSaysWhyAndStartsNothing) {
  AppModel::Options options;
  options.settings.m = options.settings.n = options.settings.k = 256;
  AppModel model(std::move(options));
  if (model.gpu_available()) GTEST_SKIP() << "this machine has a GPU: the run is tests/app/desktop_live_bench_test.sh";
  auto script = LiveBenchScript::create("256", 0.0);
  ASSERT_TRUE(script);
  const auto stepped = script->step(model, 0.016);
  ASSERT_FALSE(stepped);
  EXPECT_NE(stepped.error().message.find(model.gpu_status()), std::string::npos) << stepped.error().message;
  EXPECT_FALSE(model.benchmark().running());
  EXPECT_FALSE(script->finished());
}

}  // namespace
}  // namespace gemmlab::desktop
