// neuron-ls --json-output (and --output-format json on newer tools): a JSON array,
// one object per Neuron device. Real shapes, from captures in public projects:
//
//   trn1.2xlarge:  {"neuron_device": 0, "bdf": "0000:00:1e.0", "cpu_affinity": "0-7",
//                   "numa_node": "-1", "connected_to": null, "nc_count": 2,
//                   "memory_size": 34359738368, "neuroncore_ids": [0, 1],
//                   "neuron_processes": []}
//   trn2.48xlarge: adds "instance_type", "instance_id" and
//                  "logical_neuroncore_config": 2; "connected_to": [12, 1, 9, 14]
//   older tools:   "bdf": "00:1e.0" (no PCI domain)
//
// numa_node is a string, memory_size bare bytes, connected_to null on a single
// device. Every field is optional here: a missing or mistyped one is unknown, and
// said so in `problems`, never a throw.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hwaccel {

struct NeuronLsDevice {
  std::optional<int> index;              // neuron_device
  std::string bdf;                       // normalised "0000:00:1e.0"; "" when unknown
  std::optional<int> nc_count;           // NeuronCores as the runtime counts them
  std::optional<int> logical_nc_config;  // logical_neuroncore_config (Trainium2: 2)
  std::optional<std::uint64_t> memory_bytes;
  std::optional<int> numa_node;   // "-1" gives nullopt
  std::string cpu_affinity;       // "48-95,144-191"
  std::vector<int> connected_to;  // neighbours by neuron_device
  std::string instance_type;      // "trn2.48xlarge"; "" when not printed
};

struct NeuronLsOutput {
  bool parsed = false;  // the text was a JSON array
  std::vector<NeuronLsDevice> devices;
  std::vector<std::string> problems;
};

NeuronLsOutput parse_neuron_ls_json(std::string_view text);

// The no-driver failure, as real captures show it on stderr:
// level=fatal msg="Failed to load MLA system information" error="failed to discover Neuron devices"
bool is_neuron_no_driver_message(std::string_view text);

}  // namespace hwaccel
