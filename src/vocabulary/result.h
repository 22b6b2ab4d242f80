// Result<T>: a value or an errno with the path or argv it concerns. Host calls
// never throw for machine-level failures; those are data.
#pragma once

#include <cerrno>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace hwaccel {

struct Error {
  int code = 0;         // an errno value (ENOENT, EACCES, ...)
  std::string message;  // strerror-style text, possibly with context

  std::string errno_name() const;  // "ENOENT"; "E<n>" when unknown
};

// errno name <-> number for the values snapshots use.
std::string errno_name(int code);
int errno_from_name(std::string_view name);  // 0 when unknown
Error make_error(int code, std::string_view context = {});

template <typename T>
class Result {
 public:
  Result(T value) : v_(std::move(value)) {}
  Result(Error error) : v_(std::move(error)) {}

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  const T& value() const& { return std::get<0>(v_); }
  T& value() & { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  const T& operator*() const& { return value(); }
  const T* operator->() const { return &value(); }
  const Error& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, Error> v_;
};

}  // namespace hwaccel
