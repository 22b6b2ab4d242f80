// The lines of /proc/cpuinfo that place a CPU: "processor", "physical id" and
// "core id", and the blank lines that end each CPU's block. Two readers want
// them in one detection (online_cpus when /sys has no CPU list, read_places in
// src/system/host_resources.cpp when it has no topology): the recorded DGX
// H100's 446 KB /proc/cpuinfo (224 CPUs, 6,272 lines) was walked twice for
// them. CpuinfoKeys reads the file and finds the keys once, on first use.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "src/host/host.h"
#include "src/host/tree_facts.h"

namespace hwaccel {

struct CpuinfoKey {
  enum class Kind : std::uint8_t { processor, package, core, blank };
  Kind kind = Kind::blank;
  std::string_view value;  // after the line's colon, as written (blank: empty)
};

// In the file's order. A key is the text before a line's first colon, trimmed;
// a blank line is one that trims to nothing.
std::vector<CpuinfoKey> find_cpuinfo_keys(std::string_view text);

class CpuinfoKeys {
 public:
  explicit CpuinfoKeys(const TreeFiles& tree) : tree_(tree) {}
  CpuinfoKeys(const CpuinfoKeys&) = delete;
  CpuinfoKeys& operator=(const CpuinfoKeys&) = delete;

  // The keys of the tree's /proc/cpuinfo (views into its text, kept here);
  // null when it cannot be read.
  const std::vector<CpuinfoKey>* get();

 private:
  const TreeFiles& tree_;
  bool read_ = false;
  std::optional<FileText> text_;
  std::vector<CpuinfoKey> keys_;
};

}  // namespace hwaccel
