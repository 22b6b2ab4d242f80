// `hwaccel export slurm`: gres.conf lines and the slurm.conf fragment that
// declares them on this node, one physical device once. Lines name the device
// node (File=), the CPUs near it (Cores=, from the topology tool's affinity)
// and its NVLink/xGMI peers (Links=, one per GPU of the same name, -1 itself).
// Devices of one type without Cores=/Links= share a line with a range
// (/dev/nvidia[0-7]).
#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <set>
#include <tuple>
#include <vector>

#include "src/export/device_files.h"
#include "src/export/fleet_exports.h"
#include "src/export/slurm_text.h"
#include "src/model/number_text.h"
#include "src/registry/selection.h"

namespace hwaccel {

namespace {

struct Declared {
  const Entry* entry;
  std::string name, type, file, cores;
};

// NVLink/xGMI lanes between two physical devices (0: none).
int link_lanes(const Detection& d, const std::string& a, const std::string& b) {
  for (const auto& l : d.links)
    if ((l.kind == "nvlink" || l.kind == "xgmi") &&
        ((l.a == a && l.b == b) || (l.a == b && l.b == a)))
      return l.lanes > 0 ? l.lanes : 1;
  return 0;
}

std::string reason_code(const Entry& e) {
  return std::string(to_string(e.reason ? e.reason->code : ReasonCode::probe_failed));
}

}  // namespace

std::string render_slurm(Host& host, const Detection& d, const SlurmOptions& options) {
  const auto devices = physical_devices(d);
  std::vector<std::string> notes;
  bool discrete_gpu = false;
  for (const auto& p : devices)
    if (p.entry->type == DeviceType::gpu && !p.integrated && p.ready()) discrete_gpu = true;

  std::vector<Declared> declared;
  std::vector<std::string> mig_gres;  // "gpu:3g.40gb:1"
  std::map<std::string, std::size_t> mig_counts;
  for (const auto& p : devices) {
    const Entry& e = *p.entry;
    if (!p.ready()) {
      notes.push_back(entry_label(e) + " left out: not ready (" + reason_code(e) + ")");
      continue;
    }
    if (!p.slices.empty()) {
      // Slurm 22.05+ schedules MIG instances as gpu GRES typed by profile; their
      // device files (/dev/nvidia-caps/nvidia-cap<N>) come from AutoDetect=nvml.
      for (const Entry* s : p.slices) ++mig_counts[s->partition->profile];
      notes.push_back(entry_label(e) + " is split into " + std::to_string(p.slices.size()) +
                      " MIG instances: their files come from AutoDetect=nvml (see below)");
      continue;
    }
    if (e.type == DeviceType::gpu && p.integrated && discrete_gpu && !options.igpu) {
      notes.push_back(entry_label(e) + " (" + e.name +
                      ") left out: an integrated GPU beside discrete ones "
                      "(--igpu declares it as gpu)");
      continue;
    }
    DeviceFile f = device_file(host, e);
    if (f.path.empty()) continue;
    if (f.assumed) notes.push_back(entry_label(e) + " " + f.path + ": " + f.source);
    declared.push_back(
        {&e, f.gres, slurm_type(e), f.path, slurm_cores(e.cpu_affinity, d.host.facts.cpus)});
  }

  // Links= per GRES name, in the order of the lines below.
  std::map<std::string, std::vector<const Declared*>> by_name;
  std::sort(declared.begin(), declared.end(), [](const Declared& a, const Declared& b) {
    return std::tie(a.name, a.type, a.file) < std::tie(b.name, b.type, b.file);
  });
  for (const auto& x : declared) by_name[x.name].push_back(&x);

  std::string gres;
  std::map<std::pair<std::string, std::string>, std::size_t> counts;
  for (const auto& [name, list] : by_name) {
    bool any_link = false;
    for (const auto* a : list)
      for (const auto* b : list)
        if (a != b && link_lanes(d, a->entry->physical_id, b->entry->physical_id)) any_link = true;
    // (type, cores) -> files, for the lines without Links=.
    std::map<std::pair<std::string, std::string>, std::vector<std::string>> shared;
    for (const auto* a : list) {
      ++counts[{name, a->type}];
      if (!any_link) {
        shared[{a->type, a->cores}].push_back(a->file);
        continue;
      }
      std::string links;
      for (const auto* b : list)
        links += (links.empty() ? "" : ",") +
                 std::string(a == b ? "-1"
                                    : std::to_string(link_lanes(d, a->entry->physical_id,
                                                                b->entry->physical_id)));
      gres += "Name=" + name + " Type=" + a->type + " File=" + a->file +
              (a->cores.empty() ? "" : " Cores=" + a->cores) + " Links=" + links + "\n";
    }
    for (const auto& [key, files] : shared)
      for (const auto& file : slurm_file_ranges(files))
        gres += "Name=" + name + " Type=" + key.first + " File=" + file +
                (key.second.empty() ? "" : " Cores=" + key.second) + "\n";
  }
  for (const auto& [profile, n] : mig_counts) counts[{"gpu", profile}] += n;
  if (!mig_counts.empty())
    notes.push_back(
        "MIG: add AutoDetect=nvml to this file (Slurm 22.05+ built with NVML) for the "
        "instances' device files");
  else
    notes.push_back(
        "AutoDetect is left to you: these lines are what it would find; with "
        "AutoDetect=nvml|rsmi, keep only the Name= lines it cannot see");
  for (const auto& n : notes) gres += "# " + n + "\n";

  std::vector<std::string> names;
  std::string node_gres;
  for (const auto& [key, count] : counts) {
    if (std::find(names.begin(), names.end(), key.first) == names.end()) names.push_back(key.first);
    node_gres +=
        (node_gres.empty() ? "" : ",") + key.first + ":" + key.second + ":" + std::to_string(count);
  }
  std::string node;
  if (!names.empty()) {
    std::string types;
    for (const auto& n : names) types += (types.empty() ? "" : ",") + n;
    node += "GresTypes=" + types + "\n";
    const std::string host_name =
        d.host.facts.hostname.empty() ? "NODENAME" : d.host.facts.hostname;
    node += "NodeName=" + host_name + " Gres=" + node_gres + "\n";
  } else {
    node += "# no ready accelerator: nothing to declare\n";
  }

  const std::string banner =
      " (hwaccel export slurm, hwaccel " + std::string(HWACCEL_VERSION) + ")";
  switch (options.part) {
    case SlurmPart::gres:
      return "# gres.conf" + banner + "\n" + gres;
    case SlurmPart::node:
      return "# slurm.conf" + banner + "\n" + node;
    case SlurmPart::all:
      break;
  }
  return "# gres.conf" + banner + "\n" + gres + "\n# slurm.conf: add to the node's line\n" + node;
}

}  // namespace hwaccel
