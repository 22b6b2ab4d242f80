#include "src/probe/vulkan_icd_manifests.h"

#include <algorithm>
#include <cerrno>
#include <iterator>
#include <string_view>
#include <utility>

#include <nlohmann/json.hpp>

#include "src/probe/json_nesting.h"
#include "src/vocabulary/text_util.h"

namespace hwaccel {
namespace {

constexpr std::string_view kIcdSuffix = "/vulkan/icd.d";

std::optional<std::string> set_value(Host& host, const char* name) {
  auto value = host.env(name);
  if (!value || value->empty()) return std::nullopt;
  return value;
}

void add_paths(std::vector<std::string>& out, std::string_view list, std::string_view suffix) {
  for (auto part : split(list, ':'))
    if (!part.empty()) out.push_back(std::string(part) + std::string(suffix));
}

// An XDG variable's folders, or its default when unset or empty.
void add_xdg(Host& host, std::vector<std::string>& out, const char* variable,
             const std::string& fallback) {
  auto value = set_value(host, variable);
  add_paths(out, value ? *value : fallback, kIcdSuffix);
}

bool is_manifest_name(std::string_view name) {
  return name.size() > 5 && name.substr(name.size() - 5) == ".json";
}

// One place: a folder (its *.json files) or, when named by a variable, a file.
// Adds the manifests it holds to `found`.
IcdSearchResult look(Host& host, const std::string& place, std::vector<std::string>& found) {
  if (place.empty() || place.front() != '/' || !host.knows(place)) return IcdSearchResult::unknown;
  auto names = host.list(place);
  if (names) {
    std::size_t before = found.size();
    for (const auto& n : *names)
      if (is_manifest_name(n)) found.push_back(place + "/" + n);
    return found.size() > before ? IcdSearchResult::found : IcdSearchResult::none;
  }
  if (names.error().code == ENOTDIR) {  // a file: the loader tries it
    found.push_back(place);
    return IcdSearchResult::found;
  }
  if (names.error().code == ENOENT) return IcdSearchResult::none;
  return IcdSearchResult::unknown;  // EACCES and the like: vulkaninfo may see more
}

}  // namespace

IcdSearch find_vulkan_icd_manifests(Host& host) {
  IcdSearch search;
  std::optional<std::string> only;
  for (const char* variable : {"VK_DRIVER_FILES", "VK_ICD_FILENAMES"}) {
    if ((only = set_value(host, variable))) {
      search.variable = variable;
      break;
    }
  }
  if (only) {
    add_paths(search.places, *only, "");
  } else {
    auto home = set_value(host, "HOME");
    add_xdg(host, search.places, "XDG_CONFIG_HOME", home ? *home + "/.config" : "");
    add_xdg(host, search.places, "XDG_CONFIG_DIRS", "/etc/xdg");
    add_paths(search.places, "/usr/local/etc:/etc", kIcdSuffix);
    add_xdg(host, search.places, "XDG_DATA_HOME", home ? *home + "/.local/share" : "");
    add_xdg(host, search.places, "XDG_DATA_DIRS", "/usr/local/share:/usr/share");
    add_paths(search.places, "/run/opengl-driver/share", kIcdSuffix);
    if (auto more = set_value(host, "VK_ADD_DRIVER_FILES")) add_paths(search.places, *more, "");
  }
  // A folder named twice is looked at once.
  std::vector<std::string> unique;
  for (auto& p : search.places)
    if (std::find(unique.begin(), unique.end(), p) == unique.end()) unique.push_back(std::move(p));
  search.places = std::move(unique);

  bool unknown = search.places.empty() && only.has_value();
  for (const auto& place : search.places)
    if (look(host, place, search.manifests) == IcdSearchResult::unknown) unknown = true;
  search.result = !search.manifests.empty() ? IcdSearchResult::found
                  : unknown                 ? IcdSearchResult::unknown
                                            : IcdSearchResult::none;
  return search;
}

std::string no_icd_manifest_reason(const IcdSearch& search) {
  if (!search.variable.empty()) {
    std::string named;
    for (const auto& p : search.places) named += (named.empty() ? "" : ":") + p;
    return search.variable + "=" + printable_line(named, 120) +
           " names no manifest that is there (vulkaninfo not run)";
  }
  // The two folders where distribution packages install manifests, then a count.
  std::vector<std::string> shown;
  for (const char* usual : {"/usr/share/vulkan/icd.d", "/etc/vulkan/icd.d"})
    if (std::find(search.places.begin(), search.places.end(), usual) != search.places.end())
      shown.push_back(usual);
  std::string text = "no Vulkan driver manifest (ICD *.json) in ";
  for (std::size_t i = 0; i < shown.size(); ++i) text += (i ? ", " : "") + shown[i];
  std::size_t others = search.places.size() - shown.size();
  if (others > 0)
    text += (shown.empty() ? "" : " or ") + std::to_string(others) + " other folder" +
            (others == 1 ? "" : "s") + " the loader searches";
  return text + " (vulkaninfo not run)";
}

std::optional<KnownDevices> known_without_vulkaninfo(Host& host, const IcdSearch& search,
                                                     std::vector<std::string>* problems) {
  auto problem = [&](const std::string& manifest, const std::string& what) {
    if (problems)
      problems->push_back("driver manifest " + printable_line(manifest, 200) + ": " + what +
                          "; expected a small JSON object {\"ICD\": {\"library_path\": ...}} "
                          "(not read; vulkaninfo decides)");
    return std::nullopt;
  };
  if (search.result != IcdSearchResult::found) return std::nullopt;
  // Mesa's drivers that drive a GPU through its DRM render node, by library.
  static const std::pair<std::string_view, std::string_view> kDrmDrivers[] = {
      {"libvulkan_radeon.", "RADV"},          {"libvulkan_intel.", "ANV"},
      {"libvulkan_intel_hasvk.", "HASVK"},    {"libvulkan_nouveau.", "NVK"},
      {"libvulkan_freedreno.", "Turnip"},     {"libvulkan_panfrost.", "PanVK"},
      {"libvulkan_broadcom.", "V3DV"},        {"libvulkan_asahi.", "Honeykrisp"},
      {"libvulkan_powervr_mesa.", "PowerVR"}, {"libvulkan_virtio.", "Venus"}};
  KnownDevices known;
  const std::string arch = host.facts().arch;
  for (const auto& manifest : search.manifests) {
    auto text = host.read(manifest);
    if (!text && text.error().code == EFBIG)
      return problem(manifest, "larger than the " + std::to_string(kMaxIcdManifestBytes >> 20) +
                                   " MiB a manifest may be");
    if (!text && text.error().code == EINVAL && text.error().message.rfind(manifest + ": ", 0) == 0)
      return problem(manifest, text.error().message.substr(manifest.size() + 2));  // a FIFO...
    if (!text) return std::nullopt;
    if (text->size() > kMaxIcdManifestBytes)
      return problem(manifest, std::to_string(text->size()) + " bytes, larger than the " +
                                   std::to_string(kMaxIcdManifestBytes >> 20) +
                                   " MiB a manifest may be");
    // nlohmann parses any depth, but copying a value (value() below) recurses per level.
    if (auto deep = json_too_deep_at(*text))
      return problem(manifest, "nested more than " + std::to_string(kMaxJsonDepth) +
                                   " levels deep (line " +
                                   std::to_string(json_line_of(*text, *deep)) + ")");
    auto doc = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
    if (doc.is_discarded() || !doc.is_object() || !doc.contains("ICD") || !doc["ICD"].is_object())
      return std::nullopt;
    const auto& library = doc["ICD"].value("library_path", nlohmann::json());
    if (!library.is_string()) return std::nullopt;
    std::string name = library.get<std::string>();
    if (auto slash = name.rfind('/'); slash != std::string::npos) name.erase(0, slash + 1);
    // A multiarch install has a manifest per architecture (lvp_icd.x86_64.json,
    // lvp_icd.i686.json) for one driver: the loader loads the one that fits,
    // and Mesa names each by its architecture.
    auto add_software = [&](SoftwareIcd icd) {
      auto same = std::find_if(known.software.begin(), known.software.end(),
                               [&](const SoftwareIcd& s) { return s.renderer == icd.renderer; });
      if (same == known.software.end())
        known.software.push_back(std::move(icd));
      else if (icd.manifest.find("." + arch + ".") != std::string::npos)
        *same = std::move(icd);
    };
    if (name.rfind("libvulkan_lvp.", 0) == 0) {
      add_software({manifest, "llvmpipe", "Mesa", "lavapipe"});
      continue;
    }
    if (name.rfind("libvk_swiftshader.", 0) == 0) {
      add_software({manifest, "SwiftShader", "Google", "SwiftShader"});
      continue;
    }
    auto drm = std::find_if(std::begin(kDrmDrivers), std::end(kDrmDrivers),
                            [&](const auto& d) { return name.rfind(d.first, 0) == 0; });
    if (drm == std::end(kDrmDrivers)) return std::nullopt;
    if (std::find(known.idle_drivers.begin(), known.idle_drivers.end(), drm->second) ==
        known.idle_drivers.end())
      known.idle_drivers.emplace_back(drm->second);
  }
  if (!known.idle_drivers.empty()) {
    auto nodes = host.list("/sys/class/drm");
    if (!nodes && nodes.error().code != ENOENT) return std::nullopt;
    if (nodes && std::any_of(nodes->begin(), nodes->end(),
                             [](const std::string& n) { return n.rfind("renderD", 0) == 0; }))
      return std::nullopt;
  }
  return known;
}

}  // namespace hwaccel
