#include "src/host/text_file.h"

#include <fstream>

namespace hwaccel {

Result<std::string> read_text_file(const std::string& path, std::size_t max_bytes) {
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error(errno ? errno : ENOENT, path);
  // Read in chunks up to the cap, never trusting a size the file claims.
  std::string text;
  char chunk[1 << 16];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
    text.append(chunk, std::size_t(in.gcount()));
    if (text.size() > max_bytes)
      return Error{EFBIG, path + ": larger than " + std::to_string(max_bytes >> 20) + " MiB"};
  }
  if (in.bad()) return make_error(EIO, path);
  return text;
}

}  // namespace hwaccel
