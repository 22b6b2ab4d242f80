#include "cli/common/hwsim_run_vulkan.h"

#include <iostream>

#include "cli/common/hwsim_libraries.h"
#include "sim/materialize.h"
#include "sim/run_plan.h"
#include "src/host/process_runner.h"

namespace hwaccel::cli {
namespace {

constexpr const char* kManifest = "hwsim_vulkan_icd.json";

// The loader's variables that would add this machine's drivers or layers, or
// pick among drivers (Vulkan-Loader's LoaderInterfaceArchitecture.md, "Table of
// Debug Environment Variables"), and the driver's own input.
constexpr const char* kLoaderVariables[] = {
    "VK_DRIVER_FILES",          "VK_ICD_FILENAMES",          "VK_ADD_DRIVER_FILES",
    "VK_LOADER_DRIVERS_SELECT", "VK_LOADER_DRIVERS_DISABLE", "VK_LAYER_PATH",
    "VK_ADD_LAYER_PATH",        "VK_INSTANCE_LAYERS",        "VK_LOADER_LAYERS_ENABLE",
    "VK_LOADER_LAYERS_DISABLE", "HWSIM_VULKAN_SNAPSHOT",
};

}  // namespace

bool host_has_vulkan_driver(const Snapshot& snapshot) {
  return sim::snapshot_has_vulkan_driver(snapshot);
}

VulkanEnvironment vulkan_environment(const Snapshot& snapshot, const std::string& tree) {
  return vulkan_environment(host_has_vulkan_driver(snapshot), tree);
}

VulkanEnvironment vulkan_environment(bool has_driver, const std::string& tree) {
  VulkanEnvironment out;
  for (const char* name : kLoaderVariables) out.unset.push_back(name);
  // This machine's implicit layers (Mesa's device selection, overlays) are not the host's.
  out.set["VK_LOADER_LAYERS_DISABLE"] = "~implicit~";
  out.has_driver = has_driver;
  if (out.has_driver) out.manifest = simulated_library_file("HWSIM_VULKAN_ICD", kManifest);
  // Without a manifest, a file that is not there: the loader searches nothing
  // else and finds no driver.
  const std::string drivers =
      out.manifest.empty() ? tree + sim::kMetaDir + "/no-vulkan-driver.json" : out.manifest;
  out.set["VK_DRIVER_FILES"] = out.set["VK_ICD_FILENAMES"] = drivers;
  return out;
}

void simulate_vulkan(bool host_driver, bool vulkaninfo_missing, SandboxSpec& spec,
                     const std::string& real_path, bool verbose) {
  const VulkanEnvironment vulkan = vulkan_environment(host_driver, spec.tree);
  for (const auto& name : vulkan.unset) spec.env.erase(name);
  for (const auto& [name, value] : vulkan.set) spec.env[name] = value;
  const bool has_driver = vulkan.has_driver;
  const std::string& manifest = vulkan.manifest;
  // The real vulkaninfo asks the loader, as on the host; the shim (the recording,
  // or the emulator) steps aside. Not where the host has no vulkaninfo: that
  // shim answers "not found", and stays.
  // The PATH search last: where the host has no vulkaninfo (the fixtures' DGX) it
  // would only walk every folder of PATH again for nothing.
  const bool real = !vulkaninfo_missing && (!has_driver || !manifest.empty()) &&
                    find_executable("vulkaninfo", real_path).has_value();
  if (spec.use_namespace && real)
    spec.masks.hide.push_back(spec.tree + sim::kShimDir + "/vulkaninfo");
  if (manifest.empty()) {
    if (has_driver)
      std::cerr << "hwsim run: not covered: Vulkan: no simulated driver beside hwsim (set "
                   "HWSIM_VULKAN_ICD to hwsim_vulkan_icd.json): only the vulkaninfo shim "
                   "answers; other programs find no driver\n";
    return;
  }
  if (spec.use_namespace && verbose)
    std::cerr << "hwsim run: Vulkan is simulated: the loader finds only " << manifest
              << (real ? " (this machine's vulkaninfo asks it)" : "") << "\n";
}

}  // namespace hwaccel::cli
