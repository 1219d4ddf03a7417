#pragma once
// The sentences the app shows above its panels (a saved setting that was ignored, a job that failed, a run that was
// cancelled): the newest few, until the user dismisses them. AppModel owns the one log; every feature model adds to
// it.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace gemmlab::desktop {

struct Message {
  enum class Level { Info, Warning, Error };
  Level level = Level::Info;
  std::string text;
};

class MessageLog {
 public:
  static constexpr std::size_t kMaxMessages = 8;  // the oldest goes when a ninth comes

  const std::vector<Message>& list() const { return messages_; }
  void add(Message::Level level, std::string text);
  void dismiss(std::size_t index);

 private:
  std::vector<Message> messages_;
};

// How a GPU run of the app ended (the benchmark's, the tuner's), as its report says. An error, or a cancel before
// anything was measured, is a message, and what is on show stays (run_end_label gives nothing); otherwise the label of
// the results to show: "measured now on the <device>, <date>", "measured now (cancelled part way) ..." with a message
// saying what was kept.
struct RunEnd {
  std::string job;                   // the error message's first word: "benchmark", "tuning"
  std::optional<std::string> error;  // the report's error, if it has one (then nothing else is read)
  bool cancelled = false, measured_nothing = false;
  std::string device, date;
  std::string nothing_kept, partly_kept;  // the messages for a cancel before any measurement, and part way
};
std::optional<std::string> run_end_label(MessageLog& messages, const RunEnd& end);

}  // namespace gemmlab::desktop
