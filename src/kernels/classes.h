// Resolving a hardware class along its `inherits` chain: flags, compiled
// modules, expected absences, settings (and which of them the class changed)
// and the tensor-core policy (the nearest class that states one).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "src/kernels/guard_expr.h"
#include "src/kernels/tree.h"

namespace hwaccel::kernels {

struct SettingChange {
  std::string key;
  std::string value;
  std::string was;  // "" when no ancestor set it
  std::string cls;  // the class that set it
};

struct ResolvedClass {
  std::vector<std::string> chain;                  // the class first, then its ancestors
  std::vector<std::string> flags;                  // ancestors' flags first, in order
  MacroSet defined;                                // after applying the flags in order
  std::map<std::string, std::string> flag_origin;  // macro -> "sm90: -DX"
  std::set<std::string> undefined;                 // macros a -U flag removed
  std::set<std::string> modules;
  std::map<std::string, std::string> module_removed;  // module -> class that removed it
  std::map<std::string, std::pair<std::string, std::string>>
      expected_absent;  // kernel -> class, why
  std::map<std::string, std::string> settings;
  std::vector<SettingChange> changed;  // settings the class itself changed, by key
  std::string policy_class;            // "" when no class of the chain has a policy
  std::vector<std::string> policy_ops;
  std::map<std::string, std::string> policy_exempt;
};

struct ResolveResult {
  std::optional<ResolvedClass> resolved;
  std::string error;  // an unknown class, or a cycle named in full
};

ResolveResult resolve_class(const KernelTree& tree, const std::string& cls);

}  // namespace hwaccel::kernels
