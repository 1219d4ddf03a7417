// The sweep on a GPU (label "gpu"): every shape and rung timed beside cuBLAS on the GPU named, and cuBLAS decoded
// on each shape. Speed itself is not asserted (it belongs to `gemmlab-cli sweep`'s reports).
#include <gtest/gtest.h>

#include "gemmlab/gpu/instances.hpp"
#include "gemmlab/gpu/sweep.hpp"
#include "gemmlab/sim/device_profile.hpp"
#include "gemmlab/sim/launch_order.hpp"

namespace gemmlab::gpu {
namespace {

// A sweep of `rung` at `shapes` on the first GPU, 3 runs a configuration, the model on the H100's profile.
SweepOptions gpu_sweep(std::string_view shapes, RungId rung) {
  SweepOptions o;
  o.shapes = *parse_sweep_shapes(shapes);
  o.rungs = {rung};
  o.profile = *sim::find_device("h100");
  o.runs = 3;
  return o;
}

TEST(SweepOnGpu, TimesEveryEntryBesideCublasAndDecodesCublas) {
  const auto r = run_sweep(gpu_sweep("16x512x1024,256x256x64", RungId::MmaStagedEpilogue));
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->entries.size(), 2u);
  ASSERT_EQ(r->bench.size(), 1u);
  for (const SweepEntry& e : r->entries) {
    ASSERT_TRUE(e.measured);
    EXPECT_EQ(e.measured->status, BenchStatus::Timed) << e.measured->message;
    EXPECT_GT(e.measured->ratio_to_cublas, 0.0);
    EXPECT_EQ(e.device, 0);
  }
  for (std::size_t s = 0; s < 2; ++s) {
    EXPECT_TRUE(r->cublas[s]);
    EXPECT_TRUE(r->cublas_decoded[s]) << r->cublas_decode_notes[s];
  }
}

// --tuned: the model's pick beside the default, compiled at run time where the build lacks it, each timed as its own
// configuration (the row that measured it is that configuration's, not the default's).
TEST(SweepOnGpu, TunedConfigurationsAreCompiledAndTimedAsThemselves) {
  SweepOptions o = gpu_sweep("128x1024x2048", RungId::TmaWgmmaSplitK);
  o.tuned = 1;
  const auto r = run_sweep(o);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->entries.size(), 2u);
  for (const SweepEntry& e : r->entries) {
    ASSERT_TRUE(e.refused.empty()) << e.refused;
    ASSERT_TRUE(e.measured);
    EXPECT_EQ(e.measured->status, BenchStatus::Timed) << e.measured->message;
    ASSERT_TRUE(e.measured->kernel);
    EXPECT_TRUE(same_config(e.measured->kernel->config, e.config)) << instance_label({e.rung, e.config});
  }
}

// Two orders: each entry timed, its row its own configuration's (which order's run a row came from, the report does
// not say: the rows carry no order).
TEST(SweepOnGpu, TimesEachConfigurationInEachOrder) {
  SweepOptions o = gpu_sweep("1024x1024x512", RungId::TmaWgmmaPersistent);
  ASSERT_TRUE(set_sweep_order(o, "row,col"));
  const auto r = run_sweep(o);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->entries.size(), 2u);
  EXPECT_EQ(sim::order_name(r->entries[0].order), "row");
  EXPECT_EQ(sim::order_name(r->entries[1].order), "col");
  for (const SweepEntry& e : r->entries) {
    ASSERT_TRUE(e.measured);
    EXPECT_EQ(e.measured->status, BenchStatus::Timed) << e.measured->message;
    ASSERT_TRUE(e.measured->kernel);
    EXPECT_TRUE(same_config(e.measured->kernel->config, e.config)) << instance_label({e.rung, e.config});
  }
}

}  // namespace
}  // namespace gemmlab::gpu
