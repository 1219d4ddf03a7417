#pragma once
// The sentences the app shows above its panels (a saved setting that was ignored, a job that failed, a run that was
// cancelled): the newest few, until the user dismisses them. AppModel owns the one log; every feature model adds to
// it.
#include <cstddef>
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

}  // namespace gemmlab::desktop
