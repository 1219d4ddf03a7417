#pragma once
// From a run-time RungId to the rung's kernel description type, expanded from the rung list: a rung without a
// description yet gives an error value instead.
#include <string>

#include "gemmlab/kernel/rung_kernels.hpp"
#include "gemmlab/result.hpp"
#include "gemmlab/rungs.hpp"

namespace gemmlab::sim {

template <RungId Id>
concept Described = requires { typename kernel::KernelOf<Id>::type; };

template <RungId Id, class R, class F>
R call_with_kernel(F& f) {
  if constexpr (Described<Id>)
    return f.template operator()<typename kernel::KernelOf<Id>::type>();
  else
    return Error{"rung " + std::string(rung_info(Id).slug) + " has no kernel description yet"};
}

// Calls f.template operator()<Kernel>() for the rung's kernel; returns what it returns (a Result).
template <class R, class F>
R with_kernel(RungId id, F&& f) {
  switch (id) {
#define GEMMLAB_RUNG(ident, slug, description, arch, title, precision, change) \
  case RungId::ident: return call_with_kernel<RungId::ident, R>(f);
#include "gemmlab/rungs.def"
#undef GEMMLAB_RUNG
  }
  return Error{"unknown rung id"};
}

}  // namespace gemmlab::sim
