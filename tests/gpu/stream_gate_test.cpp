// The stream gate (gpu/src/stream_gate.cu, label "gpu"): what is queued behind it waits until it opens, and a gate
// nobody opens gives up after its limit and says so.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "stream_gate.hpp"

namespace gemmlab::gpu {
namespace {

struct Stream {
  cudaStream_t stream = nullptr;
  Stream() { EXPECT_EQ(cudaStreamCreate(&stream), cudaSuccess); }
  ~Stream() { cudaStreamDestroy(stream); }
};

TEST(StreamGate, HoldsWhatIsQueuedBehindItUntilOpened) {
  auto gate = StreamGate::create();
  ASSERT_TRUE(gate) << gate.error().message;
  Stream s;
  cudaEvent_t behind = nullptr;
  ASSERT_EQ(cudaEventCreate(&behind), cudaSuccess);
  ASSERT_TRUE(gate->close(s.stream, 10.0));
  ASSERT_EQ(cudaEventRecord(behind, s.stream), cudaSuccess);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(cudaEventQuery(behind), cudaErrorNotReady);
  gate->open();
  ASSERT_EQ(cudaStreamSynchronize(s.stream), cudaSuccess);
  EXPECT_EQ(cudaEventQuery(behind), cudaSuccess);
  EXPECT_FALSE(gate->take_timed_out());
  cudaEventDestroy(behind);
}

TEST(StreamGate, ClosesQueuedTogetherPassAtTheLatestOpen) {
  auto gate = StreamGate::create();
  ASSERT_TRUE(gate) << gate.error().message;
  Stream s;
  ASSERT_TRUE(gate->close(s.stream, 10.0));
  ASSERT_TRUE(gate->close(s.stream, 10.0));
  gate->open();
  ASSERT_EQ(cudaStreamSynchronize(s.stream), cudaSuccess);
  EXPECT_FALSE(gate->take_timed_out());
}

TEST(StreamGate, GivesUpAfterItsLimitAndSaysSoOnce) {
  auto gate = StreamGate::create();
  ASSERT_TRUE(gate) << gate.error().message;
  Stream s;
  const auto start = std::chrono::steady_clock::now();
  ASSERT_TRUE(gate->close(s.stream, 0.05));
  ASSERT_EQ(cudaStreamSynchronize(s.stream), cudaSuccess);
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(40));
  EXPECT_TRUE(gate->take_timed_out());
  EXPECT_FALSE(gate->take_timed_out());
  gate->open();
}

}  // namespace
}  // namespace gemmlab::gpu
