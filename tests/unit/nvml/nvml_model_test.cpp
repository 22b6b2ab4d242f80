// The model libnvidia-ml answers from: the tables (driver -> CUDA version,
// compute capability -> architecture, name -> brand), the NVLink layout, and
// models of fixture hosts built through the snapshot Host.
#include "nvml/nvml_model.h"

#include <gtest/gtest.h>

#include "src/host/snapshot_host.h"
#include "tests/support/test_support.h"

namespace hwaccel::nvml {
namespace {

Model model_of(const std::string& fixture) {
  auto loaded = load_snapshot_file(testing::source_path("fixtures/hosts/" + fixture + ".yaml"));
  EXPECT_TRUE(loaded.snapshot) << fixture;
  SnapshotHost host(std::move(*loaded.snapshot));
  return build_model(host);
}

TEST(NvmlModel, CudaVersionFollowsTheDriverBranch) {
  EXPECT_EQ(cuda_version_of_driver("550.54.15"), 12040);
  EXPECT_EQ(cuda_version_of_driver("535.129.03"), 12020);
  EXPECT_EQ(cuda_version_of_driver("580.95.05"), 13000);
  EXPECT_EQ(cuda_version_of_driver("590.48.01"), 13010);
  EXPECT_EQ(cuda_version_of_driver("551.61"), 12040);  // a point branch: its major's
  EXPECT_EQ(cuda_version_of_driver("390.157"), std::nullopt);
  EXPECT_EQ(cuda_version_of_driver(""), std::nullopt);
  EXPECT_EQ(cuda_version_of_driver("not a version"), std::nullopt);
}

TEST(NvmlModel, NvmlVersionIsCudaMajorDotDriver) {
  Model m;
  m.driver_version = "550.54.15";
  m.cuda_driver_version = 12040;
  EXPECT_EQ(nvml_version_of(m), "12.550.54.15");
}

TEST(NvmlModel, ArchitectureFromComputeCapability) {
  auto arch = [](int major, int minor) {
    Gpu g;
    g.cc_major = major;
    g.cc_minor = minor;
    return architecture_of(g);
  };
  EXPECT_EQ(arch(7, 0), NVML_DEVICE_ARCH_VOLTA);
  EXPECT_EQ(arch(7, 5), NVML_DEVICE_ARCH_TURING);
  EXPECT_EQ(arch(8, 0), NVML_DEVICE_ARCH_AMPERE);
  EXPECT_EQ(arch(8, 9), NVML_DEVICE_ARCH_ADA);
  EXPECT_EQ(arch(9, 0), NVML_DEVICE_ARCH_HOPPER);
  EXPECT_EQ(arch(12, 1), NVML_DEVICE_ARCH_BLACKWELL);  // GB10
  EXPECT_EQ(architecture_of(Gpu{}), NVML_DEVICE_ARCH_UNKNOWN);
}

TEST(NvmlModel, BrandFromName) {
  auto brand = [](const char* name) {
    Gpu g;
    g.name = name;
    return brand_of(g);
  };
  EXPECT_EQ(brand("NVIDIA GeForce RTX 4090"), NVML_BRAND_GEFORCE);
  EXPECT_EQ(brand("NVIDIA H100 80GB HBM3"), NVML_BRAND_NVIDIA);
  EXPECT_EQ(brand("NVIDIA RTX 6000 Ada Generation"), NVML_BRAND_NVIDIA_RTX);
  EXPECT_EQ(brand("Tesla V100-SXM2-32GB"), NVML_BRAND_TESLA);
}

TEST(NvmlModel, DirectNvLinksGoToPeersInOrder) {
  Model m;
  m.gpus.resize(3);
  std::map<std::string, std::size_t> ids = {{"pci:a", 0}, {"pci:b", 1}, {"pci:c", 2}};
  lay_out_nvlinks({{"pci:a", "pci:c", "nvlink", 2, "", ""},
                   {"pci:a", "pci:b", "nvlink", 4, "", ""},
                   {"pci:b", "pci:c", "pcie", 0, "PXB", ""}},
                  ids, m);
  ASSERT_EQ(m.gpus[0].nvlinks.size(), 6u);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(m.gpus[0].nvlinks[i].remote, 1u);
  EXPECT_EQ(m.gpus[0].nvlinks[4].remote, 2u);
  EXPECT_FALSE(m.gpus[0].nvlinks[5].to_switch);
  EXPECT_EQ(m.gpus[2].nvlinks.size(), 2u);
  EXPECT_EQ((m.pcie_paths[{2, 1}]), "PXB");
}

TEST(NvmlModel, MoreLanesThanLinksIsASwitchFabric) {
  Model m;
  m.gpus.resize(3);
  std::map<std::string, std::size_t> ids = {{"pci:a", 0}, {"pci:b", 1}, {"pci:c", 2}};
  lay_out_nvlinks({{"pci:a", "pci:b", "nvlink", 18, "", ""},
                   {"pci:a", "pci:c", "nvlink", 18, "", ""},
                   {"pci:b", "pci:c", "nvlink", 999999, "", ""}},  // hostile: still 18 links
                  ids, m);
  ASSERT_EQ(m.gpus[0].nvlinks.size(), 18u);
  EXPECT_TRUE(m.gpus[0].nvlinks[17].to_switch);
  EXPECT_EQ(m.gpus[1].nvlinks.size(), 18u);
}

TEST(NvmlModel, DgxH100HasEightGpusOnAnNvSwitchFabric) {
  Model m = model_of("dgx-h100");
  ASSERT_EQ(m.init_result, NVML_SUCCESS);
  ASSERT_EQ(m.whole_gpus, 8u);
  EXPECT_EQ(m.driver_version, "550.54.15");
  EXPECT_EQ(m.gpus[0].bus_id, "0000:1b:00.0");
  EXPECT_EQ(m.gpus[4].numa_node, 1);
  EXPECT_EQ(m.gpus[0].nvlinks.size(), 18u);
  EXPECT_FALSE(m.gpus[0].cpus.empty());
  EXPECT_EQ(m.gpus[0].cpus.front(), 0u);
}

TEST(NvmlModel, MigInstancesHangOffTheirGpu) {
  Model m = model_of("h100-mig");
  ASSERT_EQ(m.whole_gpus, 1u);
  const Gpu& gpu = m.gpus[0];
  EXPECT_TRUE(gpu.mig_enabled);
  ASSERT_EQ(gpu.mig_devices.size(), 4u);
  const Gpu& first = m.gpus[gpu.mig_devices[0]];
  EXPECT_TRUE(first.is_mig);
  EXPECT_EQ(first.mig_profile, "3g.40gb");
  EXPECT_EQ(first.uuid, "MIG-00000000-0000-0000-0000-000000000000");
  EXPECT_EQ(first.parent, 0u);
}

// The H100's profile table and the partition tree's slots (the real -lgi of an
// A100: GPU instance 13 at 6:1, 5 at 4:2, 1 at 0:4).
TEST(NvmlModel, MigPlacementsAndCapacity) {
  const MigTable* table = mig_table_for("NVIDIA H100 80GB HBM3", 81559ull << 20);
  ASSERT_NE(table, nullptr);
  const MigTable* nvl = mig_table_for("NVIDIA H100 NVL", 95830ull << 20);  // a table of its own
  ASSERT_NE(nvl, nullptr);
  EXPECT_STREQ(nvl->family, "H100 NVL");
  EXPECT_EQ(mig_table_for("NVIDIA H100 80GB HBM3", 95830ull << 20), nullptr);
  const GiProfile* one = gi_profile_by_id(*table, 19);
  const GiProfile* three = gi_profile_by_name(*table, "MIG 3g.40gb");
  ASSERT_TRUE(one && three);
  EXPECT_EQ(gi_profile_by_name(*table, "1c.3g.40gb"), three);
  auto at = [&](const GiProfile& p, unsigned id) {
    auto place = placement_of_instance(*table, p, id);
    return place ? std::to_string(place->start) + ":" + std::to_string(place->size) : "none";
  };
  EXPECT_EQ(at(*one, 13), "6:1");
  EXPECT_EQ(at(*gi_profile_by_id(*table, 14), 5), "4:2");
  EXPECT_EQ(at(*gi_profile_by_id(*table, 5), 1), "0:4");
  EXPECT_EQ(at(*three, 2), "4:4");
  EXPECT_EQ(at(*three, 9), "none");  // an eighth's slot is no 3g's
  EXPECT_EQ(at(*one, 14), "none");   // 7:1: a 1g never starts at the last slice
  EXPECT_EQ(remaining_capacity(*one, {}, 0), 7u);
  EXPECT_EQ(remaining_capacity(*three, {}, 0), 2u);
  EXPECT_EQ(remaining_capacity(*one, {{4, 4}}, 0), 4u);
  EXPECT_EQ(remaining_capacity(*three, {{4, 4}}, 1), 1u);
  EXPECT_EQ(remaining_capacity(*gi_profile_by_id(*table, 0), {{2, 1}}, 0), 0u);
  // An A30's 4 memory slices, numbered the same way (two public A30 -lgi: GPU
  // instances 3 to 6 at 0:1 to 3:1; 3 at 0:1, 4 at 1:1, 2 at 2:2).
  const MigTable* a30 = mig_table_for("NVIDIA A30", 24576ull << 20);
  ASSERT_NE(a30, nullptr);
  auto at30 = [&](unsigned profile_id, unsigned id) {
    auto place = placement_of_instance(*a30, *gi_profile_by_id(*a30, profile_id), id);
    return place ? std::to_string(place->start) + ":" + std::to_string(place->size) : "none";
  };
  EXPECT_EQ(at30(14, 3), "0:1");
  EXPECT_EQ(at30(14, 4), "1:1");
  EXPECT_EQ(at30(14, 6), "3:1");
  EXPECT_EQ(at30(5, 2), "2:2");
  EXPECT_EQ(at30(0, 0), "0:4");
  EXPECT_EQ(at30(14, 7), "none");  // no eighths on 4 slices
  EXPECT_EQ(remaining_capacity(*gi_profile_by_id(*a30, 14), {{2, 2}}, 0), 2u);
}

TEST(NvmlModel, H100MigDevicesAreGpuAndComputeInstances) {
  Model m = model_of("h100-mig");
  ASSERT_NE(m.gpus[0].mig_table, nullptr);
  ASSERT_EQ(m.gpu_instances.size(), 4u);
  ASSERT_EQ(m.compute_instances.size(), 4u);
  EXPECT_EQ(m.gpu_instances[0].id, 2u);
  EXPECT_STREQ(m.gpu_instances[0].profile->name, "3g.40gb");
  EXPECT_EQ(m.compute_instances[0].profile_index, 2u);  // 3_SLICE
  EXPECT_EQ(m.compute_instances[0].device, m.gpus[0].mig_devices[0]);
  EXPECT_EQ(m.gpus[0].memory_reserved, 479ull << 20);  // -q's FB Reserved
}

// With the NVSwitches on the bus, a GPU's 18 links end at them, spread in bus
// order; without -q, the reserved memory is what the query leaves.
TEST(NvmlModel, SwitchLinksEndAtTheSwitchesOnTheBus) {
  auto loaded = load_snapshot_file(testing::source_path("fixtures/hosts/dgx-h100.yaml"));
  ASSERT_TRUE(loaded.snapshot);
  Snapshot& s = *loaded.snapshot;
  for (const char* sw : {"0000:05:00.0", "0000:06:00.0", "0000:07:00.0", "0000:08:00.0"}) {
    const std::string dir = std::string("/sys/bus/pci/devices/") + sw;
    s.files[dir + "/vendor"] = FileEntry::of_content("0x10de\n");
    s.files[dir + "/device"] = FileEntry::of_content("0x22a3\n");
    s.files[dir + "/class"] = FileEntry::of_content("0x068000\n");
  }
  SnapshotHost host(std::move(s));
  Model m = build_model(host);
  ASSERT_EQ(m.switches.size(), 4u);
  EXPECT_EQ(m.switches[0].bus_id, "0000:05:00.0");
  EXPECT_EQ(m.switches[0].pci_device, 0x22a3);
  const auto& links = m.gpus[0].nvlinks;
  ASSERT_EQ(links.size(), 18u);
  std::vector<int> per_switch(4);
  for (const auto& l : links) {
    ASSERT_TRUE(l.to_switch);
    ASSERT_LT(l.remote, 4u);
    ++per_switch[l.remote];
  }
  EXPECT_EQ(per_switch, (std::vector<int>{5, 4, 5, 4}));
  EXPECT_EQ(m.gpus[0].memory_reserved, 552ull << 20);  // 81559 - 0 used - 81007 free MiB
}

// What nvmlInit waits under hwsim run --latency: the quickest recorded nvidia-smi run
// (the H200's query and addressing query, 23 ms; -L 24), nothing without any ms.
TEST(NvmlModel, InitLatencyIsTheQuickestRecordedNvidiaSmiRun) {
  for (auto [fixture, ms] : {std::pair{"h200-firecracker", 23}, std::pair{"dgx-h100", 0}}) {
    auto loaded = load_snapshot_file(
        testing::source_path(std::string("fixtures/hosts/") + fixture + ".yaml"));
    ASSERT_TRUE(loaded.snapshot);
    EXPECT_EQ(init_latency_ms(*loaded.snapshot), ms) << fixture;
    ToolEntry helper;
    helper.argv = {"hwaccel-nvml"};
    helper.run.ms = 7;
    helper.has_ms = true;
    loaded.snapshot->tools[helper.argv] = helper;  // a recorded helper run says it best
    EXPECT_EQ(init_latency_ms(*loaded.snapshot), 7) << fixture;
  }
}

TEST(NvmlModel, Gb10MemoryIsUnified) {
  Model m = model_of("gx10");
  ASSERT_EQ(m.whole_gpus, 1u);
  EXPECT_TRUE(m.gpus[0].unified_memory);
  EXPECT_EQ(m.gpus[0].cc_major, 12);
}

TEST(NvmlModel, BrokenDriversFailInitAsNvmlDoes) {
  EXPECT_EQ(model_of("nvidia-no-driver").init_result, NVML_ERROR_DRIVER_NOT_LOADED);
  EXPECT_EQ(model_of("nvidia-mismatch").init_result, NVML_ERROR_LIB_RM_VERSION_MISMATCH);
  EXPECT_EQ(model_of("cpu-only").init_result, NVML_ERROR_DRIVER_NOT_LOADED);
  EXPECT_NE(model_of("nvidia-mismatch").why.find("version mismatch"), std::string::npos);
}

TEST(NvmlModel, AddressingModeFromTheRecordedQuery) {
  Model gh200 = model_of("gh200");
  ASSERT_EQ(gh200.whole_gpus, 1u);
  EXPECT_EQ(gh200.gpus[0].addressing_mode, NVML_DEVICE_ADDRESSING_MODE_ATS);
  Model mig = model_of("h100-mig");
  EXPECT_EQ(mig.gpus[0].addressing_mode, NVML_DEVICE_ADDRESSING_MODE_NONE);
  EXPECT_EQ(model_of("dgx-h100").gpus[0].addressing_mode, std::nullopt);  // driver 550
}

}  // namespace
}  // namespace hwaccel::nvml
