// The functional executor's model of Hopper's asynchronous operations (sim/src/functional.hpp): a TMA copy's bytes
// are ordered by its mbarrier, not by block barriers, so reading them before waiting for the phase is a race, and
// waiting for a phase whose bytes never come is a deadlock; a wgmma's reads must be known finished (wait_group, then
// a block barrier or an mbarrier arrival the writer waited for) before a copy overwrites them - all reported, as a
// sanitizer would.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "functional.hpp"

namespace gemmlab::sim {
namespace {

struct Fixture {
  std::vector<float> a = std::vector<float>(64 * 64, 1.0f), b = a, c = std::vector<float>(1, 0.0f);
  std::vector<int> writes = std::vector<int>(1, 0);
  FunctionalExecutor x{a, b, c, writes, 2048, kernel::InputType::F16};
  static constexpr int barrier = 4096;
  const kernel::TmaBox box{kernel::Operand::A, 0, 0, 8, 64, 64, 64};  // 8 rows of 128 bytes: 1024 bytes

  Fixture() {
    x.new_block();
    x.set_thread(0);
    x.mbarrier_init(barrier, 1, true);
    x.barrier();
  }
  void copy() {
    x.set_thread(0);
    x.mbarrier_expect_bytes(barrier, box.bytes(), true);
    x.tma_load(box, 0, barrier, true);
  }
  void read_as(int thread) {
    x.set_thread(thread);
    kernel::Vec<1> v;
    x.lds(v, 3);
  }
};

TEST(FunctionalHopper, ACopyIsVisibleAfterItsPhaseIsWaitedFor) {
  Fixture f;
  f.copy();
  f.x.set_thread(1);
  f.x.mbarrier_wait(Fixture::barrier, 0);
  f.read_as(1);
  EXPECT_FALSE(f.x.failed()) << f.x.error();
}

TEST(FunctionalHopper, ReadingACopyWithoutWaitingIsARace) {
  Fixture f;
  f.copy();
  f.x.barrier();  // a block barrier does not order the copy engine's writes
  f.read_as(1);
  ASSERT_TRUE(f.x.failed());
  EXPECT_NE(f.x.error().find("before waiting for the TMA copy"), std::string::npos) << f.x.error();
}

TEST(FunctionalHopper, WaitingForBytesThatNeverComeIsADeadlock) {
  Fixture f;
  f.x.set_thread(0);
  f.x.mbarrier_expect_bytes(Fixture::barrier, f.box.bytes(), true);  // announced, never copied
  f.x.set_thread(1);
  f.x.mbarrier_wait(Fixture::barrier, 0);
  ASSERT_TRUE(f.x.failed());
  EXPECT_NE(f.x.error().find("never completes"), std::string::npos) << f.x.error();
}

// setmaxnreg is a warpgroup's instruction: the same count in each of its threads, and one the instruction takes.
TEST(FunctionalHopper, SetmaxnregIsOneCountPerWarpgroup) {
  Fixture f;
  for (const int thread : {0, 127}) f.x.set_thread(thread), f.x.set_max_registers(232, true);
  f.x.set_thread(128), f.x.set_max_registers(40, false);
  EXPECT_FALSE(f.x.failed()) << f.x.error();
  f.x.set_thread(1), f.x.set_max_registers(224, true);
  ASSERT_TRUE(f.x.failed());
  EXPECT_NE(f.x.error().find("different setmaxnreg"), std::string::npos) << f.x.error();
  Fixture g;
  g.x.set_max_registers(20, false);
  ASSERT_TRUE(g.x.failed());
  EXPECT_NE(g.x.error().find("multiple of 8 from 24 to 256"), std::string::npos) << g.x.error();
}

TEST(FunctionalHopper, TheSecondPhaseIsWaitedForWithParityOne) {
  Fixture f;
  f.copy();
  f.copy();  // phase 1's bytes
  f.x.set_thread(1);
  f.x.mbarrier_wait(Fixture::barrier, 1);
  EXPECT_FALSE(f.x.failed()) << f.x.error();
  f.x.mbarrier_wait(Fixture::barrier, 0);  // phase 2 has not completed: parity 0 is not done
  EXPECT_TRUE(f.x.failed());
}

// One block of a cluster is run at a time: an arrival on every block's mbarrier counts once for this block and once
// for the partner's symmetric arrival here, so a barrier expecting 2 arrivals completes with one thread's.
TEST(FunctionalHopper, AClusterArrivalStandsInForThePartners) {
  Fixture f;
  constexpr int empty = Fixture::barrier + 8;
  f.x.set_thread(0);
  f.x.mbarrier_init(empty, 2, true);
  f.x.barrier();
  f.x.mbarrier_arrive_cluster(empty, true, 2);
  f.x.set_thread(1);
  f.x.mbarrier_wait(empty, 0);
  EXPECT_FALSE(f.x.failed()) << f.x.error();
  f.x.set_thread(0);
  f.x.mbarrier_arrive_cluster(empty, true, 1);  // half of the next phase's arrivals
  f.x.mbarrier_wait(empty, 1);
  EXPECT_TRUE(f.x.failed());
}

// A warpgroup's wgmma reads a 64 x 16 A block at byte 0 and a 16 x 64 B block at byte 8192; then a thread of another
// warpgroup copies a box over A. `release` says what the reader does between its read and the copy.
enum class Release { Nothing, ArriveWithoutWait, WaitThenArrive, WaitThenBlockBarrier, WaitThenConsumersBarrier };
std::string overwrite_after_wgmma(Release release) {
  std::vector<float> a(64 * 64, 1.0f), b = a, c(1, 0.0f);
  std::vector<int> writes(1, 0);
  FunctionalExecutor x{a, b, c, writes, 8192, kernel::InputType::F16};
  constexpr int full = 24576, empty = 24584;
  x.new_block();
  x.set_thread(0);
  x.mbarrier_init(full, 1, true);
  x.mbarrier_init(empty, 1, true);
  x.barrier();
  x.set_thread(5);  // warpgroup 0
  float acc[32] = {};
  x.wgmma_fence(acc);
  x.wgmma(kernel::WgmmaM64K16<64>{}, acc, {0, 16, 1024, kernel::Major::K}, {8192, 8192, 1024, kernel::Major::MN});
  x.wgmma_commit();
  if (release == Release::WaitThenArrive || release == Release::WaitThenBlockBarrier ||
      release == Release::WaitThenConsumersBarrier)
    x.wgmma_wait(kernel::Pending<0>{}, acc);
  if (release == Release::WaitThenArrive || release == Release::ArriveWithoutWait) x.mbarrier_arrive(empty, true);
  x.set_thread(128);  // warpgroup 1: the producer
  if (release == Release::WaitThenArrive || release == Release::ArriveWithoutWait) x.mbarrier_wait(empty, 0);
  if (release == Release::WaitThenBlockBarrier) x.barrier();
  if (release == Release::WaitThenConsumersBarrier) x.barrier(128);  // warpgroup 0's threads alone
  const kernel::TmaBox box{kernel::Operand::A, 0, 0, 8, 64, 64, 64};
  x.mbarrier_expect_bytes(full, box.bytes(), true);
  x.tma_load(box, 0, full, true);
  return x.failed() ? x.error() : "ok";
}

TEST(FunctionalHopper, ACopyMayOverwriteWhatAWgmmaReadOnlyOnceItsGroupIsKnownFinished) {
  EXPECT_NE(overwrite_after_wgmma(Release::Nothing).find("overwrites shared float"), std::string::npos);
  // An arrival before wgmma.wait_group releases nothing: the group may still be reading.
  EXPECT_NE(overwrite_after_wgmma(Release::ArriveWithoutWait).find("group 0 reads"), std::string::npos);
  EXPECT_EQ(overwrite_after_wgmma(Release::WaitThenArrive), "ok");
  EXPECT_EQ(overwrite_after_wgmma(Release::WaitThenBlockBarrier), "ok");
  // A barrier of the consumers alone (rung 20's TMA-store epilogue) tells the producer nothing.
  EXPECT_NE(overwrite_after_wgmma(Release::WaitThenConsumersBarrier).find("group 0 reads"), std::string::npos);
}

// A TMA store of C reads its shared image: what the threads wrote, each fenced for the copy engine and ordered by a
// barrier before the issuing thread; the words stay the store's until its issuer waited for its reads and a barrier
// told the others; and no block ends with a store still reading.
struct StoreFixture {
  std::vector<float> a = std::vector<float>(64, 0.0f), b = a;
  std::vector<float> c = std::vector<float>(3 * 40, -1.0f);  // 3 x 40: the 8 x 32 box at column 32 is mostly outside
  std::vector<int> writes = std::vector<int>(3 * 40, 0);
  FunctionalExecutor x{a, b, c, writes, 2048, kernel::InputType::F16};
  const kernel::TmaBox box{kernel::Operand::C, 0, 32, 8, 32, 3, 40, 0, 8};  // 4 panels of 8 rows of 32 bytes

