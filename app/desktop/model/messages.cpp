#include "model/messages.hpp"

namespace gemmlab::desktop {

void MessageLog::add(Message::Level level, std::string text) {
  messages_.push_back({level, std::move(text)});
  if (messages_.size() > kMaxMessages) messages_.erase(messages_.begin());
}

void MessageLog::dismiss(std::size_t index) {
  if (index < messages_.size()) messages_.erase(messages_.begin() + static_cast<std::ptrdiff_t>(index));
}

}  // namespace gemmlab::desktop
