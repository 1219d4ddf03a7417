#pragma once
// One configuration struct for every rung: tile sizes, padding, swizzle, stages. Each rung reads the fields it
// needs and says which ones those are (sim/rung_registry). The simulator uses KernelConfig with run-time values;
// the GPU compiles FixedConfig instantiations whose members are compile-time constants, so loops over them unroll
// and per-thread arrays live in registers. Both have the same member names, so a rung's code reads `c.bm` either way.
#include <optional>
#include <span>
#include <string_view>

namespace gemmlab::kernel {

// A rung's own meaning of a knob (its description's `knob_choices`, host only): the values it takes there and what
// they mean. The Hopper rung's `swizzle` is TMA's swizzle mode in bytes, where the earlier rungs' is on or off.
struct KnobChoice {
  std::string_view name;
  std::span<const int> values;
  std::string_view help;
};

struct KernelConfig {
  int bm = 32, bn = 32, bk = 32;  // the block's C tile (bm x bn) and the k-step depth
  int tm = 1, tn = 1;             // results per thread (rows x columns)
  int wm = 0, wn = 0;             // the warp's tile (warp-tiling rungs)
  int a_pad = 0, b_pad = 0;       // elements of padding added to each shared-memory row of A and B
  int swizzle = 0;                // 1: XOR-swizzle the shared layout instead of padding it (tma-wgmma: TMA's
                                  // swizzle mode in bytes, 32 or 64; 0 is its 128-byte mode)
  int conflicting = 0;            // 1: the layout that shows bank conflicts (smem-tiling's teaching toggle)
  int stages = 1;                 // shared-memory buffers in flight (double buffering: 2; cp.async: 2-4)
  int cluster = 1;                // blocks per thread-block cluster, along M (the TMA multicast rung: 2)
  int grid = 0;                   // persistent rungs: blocks launched, each walking the tiles launch, launch + grid,
                                  // ... of the launch order (0: one block per tile)
  int setmaxnreg = 0;             // warp-specialised rungs: 1 makes the producer a warpgroup that gives its registers
                                  // to the consumers (setmaxnreg); 0 is one producer warp and ptxas's registers
  int tma_store = 0;              // rung 20 (persistent): 1 stores C through shared memory with TMA stores that
                                  // run on while the next tile's wgmma start; 0 stores from the registers

  // Upper bounds for the simulator's per-thread arrays; validate() keeps every configuration inside them.
  static constexpr int max_tm = 16, max_tn = 16;
  static constexpr int max_wm = 128, max_wn = 128;  // a warp's tile on the tensor-core rungs (its fragments)
  static constexpr int max_loads = 64;  // per-thread staging registers for one tile of A or B
};

// Knobs to change in a configuration, by name: `with_overrides(K::defaults(), {.a_pad = 8, .b_pad = 8})`. The
// instance list writes its alternates this way (gpu/include/gemmlab/gpu/instances.def).
struct KnobOverrides {
  std::optional<int> bm{}, bn{}, bk{}, tm{}, tn{}, wm{}, wn{}, a_pad{}, b_pad{}, swizzle{}, conflicting{}, stages{},
      cluster{}, grid{}, setmaxnreg{}, tma_store{};
};

constexpr KernelConfig with_overrides(KernelConfig c, const KnobOverrides& o) {
  c.bm = o.bm.value_or(c.bm), c.bn = o.bn.value_or(c.bn), c.bk = o.bk.value_or(c.bk);
  c.tm = o.tm.value_or(c.tm), c.tn = o.tn.value_or(c.tn), c.wm = o.wm.value_or(c.wm), c.wn = o.wn.value_or(c.wn);
  c.a_pad = o.a_pad.value_or(c.a_pad), c.b_pad = o.b_pad.value_or(c.b_pad), c.swizzle = o.swizzle.value_or(c.swizzle);
  c.conflicting = o.conflicting.value_or(c.conflicting), c.stages = o.stages.value_or(c.stages);
  c.cluster = o.cluster.value_or(c.cluster), c.grid = o.grid.value_or(c.grid);
  c.setmaxnreg = o.setmaxnreg.value_or(c.setmaxnreg), c.tma_store = o.tma_store.value_or(c.tma_store);
  return c;
}

template <int BM, int BN, int BK, int TM = 1, int TN = 1, int WM = 0, int WN = 0, int APad = 0, int BPad = 0,
          int Swizzle = 0, int Conflicting = 0, int Stages = 1, int Cluster = 1, int Grid = 0, int SetMaxNReg = 0,
          int TmaStore = 0>
struct FixedConfig {
  static constexpr int bm = BM, bn = BN, bk = BK, tm = TM, tn = TN, wm = WM, wn = WN, a_pad = APad, b_pad = BPad,
                       swizzle = Swizzle, conflicting = Conflicting, stages = Stages,
                       cluster = Cluster, grid = Grid, setmaxnreg = SetMaxNReg, tma_store = TmaStore;
  static constexpr int max_tm = TM, max_tn = TN;
  static constexpr int max_wm = WM, max_wn = WN;
  static constexpr int max_loads = (BM * BK > BK * BN ? BM * BK : BK * BN);  // refined by each rung's State
};

}  // namespace gemmlab::kernel
