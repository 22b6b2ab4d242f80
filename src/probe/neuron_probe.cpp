#include "src/probe/neuron_probe.h"

#include <algorithm>
#include <cerrno>

#include "src/catalog/neuron_ids.h"
#include "src/probe/neuron_ls_json.h"
#include "src/probe/pci_bus.h"
#include "src/probe/tool_outcome.h"
#include "src/vocabulary/text_util.h"

namespace hwaccel {
namespace {

constexpr std::uint64_t kGiB = 1ull << 30;
constexpr std::string_view kDmiProduct = "/sys/class/dmi/id/product_name";
constexpr std::string_view kDriver = "neuron-driver";
// The module is neuron.ko (aws-neuron-driver Kbuild) with MODULE_VERSION("2.x.y.z").
constexpr std::string_view kModuleVersion = "/sys/module/neuron/version";

Warning neuron_warning(std::string message) {
  return Warning{"neuron", std::move(message)};
}

std::string join(const std::vector<std::string>& parts) {
  std::string s;
  for (const auto& p : parts) s += (s.empty() ? "" : " ") + p;
  return s;
}

std::string all_output(const ToolRun& run) {
  if (run.err.empty()) return run.out;
  if (run.out.empty()) return run.err;
  return run.err + "\n" + run.out;
}

std::string bus_provenance(const std::string& address) {
  return "file:" + std::string(kPciDevicesDir) + "/" + address;
}

// The driver's devices by number: /sys/devices/virtual/neuron_device/neuron<n>, each
// with its node /dev/neuron<n>. (Listing the class folder rather than /dev keeps a
// recording small.)
constexpr std::string_view kNeuronClassDir = "/sys/devices/virtual/neuron_device";

// The class folder exists but cannot be listed (EACCES, ELOOP): devices may be
// there unseen, so "no device" would be a guess.
std::optional<Reason> class_dir_problem(Host& host) {
  auto names = host.list(kNeuronClassDir);
  if (names || names.error().code == ENOENT) return std::nullopt;
  const bool denied = names.error().code == EACCES || names.error().code == EPERM;
  return Reason{denied ? ReasonCode::permission_denied : ReasonCode::probe_failed,
                std::string(kNeuronClassDir) + " cannot be listed (" + names.error().errno_name() +
                    "): Neuron driver devices there could not be counted"};
}

std::vector<int> device_nodes(Host& host) {
  std::vector<int> nodes;
  auto names = host.list(kNeuronClassDir);
  if (!names) return nodes;
  for (const auto& name : *names) {
    if (name.rfind("neuron", 0) != 0) continue;
    auto n = parse_u64(std::string_view(name).substr(6));
    if (n && *n < 4096) nodes.push_back(int(*n));
  }
  std::sort(nodes.begin(), nodes.end());
  return nodes;
}

// The EC2 instance type from DMI, read once.
class InstanceType {
 public:
  explicit InstanceType(Host& host) : host_(host) {}
  const std::string& get() {
    if (!read_) {
      read_ = true;
      if (auto text = host_.read(kDmiProduct)) value_ = printable_line(*text, 64);
    }
    return value_;
  }

