// Numbers from version strings, for labels a node selector compares with
// Gt/Lt: a compute class's major/minor (sm_90 -> 9/0, gfx942 -> 9/4, gfx1100
// -> 11/0) and a driver's major/minor/rev (550.54.15, 6.8.5, "Mesa 24.0.5").
#pragma once

#include <optional>
#include <string>

namespace hwaccel {

struct ComputeVersion {
  std::string major, minor;
};
std::optional<ComputeVersion> compute_version(const std::string& compute_class);

struct DriverVersion {
  std::string major, minor, rev;  // rev empty when the driver has two numbers
};
std::optional<DriverVersion> driver_version_numbers(const std::string& version);

}  // namespace hwaccel
