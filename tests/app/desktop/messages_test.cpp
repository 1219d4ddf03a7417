// The app's messages (model/messages.hpp): the log keeps the newest few, and a GPU run's end says the same things
// whichever run it was.
#include "model/messages.hpp"

#include <gtest/gtest.h>

#include <string>

namespace gemmlab::desktop {
namespace {

RunEnd ended(bool cancelled, bool measured_nothing) {
  RunEnd end;
  end.job = "benchmark", end.cancelled = cancelled, end.measured_nothing = measured_nothing;
  end.device = "NVIDIA H200", end.date = "2026-11-28T23:40Z";
  end.nothing_kept = "nothing kept", end.partly_kept = "some rows kept";
  return end;
}

TEST(MessageLog, KeepsTheNewestFew) {
  MessageLog log;
  for (std::size_t i = 0; i < MessageLog::kMaxMessages + 1; ++i) log.add(Message::Level::Info, std::to_string(i));
  ASSERT_EQ(log.list().size(), MessageLog::kMaxMessages);
  EXPECT_EQ(log.list().front().text, "1");
  log.dismiss(0);
  EXPECT_EQ(log.list().front().text, "2");
}

TEST(RunEnd, AFinishedRunIsShownWithoutAMessage) {
  MessageLog log;
  EXPECT_EQ(run_end_label(log, ended(false, false)), "measured now on the NVIDIA H200, 2026-11-28T23:40Z");
  EXPECT_TRUE(log.list().empty());
}

TEST(RunEnd, ARunCancelledPartWayIsShownAndSaysWhatItKept) {
  MessageLog log;
  EXPECT_EQ(run_end_label(log, ended(true, false)),
            "measured now (cancelled part way) on the NVIDIA H200, 2026-11-28T23:40Z");
  ASSERT_EQ(log.list().size(), 1u);
  EXPECT_EQ(log.list()[0].text, "some rows kept");
}

TEST(RunEnd, ACancelBeforeAnyMeasurementOrAnErrorLeavesWhatIsOnShow) {
  MessageLog log;
  EXPECT_FALSE(run_end_label(log, ended(true, true)));
  RunEnd failed;
  failed.job = "tuning", failed.error = "no GPU";
  EXPECT_FALSE(run_end_label(log, failed));
  ASSERT_EQ(log.list().size(), 2u);
  EXPECT_EQ(log.list()[0].text, "nothing kept");
  EXPECT_EQ(log.list()[1].level, Message::Level::Error);
  EXPECT_EQ(log.list()[1].text, "tuning: no GPU");
}

}  // namespace
}  // namespace gemmlab::desktop
