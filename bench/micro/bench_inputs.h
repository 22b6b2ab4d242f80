// Inputs for the micro-benchmarks: fixture files and tool outputs, read once
// (benchmarks may touch the disk; the code they measure does not).
#pragma once

#include <fstream>
#include <sstream>
#include <string>

#include "src/snapshot/snapshot.h"

namespace hwaccel::bench {

inline std::string slurp(const std::string& relative) {
  std::ifstream in(std::string(HWACCEL_SOURCE_DIR) + "/" + relative, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// One tool's recorded stdout in a fixture, by its first argument prefix.
inline std::string tool_output(const Snapshot& s, const std::string& argv_prefix) {
  for (const auto& [argv, tool] : s.tools) {
    std::string joined;
    for (const auto& a : argv) joined += (joined.empty() ? "" : " ") + a;
    if (joined.rfind(argv_prefix, 0) == 0) return tool.run.out;
  }
  return "";
}

}  // namespace hwaccel::bench
