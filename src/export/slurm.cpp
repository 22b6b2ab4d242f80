// `hwaccel export slurm`: gres.conf lines, one per (GRES name, type, device
// node family) with the nodes as a Slurm range (/dev/nvidia[0-7]), and the
// slurm.conf fragment that declares them on this node.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <vector>

#include "src/export/device_files.h"
#include "src/export/fleet_exports.h"
#include "src/model/number_text.h"
#include "src/registry/selection.h"

namespace hwaccel {

namespace {

struct Group {
  std::vector<long> numbers;           // the trailing numbers of the nodes
  std::vector<std::string> odd_paths;  // nodes without a trailing number
  std::size_t count = 0;
};

// "/dev/nvidia", {0..7} -> "/dev/nvidia[0-7]"; {3} -> "/dev/nvidia3".
std::string slurm_range(const std::string& prefix, std::vector<long> n) {
  std::sort(n.begin(), n.end());
  n.erase(std::unique(n.begin(), n.end()), n.end());
  if (n.size() == 1) return prefix + std::to_string(n[0]);
  std::string inner;
  for (std::size_t i = 0; i < n.size();) {
    std::size_t j = i;
    while (j + 1 < n.size() && n[j + 1] == n[j] + 1) ++j;
    inner += (inner.empty() ? "" : ",") + std::to_string(n[i]);
    if (j > i) inner += "-" + std::to_string(n[j]);
    i = j + 1;
  }
  return prefix + "[" + inner + "]";
}

}  // namespace

std::string render_slurm(Host& host, const Detection& d, SlurmPart part) {
  // (gres name, type, node prefix) -> nodes; ordered for deterministic output.
  std::map<std::tuple<std::string, std::string, std::string>, Group> groups;
  std::map<std::pair<std::string, std::string>, std::size_t> counts;  // (name, type) -> devices
  std::vector<std::string> notes;
  for (const auto& e : d.entries) {
    if (e.type == DeviceType::cpu || e.partition) continue;
    if (e.partitioned) {
      notes.push_back(entry_label(e) +
                      " is split into MIG instances: give Slurm those with AutoDetect=nvml");
      continue;
    }
    if (e.status != EntryStatus::ready) {
      notes.push_back(entry_label(e) + " left out: not ready (" +
                      std::string(to_string(e.reason ? e.reason->code : ReasonCode::probe_failed)) +
                      ")");
      continue;
    }
    DeviceFile f = device_file(host, e);
    if (f.path.empty()) continue;
    if (f.assumed) notes.push_back(entry_label(e) + " " + f.path + ": " + f.source);
    std::string type = gres_type(e);
    auto digits = f.path.find_last_not_of("0123456789");
    std::string prefix = f.path.substr(0, digits + 1);
    Group& g = groups[{f.gres, type, prefix}];
    // A device number goes into a range "/dev/nvidia[0-3]" only when it reads
    // back as written: "07" or a 20-digit number (a hostile Device Minor) is
    // listed as its own path instead.
    const std::string tail = f.path.substr(digits + 1);
    auto number = tail.size() > 1 && tail.front() == '0'
                      ? std::nullopt
                      : parse_integer_in(tail, 0, std::numeric_limits<std::int32_t>::max());
    if (number)
      g.numbers.push_back(static_cast<long>(*number));
    else
      g.odd_paths.push_back(f.path);
    ++g.count;
    ++counts[{f.gres, type}];
  }

  std::string gres;
  for (const auto& [key, g] : groups) {
    const auto& [name, type, prefix] = key;
    if (!g.numbers.empty())
      gres += "Name=" + name + " Type=" + type + " File=" + slurm_range(prefix, g.numbers) + "\n";
    for (const auto& path : g.odd_paths)
      gres += "Name=" + name + " Type=" + type + " File=" + path + "\n";
  }
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
    node += notes.empty() ? "# no ready accelerator: nothing to declare\n"
                          : "# no device to declare (see the notes above)\n";
  }

  const std::string banner =
      " (hwaccel export slurm, hwaccel " + std::string(HWACCEL_VERSION) + ")";
  switch (part) {
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
