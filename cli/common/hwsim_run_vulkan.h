// `hwsim run` and Vulkan: the loader finds only the simulated host's driver. A
// host whose snapshot lists Vulkan devices gets the snapshot-backed driver
// (vulkan/, libhwsim_vulkan.so and its manifest); a host without gets none, so
// the loader fails as it does with no driver. Either way this machine's own
// drivers and implicit layers stay out: the run sets the loader's variables.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "src/host/sandbox_runner.h"
#include "src/snapshot/snapshot.h"

namespace hwaccel::cli {

// The Vulkan loader's variables for the snapshot's host, with the tree at `tree`:
// this machine's drivers and implicit layers out, the simulated driver's
// manifest in where the host had a driver that lists a device (else a file that
// is not there: the loader finds none).
struct VulkanEnvironment {
  std::vector<std::string> unset;            // this machine's, dropped
  std::map<std::string, std::string> set;    // VK_DRIVER_FILES, ...
  bool has_driver = false;                   // the host had one
  std::string manifest;                      // the simulated driver's; "" when none found
};
VulkanEnvironment vulkan_environment(const Snapshot& snapshot, const std::string& tree);
// The same where whether the host had a driver is known (`hwsim run`'s plan).
VulkanEnvironment vulkan_environment(bool has_driver, const std::string& tree);

// The loader's variables in spec.env; with the driver presented and a real
// vulkaninfo on `real_path`, the vulkaninfo shim steps aside (in the namespace)
// so that the real one asks the driver. Lines for the user go to stderr.
// `has_driver`: the host had one (sim::RunPlan::vulkan_driver); `vulkaninfo_missing`:
// the snapshot records vulkaninfo as not found.
void simulate_vulkan(bool has_driver, bool vulkaninfo_missing, SandboxSpec& spec,
                     const std::string& real_path, bool verbose);

// Whether the snapshot's host has a Vulkan driver that lists a device: hwaccel's
// vulkan probe replayed over it lists one (hardware or software renderer).
bool host_has_vulkan_driver(const Snapshot& snapshot);

}  // namespace hwaccel::cli
