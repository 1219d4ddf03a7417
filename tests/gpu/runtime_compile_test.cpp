// Run-time compilation without a GPU: the source and command it builds, where it caches, and, where this machine
// has the build's nvcc, a real compile, the cache, and the sentences of a missing or failing compiler.
#include "gemmlab/gpu/runtime_compile.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "gemmlab/kernel/rungs/tma_wgmma_multicast.hpp"
#include "gemmlab/sim/rung_model.hpp"

namespace gemmlab::gpu {
namespace {

namespace fs = std::filesystem;

bool contains(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

// Sets an environment variable for one test and restores it after.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (old_) setenv(name_, old_->c_str(), 1);
    else unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

GpuInstance uncompiled_warptile() {
  kernel::KernelConfig c = sim::rung_model(RungId::WarpTile).defaults;
  c.bm = 64;  // not in instances.def
  return {RungId::WarpTile, c};
}

TEST(RuntimeCompile, TheArchitectureIsTheDevicesAndHoppersOwnForTmaRungs) {
  EXPECT_EQ(runtime_arch(RungId::WarpTile, "9.0"), "sm_90");
  EXPECT_EQ(runtime_arch(RungId::TmaWgmma, "9.0"), "sm_90a");
  EXPECT_EQ(runtime_arch(RungId::MmaMultistage, "8.9"), "sm_89");
}

TEST(RuntimeCompile, TheSourceRunsTheConfigurationThroughTheBuildsKernelHeader) {
  const GpuInstance k = uncompiled_warptile();
  const std::string source = runtime_kernel_source({k, kernel::InputType::F32, true, "sm_90"});
  EXPECT_TRUE(contains(source, "#include \"rung_block.cuh\""));
  EXPECT_TRUE(contains(source, "extern \"C\" __global__ void gemmlab_runtime_kernel("));
  EXPECT_TRUE(contains(source, "KernelOf<gemmlab::RungId::WarpTile>::type, Config, float, true>"));
  EXPECT_TRUE(contains(source, "FixedConfig<64, " + std::to_string(k.config.bn) + ", "));
  const std::string half = runtime_kernel_source(
      {{RungId::MmaMultistage, sim::rung_model(RungId::MmaMultistage).defaults}, kernel::InputType::BF16, false, "sm_90"});
  EXPECT_TRUE(contains(half, "__nv_bfloat16, false>"));
}

TEST(RuntimeCompile, ATracedSourceCompilesInHowManyTilesItStamps) {
  const GpuInstance k{RungId::TmaWgmmaStreamK, sim::rung_model(RungId::TmaWgmmaStreamK).defaults};
  const std::string one = runtime_kernel_source({k, kernel::InputType::BF16, true, "sm_90a", true, 1});
  EXPECT_TRUE(contains(one, "Config, __nv_bfloat16, true, true, 1>(p);"));
  EXPECT_TRUE(contains(one, ", traced,"));
  const std::string every = runtime_kernel_source({k, kernel::InputType::BF16, true, "sm_90a", true, 0});
  EXPECT_TRUE(contains(every, "Config, __nv_bfloat16, true, true, 0>(p);"));
  const std::string untraced = runtime_kernel_source({k, kernel::InputType::BF16, true, "sm_90a"});
  EXPECT_TRUE(contains(untraced, "Config, __nv_bfloat16, true>(p);"));
  EXPECT_FALSE(contains(untraced, "traced"));
}

TEST(RuntimeCompile, TheCommandIsTheBuildsFlagsForDeviceCodeOnly) {
  const auto args = runtime_compile_command({uncompiled_warptile(), kernel::InputType::F32, true, "sm_90"}, "in.cu", "out.cubin");
  for (const std::string flag : {"-cubin", "-arch=sm_90", "-std=c++20", "-O3", "-DNDEBUG", "-lineinfo", "--resource-usage"})
    EXPECT_NE(std::ranges::find(args, flag), args.end()) << flag;
  EXPECT_EQ(args.back(), "in.cu");
}

TEST(RuntimeCompile, AMovedSourceTreeIsFoundThroughTheEnvironment) {
  const ScopedEnv moved("GEMMLAB_SOURCE_DIR", "/elsewhere/gemmlab");
  const auto args = runtime_compile_command({uncompiled_warptile(), kernel::InputType::F32, true, "sm_90"}, "a.cu", "a.cubin");
  for (const std::string dir : {"-I/elsewhere/gemmlab/gpu/src", "-I/elsewhere/gemmlab/gpu/include",
                                "-I/elsewhere/gemmlab/sim/include"})
    EXPECT_NE(std::ranges::find(args, dir), args.end()) << dir;
  const auto available = runtime_compiler_available();
  ASSERT_FALSE(available);  // no headers there (or no CUDA in this build)
  EXPECT_TRUE(contains(available.error().message, "GEMMLAB_SOURCE_DIR") ||
              contains(available.error().message, "no CUDA toolkit"))
      << available.error().message;
}

TEST(RuntimeCompile, TheCacheIsWhereTheEnvironmentSays) {
  {
    const ScopedEnv cache("GEMMLAB_KERNEL_CACHE", "/tmp/somewhere");
    EXPECT_EQ(runtime_kernel_cache_dir(), fs::path("/tmp/somewhere"));
  }
  const ScopedEnv unset("GEMMLAB_KERNEL_CACHE", "");
  const ScopedEnv xdg("XDG_CACHE_HOME", "/tmp/xdg");
  EXPECT_EQ(runtime_kernel_cache_dir(), fs::path("/tmp/xdg/gemmlab/kernels"));
}

TEST(RuntimeCompile, CompilesOnceThenFindsItInTheCache) {
  if (auto ok = runtime_compiler_available(); !ok) GTEST_SKIP() << ok.error().message;
  const fs::path dir = fs::temp_directory_path() / ("gemmlab-kernel-cache-test-" + std::to_string(::getpid()));
  const ScopedEnv cache("GEMMLAB_KERNEL_CACHE", dir.string());
  const RuntimeKernelRequest request{uncompiled_warptile(), kernel::InputType::F32, true, "sm_90"};
  const auto first = compile_runtime_kernel(request);
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_FALSE(first->from_cache);
  EXPECT_TRUE(fs::exists(first->cubin));
  EXPECT_GT(first->registers, 32);  // ptxas's report was read
  EXPECT_GT(first->compile_seconds, 0.0);
  const auto again = compile_runtime_kernel(request);
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_TRUE(again->from_cache);
  EXPECT_EQ(again->cubin, first->cubin);
  EXPECT_EQ(again->registers, first->registers);
  // Another configuration is another key; the files left are the cubin and its log per key, no temporaries.
  RuntimeKernelRequest other = request;
  other.kernel.config.stages = 2;
  const auto second = compile_runtime_kernel(other);
  ASSERT_TRUE(second) << second.error().message;
  EXPECT_NE(second->key, first->key);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator{}), 4);
  fs::remove_all(dir);
}

// A configuration that moves registers carries its launch bound into the run-time source, so ptxas allocates the
// count setmaxnreg starts from (168 for 384 threads), not its own choice.
TEST(RuntimeCompile, ASetmaxnregConfigurationIsCompiledWithItsLaunchBound) {
  if (auto ok = runtime_compiler_available(); !ok) GTEST_SKIP() << ok.error().message;
  kernel::KernelConfig c = sim::rung_model(RungId::TmaWgmmaMulticast).defaults;
  c.setmaxnreg = 1;  // not in the build's instance list
  const GpuInstance k{RungId::TmaWgmmaMulticast, c};
  ASSERT_FALSE(find_gpu_instance(k.rung, k.config));
  const RuntimeKernelRequest request{k, kernel::InputType::BF16, true, "sm_90a"};
  EXPECT_TRUE(contains(runtime_kernel_source(request), "__launch_bounds__(384, 1) gemmlab_runtime_kernel("));
  const fs::path dir = fs::temp_directory_path() / ("gemmlab-kernel-cache-bound-" + std::to_string(::getpid()));
  const ScopedEnv cache("GEMMLAB_KERNEL_CACHE", dir.string());
  const auto compiled = compile_runtime_kernel(request);
  ASSERT_TRUE(compiled) << compiled.error().message;
  EXPECT_EQ(compiled->registers, kernel::rungs::TmaWgmmaMulticast::register_moves(c).launch);
  fs::remove_all(dir);
}

TEST(RuntimeCompile, ACompiledKernelsSassIsReadIntoRegions) {
  if (auto ok = runtime_compiler_available(); !ok) GTEST_SKIP() << ok.error().message;
  const fs::path dir = fs::temp_directory_path() / ("gemmlab-kernel-sass-test-" + std::to_string(::getpid()));
  const ScopedEnv cache("GEMMLAB_KERNEL_CACHE", dir.string());
  const auto compiled = compile_runtime_kernel({uncompiled_warptile(), kernel::InputType::F32, true, "sm_90"});
  ASSERT_TRUE(compiled) << compiled.error().message;
  const auto code = runtime_kernel_code(*compiled);
  if (!code && contains(code.error().message, "no cuobjdump")) GTEST_SKIP() << code.error().message;
  ASSERT_TRUE(code) << code.error().message;
  int ffma = 0;
  for (const auto& region : code->regions) ffma += region.anchors[static_cast<std::size_t>(sim::SassAnchor::Ffma)];
  EXPECT_GE(code->regions.size(), 2u);  // the k-loop at least
  EXPECT_GT(ffma, 0);
  EXPECT_FALSE(code->estimated);
  EXPECT_TRUE(fs::exists(compiled->cubin.string() + ".regions-v2.json"));  // kept: the next call reads it
  const auto again = runtime_kernel_code(*compiled);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->regions.size(), code->regions.size());
  fs::remove_all(dir);
}

