#include "src/probe/cuda_container_access.h"

#include <algorithm>

#include "src/probe/cuda_kernel_entries.h"
#include "src/probe/nvidia_visible_devices.h"
#include "src/system/cgroup_devices.h"
#include "src/vocabulary/text_util.h"

namespace hwaccel {
namespace {

constexpr unsigned kFirstControlMinor = 254;  // 254 nvidia-modeset, 255 nvidiactl
constexpr std::size_t kMaxDirectoryNames = 64;

// An entry this file may explain: kernel-only, the nvidia driver holds it, and
// the tool did not list it (or gave no GPU at all).
bool explainable(const Entry& e, const KernelGpu* gpu) {
  if (e.backend != "cuda" || e.partition || e.status != EntryStatus::unavailable || !gpu ||
      !e.reason)
    return false;
  if (gpu->driver != "nvidia" && !gpu->module_holds) return false;
  return e.reason->code == ReasonCode::probe_failed || e.reason->code == ReasonCode::no_device ||
         e.reason->code == ReasonCode::tool_not_found;
}

std::string minors_text(const std::vector<unsigned>& minors) {
  std::string text;
  for (unsigned m : minors) {
    if (!text.empty()) text += ", ";
    text += "c " + std::to_string(kNvidiaCharMajor) + ":" + std::to_string(m);
  }
  return text;
}

// Everything read once, only when some entry needs it.
struct Evidence {
  DeviceCgroup cgroup;
  std::optional<std::vector<unsigned>> allowed;  // GPU minors the rules allow one by one
  std::optional<std::string> visible_value;      // NVIDIA_VISIBLE_DEVICES as set
  NvidiaVisibleDevices visible;
  std::vector<std::string> directory_names;  // the volume-mounts strategy's files
  int listed = 0;                            // whole GPUs nvidia-smi lists
  bool procfs_is_the_listed = false;         // the module's folders are the listed GPUs only
};

Evidence gather(Host& host, const std::vector<KernelGpu>& bus, const ProbeResult& result) {
  Evidence ev;
  ev.cgroup = read_device_cgroup(host);
  if (ev.cgroup.version == 1) {
    ev.allowed = allowed_char_minors(ev.cgroup.rules, kNvidiaCharMajor);
    if (ev.allowed)
      ev.allowed->erase(std::remove_if(ev.allowed->begin(), ev.allowed->end(),
                                       [](unsigned m) { return m >= kFirstControlMinor; }),
                        ev.allowed->end());
  }
  ev.visible_value = host.env("NVIDIA_VISIBLE_DEVICES");
  if (ev.visible_value) ev.visible = parse_nvidia_visible_devices(*ev.visible_value);
  if (ev.visible.kind == NvidiaVisibleDevices::Kind::directory)
    if (auto names = host.list(ev.visible.directory)) {
      for (const auto& name : *names)
        if (ev.directory_names.size() < kMaxDirectoryNames)
          ev.directory_names.push_back(printable_line(name, 80));
      std::sort(ev.directory_names.begin(), ev.directory_names.end());
    }
  std::vector<std::string> listed_buses;
  for (const auto& e : result.entries)
    if (e.backend == "cuda" && !e.partition && e.status == EntryStatus::ready) {
      ++ev.listed;
      listed_buses.push_back(e.pci_bus_id);
    }
  int held = 0;
  bool held_unlisted = false;
  for (const auto& gpu : bus) {
    if (gpu.address.empty() || !gpu.module_holds) continue;
    ++held;
    held_unlisted |=
        std::find(listed_buses.begin(), listed_buses.end(), gpu.address) == listed_buses.end();
  }
  ev.procfs_is_the_listed = held > 0 && !held_unlisted;
  return ev;
}

// The GPU's minor: its information file (read here when the probe did not).
std::optional<unsigned> minor_of(Host& host, const KernelGpu& gpu, std::string& uuid) {
  std::optional<NvidiaGpuInformation> info = gpu.info;
  if (!info && gpu.module_holds)
    if (auto text = host.read(std::string(kNvidiaProcGpus) + "/" + gpu.address + "/information"))
      info = parse_nvidia_gpu_information(*text);
  if (!info) return std::nullopt;
  uuid = info->uuid;
  return info->minor;
}

bool names_gpu(const std::vector<std::string>& tokens, const std::string& uuid) {
  return !uuid.empty() && std::find(tokens.begin(), tokens.end(), uuid) != tokens.end();
}

std::string visible_text(const Evidence& ev) {
  std::string text = "NVIDIA_VISIBLE_DEVICES=" + printable_line(*ev.visible_value, 160);
  if (ev.visible.kind == NvidiaVisibleDevices::Kind::directory) {
    std::string names;
    for (const auto& n : ev.directory_names) names += (names.empty() ? "" : ",") + n;
    text += names.empty() ? " (no device files in it)" : " (device files " + names + ")";
  }
  return text;
}

// Why the process may not use `gpu`; empty when nothing says so.
std::vector<std::string> why_not(Host& host, const Evidence& ev, const KernelGpu& gpu,
                                 const Entry& e, std::vector<std::string>& provenance) {
  std::vector<std::string> parts;
  std::string uuid = e.uuid;
  std::string info_uuid;
  const auto minor = minor_of(host, gpu, info_uuid);
  if (uuid.empty()) uuid = info_uuid;
  if (ev.cgroup.version == 1) {
    std::string denied;
    if (minor && !char_device_allowed(ev.cgroup.rules, kNvidiaCharMajor, *minor))
      denied = "device cgroup denies c " + std::to_string(kNvidiaCharMajor) + ":" +
               std::to_string(*minor) + " (" + ev.cgroup.file + ")";
    else if (!minor && ev.allowed && ev.allowed->empty())
      denied = "device cgroup allows no /dev/nvidiaN (" + ev.cgroup.file + ")";
    else if (!minor && ev.allowed && int(ev.allowed->size()) == ev.listed)
      denied = "device cgroup allows only " + minors_text(*ev.allowed) + " (" + ev.cgroup.file +
               "), the " + std::to_string(ev.listed) + " GPU(s) nvidia-smi lists";
    if (!denied.empty()) {
      parts.push_back(denied);
      provenance.push_back("file:" + ev.cgroup.file);
    }
  }
  using Kind = NvidiaVisibleDevices::Kind;
  const bool listed_some = ev.listed > 0;
  if (ev.visible.kind == Kind::none && !listed_some)
    parts.push_back("NVIDIA_VISIBLE_DEVICES=none (the container was given no GPU)");
  else if (ev.visible.kind == Kind::list && listed_some && !names_gpu(ev.visible.tokens, uuid))
    parts.push_back(visible_text(ev));
  else if (ev.visible.kind == Kind::directory && listed_some &&
           !names_gpu(ev.directory_names, uuid))
    parts.push_back(visible_text(ev));
  if (parts.empty() && listed_some && !gpu.module_holds && ev.procfs_is_the_listed)
    parts.push_back(std::string(kNvidiaProcGpus) + " shows only the " + std::to_string(ev.listed) +
                    " GPU(s) nvidia-smi lists (a container toolkit mounts only the GPUs it gives)");
  return parts;
}

}  // namespace

void cuda_mark_gpus_not_for_this_process(Host& host, const std::vector<KernelGpu>& bus,
                                         ProbeResult& result) {
  std::vector<std::size_t> candidates;
  for (std::size_t i = 0; i < result.entries.size(); ++i)
    if (explainable(result.entries[i], cuda_find_kernel_gpu(bus, result.entries[i].pci_bus_id)))
      candidates.push_back(i);
  if (candidates.empty()) return;

  const Evidence ev = gather(host, bus, result);
  for (std::size_t i : candidates) {
    Entry& e = result.entries[i];
    const KernelGpu& gpu = *cuda_find_kernel_gpu(bus, e.pci_bus_id);
    std::vector<std::string> provenance;
    auto parts = why_not(host, ev, gpu, e, provenance);
    if (parts.empty()) {
      // Only where nvidia-smi lists others: a missing tool is its own reason.
      if (ev.cgroup.version == 2 && e.reason->code == ReasonCode::probe_failed && ev.listed > 0)
        e.reason->detail += "; " + ev.cgroup.note + ", so whether it denies this GPU is unknown";
      continue;
    }
    std::string detail = "not visible to this process: ";
    for (std::size_t p = 0; p < parts.size(); ++p) detail += (p ? "; " : "") + parts[p];
    e.reason = Reason{ReasonCode::not_visible, detail};
    for (auto& place : provenance) e.provenance.push_back(std::move(place));
  }
  // No GPU listed and none of the kernel's for this process: the backend says why.
  const bool none_for_us =
      !result.entries.empty() &&
      std::all_of(result.entries.begin(), result.entries.end(), [](const Entry& e) {
        return e.reason && e.reason->code == ReasonCode::not_visible;
      });
  if (!result.backend.ready && none_for_us) result.backend.reason = result.entries.front().reason;
}

}  // namespace hwaccel