  StoreFixture() { x.new_block(); }
  // Threads 0 and 1 each write half of the image (element (r, col) = 100 r + col), then fence if `fence`.
  void write_image(bool fence = true) {
    for (int thread : {0, 1}) {
      x.set_thread(thread);
      for (int r = 4 * thread; r < 4 * thread + 4; ++r)
        for (int col = 0; col < 32; ++col) {
          kernel::Vec<1> v;
          v[0] = float(100 * r + col);
          x.sts(box.shared_offset(r, col) / 4, v);
        }
      if (fence) x.fence_async_shared();
    }
  }
  void store() {
    x.set_thread(0);
    x.tma_store(box, 0, true);
    x.tma_store_commit(true);
  }
  // The protocol's order: the image written and fenced, a barrier, the store; then thread 0's wait if `wait`.
  void write_then_store(bool wait) {
    write_image();
    x.barrier();
    store();
    if (wait) x.tma_store_wait(kernel::Pending<0>{}, true);
  }
};

TEST(FunctionalHopperStore, WritesTheBoxPartInsideCOnceFromItsImage) {
  StoreFixture f;
  f.write_then_store(true);
  f.x.end_block();
  ASSERT_FALSE(f.x.failed()) << f.x.error();
  for (int r = 0; r < 3; ++r)
    for (int col = 0; col < 40; ++col) {
      const auto at = static_cast<std::size_t>(r * 40 + col);
      EXPECT_EQ(f.writes[at], col >= 32 ? 1 : 0) << r << ", " << col;
      EXPECT_EQ(f.c[at], col >= 32 ? float(100 * r + col - 32) : -1.0f) << r << ", " << col;
    }
}

TEST(FunctionalHopperStore, AStoreOfWritesWithoutABarrierOrAFenceIsARace) {
  StoreFixture unordered;
  unordered.write_image();
  unordered.store();  // thread 1's writes are not ordered before thread 0's store
  ASSERT_TRUE(unordered.x.failed());
  EXPECT_NE(unordered.x.error().find("since the last barrier"), std::string::npos) << unordered.x.error();
  StoreFixture unfenced;
  unfenced.write_image(false);
  unfenced.x.barrier();
  unfenced.store();
  ASSERT_TRUE(unfenced.x.failed());
  EXPECT_NE(unfenced.x.error().find("no fence.proxy.async"), std::string::npos) << unfenced.x.error();
  StoreFixture fenced_late;  // thread 0 fences before the barrier, thread 1 only after it
  fenced_late.write_image(false);
  fenced_late.x.set_thread(0);
  fenced_late.x.fence_async_shared();
  fenced_late.x.barrier();
  fenced_late.x.set_thread(1);
  fenced_late.x.fence_async_shared();
  fenced_late.store();
  ASSERT_TRUE(fenced_late.x.failed());
  EXPECT_NE(fenced_late.x.error().find("thread 1 wrote with no fence.proxy.async"), std::string::npos)
      << fenced_late.x.error();
}

TEST(FunctionalHopperStore, TheImageIsFreeOnlyOnceTheStoreIsKnownToHaveReadIt) {
  const auto overwrite = [](StoreFixture& f) {
    f.x.set_thread(1);
    const kernel::Vec<1> v = kernel::zeros<1>();
    f.x.sts(f.box.shared_offset(5, 0) / 4, v);
  };
  StoreFixture early;  // thread 0 waited, but thread 1 writes before a barrier says so
  early.write_then_store(true);
  overwrite(early);
  ASSERT_TRUE(early.x.failed());
  EXPECT_NE(early.x.error().find("may still read"), std::string::npos) << early.x.error();
  StoreFixture ordered;
  ordered.write_then_store(true);
  ordered.x.barrier();
  overwrite(ordered);
  EXPECT_FALSE(ordered.x.failed()) << ordered.x.error();
  StoreFixture consumers;  // the issuer waited and a barrier of the threads 0 and 1 told them: the writer knows
  consumers.write_then_store(true);
  consumers.x.barrier(2);
  overwrite(consumers);
  EXPECT_FALSE(consumers.x.failed()) << consumers.x.error();
  StoreFixture outsider;  // the store's issuer, thread 3, waited, but the barrier of threads 0 and 1 cannot tell them
  outsider.write_image();
  outsider.x.barrier();
  outsider.x.set_thread(3);
  outsider.x.tma_store(outsider.box, 0, true);
  outsider.x.tma_store_commit(true);
  outsider.x.tma_store_wait(kernel::Pending<0>{}, true);
  outsider.x.barrier(2);
  overwrite(outsider);
  ASSERT_TRUE(outsider.x.failed());
  EXPECT_NE(outsider.x.error().find("may still read"), std::string::npos) << outsider.x.error();
  StoreFixture uncommitted;  // issued, never committed: no wait can cover it
  uncommitted.write_image();
  uncommitted.x.barrier();
  uncommitted.x.set_thread(0);
  uncommitted.x.tma_store(uncommitted.box, 0, true);
  uncommitted.x.tma_store_wait(kernel::Pending<0>{}, true);
  uncommitted.x.end_block();
  ASSERT_TRUE(uncommitted.x.failed());
  EXPECT_NE(uncommitted.x.error().find("never committed"), std::string::npos) << uncommitted.x.error();
  StoreFixture unwaited;  // the block ends with the store still reading
  unwaited.write_then_store(false);
  unwaited.x.end_block();
  ASSERT_TRUE(unwaited.x.failed());
  EXPECT_NE(unwaited.x.error().find("still reads shared memory"), std::string::npos) << unwaited.x.error();
}

// Split-K's flags (kernel/rungs/tma_wgmma_splitk.hpp): the blocks run in launch order, so a wait must find its value
// set by an earlier block; C an earlier block wrote is read only after the wait; the flag is released only after a
// barrier orders the other threads' stores of C; and a launch leaves every flag at zero.
struct SplitFixture {
  std::vector<float> a = std::vector<float>(4, 1.0f), b = a, c = std::vector<float>(4, 0.0f);
  std::vector<int> writes = std::vector<int>(4, 0);
  FunctionalExecutor x{a, b, c, writes, 64};
  SplitFixture() {
    x.set_split_flags(2);
    x.new_block();
  }
  void store_c(int thread) {
    x.set_thread(thread);
    kernel::Vec<1> v;
    v[0] = 1.0f;
    x.stg(kernel::Operand::C, thread, v, true);
  }
  void load_c(int thread) {
    x.set_thread(thread);
    kernel::Vec<1> v;
    x.ldg(v, kernel::Operand::C, thread, true);
  }
};

// __syncwarp (rung 21's whole-line stores): what a warp's lanes wrote to shared memory before it, the others may read
// after it; another warp may not, nor may a lane before the warp met. The lanes run in lockstep, as the simulator
// runs a rung that takes __syncwarp.
struct WarpExchange {
  std::vector<float> a = std::vector<float>(16, 1.0f), b = a, c = std::vector<float>(1, 0.0f);
  std::vector<int> writes = std::vector<int>(1, 0);
  FunctionalExecutor x{a, b, c, writes, 1024, kernel::InputType::F16};
  WarpLockstep lockstep;
  WarpExchange() {
    x.new_block();
    x.set_lockstep(&lockstep);
  }
  // Warp `warp`'s 32 lanes each write float `lane` of the warp's 32 (after a __syncwarp if `again`: the floats were
  // read by other lanes before), meet at __syncwarp if `sync`, then read lane + `step`'s float.
  Status exchange(int warp, bool sync, bool again = false, int step = 1) {
    return lockstep.run(
        32,
        [&](int lane) {
          if (again) x.sync_warp();
          x.sts(warp * 32 + lane, kernel::Vec<1>{float(lane)});
          if (sync) x.sync_warp();
          kernel::Vec<1> v;
          x.lds(v, warp * 32 + (lane + step) % 32);
        },
        [&](int lane) { x.set_thread(warp * 32 + lane); }, [&] { x.complete_warp_operation(); });
  }
};

TEST(FunctionalWarpSync, ALanesWriteIsReadByTheWarpAfterItsSyncwarp) {
  WarpExchange w;
  ASSERT_TRUE(w.exchange(0, true));
  EXPECT_FALSE(w.x.failed()) << w.x.error();
  ASSERT_TRUE(w.exchange(0, true, true));  // and written again by the warp's lanes after the next one
  EXPECT_FALSE(w.x.failed()) << w.x.error();
}

TEST(FunctionalWarpSync, ReadingAnotherLanesWriteWithoutItIsARace) {
  WarpExchange w;  // each lane reads the float the lane before it wrote (the lanes run in order up to a __syncwarp)
  ASSERT_TRUE(w.exchange(0, false, false, 31));
  ASSERT_TRUE(w.x.failed());
  EXPECT_NE(w.x.error().find("wrote since the last barrier (a race)"), std::string::npos) << w.x.error();
}

TEST(FunctionalWarpSync, OverwritingAnotherLanesReadWithoutItIsARace) {
  WarpExchange w;  // each lane reads the float the lane after it then writes
  ASSERT_TRUE(w.exchange(0, false));
  ASSERT_TRUE(w.x.failed());
  EXPECT_NE(w.x.error().find("another thread read since the last barrier (a race)"), std::string::npos) << w.x.error();
}

TEST(FunctionalWarpSync, ItOrdersNothingForAnotherWarp) {
  WarpExchange w;
  ASSERT_TRUE(w.exchange(0, true));
  ASSERT_FALSE(w.x.failed()) << w.x.error();
  w.x.set_thread(32);  // a lane of warp 1 reads what warp 0 wrote, with no barrier between them
  kernel::Vec<1> v;
  w.x.lds(v, 3);
  ASSERT_TRUE(w.x.failed());
  EXPECT_NE(w.x.error().find("a race"), std::string::npos) << w.x.error();
}

TEST(FunctionalSplitK, RangesAddUpInLaunchOrder) {
  SplitFixture f;
  f.store_c(0), f.store_c(1);
  f.x.barrier();
  f.x.split_release(1, 1, true);  // range 0 of tile 1 done
  f.x.new_block();
  f.x.set_thread(0);
  f.x.split_wait(1, 1, true);
  f.x.barrier();
  f.load_c(1);  // another thread, after the barrier that passed the wait on
  f.store_c(1);
  f.x.barrier();
  f.x.set_thread(0);
  f.x.split_release(1, 0, true);  // the last range: back to 0
  EXPECT_FALSE(f.x.failed()) << f.x.error();
  EXPECT_EQ(f.x.flags_left_set(), "");
}

TEST(FunctionalSplitK, AWaitForAValueNoEarlierBlockSetIsADeadlock) {
  SplitFixture f;
  f.x.set_thread(0);
  f.x.split_wait(0, 1, true);
  ASSERT_TRUE(f.x.failed());
  EXPECT_NE(f.x.error().find("this wait would never end"), std::string::npos) << f.x.error();
}

TEST(FunctionalSplitK, ReadingAnotherBlocksCWithoutTheWaitIsARace) {
  SplitFixture f;
  f.store_c(2);
  f.x.barrier();
  f.x.split_release(0, 1, true);
  f.x.new_block();
  f.load_c(2);
  ASSERT_TRUE(f.x.failed());
  EXPECT_NE(f.x.error().find("without waiting for its tile's split flag"), std::string::npos) << f.x.error();
}

TEST(FunctionalSplitK, ReleasingBeforeABarrierAfterTheStoresIsARace) {
  SplitFixture f;
  f.store_c(0), f.store_c(1);
  f.x.set_thread(0);
  f.x.split_release(0, 1, true);
  ASSERT_TRUE(f.x.failed());
  EXPECT_NE(f.x.error().find("no barrier after other threads' stores of C"), std::string::npos) << f.x.error();
}

// Through the workspace (workspace = 1) a range counts itself in with an arrival, which orders its stores as a release
// does: one before a barrier after the other threads' stores is the same race.
TEST(FunctionalSplitK, ArrivingBeforeABarrierAfterTheStoresIsARace) {
  SplitFixture f;
  f.store_c(0), f.store_c(1);
  f.x.set_thread(0);
  f.x.split_arrive(0, true);
  ASSERT_TRUE(f.x.failed());
  EXPECT_NE(f.x.error().find("arrives on tile 0's split flag with no barrier"), std::string::npos) << f.x.error();
  SplitFixture ordered;
  ordered.store_c(0), ordered.store_c(1);
  ordered.x.barrier();
  ordered.x.set_thread(0);
  ordered.x.split_arrive(0, true);
  ordered.x.split_arrive(0, true);
  EXPECT_FALSE(ordered.x.failed()) << ordered.x.error();
  ordered.x.new_block();
  ordered.x.set_thread(0);
  ordered.x.split_wait(0, 2, true);  // both arrivals counted
  EXPECT_FALSE(ordered.x.failed()) << ordered.x.error();
}

TEST(FunctionalSplitK, ABarrierPassesTheWaitOnOnlyToTheThreadsThatTookIt) {
  SplitFixture f;
  f.store_c(3);
  f.x.barrier();
  f.x.split_release(0, 1, true);
  f.x.new_block();
  f.x.set_thread(0);
  f.x.split_wait(0, 1, true);
  f.x.barrier(2);  // threads 0 and 1 only: the consumers' named barrier
  f.load_c(1);
  EXPECT_FALSE(f.x.failed()) << f.x.error();
  f.load_c(3);  // thread 3 took no barrier after the wait
  ASSERT_TRUE(f.x.failed());
  EXPECT_NE(f.x.error().find("without waiting for its tile's split flag"), std::string::npos) << f.x.error();
}

TEST(FunctionalSplitK, TheReleasingThreadMustTakeTheBarrierAfterTheStores) {
  SplitFixture f;
  f.store_c(0), f.store_c(1);
  f.x.barrier(2);
  f.x.set_thread(3);
  f.x.split_release(0, 1, true);
  ASSERT_TRUE(f.x.failed());
  EXPECT_NE(f.x.error().find("did not take the barrier"), std::string::npos) << f.x.error();
}

TEST(FunctionalSplitK, AFlagLeftSetIsReported) {
  SplitFixture f;
  f.x.split_release(1, 3, true);
  EXPECT_NE(f.x.flags_left_set().find("tile 1's split flag is left at 3"), std::string::npos);
}

}  // namespace
}  // namespace gemmlab::sim