 private:
  Host& host_;
  bool read_ = false;
  std::string value_;
};

Reason reason_for_run(const ToolRun& run) {
  switch (run.outcome) {
    case ToolOutcome::not_found:
      return {ReasonCode::tool_not_found, "neuron-ls not found on PATH"};
    case ToolOutcome::timeout:
      return {ReasonCode::timeout, "neuron-ls did not answer within the timeout"};
    case ToolOutcome::signal:
      return {ReasonCode::probe_failed, "neuron-ls killed by signal " + std::to_string(run.signal)};
    case ToolOutcome::permission_denied:
      return cannot_run_reason("neuron-ls", run);
    case ToolOutcome::exited:
      break;
  }
  if (could_not_execute(run)) return cannot_run_reason("neuron-ls", run);
  const std::string said = first_meaningful_line(all_output(run), 200);
  if (is_neuron_no_driver_message(all_output(run)))
    return {ReasonCode::driver_not_found, "neuron-ls: " + said};
  return {ReasonCode::probe_failed,
          "neuron-ls exited " + std::to_string(run.exit_code) + (said.empty() ? "" : ": " + said)};
}

bool rejected_flag(const ToolRun& run) {
  if (run.outcome != ToolOutcome::exited || run.exit_code == 0) return false;
  const std::string text = all_output(run);
  return contains_ignoring_case(text, "unknown flag") ||
         contains_ignoring_case(text, "flag provided but not defined") ||
         contains_ignoring_case(text, "unrecognized") ||
         contains_ignoring_case(text, "unknown option");
}

std::string device_name(const NeuronGeneration* generation, std::optional<int> cores,
                        bool logical) {
  std::string name = generation ? std::string(generation->name) : "AWS Neuron device";
  if (cores)
    name += " (" + std::to_string(*cores) + (logical ? " logical" : "") +
            (*cores == 1 ? " NeuronCore)" : " NeuronCores)");
  return name;
}

Entry base_entry(int index) {
  Entry entry;
  entry.backend = "neuron";
  entry.index = index;
  entry.vendor = "AWS";
  entry.pci_vendor_id = kAmazonPciVendor;
  entry.type = DeviceType::asic;
  entry.memory.kind = MemoryKind::discrete;
  entry.status = EntryStatus::ready;
  return entry;
}

Entry bus_entry(const PciDevice& pci, int index) {
  Entry entry = base_entry(index);
  entry.api = "neuron-ls";
  auto generation = neuron_generation_of_pci(pci.device);
  entry.name = device_name(generation ? &*generation : nullptr, std::nullopt, false);
  if (generation) entry.compute_class = std::string(generation->compute_class);
  entry.physical_id = "pci:" + pci.address;
  entry.pci_device_id = pci.device;
  entry.pci_bus_id = pci.address;
  entry.numa_node = pci.numa_node;
  entry.status = EntryStatus::unavailable;
  entry.provenance.push_back(bus_provenance(pci.address));
  return entry;
}

// The tool gave nothing: bus devices carry the reason; the driver's binding
// sharpens it as the CUDA probe does.
ProbeResult bus_only(ProbeResult result, const std::vector<PciDevice>& bus, Reason reason) {
  bool any_driver = false;
  for (std::size_t i = 0; i < bus.size(); ++i) {
    Entry entry = bus_entry(bus[i], int(i));
    entry.reason = reason;
    if (bus[i].driver.empty())
      entry.reason = Reason{ReasonCode::driver_not_found, "no driver bound to " + bus[i].address};
    else if (bus[i].driver != kDriver)
      entry.reason = Reason{ReasonCode::driver_not_found,
                            bus[i].address + " is bound to " + bus[i].driver + ", not neuron"};
    any_driver |= bus[i].driver == kDriver;
    result.entries.push_back(std::move(entry));
  }
  if (!bus.empty() && !any_driver && reason.code != ReasonCode::driver_not_found) {
    const auto n = bus.size();
    reason = {ReasonCode::driver_not_found,
              std::to_string(n) + (n == 1 ? " Neuron device" : " Neuron devices") +
                  " on the PCI bus without the neuron driver (" +
                  std::string(to_string(reason.code)) + ": " + reason.detail + ")"};
  }
  result.backend.reason = std::move(reason);
  return result;
}

// neuron-ls gave nothing to use (it is not installed, or printed what cannot be
// read: cut short, flooded, garbage): the driver's nodes and the catalogue,
// with a warning that says why. `why` is the reason when there are no nodes.
ProbeResult from_nodes(ProbeResult result, const std::vector<int>& nodes,
                       const std::vector<PciDevice>& bus, InstanceType& instance,
                       const Reason& why) {
  if (nodes.empty()) return bus_only(std::move(result), bus, why);
  std::optional<NeuronGeneration> generation;
  std::string from;
  if (!bus.empty() && std::all_of(bus.begin(), bus.end(), [&](const PciDevice& p) {
        return p.device == bus.front().device;
      })) {
    generation = neuron_generation_of_pci(bus.front().device);
    from = "the PCI device id";
  }
  if (!generation && (generation = neuron_generation_of_instance(instance.get())))
    from = "the instance type " + instance.get();
  for (int n : nodes) {
    Entry entry = base_entry(n);
    entry.api = "dev";
    entry.physical_id = "neuron:" + std::to_string(n);
    entry.name =
        device_name(generation ? &*generation : nullptr,
                    generation ? std::optional<int>(generation->cores) : std::nullopt, false);
    entry.provenance.push_back("file:" + std::string(kNeuronClassDir) + "/neuron" +
                               std::to_string(n));
    if (generation) {
      entry.compute_class = std::string(generation->compute_class);
      entry.memory.total_bytes = generation->memory_gib * kGiB;
      entry.memory.source = "catalogue: " + std::string(generation->name) + ", " +
                            std::to_string(generation->memory_gib) + " GiB per device (from " +
                            from + ")";
      if (from.rfind("the instance", 0) == 0)
        entry.provenance.push_back("file:" + std::string(kDmiProduct));
    }
    result.entries.push_back(std::move(entry));
  }
  result.warnings.push_back(neuron_warning(
      why.detail + "; devices from the driver's " + std::string(kNeuronClassDir) + "/neuron*" +
      std::string(generation ? ", names and memory from the catalogue" : "; model unknown")));
  result.backend.ready = true;
  return result;
}

// The loaded driver's version, on every entry that is ready (the driver serves them).
void add_driver_version(Host& host, ProbeResult& result) {
  if (!result.backend.ready) return;
  auto text = host.read(kModuleVersion);
  if (!text) return;
  const std::string version = printable_line(*text, 64);
  if (version.empty()) return;
  for (auto& e : result.entries) {
    if (e.status != EntryStatus::ready) continue;
    e.driver_version = version;
    e.provenance.push_back("file:" + std::string(kModuleVersion));
  }
}

void add_links(const std::vector<NeuronLsDevice>& devices, ProbeResult& result,
               const std::string& source) {
  auto physical = [&](int index) -> const Entry* {
    for (const auto& e : result.entries)
      if (e.index == index) return &e;
    return nullptr;
  };
  for (std::size_t i = 0; i < devices.size(); ++i) {
    const Entry* a = physical(result.entries[i].index);
    for (int peer : devices[i].connected_to) {
      const Entry* b = physical(peer);
      if (!a || !b || a == b) continue;
      Link l;
      l.a = std::min(a->physical_id, b->physical_id);
      l.b = std::max(a->physical_id, b->physical_id);
      l.kind = "neuronlink";
      l.source = source;
      if (std::find(result.links.begin(), result.links.end(), l) == result.links.end())
        result.links.push_back(std::move(l));
    }
  }
  std::sort(result.links.begin(), result.links.end());
}

}  // namespace

std::vector<std::string> neuron_ls_argv() {
  return {"neuron-ls", "--json-output"};
}

std::vector<std::string> neuron_ls_newer_argv() {
  return {"neuron-ls", "--output-format", "json"};
}

ProbeResult NeuronProbe::run(Host& host) const {
  ProbeResult result;
  result.backend.name = "neuron";

  std::vector<PciDevice> bus;
  for (auto& device : pci_devices_of_vendor(host, kAmazonPciVendor))
    if (neuron_generation_of_pci(device.device)) bus.push_back(std::move(device));
  const auto nodes = device_nodes(host);
  if (bus.empty() && nodes.empty()) {
    result.backend.reason = pci_unreadable_reason(host, kAmazonPciVendor, "an AWS Neuron device");
    if (!result.backend.reason) result.backend.reason = class_dir_problem(host);
    if (!result.backend.reason)
      result.backend.reason =
          Reason{ReasonCode::no_device,
                 "no AWS Neuron device (PCI 1d0f:7064/7164/7264/7364) on the PCI bus and no Neuron "
                 "driver device" +
                     pci_bus_unlisted_note(host)};
    return result;
  }

  InstanceType instance(host);
  auto argv = neuron_ls_argv();
  ToolRun run = host.run(argv);
  if (rejected_flag(run)) {
    argv = neuron_ls_newer_argv();
    run = host.run(argv);
  }
  if (run.outcome == ToolOutcome::not_found) {
    result = from_nodes(std::move(result), nodes, bus, instance,
                        {ReasonCode::tool_not_found, "neuron-ls not found on PATH"});
    add_driver_version(host, result);
    return result;
  }
  if (!run.ok()) return bus_only(std::move(result), bus, reason_for_run(run));
  auto listed = parse_neuron_ls_json(run.out);
  for (const auto& problem : listed.problems)
    result.warnings.push_back(neuron_warning("neuron-ls: " + problem));
  if (!listed.parsed) {
    // The driver's nodes still show the devices: keep them, and say what the
    // tool printed (a flood or a cut is the tool's problem, not the devices').
    const Reason unreadable{ReasonCode::probe_failed,
                            "neuron-ls printed no JSON array (first line: \"" +
                                first_meaningful_line(run.out, 80) + "\")" +
                                (run.truncated ? ", cut at the host's output limit" : "")};
    result = from_nodes(std::move(result), nodes, bus, instance, unreadable);
    add_driver_version(host, result);
    return result;
  }
  if (listed.devices.empty())
    return bus_only(std::move(result), bus, {ReasonCode::no_device, "neuron-ls listed no device"});

  const std::string provenance = "tool:" + join(argv);
  for (std::size_t row = 0; row < listed.devices.size(); ++row) {
    const auto& d = listed.devices[row];
    Entry entry = base_entry(d.index.value_or(int(row)));
    entry.api = "neuron-ls";
    entry.provenance.push_back(provenance);
    std::optional<NeuronGeneration> generation;
    auto pci = std::find_if(bus.begin(), bus.end(),
                            [&](const PciDevice& p) { return p.address == d.bdf; });
    if (pci != bus.end()) {
      generation = neuron_generation_of_pci(pci->device);
      entry.pci_device_id = pci->device;
      entry.provenance.push_back(bus_provenance(pci->address));
    }
    if (!generation && !d.instance_type.empty())
      generation = neuron_generation_of_instance(d.instance_type);
    if (!generation && (generation = neuron_generation_of_instance(instance.get())))
      entry.provenance.push_back("file:" + std::string(kDmiProduct));
    entry.name = device_name(generation ? &*generation : nullptr, d.nc_count,
                             d.logical_nc_config.value_or(1) > 1);
    if (generation) entry.compute_class = std::string(generation->compute_class);
    entry.physical_id = d.bdf.empty() ? "neuron:" + std::to_string(entry.index) : "pci:" + d.bdf;
    entry.pci_bus_id = d.bdf;
    entry.memory.total_bytes = d.memory_bytes;
    if (d.memory_bytes) entry.memory.source = "neuron-ls (memory_size)";
    entry.numa_node = d.numa_node;
    if (!entry.numa_node && pci != bus.end()) entry.numa_node = pci->numa_node;
    entry.cpu_affinity = d.cpu_affinity;
    result.entries.push_back(std::move(entry));
  }
  add_links(listed.devices, result, provenance);
  result.backend.ready = true;
  add_driver_version(host, result);
  return result;
}

}  // namespace hwaccel
