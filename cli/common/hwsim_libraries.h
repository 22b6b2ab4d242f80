// Where `hwsim run` finds the simulated vendor libraries it presents to programs
// (libnvidia-ml.so.1, libcuda.so.1, the Vulkan driver's manifest).
#pragma once

#include <string>

#include "src/host/sandbox_mask.h"
#include "src/snapshot/snapshot.h"

namespace hwaccel::cli {

// `name` as the user's $`env_var` names it (an absolute path that exists), else
// beside this hwsim (a build folder), else in hwaccel's private library folder
// found from this hwsim's own place (BINDIR/../LIBDIR/hwaccel as installed: an
// install moved to another prefix finds its own libraries, never the
// configure-time prefix's); "" when none.
std::string simulated_library_file(const char* env_var, const std::string& name);

// Under `hwsim run`'s namespace: the simulated libnvidia-ml.so.1 / libcuda.so.1
// bound at the loader's path (NVIDIA's Debian/Ubuntu folder). Lines for the user
// go to stderr ("not covered" when no library is found; with -v, what is bound).
void simulate_nvml(MaskSpec& masks, bool use_namespace, bool verbose);
void simulate_cuda(MaskSpec& masks, bool use_namespace, bool verbose);

// A host without NVIDIA's software (sim/nvidia_software.h): this machine's
// libnvidia-ml and libcuda hidden, so dlopen fails as it did there.
void hide_nvidia_libraries(MaskSpec& masks, bool use_namespace, bool verbose,
                           const std::string& why);

// `hwsim materialize`'s env.sh lines for the vendor libraries, tree at `root`.
std::string libraries_env_sh(const Snapshot& snapshot, const std::string& root);

}  // namespace hwaccel::cli
