// The catalogue's NVIDIA PCI table (src/catalog/nvidia_pci_ids), tested beside
// the probe that uses it.
#include "src/catalog/nvidia_pci_ids.h"

#include <gtest/gtest.h>

#include "src/probe/nvidia_gpu_information.h"

namespace hwaccel {
namespace {

TEST(NvidiaPciIds, KnownAndUnknownIds) {
  EXPECT_EQ(nvidia_pci_device_name(0x2330), "NVIDIA H100 SXM5 80GB");
  EXPECT_EQ(nvidia_pci_device_name(0x20b2), "NVIDIA A100 SXM4 80GB");
  EXPECT_EQ(nvidia_pci_device_name(0x2342), "NVIDIA GH200 480GB");
  EXPECT_EQ(nvidia_pci_device_name(0x2e12), "NVIDIA GB10");
  EXPECT_EQ(nvidia_pci_device_name(0x26b9), "NVIDIA L40S");
  EXPECT_EQ(nvidia_pci_device_name(0x1234), "NVIDIA device 0x1234");
  EXPECT_EQ(nvidia_pci_device_name(0x0001), "NVIDIA device 0x0001");
  EXPECT_FALSE(nvidia_pci_product_name(0x22a3));  // an NVSwitch, not a GPU
}

TEST(NvidiaGpuInformation, TheModuleFile) {
  auto info = parse_nvidia_gpu_information(
      "Model: \t\t NVIDIA GB10\nIRQ:   \t\t 134\n"
      "GPU UUID: \t GPU-e73ebcc4-f277-c4ab-62ef-80e072915837\n"
      "Bus Location: \t 000f:01:00.0\nDevice Minor: \t 0\n");
  EXPECT_EQ(info.model, "NVIDIA GB10");
  EXPECT_EQ(info.uuid, "GPU-e73ebcc4-f277-c4ab-62ef-80e072915837");
  EXPECT_EQ(info.bus_location, "000f:01:00.0");
  EXPECT_EQ(info.minor, 0u);  // /dev/nvidia0: what the device cgroup allows or denies
  EXPECT_FALSE(parse_nvidia_gpu_information("Device Minor: \t 255\n").minor);  // nvidiactl's
  // Before the GPU is initialised the module prints question marks.
  EXPECT_EQ(parse_nvidia_gpu_information("GPU UUID: \t GPU-\?\?\?\?\?\?\?\?-\?\?\?\?\n").uuid, "");
  EXPECT_EQ(parse_nvidia_gpu_information("garbage\n\xff").model, "");
}

}  // namespace
}  // namespace hwaccel
