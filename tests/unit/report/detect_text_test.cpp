#include "src/report/detect_text.h"

#include <gtest/gtest.h>

namespace hwaccel {
namespace {

Entry gpu(int index, std::string physical_id) {
  Entry e;
  e.backend = "cuda";
  e.api = "nvidia-smi";
  e.index = index;
  e.physical_id = std::move(physical_id);
  e.name = "GPU";
  e.type = DeviceType::gpu;
  return e;
}

Detection three_gpus_all_nvlink() {
  Detection d;
  d.backends.push_back({"cuda", true, std::nullopt});
  for (int i = 0; i < 3; ++i) {
    Entry e = gpu(i, "pci:0000:0" + std::to_string(i) + ":00.0");
    e.numa_node = i;
    e.cpu_affinity = "0-7";
    e.memory.source = "nvidia-smi";
    if (i == 0) e.ordinal = 0, e.uuid = "GPU-0aaa";
    d.entries.push_back(e);
  }
  const std::string s = "tool:nvidia-smi topo -m";
  d.links = {{"pci:0000:00:00.0", "pci:0000:01:00.0", "nvlink", 18, "", s},
             {"pci:0000:00:00.0", "pci:0000:02:00.0", "nvlink", 18, "", s},
             {"pci:0000:01:00.0", "pci:0000:02:00.0", "nvlink", 18, "", s}};
  return d;
}

TEST(DetectText, PlainOutputHasNoDetailsOrTopology) {
  auto text = render_detect_text(three_gpus_all_nvlink());
  EXPECT_EQ(text.find("PHYSICAL ID"), std::string::npos);
  EXPECT_EQ(text.find("topology"), std::string::npos);
}

TEST(DetectText, VerboseAddsDetailsMatrixAndNvswitchNote) {
  auto text = render_detect_text(three_gpus_all_nvlink(), {true});
  EXPECT_NE(text.find("DEVICE  ORDINAL  UUID      PHYSICAL ID       NUMA  CPUS  PARTITION  PCIE  "
                      "MEMORY FROM\n"
                      "cuda:0  0        GPU-0aaa  pci:0000:00:00.0  0     0-7   -          -     "
                      "nvidia-smi\n"
                      "cuda:1  -        -         pci:0000:01:00.0  1     0-7   -          -     "
                      "nvidia-smi\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("topology (tool:nvidia-smi topo -m):\n"
                      "        cuda:0  cuda:1  cuda:2\n"
                      "cuda:0  X       NV18    NV18\n"
                      "cuda:1  NV18    X       NV18\n"
                      "cuda:2  NV18    NV18    X\n"
                      "all 3 GPUs are linked pairwise by NVLink (NV18 each): an NVSwitch system\n"),
            std::string::npos)
      << text;
}

TEST(DetectText, PcieLinksHaveNoNvswitchNote) {
  auto d = three_gpus_all_nvlink();
  d.links[2] = {"pci:0000:01:00.0",       "pci:0000:02:00.0", "pcie", 0, "SYS",
                "tool:nvidia-smi topo -m"};
  auto text = render_detect_text(d, {true});
  EXPECT_NE(text.find("cuda:1  NV18    X       SYS\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("NVSwitch"), std::string::npos);
}

TEST(DetectText, MigParentAndInstances) {
  Detection d;
  d.backends.push_back({"cuda", true, std::nullopt});
  Entry parent = gpu(0, "pci:0000:00:09.0");
  parent.partitioned = true;
  d.entries.push_back(parent);
  for (int n = 0; n < 2; ++n) {
    Entry mig = gpu(1 + n, "mig:0000:00:09.0/" + std::to_string(n));
    mig.partition = Partition{"1g.10gb", "pci:0000:00:09.0", 0, {}, {}};
    mig.uuid = "MIG-" + std::to_string(n);
    if (n == 0) mig.ordinal = 0;  // CUDA shows one MIG device
    d.entries.push_back(mig);
  }
  auto text = render_detect_text(d, {true});
  EXPECT_NE(text.find("cuda:0  -        -      pci:0000:00:09.0    -     -     split into cuda:1 "
                      "cuda:2"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("cuda:1  0        MIG-0  mig:0000:00:09.0/0  -     -     1g.10gb of cuda:0"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("cuda:2  -        MIG-1  mig:0000:00:09.0/1  -     -     1g.10gb of cuda:0"),
            std::string::npos)
      << text;
}

}  // namespace
}  // namespace hwaccel
