// The autotuner on a GPU (label "gpu"): the picked configurations compiled where the build lacks them, timed beside
// cuBLAS, and with several workers (TuneOptions::devices) dealt out among them, each row saying which GPU timed it.
// Speed itself is not asserted (it belongs to `gemmlab-cli tune`'s studies).
#include <gtest/gtest.h>

#include "gemmlab/gpu/tune.hpp"
#include "gemmlab/sim/device_profile.hpp"

namespace gemmlab::gpu {
namespace {

// Two workers on GPU 0 (the test machine may have one GPU): the configurations are dealt out to both, every one is
// timed once, and the study scores them as one.
TEST(TuneOnGpu, TwoWorkersTimeEveryPickedConfigurationOnce) {
  TuneOptions o;
  o.rung = RungId::BlockTile2D;
  o.shape = {512, 512, 512};
  o.profile = *sim::find_device("h100");
  o.budget = 4, o.top = 2, o.runs = 3;
  o.devices = {0, 0};
  const auto r = run_tune(o);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->measured.size(), 4u);
  for (const TuneMeasurement& m : r->measured) {
    ASSERT_TRUE(m.compile_error.empty()) << m.compile_error;
    ASSERT_TRUE(m.row);
    EXPECT_EQ(m.row->status, BenchStatus::Timed) << m.row->message;
    EXPECT_EQ(m.device, 0);
    EXPECT_GT(m.row->ratio_to_cublas, 0.0);
  }
  EXPECT_TRUE(r->cublas);
  EXPECT_EQ(r->timed, 4);
  EXPECT_TRUE(r->best);

  o.devices = {0, 99};
  const auto missing = run_tune(o);
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("no CUDA device 99"), std::string::npos) << missing.error().message;
}

}  // namespace
}  // namespace gemmlab::gpu
