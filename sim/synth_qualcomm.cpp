// What a Qualcomm Cloud AI host shows: the cards on the PCI bus bound to the
// in-kernel qaic driver, their accel nodes (/sys/class/accel, /dev/accel/accelN)
// and `/opt/qti-aic/tools/qaic-util -q`: the LRT header, then one QID block per
// card with every key in the order a real SDK 1.5 prints them (tab-indented
// "Key:Value"; fixtures/hosts/qualcomm-ai100.yaml cites the capture).
#include <cstdio>

#include "sim/synth_parts.h"
#include "src/probe/qualcomm_probe.h"

namespace hwaccel::sim::detail {
namespace {

std::string qid_block(const Plan& plan, const Device& d, int qid) {
  const Sku& sku = *d.sku;
  const std::uint64_t total = sku.memory_mib;
  const std::uint64_t free_mb =
      d.spec->free_bytes ? std::min<std::uint64_t>(*d.spec->free_bytes >> 20, total) : total;
  const int nsp_free = d.spec->nsp_free ? std::min(*d.spec->nsp_free, sku.nsp_count)
                                        : (free_mb < total ? sku.nsp_count / 2 : sku.nsp_count);
  const int networks = free_mb < total || nsp_free < sku.nsp_count ? 1 : 0;
  char serial[32], board[32];
  std::snprintf(serial, sizeof serial, "0x%08x", unsigned(mix(plan.seed, 500 + qid) >> 32));
  std::snprintf(board, sizeof board, "PN471-12-%06u",
                unsigned(mix(plan.seed, 600 + qid) % 1000000));
  const std::string fw(sku.driver);
  std::string out = "QID " + std::to_string(qid) + "\n";
  auto kv = [&](const char* key, const std::string& value) {
    out += std::string("\t") + key + ":" + value + "\n";
  };
  kv("Status", "Ready");
  kv("PCI Address", d.address);
  kv("PCI Info", "Processing accelerators Qualcomm Device " + hex_id(sku.pci_device, 4).substr(2));
  kv("HW Version", "0.2.0.0");
  kv("HW Serial", serial);
  kv("FW Version", fw);
  kv("FW QC_IMAGE_VERSION", "QSM.AIC." + fw);
  kv("FW OEM_IMAGE_VERSION", "");
  kv("FW IMAGE_VARIANT", "AIC100.REL");
  kv("NSP Version", "1.5.2");
  kv("NSP QC_IMAGE_VERSION", "NSP.AIC.1.5.2");
  kv("NSP OEM_IMAGE_VERSION", "");
  kv("NSP IMAGE_VARIANT", "aic100.nsp.prodQ");
  kv("Compiler Version", "0");
  kv("Dram Total", std::to_string(total) + " MB");
  kv("Dram Free", std::to_string(free_mb) + " MB");
  kv("Dram Fragmentation", "0.00%");
  kv("Vc Total", "16");
  kv("Vc Free", "16");
  kv("Nsp Total", std::to_string(sku.nsp_count));
  kv("Nsp Free", std::to_string(nsp_free));
  kv("Peak Dram Bw", "0.0");
  kv("Peak Sram Bw", "0.0");
  kv("Peak PcieBw", "0.0");
  kv("MCID Total", "3072");
  kv("MCID Free", "3072");
  kv("Semaphore Total", "32");
  kv("Semaphore Free", "32");
  kv("Constants Loaded", "0");
  kv("Constants In-Use", "0");
  kv("Networks Loaded", std::to_string(networks));
  kv("Networks Active", std::to_string(networks));
  kv("NSP Frequency(Mhz)", "825");
  kv("DDR Frequency(Mhz)", "2133");
  kv("COMPNOC Frequency(Mhz)", "1450");
  kv("MEMNOC Frequency(Mhz)", "1000");
  kv("SYSNOC Frequency(Mhz)", "667");
  kv("Metadata Version", "0.10");
  kv("NNC Command Protocol Version", "8.0");
  kv("SBL Image", "SBL.AIC.1.5.5");
  kv("PVS Image Version", "18");
  kv("NSP Defective PG Mask", " 0x0");
  kv("Board serial", board);
  return out;
}

}  // namespace

void add_qualcomm(const Plan& plan, Snapshot& s) {
  if (plan.qualcomm.empty()) return;
  const HostSpec& spec = *plan.spec;
  auto it = spec.drivers.find("qaic");
  const DriverState state = it != spec.drivers.end() ? it->second.state : DriverState::ok;
  const bool loaded = state != DriverState::missing;
  for (const auto& d : plan.qualcomm) {
    const std::string dir = "/sys/bus/pci/devices/" + d.address;
    s.files[dir + "/vendor"] = FileEntry::of_content(hex_id(d.sku->pci_vendor, 4) + "\n");
    s.files[dir + "/device"] = FileEntry::of_content(hex_id(d.sku->pci_device, 4) + "\n");
    s.files[dir + "/class"] = FileEntry::of_content(hex_id(d.sku->pci_class, 6) + "\n");
    s.files[dir + "/numa_node"] = FileEntry::of_content(std::to_string(d.numa) + "\n");
    if (!loaded) continue;
    s.files[dir + "/driver"] = FileEntry::of_link("../../../../bus/pci/drivers/qaic");
    const std::string accel = "accel" + std::to_string(next_accel_index(s));
    s.files["/sys/class/accel/" + accel + "/device"] =
        FileEntry::of_link("../../../bus/pci/devices/" + d.address);
    s.files["/dev/accel/" + accel] = FileEntry::of_node(FileKind::char_device);
  }
  // Without the driver the SDK is taken as absent too (what qaic-util prints then is
  // not known from a capture), as synth_gaudi.cpp does for hl-smi.
  const bool installed =
      loaded && tool_installed(spec, "qaic-util", state != DriverState::tool_missing);
  if (!installed) {
    s.tools[qaic_util_argv()] = not_found_tool(qaic_util_argv());
    return;
  }
  ToolEntry t;
  t.argv = qaic_util_argv();
  t.run.ms = 120;
  {
    t.run.out =
        "LRT QC_IMAGE_VERSION: LRT.AIC.5.2.1.5.6\nLRT IMAGE_VARIANT: LRT.AIC.REL\n"
        "Number of devices: " +
        std::to_string(plan.qualcomm.size()) + "\n";
    for (std::size_t i = 0; i < plan.qualcomm.size(); ++i)
      t.run.out += qid_block(plan, plan.qualcomm[i], int(i));
  }
  s.tools[t.argv] = t;
}

}  // namespace hwaccel::sim::detail
