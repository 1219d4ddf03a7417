#pragma once
// The sector-exact L2 simulation: the test oracle of the fast model (l2_model.hpp). It replays the rung's real
// instruction stream - every global load, store and cp.async of every warp of every block - in the same waves, the
// blocks of a wave taking turns phase by phase, through an LRU cache of individual 32-byte sectors. Within one block
// and phase each sector is read once (as in the fast model). Slow: for problems up to kMaxExactDimension.
#include <memory>

#include "gemmlab/sim/l2_model.hpp"

namespace gemmlab::sim {

inline constexpr int kMaxExactDimension = 1024;

// Records every block's global sectors once, then replays them for any launch order, wave size and L2 size.
class ExactL2Replay {
 public:
  static Result<ExactL2Replay> record(RungId rung, const kernel::KernelConfig& config, const Problem& problem);
  ExactL2Replay(ExactL2Replay&&) noexcept;
  ExactL2Replay& operator=(ExactL2Replay&&) noexcept;
  ~ExactL2Replay();

  Result<L2Result> run(const L2Options& options) const;

  struct Trace;

 private:
  explicit ExactL2Replay(std::unique_ptr<Trace> trace);
  std::unique_ptr<Trace> trace_;
};

// record() then run(): for one launch order and L2.
Result<L2Result> simulate_l2_exact(RungId rung, const kernel::KernelConfig& config, const Problem& problem,
                                   const L2Options& options);

}  // namespace gemmlab::sim
