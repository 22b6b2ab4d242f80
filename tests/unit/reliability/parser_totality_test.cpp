// Every pure parser is total: hostile text (NUL bytes, invalid UTF-8, overflowing
// numbers, a megabyte on one line, separators only, ANSI escapes) gives an answer,
// never a throw, a crash or undefined behaviour. A deterministic sample of what
// the fuzz targets (tests/fuzz/) explore, so that ci/sanitize checks it under
// ASan/UBSan on machines without clang.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "src/probe/amdgpu_kfd_topology.h"
#include "src/probe/amdgpu_sysfs.h"
#include "src/probe/apple_silicon.h"
#include "src/probe/apple_system_profiler.h"
#include "src/probe/cuda_visible.h"
#include "src/probe/gpu_numa_memory.h"
#include "src/probe/nvidia_gpu_information.h"
#include "src/probe/nvidia_kernel_gpus.h"
#include "src/probe/nvidia_smi_csv.h"
#include "src/probe/nvidia_smi_errors.h"
#include "src/probe/nvidia_smi_list.h"
#include "src/probe/nvidia_smi_nvlink.h"
#include "src/probe/nvidia_smi_q.h"
#include "src/probe/nvidia_smi_topo.h"
#include "src/probe/nvidia_visible_devices.h"
#include "src/probe/pci_bus.h"
#include "src/probe/proc_cpuinfo.h"
#include "src/probe/proc_meminfo.h"
#include "src/probe/rocm_visible.h"
#include "src/probe/vulkaninfo_summary.h"
#include "src/probe/xpu_smi_discovery.h"
#include "src/registry/saved_detection.h"
#include "src/snapshot/snapshot_codec.h"
#include "src/system/block_devices.h"
#include "src/system/infiniband.h"
#include "src/system/io_estimate.h"
#include "src/system/pcie_link.h"
#include "src/system/runtime_env.h"

