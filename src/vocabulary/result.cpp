#include "src/vocabulary/result.h"

#include <cstring>
#include <map>

namespace hwaccel {
namespace {

const std::map<int, std::string_view>& names() {
  static const std::map<int, std::string_view> table = {
      {EPERM, "EPERM"},         {ENOENT, "ENOENT"},         {EIO, "EIO"},
      {ENXIO, "ENXIO"},         {EBADF, "EBADF"},           {EAGAIN, "EAGAIN"},
      {ENOMEM, "ENOMEM"},       {EACCES, "EACCES"},         {EBUSY, "EBUSY"},
      {EEXIST, "EEXIST"},       {ENODEV, "ENODEV"},         {ENOTDIR, "ENOTDIR"},
      {EISDIR, "EISDIR"},       {EINVAL, "EINVAL"},         {EMFILE, "EMFILE"},
      {EFBIG, "EFBIG"},         {ELOOP, "ELOOP"},           {ENODATA, "ENODATA"},
      {ETIMEDOUT, "ETIMEDOUT"}, {EOPNOTSUPP, "EOPNOTSUPP"}, {ENAMETOOLONG, "ENAMETOOLONG"},
      {EROFS, "EROFS"},         {ESTALE, "ESTALE"},         {EINTR, "EINTR"},
      {EXDEV, "EXDEV"},  // a link that leads out of its tree (src/host/inside_tree.h)
  };
  return table;
}

}  // namespace

std::string errno_name(int code) {
  auto it = names().find(code);
  if (it != names().end()) return std::string(it->second);
  return "E" + std::to_string(code);
}

int errno_from_name(std::string_view name) {
  for (const auto& [code, text] : names())
    if (text == name) return code;
  return 0;
}

std::string Error::errno_name() const {
  return hwaccel::errno_name(code);
}

Error make_error(int code, std::string_view context) {
  std::string message = std::strerror(code);
  if (!context.empty()) message = std::string(context) + ": " + message;
  return Error{code, message};
}

}  // namespace hwaccel
