// The functional executor's model of Hopper's asynchronous copies (sim/src/functional.hpp): a TMA copy's bytes are
// ordered by its mbarrier, not by block barriers, so reading them before waiting for the phase is a race, and
// waiting for a phase whose bytes never come is a deadlock - both reported, as a sanitizer would.
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace gemmlab::sim