TEST(RuntimeCompile, AMissingOrFailingCompilerIsASentence) {
  if (auto ok = runtime_compiler_available(); !ok) {
    EXPECT_TRUE(contains(ok.error().message, "cannot compile kernels at run time")) << ok.error().message;
    return;  // a build without CUDA says so, and that is what there is to check here
  }
  const fs::path dir = fs::temp_directory_path() / ("gemmlab-kernel-cache-fail-" + std::to_string(::getpid()));
  const ScopedEnv cache("GEMMLAB_KERNEL_CACHE", dir.string());
  const RuntimeKernelRequest request{uncompiled_warptile(), kernel::InputType::F32, true, "sm_90"};
  {
    const ScopedEnv nvcc("GEMMLAB_NVCC", "/nonexistent/nvcc");
    const auto r = compile_runtime_kernel(request);
    ASSERT_FALSE(r);
    EXPECT_TRUE(contains(r.error().message, "needs nvcc, which is not at /nonexistent/nvcc")) << r.error().message;
  }
  {
    const ScopedEnv nvcc("GEMMLAB_NVCC", "/bin/false");
    const auto r = compile_runtime_kernel(request);
    ASSERT_FALSE(r);
    EXPECT_TRUE(contains(r.error().message, "nvcc could not compile warptile (bm=64)")) << r.error().message;
    EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator{}), 0);  // nothing half-written kept
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace gemmlab::gpu
