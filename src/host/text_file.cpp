#include "src/host/text_file.h"

#include <fstream>
#include <iterator>

namespace hwaccel {

Result<std::string> read_text_file(const std::string& path) {
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error(errno ? errno : ENOENT, path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return make_error(EIO, path);
  return text;
}

}  // namespace hwaccel
