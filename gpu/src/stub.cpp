// The GPU library of a build without a CUDA toolkit: every call that needs the device says so. The instance list,
// the shape and order parsing and the report formats (instances.cpp, shapes.cpp, selection.cpp, bench_io.cpp) are
// plain C++ and work here too.
#include "gemmlab/gpu/bench.hpp"
#include "gemmlab/gpu/cublas_choice.hpp"
#include "gemmlab/gpu/device.hpp"
#include "gemmlab/gpu/runtime_compile.hpp"
#include "gemmlab/gpu/trace.hpp"
#include "gemmlab/gpu/verify.hpp"
#include "recorded_kernels.hpp"

namespace gemmlab::gpu {
namespace {
Error no_toolkit() { return Error{"no CUDA toolkit in this build (configure with nvcc on the PATH and GEMMLAB_CUDA=AUTO or ON)"}; }
}  // namespace

bool built_with_cuda() { return false; }
std::span<const RecordedKernel> recorded_kernels() { return {}; }  // no kernels compiled, nothing recorded
Result<std::vector<DeviceInfo>> list_devices() { return no_toolkit(); }
Result<SoftwareVersions> software_versions() { return no_toolkit(); }
Status launch_self_test(int) { return no_toolkit(); }
Result<RuntimeCompiled> prepare_runtime_kernel(const GpuInstance&, KernelVariant, int) { return no_toolkit(); }
Result<VerifyReport> verify(const VerifyOptions&, const VerifyProgress&, const std::atomic<bool>*) { return no_toolkit(); }
Result<TraceRun> trace_kernel(const TraceOptions&) { return no_toolkit(); }
Result<CublasChoice> cublas_choice(const Shape&, kernel::InputType, int) { return no_toolkit(); }
Result<BenchReport> run_bench(const BenchOptions&, const std::function<void(const BenchProgress&)>&,
                              const std::atomic<bool>*) {
  return no_toolkit();
}

}  // namespace gemmlab::gpu
