#include "src/host/append_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace hwaccel {

std::string append_to_file(const std::string& path, const std::string& text) {
  int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return path + ": " + std::strerror(errno);
  ssize_t n = ::write(fd, text.data(), text.size());
  int code = errno;
  ::close(fd);
  if (n != static_cast<ssize_t>(text.size()))
    return path + ": " + (n < 0 ? std::strerror(code) : "short write");
  return "";
}

}  // namespace hwaccel
