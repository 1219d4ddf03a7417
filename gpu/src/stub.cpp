// The GPU library of a build without a CUDA toolkit: every call says so.
#include "gemmlab/gpu/device.hpp"

namespace gemmlab::gpu {
namespace {
Error no_toolkit() { return Error{"no CUDA toolkit in this build (configure with nvcc on the PATH and GEMMLAB_CUDA=AUTO or ON)"}; }
}  // namespace

bool built_with_cuda() { return false; }
Result<std::vector<DeviceInfo>> list_devices() { return no_toolkit(); }
Result<SoftwareVersions> software_versions() { return no_toolkit(); }
Status launch_self_test(int) { return no_toolkit(); }

}  // namespace gemmlab::gpu
