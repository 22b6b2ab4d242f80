// Would the Vulkan loader find a driver? It finds drivers only through their
// manifests (ICD .json files) in a fixed list of places; with none there,
// `vulkaninfo` starts only to fail ("Found no drivers!", 5 ms on a small VM).
// The probe looks for manifests first and runs vulkaninfo only when one is
// there, or when it cannot tell.
//
// The places, in the loader's order on Linux (Vulkan-Loader's
// LoaderDriverInterface.md, "Driver Discovery on Linux"):
//   VK_DRIVER_FILES (or the older VK_ICD_FILENAMES): files or folders, colon
//   separated; when set, the only places searched. Otherwise each of these
//   with "/vulkan/icd.d" appended:
//     $XDG_CONFIG_HOME (else $HOME/.config), $XDG_CONFIG_DIRS (else /etc/xdg),
//     /usr/local/etc and /etc (the loader's SYSCONFDIR and EXTRASYSCONFDIR:
//     upstream and distribution builds differ), $XDG_DATA_HOME (else
//     $HOME/.local/share), $XDG_DATA_DIRS (else /usr/local/share:/usr/share),
//     and /run/opengl-driver/share (NixOS's loader adds it);
//   then VK_ADD_DRIVER_FILES, files or folders.
// Extra places only make the probe run vulkaninfo more often, never less.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "src/host/host.h"

namespace hwaccel {

enum class IcdSearchResult {
  found,    // a manifest (or a file named by VK_DRIVER_FILES) is there
  none,     // every place answered: nothing there
  unknown,  // a place could not be read, is relative, or a replayed snapshot
            // was recorded before anyone looked there
};

struct IcdSearch {
  IcdSearchResult result = IcdSearchResult::unknown;
  std::vector<std::string> places;     // where the loader would look, in its order
  std::string variable;                // "VK_DRIVER_FILES" etc. when it chose the places
  std::vector<std::string> manifests;  // every manifest found, in the loader's order
};

// Only the Linux loader's places: call it for facts().os == "linux".
IcdSearch find_vulkan_icd_manifests(Host& host);

// The backend line when the search found none: what was searched, briefly.
std::string no_icd_manifest_reason(const IcdSearch& search);

// A driver that renders on the CPU, known from its manifest's library_path:
// Mesa's lavapipe (libvulkan_lvp.so: the "llvmpipe" device) or Google's
// SwiftShader (libvk_swiftshader.so). Each lists one device, the CPU itself.
struct SoftwareIcd {
  std::string manifest;  // the file
  std::string renderer;  // "llvmpipe", "SwiftShader"
  std::string vendor;    // "Mesa", "Google"
  std::string driver;    // "lavapipe", "SwiftShader"
};

// What the installed drivers would list, when that is certain without running
// vulkaninfo (40 ms for llvmpipe here): software renderers list the CPU, and
// Mesa's hardware drivers (RADV, ANV, NVK, Turnip, ...) list only GPUs behind
// a DRM render node, so with no /sys/class/drm/renderD* they list nothing.
// That is the usual machine without a GPU that has mesa-vulkan-drivers.
struct KnownDevices {
  std::vector<SoftwareIcd> software;      // in the loader's order
  std::vector<std::string> idle_drivers;  // Mesa hardware drivers with no render node: "RADV"
};

// A manifest is a few hundred bytes; one past this is not parsed.
inline constexpr std::size_t kMaxIcdManifestBytes = std::size_t{1} << 20;

// nullopt when any manifest is, or may be, a driver that could list a device
// (NVIDIA's, AMDVLK, Dozen on WSL, anything unknown), cannot be read or is not
// JSON, or when a DRM render node exists (or /sys/class/drm cannot be read).
// A manifest larger than kMaxIcdManifestBytes or nested deeper than
// kMaxJsonDepth (anyone can put one in ~/.local/share/vulkan/icd.d; 60,000
// levels overflowed the stack) is not looked into: one line in `problems`
// names it and what was expected, and the answer is nullopt (vulkaninfo runs).
std::optional<KnownDevices> known_without_vulkaninfo(Host& host, const IcdSearch& search,
                                                     std::vector<std::string>* problems = nullptr);

}  // namespace hwaccel
