#include "cli/common/output_file.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace hwaccel::cli {

std::string write_file_atomically(const std::string& path, const std::string& bytes) {
  const std::string temp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (!out) return std::string("cannot create ") + temp + ": " + std::strerror(errno);
    out.write(bytes.data(), std::streamsize(bytes.size()));
    out.flush();
    if (!out) {
      std::remove(temp.c_str());
      return std::string("cannot write ") + temp + ": " + std::strerror(errno);
    }
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    std::string why = std::strerror(errno);
    std::remove(temp.c_str());
    return "cannot rename " + temp + " to " + path + ": " + why;
  }
  return "";
}

std::string make_directories(const std::string& path) {
  std::error_code ec;
  std::filesystem::create_directories(path, ec);
  if (ec) return "cannot create " + path + ": " + ec.message();
  return "";
}

}  // namespace hwaccel::cli
