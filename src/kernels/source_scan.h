// Reads a kernel source (.cu) for its `__global__` kernels and the stack of
// #if/#ifdef/#ifndef/#elif/#else regions around each definition. No
// evaluation here: a region is a list of conditions, each an expression that
// must be true or false for the code to be compiled.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace hwaccel::kernels {

struct Condition {
  std::string expr;       // "defined(HWACCEL_HAS_WGMMA)", "HWACCEL_ARCH >= 900"
  bool want = true;       // false: an earlier branch of an #if chain, which must be false
  std::string directive;  // "#ifdef HWACCEL_HAS_WGMMA" as written
  int line = 0;
  int column = 0;  // 1-based column where `expr` starts on that line
};

struct KernelDef {
  std::string name;
  std::string file;  // path inside the tree
  int line = 0;
  std::vector<Condition> conditions;  // outermost first
};

struct ScanResult {
  bool ok = false;
  std::vector<KernelDef> kernels;  // in source order
  std::string error;               // FILE:LINE:COL: what was expected
};

// Every #if expression is parsed here too, so an unparseable guard is an error
// of the tree, whatever the device.
ScanResult scan_source(std::string_view text, const std::string& file);

}  // namespace hwaccel::kernels
