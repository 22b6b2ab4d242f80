// Where `hwsim run` finds the simulated vendor libraries it presents to programs
// (libnvidia-ml.so.1, libcuda.so.1, the Vulkan driver's manifest).
#pragma once

#include <string>

namespace hwaccel::cli {

// `name` as the user's $`env_var` names it (an absolute path that exists), else
// beside this hwsim (a build folder), else in hwaccel's private library folder
// found from this hwsim's own place (BINDIR/../LIBDIR/hwaccel as installed: an
// install moved to another prefix finds its own libraries, never the
// configure-time prefix's); "" when none.
std::string simulated_library_file(const char* env_var, const std::string& name);

}  // namespace hwaccel::cli
