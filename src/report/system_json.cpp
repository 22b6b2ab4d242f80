#include "src/report/system_json.h"

#include <cmath>

#include "src/system/runtime_env.h"

namespace hwaccel {
namespace {

using nlohmann::json;

template <typename T>
json opt(const std::optional<T>& v) {
  return v ? json(*v) : json(nullptr);
}
json text(const std::string& s) {
  return s.empty() ? json(nullptr) : json(s);
}

json state_json(const PcieLinkState& s) {
  return {{"gt_per_s", opt(s.gt_per_s)},
          {"width", opt(s.width)},
          {"generation", opt(s.generation)},
          {"gbytes_per_s", opt(s.gbytes_per_s)}};
}

json environment_json(const RuntimeEnvironment& e) {
  return {{"summary", runtime_environment_text(e)},
          {"container", text(e.container)},
          {"container_evidence", e.container_evidence},
          {"kubernetes", e.kubernetes},
          {"kubernetes_evidence", e.kubernetes_evidence},
          {"cloud", text(e.cloud)},
          {"instance_type", text(e.instance_type)},
          {"virtual_machine", opt(e.virtual_machine)},
          {"hypervisor", text(e.hypervisor)},
          {"vm_evidence", e.vm_evidence},
          {"dmi",
           {{"sys_vendor", text(e.sys_vendor)},
            {"product_name", text(e.product_name)},
            {"board_vendor", text(e.board_vendor)},
            {"bios_vendor", text(e.bios_vendor)}}}};
}

json port_json(const NetworkPort& p) {
  return {{"device", p.device},
          {"port", p.port},
          {"state", text(p.state)},
          {"link_layer", text(p.link_layer)},
          {"rate", text(p.rate)},
          {"gbits_per_s", opt(p.gbits_per_s)},
          {"gbytes_per_s", opt(p.gbytes_per_s)},
          {"pci_bus_id", text(p.pci_bus_id)},
          {"numa_node", opt(p.numa_node)},
          {"pcie", pcie_link_json(p.pcie)}};
}

json block_json(const BlockDevice& b) {
  return {{"name", b.name},
          {"kind", b.kind},
          {"why", b.why},
          {"size_bytes", opt(b.size_bytes)},
          {"rotational", opt(b.rotational)},
          {"model", text(b.model)},
          {"transport", text(b.transport)},
          {"pci_bus_id", text(b.pci_bus_id)},
          {"pcie", pcie_link_json(b.pcie)}};
}

}  // namespace

json pcie_link_json(const std::optional<PcieLink>& link) {
  if (!link) return nullptr;
  return {{"current", state_json(link->current)},
          {"max", state_json(link->max)},
          {"below_max", link->below_max()},
          {"source", link->source}};
}

json counts_json(const CpuCounts& c, json base) {
  base["threads"] = c.threads;
  base["cores"] = opt(c.cores);
  base["sockets"] = opt(c.sockets);
  return base;
}

json count_or_null(int n) {
  return n > 0 ? json(n) : json(nullptr);
}

json resources_json(const HostResources& r) {
  json host = counts_json(r.cpus, {{"cpu_list", text(cpu_list_text(r.online))},
                                   {"cpus_source", text(r.online_source)},
                                   {"topology_source", text(r.topology_source)},
                                   {"numa_nodes", count_or_null(r.numa_nodes)},
                                   {"numa_source", text(r.numa_source)},
                                   {"memory_bytes", opt(r.memory_bytes)},
                                   {"memory_source", text(r.memory_source)}});
  json usable = counts_json(r.usable_cpus, {{"cpu_list", text(cpu_list_text(r.usable))},
                                            {"numa_nodes", count_or_null(r.usable_numa_nodes)},
                                            {"memory_bytes", opt(r.usable_memory_bytes)},
                                            {"limited_by", r.limited_by}});
  // Only where the cgroup sets one: reports of hosts without a quota stay as they were.
  if (const auto& q = r.cgroup.cpu_quota)
    usable["cpu_quota"] = {{"quota_us", q->quota_us},
                           {"period_us", q->period_us},
                           {"file", text(r.cgroup.cpu_quota_file)},
                           {"cpu_count", r.usable_cpu_count}};
  json cgroup = nullptr;
  if (r.cgroup.version) cgroup = {{"version", r.cgroup.version}, {"path", text(r.cgroup.path)}};
  return {{"host", host}, {"usable", usable}, {"cgroup", cgroup}};
}

json system_json(const SystemInfo& s) {
  json ports = json::array();
  for (const auto& p : s.ports) ports.push_back(port_json(p));
  json storage = json::array();
  for (const auto& b : s.storage) storage.push_back(block_json(b));
  return {{"bandwidth_unit", kBandwidthUnit},
          {"environment", environment_json(s.environment)},
          {"network_ports", ports},
          {"resources", resources_json(s.resources)},
          {"storage", storage}};
}

json ingest_json(const IngestEstimate& e) {
  json devices = json::array();
  for (const auto& d : e.devices)
    devices.push_back({{"device", d.device},
                       {"kind", d.kind},
                       {"size_bytes", opt(d.size_bytes)},
                       {"gbytes_per_s", d.gbytes_per_s},
                       {"assumption", d.assumption},
                       {"seconds", std::round(d.seconds * 10.0) / 10.0},
                       {"fits", d.fits}});
  json best = nullptr;
  if (e.best) best = e.devices[*e.best].device;
  json striped = nullptr;
  if (e.striped_seconds)
    striped = {{"devices", e.striped_count},
               {"kind", e.devices.front().kind},
               {"gbytes_per_s", e.striped_gbytes_per_s},
               {"seconds", std::round(*e.striped_seconds * 10.0) / 10.0}};
  return {{"dataset_bytes", e.dataset_bytes},
          {"bandwidth_unit", "GB/s (1e9 bytes/s), sequential read"},
          {"devices", devices},
          {"best", best},
          {"striped", striped},
          {"notes", e.notes}};
}

}  // namespace hwaccel
