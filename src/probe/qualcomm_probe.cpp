#include "src/probe/qualcomm_probe.h"

#include <algorithm>

#include "src/probe/accel_class.h"
#include "src/probe/device_node.h"
#include "src/probe/pci_bus.h"
#include "src/probe/qaic_util.h"
#include "src/probe/tool_outcome.h"
#include "src/vocabulary/text_util.h"

namespace hwaccel {
namespace {

constexpr std::uint16_t kQualcommPciVendor = 0x17cb;
constexpr std::string_view kTool = "/opt/qti-aic/tools/qaic-util";
constexpr std::string_view kDriver = "qaic";

Warning qualcomm_warning(std::string message) {
  return Warning{"qualcomm", std::move(message)};
}

std::string bus_provenance(const std::string& address) {
  return "file:" + std::string(kPciDevicesDir) + "/" + address;
}

std::string model_name(std::uint16_t device_id) {
  if (device_id == 0xa100) return "Qualcomm Cloud AI 100";
  if (device_id == 0xa080) return "Qualcomm Cloud AI 080";
  return "Qualcomm Cloud AI";
}

// The SoC, as the SDK's compiler names its targets (qaic-compile -aic-hw-version=ai100).
std::string compute_class_of(std::uint16_t device_id) {
  if (device_id == 0xa100) return "aic100";
  if (device_id == 0xa080) return "aic080";
  return "";
}

std::string model_from_info(const std::string& pci_info) {
  const std::string lower = to_lower(pci_info);
  if (lower.size() >= 4 && lower.compare(lower.size() - 4, 4, "a100") == 0)
    return model_name(0xa100);
  if (lower.size() >= 4 && lower.compare(lower.size() - 4, 4, "a080") == 0)
    return model_name(0xa080);
  return model_name(0);
}

std::string with_nsps(std::string name, std::optional<int> nsps) {
  if (nsps) name += " (" + std::to_string(*nsps) + (*nsps == 1 ? " NSP)" : " NSPs)");
  return name;
}

Reason reason_for_run(const ToolRun& run) {
  switch (run.outcome) {
    case ToolOutcome::not_found:
      return {ReasonCode::tool_not_found, std::string(kTool) + " not found"};
    case ToolOutcome::timeout:
      return {ReasonCode::timeout, "qaic-util did not answer within the timeout"};
    case ToolOutcome::signal:
      return {ReasonCode::probe_failed, "qaic-util killed by signal " + std::to_string(run.signal)};
    case ToolOutcome::permission_denied:
      return cannot_run_reason(kTool, run);
    case ToolOutcome::exited:
      break;
  }
  if (could_not_execute(run)) return cannot_run_reason(kTool, run);
  std::string said = first_meaningful_line(run.err.empty() ? run.out : run.err, 160);
  return {ReasonCode::probe_failed,
          "qaic-util exited " + std::to_string(run.exit_code) + (said.empty() ? "" : ": " + said)};
}

Entry bus_entry(const PciDevice& pci, int index) {
  Entry entry;
  entry.backend = "qualcomm";
  entry.api = "accel";
  entry.index = index;
  entry.physical_id = "pci:" + pci.address;
  entry.name = model_name(pci.device);
  entry.compute_class = compute_class_of(pci.device);
  entry.vendor = "Qualcomm";
  entry.pci_vendor_id = pci.vendor;
  entry.pci_device_id = pci.device;
  entry.pci_bus_id = pci.address;
  entry.type = DeviceType::asic;
  entry.memory.kind = MemoryKind::discrete;
  entry.numa_node = pci.numa_node;
  entry.status = EntryStatus::ready;
  entry.provenance.push_back(bus_provenance(pci.address));
  return entry;
}

// Without qaic-util's word: the driver binding and the node decide.
void judge_by_driver(Host& host, const PciDevice& pci, const std::vector<AccelClassDevice>& accel,
                     Entry& entry) {
  if (pci.driver.empty()) {
    entry.status = EntryStatus::unavailable;
    entry.reason = Reason{ReasonCode::driver_not_found, "no driver bound to " + pci.address};
    return;
  }
  if (pci.driver != kDriver) {
    entry.status = EntryStatus::unavailable;
    entry.reason = Reason{ReasonCode::driver_not_found,
                          pci.address + " is bound to " + pci.driver + ", not qaic"};
    return;
  }
  auto at = std::find_if(accel.begin(), accel.end(),
                         [&](const AccelClassDevice& a) { return a.pci_address == pci.address; });
  if (at == accel.end()) return;
  const std::string node = "/dev/accel/" + at->name;
  if (auto problem = device_node_problem(host, node, entry.provenance)) {
    entry.status = EntryStatus::unavailable;
    entry.reason = *problem;
  }
}

void settle(ProbeResult& result) {
  result.backend.ready = std::any_of(result.entries.begin(), result.entries.end(),
                                     [](const Entry& e) { return e.status == EntryStatus::ready; });
  if (!result.backend.ready && !result.entries.empty() && !result.backend.reason)
    result.backend.reason = result.entries.front().reason;
}

}  // namespace

std::vector<std::string> qaic_util_argv() {
  return {std::string(kTool), "-q"};
}

ProbeResult QualcommProbe::run(Host& host) const {
  ProbeResult result;
  result.backend.name = "qualcomm";

  std::vector<PciDevice> bus;
  for (auto& device : pci_devices_of_vendor(host, kQualcommPciVendor))
    if (device.device == 0xa100 || device.device == 0xa080) bus.push_back(std::move(device));
  auto accel = scan_accel_class(host);
  accel.erase(std::remove_if(accel.begin(), accel.end(),
                             [&](const AccelClassDevice& a) {
                               return a.driver != kDriver &&
                                      std::none_of(bus.begin(), bus.end(), [&](const PciDevice& p) {
                                        return p.address == a.pci_address;
                                      });
                             }),
              accel.end());
  // The out-of-tree driver of older SDKs registers a "qaic" class of its own.
  bool old_nodes = false;
  if (auto names = host.list("/sys/class/qaic")) old_nodes = !names->empty();
  if (bus.empty() && accel.empty() && !old_nodes) {
    result.backend.reason =
        pci_unreadable_reason(host, kQualcommPciVendor, "a Qualcomm Cloud AI card");
    if (!result.backend.reason)
      result.backend.reason = Reason{
          ReasonCode::no_device, "no Qualcomm Cloud AI card (PCI 17cb:a100/a080) on the PCI bus" +
                                     pci_bus_unlisted_note(host)};
    return result;
  }

  ToolRun run = host.run(qaic_util_argv());
  if (!run.ok()) {
    const Reason reason = reason_for_run(run);
    for (std::size_t i = 0; i < bus.size(); ++i) {
      Entry entry = bus_entry(bus[i], int(i));
      judge_by_driver(host, bus[i], accel, entry);
      if (entry.status == EntryStatus::ready && reason.code != ReasonCode::tool_not_found) {
        entry.status = EntryStatus::unavailable;  // the SDK's own tool fails on it
        entry.reason = reason;
      }
      result.entries.push_back(std::move(entry));
    }
    if (reason.code == ReasonCode::tool_not_found && !bus.empty())
      result.warnings.push_back(qualcomm_warning(
          std::string(kTool) + " not found; cards from sysfs, NSPs and memory unknown"));
    if (bus.empty()) result.backend.reason = reason;
    settle(result);
    // Cards without their driver say more than the tool's failure does.
    const bool none_has_driver = std::all_of(
        result.entries.begin(), result.entries.end(),
        [](const Entry& e) { return e.reason && e.reason->code == ReasonCode::driver_not_found; });
    if (!result.backend.ready && !none_has_driver && reason.code != ReasonCode::tool_not_found)
      result.backend.reason = reason;
    return result;
  }

  auto listed = parse_qaic_util(run.out);
  for (const auto& problem : listed.problems)
    result.warnings.push_back(qualcomm_warning("qaic-util: " + problem));
  const std::string provenance = "tool:" + std::string(kTool) + " -q";
  for (const auto& d : listed.devices) {
    Entry entry;
    auto pci = std::find_if(bus.begin(), bus.end(),
                            [&](const PciDevice& p) { return p.address == d.pci_address; });
    if (pci != bus.end()) {
      entry = bus_entry(*pci, d.qid);
    } else {
      entry.backend = "qualcomm";
      entry.index = d.qid;
      entry.physical_id =
          d.pci_address.empty() ? "qaic:" + std::to_string(d.qid) : "pci:" + d.pci_address;
      entry.name = model_from_info(d.pci_info);
      if (entry.name == model_name(0xa100)) entry.compute_class = compute_class_of(0xa100);
      if (entry.name == model_name(0xa080)) entry.compute_class = compute_class_of(0xa080);
      entry.vendor = "Qualcomm";
      entry.pci_vendor_id = kQualcommPciVendor;
      entry.pci_bus_id = d.pci_address;
      entry.type = DeviceType::asic;
      entry.status = EntryStatus::ready;
    }
    entry.api = "qaic-util";
    entry.name = with_nsps(entry.name, d.nsp_total);
    entry.memory.kind = MemoryKind::discrete;
    entry.memory.total_bytes = d.dram_total_bytes;
    entry.memory.free_bytes = d.dram_free_bytes;
    if (d.dram_total_bytes) entry.memory.source = "qaic-util (Dram Total/Free, MB read as MiB)";
    entry.provenance.insert(entry.provenance.begin(), provenance);
    if (!d.status.empty() && to_lower(d.status) != "ready") {
      entry.status = EntryStatus::unavailable;
      entry.reason = Reason{ReasonCode::probe_failed, "qaic-util says Status:" + d.status};
    }
    result.entries.push_back(std::move(entry));
  }
  int next = 0;
  for (const auto& e : result.entries) next = std::max(next, e.index + 1);
  for (const auto& pci : bus) {
    bool listed_here = std::any_of(result.entries.begin(), result.entries.end(),
                                   [&](const Entry& e) { return e.pci_bus_id == pci.address; });
    if (listed_here) continue;
    Entry entry = bus_entry(pci, next++);
    judge_by_driver(host, pci, accel, entry);
    if (entry.status == EntryStatus::ready) {
      entry.status = EntryStatus::unavailable;
      entry.reason =
          Reason{ReasonCode::probe_failed, "bound to qaic, but qaic-util does not list it"};
    }
    result.entries.push_back(std::move(entry));
  }
  if (result.entries.empty())
    result.backend.reason = Reason{ReasonCode::no_device, "qaic-util listed no device"};
  settle(result);
  return result;
}

}  // namespace hwaccel