namespace hwaccel {
namespace {

std::vector<std::string> hostile_texts() {
  std::vector<std::string> texts = {
      "",
      "\n",
      std::string("\0\0\0", 3),
      std::string("MemTotal:\0 123 kB\n", 18),
      "\xff\xfe\xfd invalid utf-8 \xc3\x28\n",
      "MemTotal: 99999999999999999999999999 kB\nMemAvailable: -1 kB\n",
      "MemTotal: 18446744073709551615 kB\n",  // * 1024 overflows
      ":::::\n,,,,,\n\t\t\t\n",
      ", , , ,\n, , , ,\n",
      "index, name, memory.total [MiB]\n0, X, 18446744073709551615 MiB\n",
      "index, memory.total [MiB]\n-2147483649, 1\n99999999999999999999, 2\n",
      "GPU 0: (UUID: )\n  MIG : Device (UUID: MIG-)\nGPU 99999999999: x\n",
      "\x1b[4m\tGPU0\tGPU1\x1b[0m\nGPU0\t X \tNV999999999999\t0-3\t0\nGPU1\n",
      "processor : 0\nCPU implementer : 0xffffffffffffffffff\nCPU part : 0x\n",
      "0x\n",
      "0xffffffffffffffffffff\n",
      "-0x1\n",
      "DRIVER=\nPCI_ID=zzzz:\nPCI_SLOT_NAME=ffffffff:ff:ff.f\n",
      "gfx_target_version 4294967296\nsimd_count 18446744073709551616\nsize_in_bytes 1e9\n",
      "Model: \nGPU UUID: GPU-????\nBus Location: \n",
      "0,,GPU-,MIG-,-1,01,4294967296",
      "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
  };
  texts.push_back(std::string(1 << 20, 'x'));                           // 1 MiB, one line
  texts.push_back("MemTotal: " + std::string(100'000, '9') + " kB\n");  // a huge number
  std::string many_lines;
  for (int i = 0; i < 20'000; ++i) many_lines += "GPU" + std::to_string(i) + "\t X\n";
  texts.push_back(many_lines);
  return texts;
}

// The runtimes' numbering rules read environment values (cuda_visible.h, rocm_visible.h).
void visible_devices_rules(const std::string& text) {
  std::vector<CudaGpu> gpus(2);
  gpus[0] = {"0000:01:00.0", "GPU-0", 900, true, {{"MIG-0", 1, 0}}};
  gpus[1] = {"0000:02:00.0", "GPU-1", 900, false, {}};
  (void)cuda_enumerate(gpus, text, text);
  (void)cuda_speed_key(text);
  (void)rocm_enumerate({"GPU-a", ""}, text, text, text);
}

TEST(ParserTotality, EveryParserAnswersHostileText) {
  for (const std::string& text : hostile_texts()) {
    SCOPED_TRACE(text.substr(0, 60));
    EXPECT_NO_THROW({
      (void)parse_proc_meminfo(text);
      (void)parse_proc_cpuinfo(text);
      auto table = parse_nvidia_smi_csv(text);
      for (const auto& row : table.rows)
        for (std::size_t i = 0; i < row.size(); ++i)
          (void)parse_memory_bytes(row[i], i < table.units.size() ? table.units[i] : "");
      (void)parse_nvidia_smi_gpu_query(text);
      (void)normalise_pci_bus_id(text);
      (void)compute_class_from_cap(text);
      (void)known_nvidia_smi_error(text);
      (void)classify_nvidia_smi_failure(text, 255);
      (void)rejected_query_fields(text);
      (void)parse_sysfs_hex(text);
      (void)parse_sysfs_numa_node(text);
      (void)parse_nvidia_smi_list(text);
      (void)mig_profile_memory_bytes(text);
      (void)parse_nvidia_smi_topo(text);
      (void)parse_nvidia_gpu_information(text);
      (void)parse_nvidia_numa_status(text);
      (void)parse_nvidia_smi_q(text);
      (void)parse_nvidia_smi_nvlink(text);
      (void)parse_node_meminfo(text);
      (void)parse_cuda_visible_devices(text);
      visible_devices_rules(text);
      (void)parse_sysfs_bytes(text);
      (void)parse_drm_device_uevent(text);
      (void)normalize_pci_address(text);
      (void)parse_pci_address(text);
      (void)link_basename(text);
      (void)parse_partition_mode(text);
      auto node = parse_kfd_node_properties(text);
      if (node.gfx_target_version) (void)gfx_target_name(*node.gfx_target_version);
      (void)parse_kfd_mem_bank_size(text);
      (void)parse_pcie_link_speed(text);
      (void)parse_pcie_link_width(text);
      (void)parse_ib_port_state(text);
      (void)parse_ib_rate(text);
      (void)pci_address_from_link(text);
      (void)parse_block_size_bytes(text);
      (void)parse_rotational(text);
      (void)parse_proc1_cgroup(text);
      (void)cpuinfo_hypervisor_flag(text);
      (void)parse_data_size(text);
      (void)detection_from_json_text(text);
      (void)parse_vulkaninfo_summary(text);
      (void)known_vulkaninfo_error(text);
      (void)vulkan_api_version_text(text);
      (void)vulkan_driver_version_text(text, 0x10de);
      (void)parse_vulkan_uuid(text);
      (void)parse_sp_displays_json(text);
      (void)metal_family_text(text);
      (void)parse_sysctl_u64(text);
      (void)apple_soc_name(text);
      (void)parse_xpu_smi_discovery(text);
      (void)without_trademarks(text);
      Snapshot snapshot;
      (void)parse_snapshot(text, "hostile.yaml", snapshot);
    });
  }
}

// Found by the hostile sample above and by saved_detection_fuzz (its input,
// shortened, is the last text): nlohmann::json::parse throws out_of_range (not
// parse_error) on a number beyond double, and detection_from_json_text caught
// parse_error only, so `hwaccel devices --from saved.json` ended in
// std::terminate. Fixed by catching json::exception; kept as a regression test.
TEST(ParserTotality, SavedDetectionNumberOverflowIsAnError) {
  for (const char* text : {"{\"devices\": [{\"memory\": {\"total_bytes\": -1e400}}]}", "1e400",
                           "[1e999]", "{\"backends\": [{\"devices\": 1026251e1696}]}"}) {
    SCOPED_TRACE(text);
    SavedDetection saved;
    EXPECT_NO_THROW(saved = detection_from_json_text(text));
    EXPECT_FALSE(saved.detection);
    EXPECT_FALSE(saved.error.empty());
  }
}

}  // namespace
}  // namespace hwaccel
