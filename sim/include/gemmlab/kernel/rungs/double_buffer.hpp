#pragma once
// Rung 7: double buffering with a register prefetch.
//
// What changed from rung 6 (vectorized). The loads, the shared layouts and the multiply are rung 6's, unchanged;
// what changes is WHEN the loads happen. In rung 6 each k-step is two phases separated by barriers: load the tiles
// (every warp waits for global memory, hundreds of cycles, with nothing to compute), then multiply them (no load in
// flight). The FMA units idle during the first phase and the memory system during the second.
//
// Here shared memory holds TWO buffers (each one A tile and one B tile). The prologue loads tile 0 into buffer 0.
// Then k-step t is a single phase:
//
//   (a) issue the global loads of tile t + 1 into registers (predicated off after the last tile);
//   (b) multiply tile t from buffer t % 2 - the loads of (a) are in flight meanwhile, the FMAs hide their latency;
//   (c) store the registers into buffer (t + 1) % 2, the one nobody reads during this k-step;
//
// followed by ONE barrier, after which buffer (t + 1) % 2 is complete for k-step t + 1 and buffer t % 2 is free to be
// overwritten. Rung 6 needed two barriers per k-step: one before the multiply (the tile must be in) and one after it
// (nobody may overwrite the tile still being read). With two buffers the second one is no longer needed, because
// the stores of (c) go to the other buffer.
//
// The cost: twice the shared memory (2 x 8 KiB at the defaults), and the registers that carry the next tile across
// the multiply (a_loads + b_loads float4s per thread: 2, i.e. 8 floats, at the defaults).
//
// What is left for the next rung. The data still travels global -> registers -> shared, so every float costs a
// load and a store instruction and a register; cp.async copies global to shared directly, and lets the pipeline be
// more than two tiles deep.
//
// The number of stages is fixed at 2 (kStages): the model's `stages` knob is not exposed for this rung.
#include <string>
#include <string_view>
#include "gemmlab/result.hpp"
#include "gemmlab/kernel/config.hpp"
#include "gemmlab/kernel/context.hpp"
#include "gemmlab/kernel/rungs/vectorized.hpp"
#include "gemmlab/kernel/vec.hpp"

namespace gemmlab::kernel::rungs {

struct DoubleBuffer {
  static constexpr int kStages = 2;

  template <class C>
  using State = Vectorized::State<C>;

  template <class C> GEMMLAB_HD static constexpr int threads(const C& c) { return Vectorized::threads(c); }
  template <class C> GEMMLAB_HD static int smem_floats(const C& c) { return kStages * Vectorized::tile_floats(c); }
  template <class C> GEMMLAB_HD static int prologue_phases(const C&) { return 1; }  // tile 0 -> buffer 0
  template <class C> GEMMLAB_HD static int mainloop_phases(const C&) { return 1; }  // load next, multiply, store
  template <class C> GEMMLAB_HD static int epilogue_phases(const C&) { return 1; }
  GEMMLAB_HD static bool barrier_after(Section section, int) { return section != Section::Epilogue; }

  // Where buffer b starts (in floats).
  template <class C> GEMMLAB_HD static int buffer(const C& c, int b) { return b * Vectorized::tile_floats(c); }

  // The staging registers for one tile: float4s per thread, bounded by max_loads floats (validate() checks it).
  template <class C> static constexpr int kMaxStaged = C::max_loads / 4;

  template <class X, class C>
  GEMMLAB_HD static void prologue(X& x, const C& c, const ThreadContext& t, State<C>& s, int) {
    Vectorized::prologue(x, c, t, s, 0);
    if (c.swizzle) load_tile0(x, c, t, Vectorized::a_swizzled(c));
    else load_tile0(x, c, t, Vectorized::a_padded(c));
  }

  template <class X, class C>
  GEMMLAB_HD static void mainloop(X& x, const C& c, const ThreadContext& t, State<C>& s, int kstep, int) {
    if (c.swizzle) step(x, c, t, s, kstep, Vectorized::a_swizzled(c));
    else step(x, c, t, s, kstep, Vectorized::a_padded(c));
  }

  template <class X, class C>
  GEMMLAB_HD static void epilogue(X& x, const C& c, const ThreadContext& t, State<C>& s, int phase) {
    Vectorized::epilogue(x, c, t, s, phase);
  }

  template <class X, class C, class ALayout>
  GEMMLAB_HD static void load_tile0(X& x, const C& c, const ThreadContext& t, const ALayout& as) {
    for (int i = 0; i < Vectorized::a_loads(c); ++i)
      Vectorized::store_a(x, c, t, buffer(c, 0), as, i, Vectorized::load_a(x, c, t, 0, i, true));
    for (int i = 0; i < Vectorized::b_loads(c); ++i)
      Vectorized::store_b(x, c, t, buffer(c, 0), i, Vectorized::load_b(x, c, t, 0, i, true));
  }

  template <class X, class C, class ALayout>
  GEMMLAB_HD static void step(X& x, const C& c, const ThreadContext& t, State<C>& s, int kstep, const ALayout& as) {
    // (a) Tile kstep + 1, global -> registers. Past the last tile every lane is predicated off (the loads read
    //     nothing and give zeros), so every k-step issues the same instructions.
    const bool more = kstep + 1 < t.ksteps;
    const int k_next = (kstep + 1) * c.bk;
    Vec<4> a_next[kMaxStaged<C>];
    Vec<4> b_next[kMaxStaged<C>];
    for (int i = 0; i < Vectorized::a_loads(c); ++i) a_next[i] = Vectorized::load_a(x, c, t, k_next, i, more);
    for (int i = 0; i < Vectorized::b_loads(c); ++i) b_next[i] = Vectorized::load_b(x, c, t, k_next, i, more);

    // (b) Tile kstep, from the buffer the previous k-step (or the prologue) filled before its barrier.
    Vectorized::multiply(x, c, t, s, buffer(c, kstep % kStages), as);

    // (c) Registers -> the other buffer. Its last readers were the multiply of k-step kstep - 1, which every thread
    //     finished before the barrier that ended that k-step.
    const int next = buffer(c, (kstep + 1) % kStages);
    for (int i = 0; i < Vectorized::a_loads(c); ++i) Vectorized::store_a(x, c, t, next, as, i, a_next[i]);
    for (int i = 0; i < Vectorized::b_loads(c); ++i) Vectorized::store_b(x, c, t, next, i, b_next[i]);
  }
  // ---- Its knobs, defaults, tiling rules and register estimate: what the simulator, the CLI and the app read (host
  // only; sim/src/rung_model.cpp and occupancy.cpp). ----
  static constexpr std::string_view knobs[] = {"bm", "bn", "bk", "tm", "tn", "a_pad", "b_pad", "swizzle"};
  static constexpr KernelConfig defaults() {
    KernelConfig c;
    c = Vectorized::defaults();
    c.stages = 2;  // fixed: two shared buffers
    return c;
  }
  static Status validate([[maybe_unused]] const KernelConfig& c) {
    return Vectorized::validate(c);
  }
  // Registers a thread keeps live besides the overhead every kernel has (occupancy.cpp adds it).
  static int live_registers([[maybe_unused]] const KernelConfig& c) {
    const int n = threads(c) > 0 ? threads(c) : 1;  // validate() refuses a tile with no thread; estimate anyway
    const int staged = (c.bm * c.bk + c.bk * c.bn + n - 1) / n;  // one thread's share of a k-step's tiles
    return c.tm * c.tn + c.tm + c.tn + staged;  // the next tile's loads are held across the multiply
  }

};

}  // namespace gemmlab::kernel::rungs
