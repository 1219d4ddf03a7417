// The instance list: every rung of the ladder has its default configuration compiled, every listed configuration is
// one the simulator accepts, and the queries the desktop app uses find them.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "gemmlab/gpu/device.hpp"
#include "gemmlab/gpu/instances.hpp"
#include "gemmlab/gpu/verify.hpp"
#include "gemmlab/sim/rung_model.hpp"

namespace gemmlab::gpu {
namespace {

TEST(GpuInstances, EveryDescribedRungHasItsDefaultCompiled) {
  for (const auto& rung : rungs()) {
    if (!sim::rung_model(rung.id).described) continue;
    const auto found = find_gpu_instance(rung.id, sim::rung_model(rung.id).defaults);
    ASSERT_TRUE(found.has_value()) << rung.slug << ": its default configuration is not in instances.def";
    EXPECT_TRUE(is_default_instance(gpu_instances()[*found]));
    EXPECT_EQ(instance_label(gpu_instances()[*found]), "default");
  }
}

TEST(GpuInstances, EveryInstanceIsAValidConfiguration) {
  for (const auto& instance : gpu_instances()) {
    // Odd in every dimension the rung's default takes - the sizes scripts/sanitize runs: any size; n and k multiples
    // of 8 (rungs 12 to 14); m and n multiples of 16 as well (wmma).
    const auto& defaults = sim::rung_model(instance.rung).defaults;
    sim::Problem odd{80, 48, 72, 1.0f, 0.0f};
    for (const sim::Problem p : {sim::Problem{67, 45, 33, 1.0f, 0.0f}, sim::Problem{67, 40, 72, 1.0f, 0.0f}})
      if (sim::validate(instance.rung, defaults, p)) {
        odd = p;
        break;
      }
    const auto valid = sim::validate(instance.rung, instance.config, odd);
    EXPECT_TRUE(valid) << rung_info(instance.rung).slug << " " << instance_label(instance) << ": "
                       << (valid ? "" : valid.error().message);
  }
}

TEST(GpuInstances, NoConfigurationIsListedTwice) {
  std::set<std::string> seen;
  for (const auto& instance : gpu_instances()) {
    const std::string key = std::string(rung_info(instance.rung).slug) + " " + instance_label(instance);
    EXPECT_TRUE(seen.insert(key).second) << key << " is listed twice";
  }
}

TEST(GpuInstances, LabelsNameTheKnobsThatDifferFromTheDefaults) {
  kernel::KernelConfig two_stages = sim::rung_model(RungId::CpAsync).defaults;
  two_stages.stages = 2;
  const auto found = find_gpu_instance(RungId::CpAsync, two_stages);
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(instance_label(gpu_instances()[*found]), "stages=2");
  EXPECT_FALSE(is_default_instance(gpu_instances()[*found]));
}

TEST(GpuInstances, AnUncompiledConfigurationIsNotFound) {
  kernel::KernelConfig odd = sim::rung_model(RungId::BlockTile2D).defaults;
  odd.bm = 96;
  EXPECT_FALSE(find_gpu_instance(RungId::BlockTile2D, odd).has_value());
}

TEST(GpuInstances, SelectionTakesDefaultsOrEverything) {
  const auto defaults = select_instances({}, false);
  ASSERT_TRUE(defaults) << defaults.error().message;
  for (const GpuInstance& i : *defaults) EXPECT_TRUE(is_default_instance(i));
  const auto all = select_instances({}, true);
  ASSERT_TRUE(all);
  EXPECT_EQ(all->size(), gpu_instances().size());
  const RungId one[] = {RungId::SmemTiling};
  const auto smem = select_instances(one, true);
  ASSERT_TRUE(smem);
  EXPECT_EQ(smem->size(), 3u);  // default, conflicting, conflicting + padding
  for (const GpuInstance& i : *smem) EXPECT_EQ(i.rung, RungId::SmemTiling);
}

TEST(GpuInstances, GivenConfigurationsAreSelectedAsGivenCompiledOrNot) {
  kernel::KernelConfig odd = sim::rung_model(RungId::BlockTile2D).defaults;
  odd.bm = 96;
  const GpuInstance given[] = {{RungId::BlockTile2D, odd}, {RungId::CpAsync, sim::rung_model(RungId::CpAsync).defaults}};
  const auto selected = select_instances({}, false, given);
  ASSERT_TRUE(selected);
  ASSERT_EQ(selected->size(), 2u);
  EXPECT_EQ((*selected)[0], given[0]);
  EXPECT_EQ((*selected)[1], given[1]);
  GpuInstance other = given[0];
  other.config.bk *= 2;
  EXPECT_FALSE((*selected)[0] == other);  // one knob apart
  EXPECT_FALSE((*selected)[0] == (GpuInstance{RungId::BlockTile1D, odd}));  // another rung
}

TEST(InputTypes, EachInstanceRunsOnTheTypesItsRungTakes) {
  const auto fp32 = select_instances(std::vector<RungId>{RungId::CpAsync}, false);
  const auto half = select_instances(std::vector<RungId>{RungId::MmaSwizzled}, false);
  ASSERT_TRUE(fp32 && half);
  EXPECT_EQ(inputs_for((*fp32)[0], {}), std::vector<kernel::InputType>{kernel::InputType::F32});
  EXPECT_EQ(inputs_for((*half)[0], {}), (std::vector<kernel::InputType>{kernel::InputType::F16, kernel::InputType::BF16}));
  const std::vector<kernel::InputType> bf16{kernel::InputType::BF16};
  EXPECT_EQ(inputs_for((*half)[0], bf16), bf16);
  std::vector<GpuInstance> both = *fp32;
  both.push_back((*half)[0]);
  const auto all = input_types_to_run(both, {});
  ASSERT_TRUE(all);
  EXPECT_EQ(*all, (std::vector<kernel::InputType>{kernel::InputType::F32, kernel::InputType::F16, kernel::InputType::BF16}));
}

TEST(InputTypes, AskingForATypeNoSelectedKernelTakesIsASentence) {
  const auto half = select_instances(std::vector<RungId>{RungId::MmaSwizzled}, false);
  ASSERT_TRUE(half);
  const std::vector<kernel::InputType> fp32{kernel::InputType::F32};
  const auto none = input_types_to_run(*half, fp32);
  ASSERT_FALSE(none);
  EXPECT_NE(none.error().message.find("mma-swizzled takes fp16/bf16"), std::string::npos) << none.error().message;
  // verify and the benchmark say so before they look for a GPU, so every machine gives the same answer.
  VerifyOptions options;
  options.rungs = {RungId::MmaSwizzled};
  options.inputs = fp32;
  const auto report = verify(options);
  ASSERT_FALSE(report);
  if (built_with_cuda()) {  // the stub build says "no CUDA toolkit" first
    EXPECT_NE(report.error().message.find("takes fp16/bf16"), std::string::npos) << report.error().message;
  }
}

}  // namespace
}  // namespace gemmlab::gpu
