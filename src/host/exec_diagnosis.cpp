#include "src/host/exec_diagnosis.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

namespace hwaccel {
namespace {

constexpr std::size_t kHeadBytes = 8192;  // PT_INTERP sits in the first page in practice
constexpr std::size_t kMaxInterpreter = 256;
constexpr std::uint32_t kPtInterp = 3;

std::string read_head(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0) return {};
  struct stat st {};
  std::string head;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    head.resize(kHeadBytes);
    ssize_t n;
    do {
      n = ::pread(fd, head.data(), head.size(), 0);
    } while (n < 0 && errno == EINTR);
    head.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
  }
  ::close(fd);
  return head;
}

// Little- or big-endian unsigned of `size` bytes at `at`; false past the end.
bool field(const std::string& data, std::size_t at, std::size_t size, bool little,
           std::uint64_t& value) {
  if (at > data.size() || size > data.size() - at) return false;
  value = 0;
  for (std::size_t i = 0; i < size; ++i) {
    auto byte = static_cast<unsigned char>(data[at + (little ? size - 1 - i : i)]);
    value = (value << 8) | byte;
  }
  return true;
}

bool printable(std::string_view text) {
  for (char c : text)
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) == 0x7f) return false;
  return !text.empty();
}

std::optional<std::string> elf_interpreter(const std::string& head) {
  if (head.size() < 52) return std::nullopt;
  const bool wide = head[4] == 2;
  const bool little = head[5] == 1;
  std::uint64_t phoff = 0, phentsize = 0, phnum = 0;
  if (!field(head, wide ? 32 : 28, wide ? 8 : 4, little, phoff) ||
      !field(head, wide ? 54 : 42, 2, little, phentsize) ||
      !field(head, wide ? 56 : 44, 2, little, phnum) || phentsize < (wide ? 56u : 32u))
    return std::nullopt;
  for (std::uint64_t i = 0; i < phnum && i < 64; ++i) {
    if (phoff > head.size()) return std::nullopt;
    const std::size_t at = static_cast<std::size_t>(phoff + i * phentsize);
    std::uint64_t type = 0, offset = 0, size = 0;
    if (!field(head, at, 4, little, type)) return std::nullopt;
    if (type != kPtInterp) continue;
    if (!field(head, at + (wide ? 8 : 4), wide ? 8 : 4, little, offset) ||
        !field(head, at + (wide ? 32 : 16), wide ? 8 : 4, little, size) || size == 0 ||
        size > kMaxInterpreter || offset > head.size() || size > head.size() - offset)
      return std::nullopt;
    std::string name =
        head.substr(static_cast<std::size_t>(offset), static_cast<std::size_t>(size));
    if (auto nul = name.find('\0'); nul != std::string::npos) name.resize(nul);
    if (!printable(name)) return std::nullopt;
    return name;
  }
  return std::nullopt;
}

std::optional<std::string> script_interpreter(const std::string& head) {
  std::string line =
      head.substr(2, head.find('\n') == std::string::npos ? kMaxInterpreter : head.find('\n') - 2);
  const auto start = line.find_first_not_of(" \t");
  if (start == std::string::npos) return std::nullopt;
  const auto end = line.find_first_of(" \t", start);
  std::string name = line.substr(start, end == std::string::npos ? end : end - start);
  if (name.size() > kMaxInterpreter || !printable(name)) return std::nullopt;
  return name;
}

bool exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

}  // namespace

std::optional<std::string> named_interpreter(const std::string& path) {
  const std::string head = read_head(path);
  if (head.rfind("\x7f"
                 "ELF",
                 0) == 0)
    return elf_interpreter(head);
  if (head.rfind("#!", 0) == 0) return script_interpreter(head);
  return std::nullopt;
}

std::optional<std::string> cannot_execute_detail(const std::string& path, int error) {
  std::string detail = std::strerror(error);
  if (error == ENOENT || error == ENOTDIR || error == ELOOP || error == ENAMETOOLONG) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
    // The file is there: what is missing is what it asks the kernel to run it with.
    auto interpreter = named_interpreter(path);
    if (interpreter && !exists(*interpreter))
      return detail + " (its interpreter " + *interpreter + " is missing)";
    // A script's interpreter that is there but whose own loader is not (a shell
    // script in an image without the shell's C library).
    if (interpreter)
      if (auto second = named_interpreter(*interpreter); second && !exists(*second))
        return detail + " (its interpreter " + *interpreter + " needs " + *second +
               ", which is missing)";
    if (interpreter) return detail + " (its interpreter is " + *interpreter + ")";
    return detail + " (the file is there; its interpreter or dynamic loader is not)";
  }
  if (error == ENOEXEC) return detail + " (not a program this machine runs)";
  return detail;
}

std::string cannot_execute_text(std::string_view path, std::string_view detail) {
  return "found at " + std::string(path) + " and cannot execute: " + std::string(detail);
}

}  // namespace hwaccel
