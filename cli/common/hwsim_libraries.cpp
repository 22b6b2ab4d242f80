#include "cli/common/hwsim_libraries.h"

#include <algorithm>
#include <iostream>
#include <vector>

#include "cli/common/hwsim_run_vulkan.h"
#include "sim/nvidia_software.h"
#include "sim/shim_script.h"
#include "src/host/live_host.h"

namespace hwaccel::cli {

std::string simulated_library_file(const char* env_var, const std::string& name) {
  LiveHost live;
  auto usable = [&](const std::string& path) {
    return !path.empty() && path[0] == '/' && live.stat(path).ok();
  };
  if (auto given = live.env(env_var); given && usable(*given)) return *given;
  auto exe = live.readlink("/proc/self/exe");
  if (!exe) return "";
  const std::string dir = exe.value().substr(0, exe.value().rfind('/'));
  if (usable(dir + "/" + name)) return dir + "/" + name;
#ifdef HWSIM_LIBRARY_DIR_FROM_BIN
  // Relative to the installed hwsim (CMake's BINDIR -> LIBDIR/hwaccel), so a
  // tree installed with `cmake --install --prefix P` or copied elsewhere works.
  const std::string installed = dir + "/" HWSIM_LIBRARY_DIR_FROM_BIN "/" + name;
  if (usable(installed)) return installed;
#endif
  return "";
}

// Where NVIDIA's Debian/Ubuntu packages put the library, for this machine's loader.
#if defined(__aarch64__)
constexpr const char* kNvmlDir = "/usr/lib/aarch64-linux-gnu";
#else
constexpr const char* kNvmlDir = "/usr/lib/x86_64-linux-gnu";
#endif

namespace {

// Binds the simulated `soname` (found as simulated_library_file does) at NVIDIA's
// path, and its development link; says so with -v, and says what is not covered
// when the library is missing.
void simulate_library(MaskSpec& masks, bool use_namespace, bool verbose, const char* what,
                      const char* variable, const char* soname, const char* dev_link) {
  std::string library = simulated_library_file(variable, soname);
  if (library.empty()) {
    std::cerr << "hwsim run: not covered: " << what << ": no simulated " << soname
              << " beside hwsim or in its library folder (set " << variable
              << "): programs load this machine's, if any\n";
    return;
  }
  for (const char* name : {soname, dev_link})
    masks.bind_in[std::string(kNvmlDir) + "/" + name] = library;
  if (use_namespace && verbose)
    std::cerr << "hwsim run: " << what << " is simulated: " << kNvmlDir << "/" << soname
              << " answers from the snapshot (" << library << ")\n";
}

}  // namespace

// Programs that load NVML see the snapshot's GPUs, not this machine's (or none).
// Said with -v (a run where everything is covered prints nothing). The simulated
// libnvidia-ml.so.1: nvml/, docs/nvml.md.
void simulate_nvml(MaskSpec& masks, bool use_namespace, bool verbose) {
  simulate_library(masks, use_namespace, verbose, "NVML", "HWSIM_NVML_LIBRARY", "libnvidia-ml.so.1",
                   "libnvidia-ml.so");
}

// Programs that load the CUDA driver (runtimes, Numba, Ollama) see the snapshot's
// GPUs through it, at the path NVIDIA's packages put it (libcuda.so.1, and the
// libcuda.so development link some dlopen). The simulated libcuda.so.1: cuda/,
// docs/cuda.md.
void simulate_cuda(MaskSpec& masks, bool use_namespace, bool verbose) {
  simulate_library(masks, use_namespace, verbose, "CUDA", "HWSIM_CUDA_LIBRARY", "libcuda.so.1",
                   "libcuda.so");
}

// A host without NVIDIA's software has no libnvidia-ml.so.1 or libcuda.so.1 to
// load: this machine's, if any, are hidden, so dlopen fails as it did there
// (not a library that answers "driver not loaded", which a device plugin reads
// as a broken driver).
void hide_nvidia_libraries(MaskSpec& masks, bool use_namespace, bool verbose,
                           const std::string& why) {
  for (const char* name :
       {"/libnvidia-ml.so.1", "/libnvidia-ml.so", "/libcuda.so.1", "/libcuda.so"})
    masks.hide.push_back(std::string(kNvmlDir) + name);
  if (use_namespace && verbose)
    std::cerr << "hwsim run: NVML and CUDA: the host had no NVIDIA software (" << why
              << "): no libnvidia-ml.so.1 or libcuda.so.1 at " << kNvmlDir << "\n";
}

// env.sh's part for the vendor libraries: a shell on this machine, outside any
// namespace, gets the simulated host's Vulkan driver (or none) as `hwsim run`
// gives it, and the simulated libnvidia-ml.so.1 and libcuda.so.1 ahead of
// this machine's on LD_LIBRARY_PATH (where the host had NVIDIA's software).
// Paths enter through shim_quote only.
std::string libraries_env_sh(const Snapshot& snapshot, const std::string& root) {
  std::string s = "# The simulated vendor libraries (docs/hwsim.md, \"env.sh\").\n";
  s += "export HWSIM_ROOT=" + sim::shim_quote(root) + "\n";
  const VulkanEnvironment vulkan = vulkan_environment(snapshot, root);
  s += "unset";
  for (const auto& name : vulkan.unset) s += " " + name;
  s += "\n";
  for (const auto& [name, value] : vulkan.set)
    s += "export " + name + "=" + sim::shim_quote(value) + "\n";
  if (vulkan.has_driver && vulkan.manifest.empty())
    s += "# Vulkan: no simulated driver was found beside hwsim: programs find no driver.\n";
  if (auto nvidia = sim::nvidia_software(snapshot); !nvidia.present) {
    s += "# NVML and CUDA: the host had no NVIDIA software: nothing simulated; outside a\n"
         "# namespace this machine's libraries, if any, still load.\n";
    return s;
  }
  const std::string nvml = simulated_library_file("HWSIM_NVML_LIBRARY", "libnvidia-ml.so.1");
  const std::string cuda = simulated_library_file("HWSIM_CUDA_LIBRARY", "libcuda.so.1");
  std::vector<std::string> dirs;
  for (const auto& library : {nvml, cuda}) {
    if (library.empty()) continue;
    const std::string dir = library.substr(0, library.rfind('/'));
    if (std::find(dirs.begin(), dirs.end(), dir) == dirs.end()) dirs.push_back(dir);
  }
  if (nvml.empty() || cuda.empty())
    s += "# NVML or CUDA: no simulated library was found beside hwsim.\n";
  if (dirs.empty()) return s;
  std::string path;
  for (const auto& dir : dirs) path += (path.empty() ? "" : ":") + sim::shim_quote(dir);
  s += "export LD_LIBRARY_PATH=" + path + "${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}\n";
  return s;
}

}  // namespace hwaccel::cli
