#include "src/probe/gaudi_probe.h"

#include <algorithm>

#include "src/catalog/habana_ids.h"
#include "src/probe/hl_smi_csv.h"
#include "src/probe/pci_bus.h"
#include "src/probe/tool_outcome.h"
#include "src/vocabulary/text_util.h"

namespace hwaccel {
namespace {

constexpr std::string_view kTool = "hl-smi";
constexpr std::string_view kDriver = "habanalabs";

Warning gaudi_warning(std::string message) {
  return Warning{"gaudi", std::move(message)};
}

std::string bus_provenance(const std::string& address) {
  return "file:" + std::string(kPciDevicesDir) + "/" + address;
}

std::string reason_text(const Reason& reason) {
  std::string text(to_string(reason.code));
  if (!reason.detail.empty()) text += ": " + reason.detail;
  return text;
}

std::string all_output(const ToolRun& run) {
  if (run.err.empty()) return run.out;
  if (run.out.empty()) return run.err;
  return run.out + "\n" + run.err;
}

Reason reason_for_run(const ToolRun& run) {
  switch (run.outcome) {
    case ToolOutcome::not_found:
      return {ReasonCode::tool_not_found, "hl-smi not found on PATH"};
    case ToolOutcome::timeout:
      return {ReasonCode::timeout, "hl-smi did not answer within the timeout"};
    case ToolOutcome::signal:
      return {ReasonCode::probe_failed, "hl-smi killed by signal " + std::to_string(run.signal)};
    case ToolOutcome::permission_denied:
      return cannot_run_reason("hl-smi", run);
    case ToolOutcome::exited:
      break;
  }
  if (could_not_execute(run)) return cannot_run_reason("hl-smi", run);
  std::string said = first_meaningful_line(all_output(run), 160);
  return {ReasonCode::probe_failed,
          "hl-smi exited " + std::to_string(run.exit_code) + (said.empty() ? "" : ": " + said)};
}

std::string product_name(const std::string& product) {
  auto generation = gaudi_generation_of_product(product);
  if (!generation) return product.empty() ? "Intel Gaudi" : product;
  return std::string(generation->name) + " (" + product + ")";
}

// A card known from the bus alone.
Entry bus_entry(const PciDevice& pci, int index) {
  Entry entry;
  entry.backend = "gaudi";
  entry.api = std::string(kTool);
  entry.index = index;
  entry.physical_id = "pci:" + pci.address;
  auto generation = gaudi_generation_of_pci(pci.device);
  entry.name = generation ? std::string(generation->name) : "Intel Gaudi";
  if (generation) entry.compute_class = std::string(generation->compute_class);
  entry.vendor = "Intel";
  entry.pci_vendor_id = pci.vendor;
  entry.pci_device_id = pci.device;
  entry.pci_bus_id = pci.address;
  entry.type = DeviceType::asic;
  entry.numa_node = pci.numa_node;
  entry.status = EntryStatus::unavailable;
  entry.provenance.push_back(bus_provenance(pci.address));
  return entry;
}

Reason reason_on_bus(const PciDevice& pci, const Reason& tool_reason) {
  if (pci.driver.empty())
    return {ReasonCode::driver_not_found,
            "no driver bound to " + pci.address + " (" + reason_text(tool_reason) + ")"};
  if (pci.driver != kDriver)
    return {ReasonCode::driver_not_found,
            pci.address + " is bound to " + pci.driver + ", not habanalabs"};
  return tool_reason;
}

// hl-smi gave no table: every card on the bus is a line with the reason.
ProbeResult bus_only(ProbeResult result, const std::vector<PciDevice>& bus, Reason reason) {
  if (bus.empty()) {
    result.backend.reason = std::move(reason);
    return result;
  }
  bool any_driver = false;
  for (std::size_t i = 0; i < bus.size(); ++i) {
    Entry entry = bus_entry(bus[i], int(i));
    entry.reason = reason_on_bus(bus[i], reason);
    any_driver |= bus[i].driver == kDriver;
    result.entries.push_back(std::move(entry));
  }
  if (!any_driver) {
    const auto n = bus.size();
    reason = {ReasonCode::driver_not_found,
              std::to_string(n) + (n == 1 ? " Gaudi card" : " Gaudi cards") +
                  " on the PCI bus without the habanalabs driver (" + reason_text(reason) + ")"};
  }
  result.backend.reason = std::move(reason);
  return result;
}

}  // namespace

std::vector<std::string> gaudi_query_argv() {
  return {std::string(kTool), "-Q", kHlSmiQueryFields, "-f", "csv"};
}

ProbeResult GaudiProbe::run(Host& host) const {
  ProbeResult result;
  result.backend.name = "gaudi";

  std::vector<PciDevice> bus;
  for (auto& device : pci_devices_of_vendor(host, kHabanaPciVendor))
    if (gaudi_generation_of_pci(device.device) || device.is_accelerator())
      bus.push_back(std::move(device));
  if (bus.empty()) {
    result.backend.reason = pci_unreadable_reason(host, kHabanaPciVendor, "an Intel Gaudi");
    if (!result.backend.reason)
      result.backend.reason =
          Reason{ReasonCode::no_device,
                 "no Intel Gaudi (PCI vendor 0x1da3) on the PCI bus" + pci_bus_unlisted_note(host)};
    return result;
  }

  ToolRun run = host.run(gaudi_query_argv());
  if (run.truncated)
    result.warnings.push_back(gaudi_warning("hl-smi output was cut at the host's limit"));
  if (!run.ok()) return bus_only(std::move(result), bus, reason_for_run(run));
  auto query = parse_hl_smi_query(run.out);
  for (const auto& problem : query.problems)
    result.warnings.push_back(gaudi_warning("hl-smi: " + problem));
  if (std::find(query.columns.begin(), query.columns.end(), "name") == query.columns.end())
    return bus_only(
        std::move(result), bus,
        {ReasonCode::probe_failed, "hl-smi output has no \"name\" column (first line: \"" +
                                       first_meaningful_line(run.out, 80) + "\")"});
  if (query.devices.empty())
    return bus_only(std::move(result), bus, {ReasonCode::no_device, "hl-smi listed no device"});

  const std::string provenance = "tool:hl-smi -Q " + std::string(kHlSmiQueryFields) + " -f csv";
  for (std::size_t row = 0; row < query.devices.size(); ++row) {
    const auto& d = query.devices[row];
    Entry entry;
    entry.backend = "gaudi";
    entry.api = std::string(kTool);
    entry.index = d.index.value_or(int(row));
    entry.physical_id =
        d.bus_id.empty() ? "gaudi:" + std::to_string(entry.index) : "pci:" + d.bus_id;
    entry.name = product_name(d.name);
    if (auto generation = gaudi_generation_of_product(d.name))
      entry.compute_class = std::string(generation->compute_class);
    entry.vendor = "Intel";
    entry.pci_vendor_id = kHabanaPciVendor;
    entry.pci_bus_id = d.bus_id;
    entry.type = DeviceType::asic;
    entry.memory.kind = MemoryKind::discrete;
    entry.memory.total_bytes = d.memory_total_bytes;
    entry.memory.free_bytes = d.memory_free_bytes;
    entry.memory.source = std::string(kTool);
    entry.driver_version = d.driver_version;
    entry.status = EntryStatus::ready;
    entry.provenance.push_back(provenance);
    auto pci = std::find_if(bus.begin(), bus.end(),
                            [&](const PciDevice& p) { return p.address == d.bus_id; });
    if (pci != bus.end()) {
      entry.pci_device_id = pci->device;
      entry.numa_node = pci->numa_node;
      entry.provenance.push_back(bus_provenance(pci->address));
    }
    result.entries.push_back(std::move(entry));
  }
  // Cards on the bus that hl-smi did not list.
  int next = 0;
  for (const auto& e : result.entries) next = std::max(next, e.index + 1);
  for (const auto& pci : bus) {
    bool listed = std::any_of(result.entries.begin(), result.entries.end(),
                              [&](const Entry& e) { return e.pci_bus_id == pci.address; });
    if (listed) continue;
    Entry entry = bus_entry(pci, next++);
    entry.reason =
        pci.driver == kDriver
            ? Reason{ReasonCode::probe_failed,
                     "on the PCI bus with the habanalabs driver, but hl-smi does not list it"}
            : reason_on_bus(pci, {ReasonCode::probe_failed, "hl-smi does not list it"});
    result.entries.push_back(std::move(entry));
  }
  result.backend.ready = std::any_of(result.entries.begin(), result.entries.end(),
                                     [](const Entry& e) { return e.status == EntryStatus::ready; });
  if (!result.backend.ready) result.backend.reason = result.entries.front().reason;
  return result;
}

}  // namespace hwaccel
