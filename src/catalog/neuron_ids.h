// AWS Neuron devices (PCI vendor 0x1d0f, Amazon): device id or instance family
// -> generation, NeuronCores and device memory.
//
// Device ids: aws-neuron/aws-neuron-driver neuron_device.h (INF1_DEVICE_ID0-3
// 0x7064-0x7067, TRN1_DEVICE_ID0 0x7164, INF2_DEVICE_ID0 0x7264, TRN2_DEVICE_ID0
// 0x7364). Amazon's vendor id is also that of every ENA NIC and EBS NVMe function
// on EC2, so only these ids count.
// Cores and memory per device: the Neuron architecture docs (Inferentia: 4
// NeuronCores-v1, 8 GiB; Inferentia2 and Trainium: 2 NeuronCores-v2, 32 GiB, which
// neuron-ls reports as nc_count 2, memory_size 34359738368 on trn1.2xlarge;
// Trainium2: 8 NeuronCores-v3, 96 GiB, which neuron-ls reports as nc_count 4 with
// logical_neuroncore_config 2 and memory_size 103079215104 on trn2.48xlarge).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace hwaccel {

inline constexpr std::uint16_t kAmazonPciVendor = 0x1d0f;

struct NeuronGeneration {
  std::string_view name;           // "AWS Inferentia2"
  std::string_view compute_class;  // "neuroncore_v2"
  int cores = 0;                   // physical NeuronCores per device
  std::uint64_t memory_gib = 0;    // device memory
};

std::optional<NeuronGeneration> neuron_generation_of_pci(std::uint16_t device_id);
// From an EC2 instance type as DMI or neuron-ls give it: "inf2.48xlarge",
// "trn1n.32xlarge", "trn2u.48xlarge" -> its family's device.
std::optional<NeuronGeneration> neuron_generation_of_instance(std::string_view instance_type);

}  // namespace hwaccel
