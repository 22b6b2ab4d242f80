#include "src/probe/neuron_ls_json.h"

#include <gtest/gtest.h>

#include "src/catalog/neuron_ids.h"

namespace hwaccel {
namespace {

// Verbatim neuron-ls --json-output from a trn1.2xlarge (published with a Neuron
// monitoring plugin's tests), no trailing newline as the tool prints it.
constexpr const char* kTrn1 = R"([
    {
        "neuron_device": 0,
        "bdf": "0000:00:1e.0",
        "cpu_affinity": "0-7",
        "numa_node": "-1",
        "connected_to": null,
        "nc_count": 2,
        "memory_size": 34359738368,
        "neuroncore_ids": [
            0,
            1
        ],
        "neuron_processes": []
    }
])";

// The trn2.48xlarge shape: instance fields, LNC, neighbours, processes.
constexpr const char* kTrn2 =
    R"([{"instance_type": "trn2.48xlarge", "instance_id": "i-0dcf246b9a7d5f066",
  "neuron_device": 0, "bdf": "0000:e1:00.0", "cpu_affinity": "48-95,144-191", "numa_node": "1",
  "connected_to": [12, 1, 9, 14], "nc_count": 4, "logical_neuroncore_config": 2,
  "memory_size": 103079215104, "neuroncore_ids": [0, 1, 2, 3],
  "neuron_processes": [{"pid": 1966680, "command": "", "neuron_runtime_version": "2.34.10"}]}])";

TEST(NeuronLsJson, ReadsTrn1) {
  auto out = parse_neuron_ls_json(kTrn1);
  ASSERT_TRUE(out.parsed);
  ASSERT_EQ(out.devices.size(), 1u);
  const auto& d = out.devices[0];
  EXPECT_EQ(d.index, 0);
  EXPECT_EQ(d.bdf, "0000:00:1e.0");
  EXPECT_EQ(d.nc_count, 2);
  EXPECT_EQ(d.memory_bytes, 34359738368ull);
  EXPECT_FALSE(d.numa_node);  // "-1"
  EXPECT_EQ(d.cpu_affinity, "0-7");
  EXPECT_TRUE(d.connected_to.empty());
  EXPECT_TRUE(out.problems.empty());
}

TEST(NeuronLsJson, ReadsTrn2WithNeighboursAndLogicalCores) {
  auto out = parse_neuron_ls_json(kTrn2);
  ASSERT_EQ(out.devices.size(), 1u);
  const auto& d = out.devices[0];
  EXPECT_EQ(d.numa_node, 1);
  EXPECT_EQ(d.logical_nc_config, 2);
  EXPECT_EQ(d.instance_type, "trn2.48xlarge");
  EXPECT_EQ(d.connected_to, (std::vector<int>{12, 1, 9, 14}));
}

TEST(NeuronLsJson, OldToolsPrintTheBdfWithoutDomain) {
  auto out = parse_neuron_ls_json(R"([{"neuron_device": 3, "bdf": "00:1f.0", "nc_count": 2}])");
  ASSERT_EQ(out.devices.size(), 1u);
  EXPECT_EQ(out.devices[0].bdf, "0000:00:1f.0");
  EXPECT_FALSE(out.devices[0].memory_bytes);
}

TEST(NeuronLsJson, MistypedFieldsAreUnknownAndSaidSo) {
  auto out = parse_neuron_ls_json(
      R"([{"neuron_device": "zero", "nc_count": -2, "memory_size": "32G", "bdf": 7}, 5])");
  ASSERT_EQ(out.devices.size(), 1u);
  EXPECT_FALSE(out.devices[0].index);
  EXPECT_FALSE(out.devices[0].nc_count);
  EXPECT_FALSE(out.devices[0].memory_bytes);
  EXPECT_EQ(out.devices[0].bdf, "");
  EXPECT_GE(out.problems.size(), 3u);
}

TEST(NeuronLsJson, NotJsonOrTruncated) {
  EXPECT_FALSE(parse_neuron_ls_json("").parsed);
  EXPECT_FALSE(parse_neuron_ls_json("+--------+--------+\n| NEURON |").parsed);
  EXPECT_FALSE(parse_neuron_ls_json(std::string(kTrn1).substr(0, 120)).parsed);
  EXPECT_FALSE(parse_neuron_ls_json(R"({"neuron_device": 0})").parsed);  // not an array
  auto empty = parse_neuron_ls_json("[]");
  EXPECT_TRUE(empty.parsed);
  EXPECT_TRUE(empty.devices.empty());
}

TEST(NeuronLsJson, TheNoDriverMessage) {
  EXPECT_TRUE(is_neuron_no_driver_message(
      "level=fatal msg=\"Failed to load MLA system information\" error=\"failed to discover "
      "Neuron devices\"\n"));
  EXPECT_FALSE(is_neuron_no_driver_message("permission denied"));
}

TEST(NeuronIds, DeviceIdsAndInstanceFamilies) {
  EXPECT_EQ(neuron_generation_of_pci(0x7264)->name, "AWS Inferentia2");
  EXPECT_EQ(neuron_generation_of_pci(0x7164)->name, "AWS Trainium");
  EXPECT_EQ(neuron_generation_of_pci(0x7364)->cores, 8);
  EXPECT_EQ(neuron_generation_of_pci(0x7066)->memory_gib, 8u);
  EXPECT_FALSE(neuron_generation_of_pci(0xec20));  // ENA
  EXPECT_FALSE(neuron_generation_of_pci(0x8061));  // EBS NVMe
  EXPECT_EQ(neuron_generation_of_instance("inf2.48xlarge")->name, "AWS Inferentia2");
  EXPECT_EQ(neuron_generation_of_instance("trn1n.32xlarge")->name, "AWS Trainium");
  EXPECT_EQ(neuron_generation_of_instance(" TRN2.48xlarge\n")->name, "AWS Trainium2");
  EXPECT_FALSE(neuron_generation_of_instance("p5.48xlarge"));
  EXPECT_FALSE(neuron_generation_of_instance("Google Compute Engine"));
}

}  // namespace
}  // namespace hwaccel
