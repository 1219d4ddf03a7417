#include "model/messages.hpp"

namespace gemmlab::desktop {

void MessageLog::add(Message::Level level, std::string text) {
  messages_.push_back({level, std::move(text)});
  if (messages_.size() > kMaxMessages) messages_.erase(messages_.begin());
}

void MessageLog::dismiss(std::size_t index) {
  if (index < messages_.size()) messages_.erase(messages_.begin() + static_cast<std::ptrdiff_t>(index));
}

std::optional<std::string> run_end_label(MessageLog& messages, const RunEnd& end) {
  if (end.error) {
    messages.add(Message::Level::Error, end.job + ": " + *end.error);
    return std::nullopt;
  }
  if (end.cancelled && end.measured_nothing) {
    messages.add(Message::Level::Info, end.nothing_kept);
    return std::nullopt;
  }
  if (end.cancelled) messages.add(Message::Level::Info, end.partly_kept);
  return std::string(end.cancelled ? "measured now (cancelled part way)" : "measured now") + " on the " + end.device +
         ", " + end.date;
}

}  // namespace gemmlab::desktop
