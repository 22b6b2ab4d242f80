// Shared helpers for the end-to-end tests of hwaccel and hwsim.
#pragma once

#include <sys/stat.h>
#include <fstream>
#include <string>

#include "tests/support/run_command.h"
#include "tests/support/test_support.h"

namespace hwaccel::testing {

inline void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// A directory holding one executable `nvidia-smi` with the given shell body;
// returns a PATH value that finds it first and the system's tools after it.
inline std::string fake_tool_path(const std::string& dir, const std::string& body) {
  std::string tool = dir + "/nvidia-smi";
  write_text(tool, "#!/bin/sh\n" + body + "\n");
  ::chmod(tool.c_str(), 0755);
  return dir + ":/usr/bin:/bin";
}

inline std::string quote(const std::string& s) {
  return "'" + s + "'";
}

}  // namespace hwaccel::testing
