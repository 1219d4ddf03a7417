#pragma once
// Library code reports failure as a value; only a program's main decides to exit.
#include <string>
#include <utility>
#include <variant>

namespace gemmlab {

struct Error {
  std::string message;
};

// Either a value or an Error saying what went wrong and, where it can, what to change.
template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::move(value)) {}
  Result(Error error) : state_(std::move(error)) {}

  bool ok() const { return std::holds_alternative<T>(state_); }
  explicit operator bool() const { return ok(); }

  T& value() & { return std::get<T>(state_); }
  const T& value() const& { return std::get<T>(state_); }
  T&& value() && { return std::get<T>(std::move(state_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  const Error& error() const { return std::get<Error>(state_); }

 private:
  std::variant<T, Error> state_;
};

// A Result for operations that produce nothing but may fail.
struct Ok {};
using Status = Result<Ok>;

}  // namespace gemmlab
