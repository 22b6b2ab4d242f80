// A kernel tree (docs/kernel-tree.md): DEVICES.toml, one folder per hardware
// class with HARDWARE.toml, kernel sources (.cu), FUSIONS.toml and
// KERNEL_FAMILIES.toml. Parsed from texts the caller read (through the Host:
// load_tree); everything is sorted by name, so the order of files or entries
// never shows in a report.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "src/host/host.h"
#include "src/kernels/source_scan.h"
#include "src/plan/catalogue.h"

namespace hwaccel::kernels {

struct HardwareClass {
  std::string name;                  // the folder: "sm90"
  std::string inherits;              // "" at the root of a chain
  std::string target;                // "sm_90a"
  std::vector<std::string> flags;    // "-DHWACCEL_HAS_WGMMA", "-DHWACCEL_ARCH=900", "-UX"
  std::vector<std::string> modules;  // sources compiled for the class (added to the parent's)
  std::vector<std::string> remove_modules;             // parent modules not compiled here
  std::map<std::string, std::string> expected_absent;  // kernel -> why
  std::map<std::string, std::string> defaults;         // settings
  bool has_policy = false;
  std::vector<std::string> policy_ops;               // ops that must run on tensor cores
  std::map<std::string, std::string> policy_exempt;  // node -> why
  std::string file;                                  // "sm90/HARDWARE.toml"
};

struct FusionRule {
  std::string id;
  std::string cls;                          // the class that defines it (inherited down the chain)
  std::vector<std::string> ops;             // the pattern: op kinds in decode order
  std::string format;                       // for gemm ops: the weight format they take
  std::string runs_as;                      // and the compute format ("" = any)
  int priority = 0;                         // among rules of one length: higher first
  std::map<std::string, std::string> when;  // settings that must hold
  std::vector<std::string> kernels;
  std::string location;
};

struct Family {
  std::string id;
  std::string op;
  bool tensor_cores = false;
  std::vector<std::string> kernels;
};

struct KernelTree {
  std::string root;  // as given
  plan::Catalogue devices;
  std::map<std::string, HardwareClass> classes;
  std::vector<FusionRule> rules;                            // sorted by id
  std::map<std::string, std::vector<std::string>> removed;  // class -> rule ids removed there
  std::map<std::string, Family> families;
  std::map<std::string, std::string> family_of;  // kernel -> family id
  std::map<std::string, KernelDef> kernels;      // by name (unique in the tree)
  std::vector<std::string> sources;              // every .cu, sorted
};

struct TreeResult {
  std::optional<KernelTree> tree;
  std::string error;  // FILE:LINE:COL: what was expected
};

// `files`: path inside the tree -> text. Paths ending in .toml or .cu count.
TreeResult parse_tree(const std::map<std::string, std::string>& files, const std::string& root);

// Reads DIR through the host: every .toml and .cu below it (plans/ skipped).
// Symbolic links are not followed: each one is a note, the walk never leaves DIR.
struct FilesResult {
  std::map<std::string, std::string> files;
  std::string error;
  std::vector<std::string> notes;  // what was left out, and why
};
FilesResult read_tree_files(Host& host, const std::string& dir);

}  // namespace hwaccel::kernels
