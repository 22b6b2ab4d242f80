// A unified diff of two texts by lines, as `diff -u` prints it, for `hwsim
// check` to show what changed against a golden file.
#pragma once

#include <string>

namespace hwaccel::sim {

// Empty when the texts are equal. `context` lines around each change.
std::string unified_diff(const std::string& expected, const std::string& actual,
                         const std::string& expected_label, const std::string& actual_label,
                         int context = 3);

}  // namespace hwaccel::sim
