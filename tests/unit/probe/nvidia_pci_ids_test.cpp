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

// pci.ids 2026.08.22's data-centre, workstation and GeForce 10+ parts, by id.
TEST(NvidiaPciIds, DataCentreWorkstationAndGeForceByPciId) {
  EXPECT_EQ(nvidia_pci_device_name(0x1b80), "NVIDIA GeForce GTX 1080");
  EXPECT_EQ(nvidia_pci_device_name(0x1db5), "NVIDIA Tesla V100 SXM2 32GB");
  EXPECT_EQ(nvidia_pci_device_name(0x2230), "NVIDIA RTX A6000");
  EXPECT_EQ(nvidia_pci_device_name(0x233b), "NVIDIA H200 NVL");
  EXPECT_EQ(nvidia_pci_device_name(0x2348), "NVIDIA GH200 144G HBM3e");
  EXPECT_EQ(nvidia_pci_device_name(0x26b1), "NVIDIA RTX 6000 Ada Generation");
  EXPECT_EQ(nvidia_pci_device_name(0x2901), "NVIDIA B200");
  EXPECT_EQ(nvidia_pci_device_name(0x2941), "NVIDIA HGX GB200");
  EXPECT_EQ(nvidia_pci_device_name(0x2b85), "NVIDIA GeForce RTX 5090");
  EXPECT_EQ(nvidia_pci_device_name(0x2bb5), "NVIDIA RTX PRO 6000 Blackwell Server Edition");
  // The earlier entries keep their names (the captures' and the catalogue's).
  EXPECT_EQ(nvidia_pci_device_name(0x2335), "NVIDIA H200");
  EXPECT_FALSE(nvidia_pci_product_name(0x1af1));  // the A100 NVSwitch
  EXPECT_FALSE(nvidia_pci_product_name(0x2900));  // "Reserved Dev ID A": no product
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
