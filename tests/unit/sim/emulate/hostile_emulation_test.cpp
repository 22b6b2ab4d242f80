// Snapshots come from strangers: garbage where the emulators read sysfs files and
// recorded outputs, names that are not UTF-8, odd argv. Every emulator answers
// (no throw), and the same question gets the same bytes.
#include <gtest/gtest.h>

#include "sim/emulate/tool_emulator.h"

namespace hwaccel::sim {
namespace {

Entry device(const std::string& backend, std::string name, std::string bus) {
  Entry e;
  e.backend = backend;
  e.name = std::move(name);
  e.pci_bus_id = std::move(bus);
  e.pci_device_id = 0xffff;
  e.compute_class = "\xff\xfe";
  e.driver_version = "-";
  e.memory.total_bytes = ~0ull;
  e.memory.free_bytes = ~0ull;  // more free than total is not a crash either
  e.uuid = "GPU-zz";
  e.cpu_affinity = "\"";
  return e;
}

TEST(HostileEmulation, GarbageInTheSnapshotIsAnsweredNeverACrash) {
  Snapshot s;
  const std::string bus = "0000:05:00.0";
  const std::string dir = "/sys/bus/pci/devices/" + bus + "/";
  s.files[dir + "revision"] = FileEntry::of_content("0xzz\n");
  s.files[dir + "unique_id"] = FileEntry::of_content(std::string(5000, 'f'));
  s.files[dir + "serial_number"] = FileEntry::of_content("0x\n");
  s.files[dir + "vbios_version"] = FileEntry::of_content("-");
  s.files[dir + "product_name"] = FileEntry::of_content("\xc3(\n");
  s.files["/sys/class/kfd/kfd/topology/nodes/2/properties"] = FileEntry::of_content(
      "location_id 1280\ndomain 0\nsimd_count 99999999999999999999\ncpu_cores_count");
  s.files["/sys/class/kfd/kfd/topology/nodes/x/properties"] =
      FileEntry::of_content("cpu_cores_count -5\n");
  s.files["/sys/class/dmi/id/product_name"] = FileEntry::of_content("\n\n");
  auto record = [&](std::vector<std::string> argv, std::string out) {
    ToolEntry t;
    t.argv = argv;
    t.run.out = std::move(out);
    s.tools[argv] = t;
  };
  record({"vulkaninfo", "--summary"},
         "Devices:\nGPU0:\n\tdeviceName = \xff\n\tvendorID = 0xffffffffff\n");
  record({"neuron-ls", "--json-output"}, "[{\"neuron_device\": -1, \"nc_count\": 1e99}]");
  record({"xpu-smi", "discovery"}, "| 0 | Device Name: \n| | PCI BDF Address: zz\n");
  Detection d;
  for (const char* backend : {"rocm", "gaudi", "neuron", "oneapi", "vulkan", "cpu"}) {
    d.entries.push_back(device(backend, "(", bus));
    d.entries.push_back(device(backend, "", ""));
    d.entries.push_back(device(backend, "x (\xff NeuronCores)", "not-a-bus"));
  }
  EmulatedHost host{s, d};
  const std::vector<std::vector<std::string>> questions = {
      {},
      {"--json"},
      {"--showproductname", "--showmeminfo", "all", "--showid", "--showuniqueid", "--showserial",
       "--json"},
      {"-d", "999", "--showbus"},
      {"list", "--json"},
      {"static"},
      {"discovery", "-d", "0"},
      {"discovery", "-j"},
      {"-Q", ",", "-f", "csv"},
      {"-Q", "index,name,memory.used", "-f", "csv,noheader,nounits"},
      {"-j"},
      {"--summary"},
      {"-Q"},
      {"\xff"},
  };
  for (const auto& tool : emulated_tool_names()) {
    for (const auto& q : questions) {
      std::vector<std::string> argv = {tool};
      argv.insert(argv.end(), q.begin(), q.end());
      ToolAnswer a, b;
      ASSERT_NO_THROW(a = find_tool_emulator(tool)(host, argv)) << tool;
      ASSERT_NO_THROW(b = find_tool_emulator(tool)(host, argv)) << tool;
      EXPECT_EQ(a.out, b.out) << tool;
      EXPECT_EQ(a.exit_code, b.exit_code) << tool;
    }
  }
}

}  // namespace
}  // namespace hwaccel::sim
