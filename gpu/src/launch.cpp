// From an instance of the instance list to the launch function its rung's file compiled (gpu/kernels/<slug>.cu).
#include <iterator>

#include "gemmlab/gpu/instances.hpp"
#include "launch.hpp"

namespace gemmlab::gpu {
namespace {

constexpr bool has_instances(RungId rung) {
  for (const auto& instance : kGpuInstances)
    if (instance.rung == rung) return true;
  return false;
}

// Only rungs with instances refer to launcher_for<Rung>, so a rung without a GPU file links as long as the instance
// list has no line for it; a line without a file is a link error naming the rung.
template <RungId Rung>
LaunchFn launcher_of_rung(std::size_t index) {
  if constexpr (has_instances(Rung)) return launcher_for<Rung>(index);
  else return nullptr;
}

}  // namespace

LaunchFn launcher(std::size_t index) {
  if (index >= std::size(kGpuInstances)) return nullptr;
  switch (kGpuInstances[index].rung) {
#define GEMMLAB_RUNG(ident, slug, title, precision, change) \
  case RungId::ident: return launcher_of_rung<RungId::ident>(index);
#include "gemmlab/rungs.def"
#undef GEMMLAB_RUNG
  }
  return nullptr;
}

}  // namespace gemmlab::gpu
