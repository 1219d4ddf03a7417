#pragma once
// One configuration struct for every rung: tile sizes, padding, swizzle, stages. Each rung reads the fields it
// needs and says which ones those are (sim/rung_registry). The simulator uses KernelConfig with run-time values;
// the GPU compiles FixedConfig instantiations whose members are compile-time constants, so loops over them unroll
// and per-thread arrays live in registers. Both have the same member names, so a rung's code reads `c.bm` either way.
namespace gemmlab::kernel {

struct KernelConfig {
  int bm = 32, bn = 32, bk = 32;  // the block's C tile (bm x bn) and the k-step depth
  int tm = 1, tn = 1;             // results per thread (rows x columns)
  int wm = 0, wn = 0;             // the warp's tile (warp-tiling rungs)
  int a_pad = 0, b_pad = 0;       // elements of padding added to each shared-memory row of A and B
  int swizzle = 0;                // 1: XOR-swizzle the shared layout instead of padding it
  int conflicting = 0;            // 1: the layout that shows bank conflicts (smem-tiling's teaching toggle)
  int stages = 1;                 // shared-memory buffers in flight (double buffering: 2; cp.async: 2-4)

  // Upper bounds for the simulator's per-thread arrays; validate() keeps every configuration inside them.
  static constexpr int max_tm = 16, max_tn = 16;
  static constexpr int max_wm = 128, max_wn = 128;  // a warp's tile on the tensor-core rungs (its fragments)
  static constexpr int max_loads = 64;  // per-thread staging registers for one tile of A or B
};

template <int BM, int BN, int BK, int TM = 1, int TN = 1, int WM = 0, int WN = 0, int APad = 0, int BPad = 0,
          int Swizzle = 0, int Conflicting = 0, int Stages = 1>
struct FixedConfig {
  static constexpr int bm = BM, bn = BN, bk = BK, tm = TM, tn = TN, wm = WM, wn = WN, a_pad = APad, b_pad = BPad,
                       swizzle = Swizzle, conflicting = Conflicting, stages = Stages;
  static constexpr int max_tm = TM, max_tn = TN;
  static constexpr int max_wm = WM, max_wn = WN;
  static constexpr int max_loads = (BM * BK > BK * BN ? BM * BK : BK * BN);  // refined by each rung's State
};

}  // namespace gemmlab::kernel
